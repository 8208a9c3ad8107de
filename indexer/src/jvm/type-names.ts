// Which type or package a written name denotes: type text, simple names through scopes and
// imports (single-type, on-demand, static, aliased, implicit), qualified names, import lines.
import type { ReferenceKind, SymbolKind } from '@sextant/format';
import { TYPE_KINDS, type RefEntry } from './file-model.ts';
import { jdkPackageDeclares } from './jvm-builtins.ts';
import type { JType } from './jvm-types.ts';
import type { Decl } from './symbol-table.ts';
import type { TypeText } from './type-text.ts';
import type { FileResolution } from './file-resolution.ts';
import { facadeIn } from './kotlin-interop.ts';
import { candidateTargets, external, externalOwner, memberOfExternal, ROLE_KINDS, TYPE_MEMBER_KINDS, typed, UNRESOLVED, type Resolution, type TypeNameResult } from './resolution.ts';

export function resolveParsedType(context: FileResolution, parsed: TypeText, scope: number, header?: Decl): JType | undefined {
  let type: JType | undefined;
  if (parsed.functional) {
    // `(A) -> B` is a kotlin.Function1<A, B> (kotlin.jvm.functions.Function1 to Java).
    const parts = parsed.params && parsed.result ? [...parsed.params, parsed.result] : undefined;
    type = { t: 'ext', fqn: parts ? `kotlin.Function${parts.length - 1}` : 'kotlin.Function', args: parts?.map((p) => resolveParsedType(context, p, scope, header) ?? ({ t: 'null' } as JType)) ?? [] };
  }
  else if (parsed.segments.length === 1 && context.rules.primitive(parsed.segments[0]!)) type = { t: 'prim', name: parsed.segments[0]! };
  else {
    const [first, ...rest] = parsed.segments;
    const named = context.typeName(first!, scope, header);
    // A guess (several wildcard imports could supply the name) is not a type to build on.
    if (named.types.length > 0 && (!named.certain || named.types.length > 1)) return undefined;
    let current: JType | undefined = named.types[0];
    let pkg = current ? undefined : named.pkg ?? first;
    for (const segment of rest) {
      if (current) {
        current = context.memberType(current, segment);
        if (!current) return undefined;
      } else {
        const fqn = `${pkg}.${segment}`;
        const decl = context.table.typesNamed(fqn, context.fd.module)[0];
        if (decl) current = { t: 'decl', decl, args: [] };
        else if (context.table.packageNames.has(fqn) || /^[a-z]/.test(segment)) pkg = fqn;
        else current = { t: 'ext', fqn, args: [] };
      }
    }
    type = current;
    if (type && parsed.args.length > 0 && (type.t === 'decl' || type.t === 'ext')) {
      const args = parsed.args.map((arg) => resolveParsedType(context, arg, scope, header) ?? ({ t: 'null' } as JType));
      type = { ...type, args };
    }
  }
  for (let i = 0; type && i < parsed.dims; i++) type = { t: 'array', of: type };
  return type;
}

