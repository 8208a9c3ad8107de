// Which method or constructor a call reaches: unqualified and member calls, `new` and Kotlin
// constructor calls, `this(…)`/`super(…)`, method references, library members.
import { MODIFIERS, type ReferenceKind, type SymbolKind } from '@sextant/format';
import type { RefEntry } from './file-model.ts';
import { envOf, NO_ENV, substitute, type JType } from './jvm-types.ts';
import { CONSTRUCTOR, type Decl } from './symbol-table.ts';
import { argTypes, exprResolution, kotlinView, typeArguments } from './expression-types.ts';
import type { FileResolution } from './file-resolution.ts';
import { extensionReceiverOfScope, facadeMember, KCLASS, kotlinProperty, libraryExtension, visibleExtension } from './kotlin-interop.ts';
import { arityFits, inferred, pick } from './overloads.ts';
import { candidateTargets, external, externalOwner, memberOfExternal, METHOD_KINDS, targetOfType, UNRESOLVED, type Found, type MemberLookup, type Resolution, type TypeNameResult } from './resolution.ts';
import { nameInPackage, typeReference } from './type-names.ts';
import { accessible, byName, fileLevel, fromExternalSupertype, recordComponent, staticMembers, valued } from './value-names.ts';

export function call(context: FileResolution, ref: RefEntry): Resolution {
  const args = argTypes(context, ref);
  if (ref.receiver >= 0) return memberCall(context, ref, args);
  const file = context.fd.file;
  // Local functions (Kotlin), then methods of enclosing classes, innermost first.
  for (let s = ref.scope; s >= 0; s = file.scopes[s]!.parent) {
    const local = context.declared(s, ref.name)?.filter((d) => d.kind === 'function');
    if (local?.length) return chosen(context, local.map((decl) => ({ decl, env: NO_ENV })), args, 'call');
    const receiver = file.lang === 'kotlin' ? extensionReceiverOfScope(context, s) : undefined;
    if (receiver) {
      const found = accessible(context, context.resolver.members(receiver, ref.name, METHOD_KINDS), ref.scope).found;
      if (found.length) return chosen(context, found, args, 'call');
      const extension = visibleExtension(context, ref.name, receiver, 'function', args);
      if (extension?.confidence === 'resolved') return extension;
    }
    const owner = context.ownerOfScope(s);
    if (!owner) continue;
    const lookup = context.resolver.members({ t: 'decl', decl: owner, args: [] }, ref.name, METHOD_KINDS);
    let found = lookup.found;
    if (!found.length && owner.companion) found = context.resolver.members({ t: 'decl', decl: owner.companion, args: [] }, ref.name, METHOD_KINDS).found;
    if (found.length) return chosen(context, found, args, 'call');
    if (file.lang === 'kotlin') {
      const extension = visibleExtension(context, ref.name, { t: 'decl', decl: owner, args: [] }, 'function', args);
      if (extension?.confidence === 'resolved') return extension;
    }
  }
  const imported = fileLevel(context, ref.name, METHOD_KINDS, 'function');
  if (imported?.length) return chosen(context, imported, args, 'call');
  // `Order(…)` is a constructor call in Kotlin. A capitalised name that is a repository class in
  // scope is constructed before it is guessed to be a method of a library supertype (which the
  // index cannot see declare it): `throw NoSuchKeyException(name)` in a HybridClassBase.
  const named = file.lang === 'kotlin' ? context.typeName(ref.name, ref.scope) : undefined;
  // `ArrayList<Order>()`: the written type arguments are the created value's.
  const construction = () => construct(context, named!, args, 'new', ref.text ? { ...ref, text: `${ref.name}${ref.text}` } : undefined);
  if (named?.certain && /^[A-Z]/.test(ref.name) && named.types.some((t) => t.t === 'decl')) return construction();
  const inherited = fromExternalSupertype(context, ref.name, ref.scope, METHOD_KINDS, 'method');
  if (inherited) return { ...inherited, kind: 'call' };
  if (named) {
    // `println(…)` is a default import.
    if (named.types.length > 0) return construction();
    const implicit = context.rules.implicitFunction(ref.name);
    if (implicit) {
      const pkg = implicit.slice(0, implicit.lastIndexOf('.'));
      const library = context.resolver.library.kotlinFunctions(pkg, ref.name);
      const value = context.resolver.library.callType(library, args, typeArguments(context, ref));
      // The overloads go along: a lambda argument's parameter (`with(order) { … }`) is typed by them.
      return { targets: [{ ext: external(implicit, pkg, 'function') }], confidence: 'resolved', kind: 'call', ...(library.length ? { library } : {}), ...(value ? { value } : {}) };
    }
  }
  return byName(context, ref.name, METHOD_KINDS, 'call', args);
}

