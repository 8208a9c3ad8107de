// Which variable, field, property or constant a name denotes: locals and parameters in scope,
// members of enclosing classes, static imports and top-level declarations, members reached
// through a receiver or a type name, and the last resort of a bare name match.
import { MODIFIERS, type Confidence, type ReferenceKind, type SymbolKind } from '@sextant/format';
import { CALLABLE_KINDS, TYPE_KINDS, type RefEntry } from './file-model.ts';
import { isPackageRoot, primitiveOfBox, primitiveOfKotlin } from './jvm-builtins.ts';
import { NO_ENV, substitute, type JType } from './jvm-types.ts';
import type { Decl } from './symbol-table.ts';
import { isStringType } from './assignability.ts';
import { libraryMember } from './calls.ts';
import { exprResolution, implicitIt, implicitItScope, kotlinView } from './expression-types.ts';
import type { FileResolution } from './file-resolution.ts';
import { classMapping, extensionReceiverOfScope, facadeMember, facadeNamed, isStaticToJava, javaAccessor, libraryAccessor, libraryExtension, smartCast, viaExtensionReceiver, visibleExtension } from './kotlin-interop.ts';
import { candidateTargets, external, externalOwner, memberOfExternal, ROLE_KINDS, targetOfType, UNRESOLVED, VALUE_MEMBER_KINDS, type Found, type MemberLookup, type Resolution } from './resolution.ts';
import { nameInPackage } from './type-names.ts';

export function value(context: FileResolution, ref: RefEntry, index: number): Resolution {
  const kind = ROLE_KINDS[ref.role];
  if (ref.caseLabel) return caseLabel(context, ref, index, kind);
  if (ref.receiver >= 0) return valueOfMember(context, ref, kind);
  const variable = variableInScope(context, ref.name, ref.scope, ref.start);
  if (variable?.length === 1) {
    const resolution = valued(context, variable[0]!, kind);
    const narrowed = kind === 'read' ? smartCast(context, variable[0]!.decl, ref) : undefined;
    return narrowed ? { ...resolution, value: narrowed } : resolution;
  }
  if (variable) return { targets: variable.map((v) => ({ decl: v.decl })), confidence: 'candidate', kind };
  // `it` in a lambda that declares no parameters is that lambda's parameter, a local: before any
  // member of the class around it, or a guess at a library supertype's member.
  if (context.rules.implicitName(ref.name) && implicitItScope(context, ref.scope) !== undefined) return implicitValue(context, ref, kind);
  if (context.fd.file.lang === 'kotlin' && ref.name === 'field') {
    // An accessor's backing field: not the property's name (a rename leaves it, kotlinc names no
    // declaration there), a value of the property's type.
    const property = context.fd.decls[ref.owner];
    if (property?.kind === 'property') return { ...valued(context, { decl: property, env: NO_ENV }, kind), targets: [], ignored: true };
  }
  const onReceiver = context.fd.file.lang === 'kotlin' ? viaExtensionReceiver(context, ref.name, ref.scope, kind) : undefined;
  if (onReceiver) return onReceiver;
  const inherited = fromExternalSupertype(context, ref.name, ref.scope, VALUE_MEMBER_KINDS, valueKind(context));
  if (inherited && /^[a-z_$]/.test(ref.name) && !isPackageName(context, ref.name, index)) return { ...inherited, kind };
  const named = context.typeName(ref.name, ref.scope);
  if (named.types.length > 0) {
    const type = named.types[0]!;
    if (named.types.length > 1 || !named.certain) return { targets: candidateTargets(named.types), confidence: 'candidate', kind };
    // A Kotlin object is a value of its own type; a class name qualifies static members.
    const isObject = type.t === 'decl' && (type.decl.def.nodeType === 'object_declaration' || type.decl.def.nodeType === 'companion_object');
    return { targets: targetOfType(type), confidence: 'resolved', kind, denotes: type, ...(isObject ? { value: type } : {}) };
  }
  if (named.pkg !== undefined) return { targets: [], confidence: 'resolved', kind, pkg: named.pkg, ignored: true };
  const facade = facadeNamed(context, ref.name);
  if (facade) return { targets: [], confidence: 'resolved', kind, pkg: facade.pkg, facade: facade.path, ignored: true };
  if (inherited) return { ...inherited, kind };
  if (context.rules.implicitName(ref.name)) return implicitValue(context, ref, kind);
  if (isPackageName(context, ref.name, index)) return { targets: [], confidence: 'resolved', kind, pkg: ref.name, ignored: true };
  return byName(context, ref.name, VALUE_MEMBER_KINDS, kind, undefined);
}