export function computeTypeName(context: FileResolution, name: string, scope: number, header?: Decl): TypeNameResult {
  const file = context.fd.file;
  if (header?.typeParams) {
    const param = header.typeParams.find((p) => p.name === name);
    if (param) return { types: [{ t: 'var', decl: param }], certain: true };
  }
  for (let s = scope; s >= 0; s = file.scopes[s]!.parent) {
    const local = context.declared(s, name)?.filter((d) => TYPE_KINDS.has(d.kind) || d.kind === 'typeParameter' || d.kind === 'type');
    if (local?.length) return { types: [local[0]!.kind === 'typeParameter' ? { t: 'var', decl: local[0]! } : aliasOrType(context, local[0]!)], certain: true };
    const def = file.scopes[s]!.def;
    const owner = def >= 0 ? context.fd.decls[def]! : undefined;
    if (owner && TYPE_KINDS.has(owner.kind)) {
      if (owner.name === name && owner.def.name) return { types: [{ t: 'decl', decl: owner, args: [] }], certain: true };
      if (owner !== header) {
        const member = context.resolver.members({ t: 'decl', decl: owner, args: [] }, name, TYPE_MEMBER_KINDS).found[0];
        if (member) return { types: [{ t: 'decl', decl: member.decl, args: [] }], certain: true };
      }
    }
  }
  // Imports by name (Kotlin aliases included).
  for (const entry of file.imports) {
    if (entry.wildcard || entry.static && file.lang === 'java') continue;
    const last = entry.alias ?? entry.path.slice(entry.path.lastIndexOf('.') + 1);
    if (last !== name) continue;
    const decls = context.table.typesNamed(entry.path, context.fd.module);
    if (decls.length) return { types: [aliasOrType(context, decls[0]!)], certain: true };
    const alias = packageMember(context, entry.path, 'type');
    if (alias) return { types: [aliasOrType(context, alias)], certain: true };
    if (file.lang === 'kotlin' && /^[a-z]/.test(last) && !entry.alias) continue; // an imported function
    if (facadeIn(context, entry.path.slice(0, entry.path.lastIndexOf('.')), last)) continue; // a Kotlin file facade, no type
    return { types: [{ t: 'ext', fqn: entry.path, args: [] }], certain: true };
  }
  for (const entry of file.imports) {
    if (!entry.static || entry.wildcard || file.lang !== 'java' || !entry.path.endsWith(`.${name}`)) continue;
    const owner = context.resolveTypeText(entry.path.slice(0, entry.path.lastIndexOf('.')), -1);
    const nested = owner && context.memberType(owner, name);
    if (nested) return { types: [nested], certain: true };
  }
  // The file's own package (every module), top-level types and Kotlin type aliases.
  const samePackage = context.table.packages.get(file.pkg)?.get(name)?.filter((d) => TYPE_KINDS.has(d.kind) || d.kind === 'type');
  if (samePackage?.length) return { types: [aliasOrType(context, context.table.layout.prefer(samePackage, context.fd.module, (d) => d.file.path)[0]!)], certain: true };
  // Wildcard imports: repository packages and types first.
  const external: string[] = [];
  for (const entry of file.imports) {
    if (!entry.wildcard) continue;
    const decls = context.table.typesNamed(`${entry.path}.${name}`, context.fd.module);
    if (decls.length) return { types: [aliasOrType(context, decls[0]!)], certain: true };
    const alias = packageMember(context, `${entry.path}.${name}`, 'type');
    if (alias) return { types: [aliasOrType(context, alias)], certain: true };
    const owner = context.table.typesNamed(entry.path, context.fd.module)[0];
    if (owner) {
      const member = context.resolver.members({ t: 'decl', decl: owner, args: [] }, name, TYPE_MEMBER_KINDS).found[0];
      if (member) return { types: [{ t: 'decl', decl: member.decl, args: [] }], certain: true };
      continue;
    }
    if (!context.table.packages.has(entry.path)) external.push(entry.path);
  }
  const implicit = context.rules.implicitType(name);
  if (implicit) return { types: [context.resolver.typeByName(implicit, context.fd.module)], certain: true };
  if (context.table.packageNames.has(name)) return { types: [], pkg: name, certain: true };
  if (external.length > 0 && /^[A-Z]/.test(name)) {
    // Every wildcard package known and exactly one declaring the name: that one, whatever the language.
    const declares = external.map((p) => jdkPackageDeclares(p, name));
    if (!declares.includes(undefined) && declares.filter(Boolean).length === 1) {
      return { types: [{ t: 'ext', fqn: `${external[declares.indexOf(true)]}.${name}`, args: [] }], certain: true };
    }
    return { types: external.map((p) => ({ t: 'ext', fqn: `${p}.${name}`, args: [] })), certain: external.length === 1 && context.rules.wildcardPlacesForCertain };
  }
  return { types: [], certain: false };
}

/** A Kotlin type alias stands for the type it names; everything else for itself. */
function aliasOrType(context: FileResolution, decl: Decl): JType {
  if (decl.kind === 'type' && decl.def.type) {
    const target = context.resolver.file(context.resolver.declFile(decl)).resolveTypeText(decl.def.type, decl.def.scope);
    if (target) return target;
  }
  return { t: 'decl', decl, args: [] };
}

/** A top-level declaration by its qualified name (`com.example.fmt`), of a kind. */
function packageMember(context: FileResolution, qualified: string, what: 'type' | 'value' | 'function'): Decl | undefined {
  const dot = qualified.lastIndexOf('.');
  const decls = context.table.packages.get(qualified.slice(0, Math.max(0, dot)))?.get(qualified.slice(dot + 1));
  return decls?.find((d) => (what === 'type' ? d.kind === 'type' || TYPE_KINDS.has(d.kind) : what === 'function' ? d.kind === 'function' : d.kind === 'property'));
}

export function typeReference(context: FileResolution, ref: RefEntry, header?: Decl): Resolution {
  const kind = ROLE_KINDS[ref.role];
  if (ref.receiver >= 0) {
    const receiver = context.receiverOf(ref);
    if (receiver?.denotes) {
      const nested = context.memberType(receiver.denotes, ref.name);
      return nested ? typed(nested, kind) : { ...UNRESOLVED, kind };
    }
    if (receiver?.pkg !== undefined) return nameInPackage(context, receiver.pkg, ref.name, kind);
    return { ...UNRESOLVED, kind };
  }
  const named = context.typeName(ref.name, ref.scope, header);
  if (named.pkg !== undefined && named.types.length === 0) return { targets: [], confidence: 'resolved', kind, pkg: named.pkg, ignored: true };
  if (named.types.length === 0) return { ...UNRESOLVED, kind };
  const result = typed(named.types[0]!, kind);
  if (named.types.length > 1 || !named.certain) {
    return { targets: candidateTargets(named.types), confidence: 'candidate', kind };
  }
  return result;
}