function memberCall(context: FileResolution, ref: RefEntry, args: (JType | undefined)[] | undefined): Resolution {
  const receiverExpr = context.fd.file.exprs[ref.receiver];
  const receiver = exprResolution(context, ref.receiver);
  if (receiver?.facade) return facadeMember(context, receiver, ref.name, 'call', args);
  if (receiver?.pkg !== undefined && !receiver.denotes) {
    // Kotlin constructs a class named by its package without `new` (`retrofit2.Retrofit()`).
    const inPackage = context.fd.file.lang === 'kotlin' && /^[A-Z]/.test(ref.name) ? nameInPackage(context, receiver.pkg, ref.name, 'new') : undefined;
    return inPackage?.denotes ? construct(context, { types: [inPackage.denotes], certain: true }, args, 'new') : { ...UNRESOLVED, kind: 'call' };
  }
  const isStatic = receiver?.denotes !== undefined && receiver.value === undefined;
  const type = isStatic ? receiver!.denotes! : kotlinView(context, context.typeOfExpr(ref.receiver));
  if (!type) {
    if (context.fd.file.lang === 'kotlin') {
      const extension = visibleExtension(context, ref.name, undefined, 'function', args);
      if (extension) return { ...extension, confidence: 'candidate' };
      const anyReceiver = context.resolver.library.anyReceiverExtension(ref.name);
      if (anyReceiver) return { targets: [{ ext: external(`${anyReceiver}.${ref.name}`, anyReceiver, 'function') }], confidence: 'resolved', kind: 'call' };
    }
    return byName(context, ref.name, METHOD_KINDS, 'call', args);
  }
  const lookup = accessible(context, isStatic ? staticMembers(context, type, ref.name, METHOD_KINDS) : context.resolver.members(type, ref.name, METHOD_KINDS), ref.scope);
  if (lookup.found.length === 0 && (args?.length ?? 0) === 0) {
    // A record's component is read through its accessor method, which nobody declares.
    const component = recordComponent(type, ref.name);
    if (component) return { ...valued(context, { decl: component, env: envOf(type) }, 'call') };
  }
  if (lookup.found.length) {
    const resolution = chosen(context, lookup.found, args, 'call');
    // Overloads the repository does not declare may live in an external supertype (not in the
    // root class unless the name is one of its members, nor where a supertype is unplaced).
    if (resolution.confidence === 'resolved' || !externalOwner(lookup, ref.name) && !lookup.unknown) return resolution;
  }
  if (isStatic && context.fd.file.lang === 'kotlin' && /^[A-Z]/.test(ref.name)) {
    // `Retrofit.Builder()`: Kotlin constructs a nested class without `new`.
    const nested = context.memberType(type, ref.name);
    if (nested && (nested.t === 'decl' || lookup.found.length === 0)) return construct(context, { types: [nested], certain: true }, args, 'new');
  }
  const fromLibrary = libraryMember(context, lookup, ref.name, 'call', 'method', args, isStatic);
  if (fromLibrary) return fromLibrary;
  if (context.fd.file.lang === 'java') {
    const property = kotlinProperty(context, type, ref.name, args?.length ?? 0);
    if (property) return property;
  } else {
    const extension = visibleExtension(context, ref.name, type, 'function', args) ?? libraryExtension(context, ref.name, type, 'function', args);
    if (extension) return extension;
  }
  // An array's clone() is an array of the same type (JLS 10.7); its other members are Object's.
  if (type.t === 'array') return { targets: [], confidence: 'resolved', kind: 'call', ignored: true, ...(ref.name === 'clone' ? { value: type } : {}) };
  const ownerName = externalOwner(lookup, ref.name);
  if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, 'method') }], confidence: 'resolved', kind: 'call' };
  if (receiverExpr?.form === 'super' && ownerName) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, 'method') }], confidence: 'resolved', kind: 'call' };
  return byName(context, ref.name, METHOD_KINDS, 'call', args);
}