/**
 * `case NAME`: a constant of the subject's type when that is an enum (JLS 14.11.1), else a name in
 * scope like any other (`case MAX_SIZE:` on an int). A subject of unknown type leaves both open.
 */
function caseLabel(context: FileResolution, ref: RefEntry, index: number, kind: ReferenceKind): Resolution {
  const subject = context.typeOfExpr(ref.receiver);
  const inScope = () => value(context, { ...ref, caseLabel: false, receiver: -1 }, index);
  if (!subject) {
    const constants = byName(context, ref.name, ENUM_CONSTANT, kind, undefined).targets;
    const named = variableInScope(context, ref.name, ref.scope, ref.start)?.map((f) => ({ decl: f.decl })) ?? [];
    const targets = [...named, ...constants];
    return targets.length ? { targets, confidence: 'candidate', kind } : { ...UNRESOLVED, kind };
  }
  // A Kotlin Int or String (a Kotlin property's getter called from Java) is Java's int or String.
  const valueType = (fqn: string) => primitiveOfBox(fqn) !== undefined || primitiveOfKotlin(fqn) !== undefined || fqn === 'kotlin.String';
  const enumLike = subject.t === 'decl' ? subject.decl.kind === 'enum' : subject.t === 'ext' && !valueType(subject.fqn) && !isStringType(subject);
  return enumLike ? valueOfMember(context, ref, kind) : inScope();
}

/** Kotlin's `it`: no symbol's name, a value of the lambda's parameter type when known. */
function implicitValue(context: FileResolution, ref: RefEntry, kind: ReferenceKind): Resolution {
  const it = implicitIt(context, ref.scope);
  return { targets: [], confidence: 'resolved', kind, ignored: true, ...(it ? { value: it } : {}) };
}

/** An undeclared name that qualifies another and looks like a package root (`java` in `java.util.List.of()`). */
function isPackageName(context: FileResolution, name: string, index: number): boolean {
  return (context.table.packageNames.has(name) || isPackageRoot(name)) && context.isQualifier(index);
}

/**
 * A member no repository type declares, in a class that extends an external one: it is
 * inherited from there (or named by a static import). Resolved when exactly one external
 * supertype chain and no external on-demand static import could supply it.
 */
export function fromExternalSupertype(context: FileResolution, name: string, scope: number, kinds: ReadonlySet<SymbolKind>, kind: SymbolKind): Resolution | undefined {
  const file = context.fd.file;
  if (file.lang === 'java') {
    const single = file.imports.find((i) => i.static && !i.wildcard && i.path.endsWith(`.${name}`));
    if (single) {
      const owner = single.path.slice(0, single.path.lastIndexOf('.'));
      if (!context.table.typesNamed(owner, context.fd.module).length) return { targets: [{ ext: memberOfExternal(owner, name, kind) }], confidence: 'resolved', kind: 'read' };
    }
  }
  const owners = new Set<string>();
  let unknown = false;
  for (let s = scope; s >= 0; s = file.scopes[s]!.parent) {
    const owner = context.ownerOfScope(s);
    if (!owner) continue;
    const lookup = context.resolver.members({ t: 'decl', decl: owner, args: [] }, name, kinds);
    if (lookup.found.length) return undefined;
    const ext = externalOwner(lookup, name);
    if (ext) owners.add(ext);
    unknown ||= lookup.unknown;
    if (owners.size > 0) break;
  }
  if (owners.size === 0) return undefined;
  const staticWildcards = file.imports.some((i) => i.static && i.wildcard && !context.table.typesNamed(i.path, context.fd.module).length);
  const confidence: Confidence = unknown || staticWildcards ? 'candidate' : 'resolved';
  return { targets: [...owners].map((owner) => ({ ext: memberOfExternal(owner, name, kind) })), confidence, kind: 'read' };
}

/**
 * A variable by simple name: locals and parameters declared before the use in enclosing code
 * scopes, then fields and properties of enclosing classes (inherited ones too), then statically
 * imported fields (Java) or imported and same-package top-level properties (Kotlin).
 */
