// What a resolution says: its targets (repository declarations, external symbols by qualified
// name), its confidence and what the name turned out to be (a value, a type, a package), with
// the small vocabulary the resolver modules share to build one.
import type { Confidence, ReferenceKind, SymbolKind } from '@sextant/format';
import type { Role } from './file-model.ts';
import type { LibraryFound } from './library/library-types.ts';
import type { JType, TypeEnv } from './jvm-types.ts';
import type { Decl } from './symbol-table.ts';

/** A symbol outside the repository (JDK, libraries), known only by its qualified name. */
export interface ExternalTarget {
  qname: string;
  name: string;
  kind: SymbolKind;
  /** Java package of the type it is or belongs to (`java.util`). */
  pkg: string;
}

export interface Target {
  decl?: Decl;
  ext?: ExternalTarget;
}

export interface Resolution {
  targets: Target[];
  confidence: Confidence;
  kind: ReferenceKind;
  /** Static type of the expression's value. */
  value?: JType;
  /** The chosen method's type environment (its class's type arguments, its own inferred ones). */
  env?: TypeEnv;
  /** The name denotes a type (`Foo` in `Foo.bar()`). */
  denotes?: JType;
  /** The name denotes a package (`java` in `java.util.List`). */
  pkg?: string;
  /** Not a reference to any symbol (a package segment, an implicit `it`, an array's length). */
  ignored?: boolean;
  /** A call of a library member: the overloads it may be, for the parameter a lambda argument is passed to. */
  library?: LibraryFound[];
  /** The name is a Kotlin file's facade class (`PricingKt`): the path of that file, whose top-level declarations are its static members. */
  facade?: string;
}

export const ROLE_KINDS: Record<Role, ReferenceKind> = {
  call: 'call', new: 'new', read: 'read', write: 'write', type: 'type', inherit: 'inherit', import: 'import',
  qualifier: 'type', decorator: 'decorator', methodref: 'read', constructor: 'call',
};
export const VALUE_MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['field', 'property', 'enumMember']);
export const METHOD_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'function']);
export const UNRESOLVED: Resolution = { targets: [], confidence: 'candidate', kind: 'read' };

export interface Found {
  decl: Decl;
  env: TypeEnv;
}

export interface MemberLookup {
  found: Found[];
  /** First external supertype met on the way, which may declare the member instead. */
  ext?: string;
  /** A supertype could not be placed: the member may be declared where nobody can see. */
  unknown: boolean;
  /** Members the library models give the external supertypes (when the repository's types declare none). */
  library: LibraryFound[];
}

export interface TypeNameResult {
  types: JType[];
  /** Scope or import resolution placed the name (several types or a guess are not certain). */
  certain: boolean;
  pkg?: string;
}

export const TYPE_MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum']);

export function typed(type: JType, kind: ReferenceKind): Resolution {
  return { targets: targetOfType(type), confidence: 'resolved', kind, denotes: type };
}

/**
 * Candidates for a name several types could supply. Only repository declarations: an external
 * name guessed from a wildcard import (`java.util.concurrent.List`) may not exist at all, and a
 * symbol that does not exist must not appear in the index.
 */
export function candidateTargets(types: JType[]): Target[] {
  return types.flatMap((t) => (t.t === 'decl' ? [{ decl: t.decl }] : []));
}

export function targetOfType(type: JType): Target[] {
  if (type.t === 'decl' || type.t === 'var') return [{ decl: type.decl }];
  if (type.t === 'ext') return [{ ext: external(type.fqn, packageOf(type.fqn), 'class') }];
  return [];
}

export function external(qname: string, pkg: string, kind: SymbolKind): ExternalTarget {
  return { qname, name: qname.slice(qname.lastIndexOf('.') + 1), kind, pkg };
}

/** An external member, named `java.util.List#add` (Kotlin's own types: `kotlin.collections.List.size`). */
export function memberOfExternal(owner: string, name: string, kind: SymbolKind): ExternalTarget {
  const separator = owner.startsWith('kotlin.') ? '.' : '#';
  return { qname: `${owner}${separator}${name}`, name, kind, pkg: packageOf(owner) };
}

/** The Java package of a canonical name: the segments before the first capitalised one. */
export function packageOf(fqn: string): string {
  let pkg = packages.get(fqn);
  if (pkg === undefined) {
    pkg = computePackage(fqn);
    if (packages.size > 100_000) packages.clear();
    packages.set(fqn, pkg);
  }
  return pkg;
}

export const packages = new Map<string, string>();

function computePackage(fqn: string): string {
  const segments = fqn.split('.');
  const type = segments.findIndex((s) => /^[A-Z]/.test(s));
  return segments.slice(0, type > 0 ? type : Math.max(1, segments.length - 1)).join('.');
}

/** Members every object has (java.lang.Object's, kotlin.Any's). */
export const ROOT_MEMBERS = new Set(['equals', 'hashCode', 'toString', 'getClass', 'notify', 'notifyAll', 'wait', 'clone', 'finalize']);

/**
 * The external type that must declare a member the repository's types do not: the first external
 * supertype met, unless that is only the root class and the name is none of its members.
 */
export function externalOwner(lookup: MemberLookup, name: string): string | undefined {
  if (!lookup.ext) return undefined;
  return isRootType(lookup.ext) && !ROOT_MEMBERS.has(name) ? undefined : lookup.ext;
}

export function isRootType(fqn: string): boolean {
  return fqn === 'java.lang.Object' || fqn === 'kotlin.Any';
}