/**
 * A member the library models give an external type (or the external supertype of a repository
 * one), when no repository type declares it: the declaring library type's member, its value the
 * type the chosen overloads return. Reached through a type name, static members come first.
 */
export function libraryMember(context: FileResolution, lookup: MemberLookup, name: string, kind: ReferenceKind, symbolKind: SymbolKind, args: (JType | undefined)[] | undefined, isStatic: boolean): Resolution | undefined {
  if (lookup.found.length > 0 || lookup.unknown || lookup.library.length === 0) return undefined;
  let found = lookup.library;
  if (isStatic && found.some((f) => f.member.static)) found = found.filter((f) => f.member.static);
  const library = context.resolver.library;
  const value = symbolKind === 'method' ? library.callType(found, args) : library.returnType(found[0]!);
  return { targets: [{ ext: memberOfExternal(found[0]!.member.owner, name, symbolKind) }], confidence: 'resolved', kind, library: found, ...(value ? { value } : {}) };
}

/** Overload choice among found methods; the value is the return type when one was chosen. */
export function chosen(context: FileResolution, found: Found[], args: (JType | undefined)[] | undefined, kind: ReferenceKind, facade = false): Resolution {
  const { chosen, exact } = pick(context.resolver, found, args, context.fd.file.lang, facade);
  if (exact && chosen.length === 1) {
    const returned = context.resolver.typeOfDecl(chosen[0]!.decl);
    const env = inferred(context.resolver, chosen[0]!, args, undefined, facade);
    return { targets: [{ decl: chosen[0]!.decl }], confidence: 'resolved', kind, env, ...(returned ? { value: substitute(returned, env) } : {}) };
  }
  return { targets: chosen.map((f) => ({ decl: f.decl })), confidence: 'candidate', kind };
}

export function creation(context: FileResolution, ref: RefEntry): Resolution {
  const args = argTypes(context, ref);
  let named: TypeNameResult;
  if (ref.name === 'new') {
    // `Foo::new`: a function value making Foos, as many parameters as a constructor has.
    const receiver = context.receiverOf(ref);
    named = { types: receiver?.denotes ? [receiver.denotes] : [], certain: true };
    const created = named.types[0];
    const constructors = created?.t === 'decl' ? created.decl.members?.get(CONSTRUCTOR) ?? [] : [];
    const value: JType = created?.t !== 'decl' ? { t: 'fn' } : constructors.length ? referenceValue(constructors, false) : { t: 'fn', arities: [0] };
    return { ...construct(context, named, undefined, 'new'), value };
  }
  if (ref.receiver >= 0) {
    const resolution = typeReference(context, { ...ref, role: 'type' });
    named = { types: resolution.denotes ? [resolution.denotes] : [], certain: resolution.confidence === 'resolved' };
  } else {
    named = context.typeName(ref.name, ref.scope);
  }
  return construct(context, named, args, 'new', ref);
}

/**
 * The class and, when it declares constructors, the one the arguments select. `creation`: the
 * `new` expression, whose written type arguments (or, for `<>`, the chosen constructor's
 * arguments) give the created value its type arguments.
 */