function variableInScope(context: FileResolution, name: string, scope: number, offset: number): Found[] | undefined {
  const file = context.fd.file;
  // A Kotlin local is seen after its declaration, not in its own initializer (`val host =
  // checkNotNull(host)` reads the property); a Java one from its declarator on (JLS 6.3).
  const declared = (d: Decl) => (file.lang === 'kotlin' ? d.def.end <= offset : d.def.start <= offset);
  let inFunction = false;
  for (let s = scope; s >= 0; s = file.scopes[s]!.parent) {
    const here = context.declared(s, name);
    const owner = context.ownerOfScope(s);
    if (here) {
      let visible = here.filter((d) => (d.kind === 'local' || d.kind === 'parameter') && (d.kind === 'parameter' || declared(d))
        || VALUE_MEMBER_KINDS.has(d.kind) && !TYPE_KINDS.has(d.kind));
      // A Kotlin primary constructor's parameter (declared in its class's scope) is seen by the
      // class's initializers, before a property of the same name (`val name = name.trim()`), and
      // by none of its functions.
      if (owner && visible.some((d) => d.kind === 'parameter')) {
        const parameters = visible.filter((d) => d.kind === 'parameter');
        visible = inFunction ? visible.filter((d) => d.kind !== 'parameter') : parameters;
      }
      if (visible.length) return [{ decl: visible[visible.length - 1]!, env: NO_ENV }];
    }
    const receiver = extensionReceiverOfScope(context, s);
    if (receiver) {
      const lookup = accessible(context, context.resolver.members(receiver, name, VALUE_MEMBER_KINDS), scope);
      if (lookup.found.length) return [lookup.found[0]!];
    }
    if (owner) {
      const lookup = context.resolver.members({ t: 'decl', decl: owner, args: [] }, name, VALUE_MEMBER_KINDS);
      if (lookup.found.length) return [lookup.found[0]!];
      if (owner.companion) {
        const companion = context.resolver.members({ t: 'decl', decl: owner.companion, args: [] }, name, VALUE_MEMBER_KINDS);
        if (companion.found.length) return [companion.found[0]!];
      }
    }
    const def = file.scopes[s]!.def;
    inFunction ||= def >= 0 && CALLABLE_KINDS.has(file.defs[def]!.kind);
  }
  return fileLevel(context, name, VALUE_MEMBER_KINDS, 'value');
}

/** Statically imported members (Java), imported and same-package top-level declarations (Kotlin). */
export function fileLevel(context: FileResolution, name: string, kinds: ReadonlySet<SymbolKind>, what: 'value' | 'function'): Found[] | undefined {
  const file = context.fd.file;
  if (file.lang === 'java') {
    for (const wildcard of [false, true]) {
      const found: Found[] = [];
      for (const entry of file.imports) {
        if (!entry.static || entry.wildcard !== wildcard) continue;
        if (!wildcard && !entry.path.endsWith(`.${name}`)) continue;
        const ownerText = wildcard ? entry.path : entry.path.slice(0, entry.path.lastIndexOf('.'));
        const owner = context.table.typesNamed(ownerText, context.fd.module)[0];
        if (!owner) continue;
        found.push(...context.resolver.members({ t: 'decl', decl: owner, args: [] }, name, kinds).found);
      }
      if (found.length) return found;
    }
    return undefined;
  }
  const top = (d: Decl) => (what === 'function' ? d.kind === 'function' && !d.def.receiverType : d.kind === 'property' && !d.def.receiverType);
  for (const entry of file.imports) {
    if (entry.wildcard || (entry.alias ?? entry.path.slice(entry.path.lastIndexOf('.') + 1)) !== name) continue;
    const dot = entry.path.lastIndexOf('.');
    const decls = context.table.packages.get(entry.path.slice(0, dot))?.get(entry.path.slice(dot + 1))?.filter(top);
    if (decls?.length) return decls.map((decl) => ({ decl, env: NO_ENV }));
    // `import com.example.Registry.register` imports an object's member.
    const owner = context.table.typesNamed(entry.path.slice(0, dot), context.fd.module)[0];
    const members = owner && context.resolver.members({ t: 'decl', decl: owner, args: [] }, entry.path.slice(dot + 1), kinds).found;
    if (members?.length) return members;
  }
  const same = context.table.packages.get(file.pkg)?.get(name)?.filter(top);
  if (same?.length) return same.map((decl) => ({ decl, env: NO_ENV }));
  const star: Found[] = [];
  for (const entry of file.imports) {
    if (!entry.wildcard) continue;
    star.push(...(context.table.packages.get(entry.path)?.get(name)?.filter(top) ?? []).map((decl) => ({ decl, env: NO_ENV })));
  }
  return star.length ? star : undefined;
}