/** `P.name` where P is a package: a repository type, a subpackage, or an external type. */
export function nameInPackage(context: FileResolution, pkg: string, name: string, kind: ReferenceKind): Resolution {
  const fqn = `${pkg}.${name}`;
  const decl = context.table.typesNamed(fqn, context.fd.module)[0];
  if (decl) return typed({ t: 'decl', decl, args: [] }, kind);
  if (context.table.packageNames.has(fqn) || /^[a-z]/.test(name)) return { targets: [], confidence: 'resolved', kind, pkg: fqn, ignored: true };
  const facade = facadeIn(context, pkg, name);
  if (facade) return { targets: [], confidence: 'resolved', kind, pkg, facade, ignored: true };
  return typed({ t: 'ext', fqn, args: [] }, kind);
}

export function qualifier(context: FileResolution, ref: RefEntry): Resolution {
  const imported = ref.importIndex >= 0 ? context.fd.file.imports[ref.importIndex] : undefined;
  const kind: ReferenceKind = imported ? 'import' : 'type';
  const receiver = context.receiverOf(ref);
  if (!receiver) {
    if (!imported) {
      const named = context.typeName(ref.name, ref.scope);
      if (named.types.length === 1 && named.certain) return typed(named.types[0]!, kind);
    }
    return { targets: [], confidence: 'resolved', kind, pkg: ref.name, ignored: true };
  }
  const last = ref.role === 'import';
  if (receiver.denotes) {
    if (last && imported?.static && !imported.wildcard) return staticImport(context, receiver.denotes, ref.name);
    // Kotlin imports an object's members (`import a.BorderStyle.Companion.fromString`) as well as
    // nested classes; a member the repository declares is what the name imports.
    const member = last && imported && !imported.wildcard && context.fd.file.lang === 'kotlin' ? staticImport(context, receiver.denotes, ref.name) : undefined;
    if (member?.targets.some((t) => 'decl' in t)) return member;
    const nested = context.memberType(receiver.denotes, ref.name);
    return nested ? typed(nested, kind) : member ?? { ...UNRESOLVED, kind };
  }
  if (receiver.pkg === undefined) return { ...UNRESOLVED, kind };
  const fqn = `${receiver.pkg}.${ref.name}`;
  const decl = context.table.typesNamed(fqn, context.fd.module)[0];
  if (decl) return typed({ t: 'decl', decl, args: [] }, kind);
  if (imported && context.fd.file.lang === 'kotlin' && last) {
    // Kotlin imports name functions and properties as well as types.
    const members = context.table.packages.get(receiver.pkg)?.get(ref.name);
    if (members?.length) return { targets: members.map((d) => ({ decl: d })), confidence: members.length === 1 ? 'resolved' : 'candidate', kind };
  }
  if (context.table.packageNames.has(fqn)) return { targets: [], confidence: 'resolved', kind, pkg: fqn, ignored: true };
  if (last && imported && !imported.wildcard && /^[a-z]/.test(ref.name) && context.fd.file.lang === 'kotlin') {
    return { targets: [{ ext: external(fqn, receiver.pkg, 'function') }], confidence: 'resolved', kind };
  }
  if (/^[A-Z]/.test(ref.name)) return typed({ t: 'ext', fqn, args: [] }, kind);
  return { targets: [], confidence: 'resolved', kind, pkg: fqn, ignored: true };
}

/** `import static a.B.name;`: every member of B called `name`. */
function staticImport(context: FileResolution, owner: JType, name: string): Resolution {
  const kind: ReferenceKind = 'import';
  const lookup = context.resolver.members(owner, name, STATIC_IMPORTABLE);
  if (lookup.found.length) return { targets: lookup.found.map((f) => ({ decl: f.decl })), confidence: 'resolved', kind };
  const ownerName = externalOwner(lookup, name) ?? (owner.t === 'ext' ? owner.fqn : undefined);
  if (ownerName) return { targets: [{ ext: memberOfExternal(ownerName, name, /^[A-Z0-9_]+$/.test(name) ? 'field' : 'method') }], confidence: 'resolved', kind };
  return { ...UNRESOLVED, kind };
}

const STATIC_IMPORTABLE: ReadonlySet<SymbolKind> = new Set(['method', 'function', 'field', 'property', 'enumMember', 'class', 'interface', 'enum']);