function construct(context: FileResolution, named: TypeNameResult, args: (JType | undefined)[] | undefined, kind: ReferenceKind, creation?: RefEntry): Resolution {
  if (named.types.length === 0) return { ...UNRESOLVED, kind };
  if (named.types.length > 1 || !named.certain) return { targets: candidateTargets(named.types), confidence: 'candidate', kind };
  let type = named.types[0]!;
  const targets = targetOfType(type);
  const written = creation?.text && !creation.text.endsWith('<>') ? context.resolveTypeText(creation.text, creation.scope) : undefined;
  if (written && (written.t === 'decl' || written.t === 'ext') && written.args.length > 0) type = written;
  if (type.t !== 'decl') return { targets, confidence: 'resolved', kind, value: type };
  const constructors = type.decl.members?.get(CONSTRUCTOR) ?? [];
  if (constructors.length === 0) return { targets, confidence: 'resolved', kind, value: type };
  const { chosen, exact } = pick(context.resolver, constructors.map((decl) => ({ decl, env: NO_ENV })), args, context.fd.file.lang);
  // A Kotlin primary constructor is the class itself: explicit constructors may not match at all.
  if (primaryConstructorFits(type.decl, args) && (!exact || !constructors.some((c) => arityFits(c, args!.length)))) {
    return { targets, confidence: 'resolved', kind, value: type };
  }
  if (exact && chosen.length === 1) {
    const vars = type.decl.typeParams;
    if (creation?.text?.endsWith('<>') && vars) {
      // `new Box<>(item)`: the class's type arguments inferred from the constructor's (JLS 15.9.3).
      const env = inferred(context.resolver, chosen[0]!, args, vars);
      type = { ...type, args: vars.map((v): JType => env.get(v) ?? { t: 'var', decl: v }) };
    }
    return { targets: [...targets, { decl: chosen[0]!.decl }], confidence: 'resolved', kind, value: type };
  }
  return { targets: [...targets, ...chosen.map((f) => ({ decl: f.decl }))], confidence: 'candidate', kind, value: type };
}

export function methodReference(context: FileResolution, ref: RefEntry): Resolution {
  const kind: ReferenceKind = 'read';
  let type: JType | undefined;
  let isStatic = false;
  if (ref.receiver >= 0) {
    const receiver = exprResolution(context, ref.receiver);
    isStatic = receiver?.denotes !== undefined && receiver.value === undefined;
    type = isStatic ? receiver!.denotes : context.typeOfExpr(ref.receiver);
  } else {
    const owner = context.enclosingType(ref.scope);
    const found = owner ? context.resolver.members({ t: 'decl', decl: owner, args: [] }, ref.name, METHOD_KINDS).found : [];
    const top = found.length ? found : fileLevel(context, ref.name, METHOD_KINDS, 'function') ?? [];
    if (top.length) return { targets: top.map((f) => ({ decl: f.decl })), confidence: top.length === 1 ? 'resolved' : 'candidate', kind };
    return byName(context, ref.name, METHOD_KINDS, kind, undefined);
  }
  if (!type) return byName(context, ref.name, METHOD_KINDS, kind, undefined);
  // `Service::class`, `x::class`: no member, the class's KClass.
  if (ref.name === 'class' && context.fd.file.lang === 'kotlin') return { targets: [], confidence: 'resolved', kind, ignored: true, value: { t: 'ext', fqn: KCLASS, args: [type] } };
  const lookup = isStatic ? staticMembers(context, type, ref.name, METHOD_OR_VALUE) : context.resolver.members(type, ref.name, METHOD_OR_VALUE);
  if (lookup.found.length) {
    const value = referenceValue(lookup.found.map((f) => f.decl), isStatic);
    return { targets: lookup.found.map((f) => ({ decl: f.decl })), confidence: lookup.found.length === 1 ? 'resolved' : 'candidate', kind, value };
  }
  const ownerName = externalOwner(lookup, ref.name);
  if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, 'method') }], confidence: 'resolved', kind, value: { t: 'fn' } };
  return { ...byName(context, ref.name, METHOD_KINDS, kind, undefined), value: { t: 'fn' } };
}