export function valued(context: FileResolution, found: Found, kind: ReferenceKind): Resolution {
  const type = context.resolver.typeOfDecl(found.decl);
  return { targets: [{ decl: found.decl }], confidence: 'resolved', kind, ...(type ? { value: substitute(type, found.env) } : {}) };
}

function valueOfMember(context: FileResolution, ref: RefEntry, kind: ReferenceKind): Resolution {
  const receiver = exprResolution(context, ref.receiver);
  if (receiver?.facade) return facadeMember(context, receiver, ref.name, kind, undefined);
  if (receiver?.pkg !== undefined && !receiver.denotes) return nameInPackage(context, receiver.pkg, ref.name, kind);
  if (receiver?.denotes && !receiver.value) {
    // `Type.member`: a static field, an enum constant, a companion member or a nested type.
    const lookup = accessible(context, staticMembers(context, receiver.denotes, ref.name, VALUE_MEMBER_KINDS), ref.scope);
    if (lookup.found.length) return valued(context, lookup.found[0]!, kind);
    const fromLibrary = libraryMember(context, lookup, ref.name, kind, valueKind(context), undefined, true);
    if (fromLibrary) return fromLibrary;
    if (ref.name === 'INSTANCE' && receiver.denotes.t === 'decl' && receiver.denotes.decl.def.nodeType === 'object_declaration') {
      return { targets: [], confidence: 'resolved', kind, value: receiver.denotes, ignored: true };
    }
    if (receiver.denotes.t === 'ext' && /^[A-Z][A-Z0-9_]*$/.test(ref.name)) {
      // `RetentionPolicy.RUNTIME`: constants are written in capitals, nested types in CamelCase.
      return { targets: [{ ext: memberOfExternal(receiver.denotes.fqn, ref.name, valueKind(context)) }], confidence: 'resolved', kind };
    }
    const nested = context.memberType(receiver.denotes, ref.name);
    if (nested && (nested.t === 'decl' || /^[A-Z]/.test(ref.name))) {
      const isObject = nested.t === 'decl' && (nested.decl.def.nodeType === 'object_declaration' || nested.decl.def.nodeType === 'companion_object');
      return { targets: targetOfType(nested), confidence: 'resolved', kind, denotes: nested, ...(isObject ? { value: nested } : {}) };
    }
    const ownerName = externalOwner(lookup, ref.name) ?? (receiver.denotes.t === 'ext' ? receiver.denotes.fqn : undefined);
    if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, valueKind(context)) }], confidence: 'resolved', kind };
    return byName(context, ref.name, VALUE_MEMBER_KINDS, kind, undefined);
  }
  const type = ref.receiver >= 0 ? kotlinView(context, context.typeOfExpr(ref.receiver)) : undefined;
  if (!type) return byName(context, ref.name, VALUE_MEMBER_KINDS, kind, undefined);
  const mapped = context.fd.file.lang === 'kotlin' ? classMapping(type, ref.name) : undefined;
  if (mapped) return { targets: [{ ext: external(`kotlin.jvm.${ref.name}`, 'kotlin.jvm', 'property') }], confidence: 'resolved', kind, value: mapped };
  if (type.t === 'array') return ref.name === 'length' || ref.name === 'size' ? { targets: [], confidence: 'resolved', kind, value: { t: 'prim', name: 'int' }, ignored: true } : { ...UNRESOLVED, kind };
  const lookup = accessible(context, context.resolver.members(type, ref.name, VALUE_MEMBER_KINDS), ref.scope);
  if (lookup.found.length) {
    // A Kotlin interface's property on a Java class is read through the class's Java getter, which
    // implements it (`fabricUIManager.eventDispatcher` calls FabricUIManager#getEventDispatcher()).
    const overridden = context.fd.file.lang === 'kotlin' && type.t === 'decl' && type.decl.file.lang === 'java' && lookup.found[0]!.decl.file.lang === 'kotlin'
      ? javaAccessor(context, type, ref.name, kind === 'write') : undefined;
    return overridden ?? valued(context, lookup.found[0]!, kind);
  }
  const fromLibrary = libraryMember(context, lookup, ref.name, kind, valueKind(context), undefined, false);
  if (fromLibrary) return fromLibrary;
  if (ref.name === 'INSTANCE' && type.t === 'decl' && type.decl.def.nodeType === 'object_declaration') {
    // Java reaches a Kotlin object through its synthetic INSTANCE field: no symbol, the object's type.
    return { targets: [], confidence: 'resolved', kind, value: type, ignored: true };
  }
  // Kotlin reads a Java getter as a property (`person.name` → getName()), writes through its setter.
  if (context.fd.file.lang === 'kotlin') {
    const accessor = javaAccessor(context, type, ref.name, kind === 'write');
    if (accessor) return accessor;
    const extension = visibleExtension(context, ref.name, type, 'property') ?? libraryAccessor(context, type, ref.name) ?? libraryExtension(context, ref.name, type, 'property');
    if (extension) return { ...extension, kind: extension.kind === 'call' ? 'call' : kind };
  }
  const ownerName = externalOwner(lookup, ref.name);
  if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, valueKind(context)) }], confidence: 'resolved', kind };
  return byName(context, ref.name, VALUE_MEMBER_KINDS, kind, undefined);
}

/** Private members are visible inside their outermost class only. */
export function accessible(context: FileResolution, lookup: MemberLookup, scope: number): MemberLookup {
  if (!lookup.found.some((f) => f.decl.mods & MODIFIERS.private)) return lookup;
  const here = outermost(context.enclosingType(scope));
  const found = lookup.found.filter((f) => !(f.decl.mods & MODIFIERS.private) || outermost(f.decl) === here);
  return { ...lookup, found };
}

export function recordComponent(type: JType, name: string): Decl | undefined {
  if (type.t !== 'decl' || type.decl.def.nodeType !== 'record_declaration') return undefined;
  return type.decl.members?.get(name)?.find((m) => m.kind === 'field' && m.def.nodeType === 'formal_parameter');
}

function valueKind(context: FileResolution): SymbolKind {
  return context.fd.file.lang === 'kotlin' ? 'property' : 'field';
}

/** Members reached through a type name: its own and inherited statics, a Kotlin companion's, an object's. */
export function staticMembers(context: FileResolution, type: JType, name: string, kinds: ReadonlySet<SymbolKind>): MemberLookup {
  const lookup = context.resolver.members(type, name, kinds);
  if (lookup.found.length || type.t !== 'decl' || !type.decl.companion) return lookup;
  const companion = context.resolver.members({ t: 'decl', decl: type.decl.companion, args: [] }, name, kinds);
  // Java reaches a companion's members through the class only when they are static there (@JvmStatic, @JvmField, const).
  const found = context.fd.file.lang === 'java' ? companion.found.filter((f) => isStaticToJava(f.decl)) : companion.found;
  return found.length ? { ...companion, found } : lookup;
}

/**
 * The last resort: declarations of members with this name anywhere in the repository. Only a
 * name matches, so each is a candidate; too many say nothing and none is recorded.
 */
export function byName(context: FileResolution, name: string, kinds: ReadonlySet<SymbolKind>, kind: ReferenceKind, args: (JType | undefined)[] | undefined): Resolution {
  let matches = (context.table.membersByName.get(name) ?? []).filter((d) => kinds.has(d.kind) && !d.local);
  if (args && matches.length > 1) {
    const arity = matches.filter((d) => {
      const params = d.params ?? [];
      const varargs = params.length > 0 && params[params.length - 1]!.def.varargs;
      return varargs ? args.length >= params.length - 1 : params.length >= args.length && params.filter((p) => p.def.value === undefined || d.file.lang === 'java').length <= args.length;
    });
    if (arity.length) matches = arity;
  }
  if (matches.length === 0 || matches.length > MAX_CANDIDATES) return { ...UNRESOLVED, kind };
  return { targets: matches.map((decl) => ({ decl })), confidence: 'candidate', kind };
}

/** More name matches than this and a bare name match says nothing: no candidates are recorded. */
const MAX_CANDIDATES = 8;

const ENUM_CONSTANT: ReadonlySet<SymbolKind> = new Set(['enumMember']);

function outermost(decl: Decl | undefined): Decl | undefined {
  let current = decl;
  while (current?.parent) current = current.parent;
  return current;
}