/** `this(…)` and `super(…)` in a constructor. */
export function constructorCall(context: FileResolution, ref: RefEntry): Resolution {
  const cls = context.enclosingType(ref.scope);
  if (!cls) return { ...UNRESOLVED, kind: 'call' };
  let target: JType | undefined = { t: 'decl', decl: cls, args: [] };
  if (ref.name === 'super') {
    // A Kotlin class with secondary constructors names its superclass without a call (`: Base`).
    const supers = context.resolver.supertypes(cls);
    target = (supers.find((s) => s.superclass && !s.implicit) ?? supers.find((s) => s.type.t === 'decl' && s.type.decl.kind === 'class')
      ?? (supers.filter((s) => s.type.t === 'ext' && !s.implicit).length === 1 ? supers.find((s) => s.type.t === 'ext' && !s.implicit) : undefined)
      ?? supers.find((s) => s.superclass))?.type;
  }
  if (!target) return { ...UNRESOLVED, kind: 'call' };
  if (target.t === 'ext') return { targets: [{ ext: memberOfExternal(target.fqn, target.fqn.slice(target.fqn.lastIndexOf('.') + 1), 'constructor') }], confidence: 'resolved', kind: 'call' };
  if (target.t !== 'decl') return { ...UNRESOLVED, kind: 'call' };
  return constructorOf(context, target.decl, argTypes(context, ref));
}

/** The constructor of a repository class that arguments call: a declared one, or the class itself (a primary constructor, or none declared). */
function constructorOf(context: FileResolution, cls: Decl, args: (JType | undefined)[] | undefined): Resolution {
  const constructors = cls.members?.get(CONSTRUCTOR) ?? [];
  if (constructors.length === 0 || primaryConstructorFits(cls, args) && !constructors.some((c) => arityFits(c, args!.length))) {
    return { targets: [{ decl: cls }], confidence: 'resolved', kind: 'call' };
  }
  return chosen(context, constructors.map((decl) => ({ decl, env: NO_ENV })), args, 'call');
}

/**
 * `class A : Base(…)` in Kotlin names the class it extends and calls one of its constructors: a
 * declared one (a Java constructor, a Kotlin secondary or explicit primary one) is a target too, as
 * it is of `Base(…)` anywhere else.
 */
export function withSuperConstructor(context: FileResolution, ref: RefEntry, supertype: Resolution): Resolution {
  const cls = supertype.denotes?.t === 'decl' ? supertype.denotes.decl : undefined;
  if (!cls || !ref.superclass || ref.args === undefined || context.fd.file.lang !== 'kotlin') return supertype;
  const call = constructorOf(context, cls, argTypes(context, ref));
  const constructors = call.confidence === 'resolved' ? call.targets.filter((t) => 'decl' in t && t.decl !== cls) : [];
  return constructors.length ? { ...supertype, targets: [...supertype.targets, ...constructors] } : supertype;
}

/**
 * Whether the arguments fit a Kotlin class's primary constructor (the class's own parameters). A
 * class with none in its header may still have an empty one (`class Handler() : CookieHandler()`):
 * no arguments fit it.
 */
function primaryConstructorFits(cls: Decl, args: (JType | undefined)[] | undefined): boolean {
  if (cls.file.lang !== 'kotlin' || args === undefined) return false;
  return cls.params === undefined ? args.length === 0 : arityFits(cls, args.length);
}

const METHOD_OR_VALUE: ReadonlySet<SymbolKind> = new Set(['method', 'function', 'field', 'property']);

/**
 * A method reference's value: the functional interface arities its methods fit. `Type::method`
 * passes an instance method its receiver as the first argument (JLS 15.13.1); varargs fit any.
 */
function referenceValue(methods: readonly Decl[], throughType: boolean): JType {
  const arities = new Set<number>();
  for (const m of methods) {
    const params = m.params ?? [];
    if (params.some((p) => p.def.varargs)) return { t: 'fn' };
    const isStatic = (m.mods & MODIFIERS.static) !== 0 || m.kind === 'constructor';
    arities.add(throughType && !isStatic ? params.length + 1 : params.length);
  }
  return { t: 'fn', arities: [...arities] };
}
