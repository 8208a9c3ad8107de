// Kotlin's own rules and what each language sees of the other: file facades (`PricingKt`),
// Java getters read as properties and Kotlin properties called as accessors, extension
// functions and properties, smart casts.
import type { ReferenceKind } from '@sextant/format';
import type { NarrowEntry, RefEntry } from './file-model.ts';
import { hasAnnotation, hasModifier } from './jvm-naming.ts';
import { isKotlinDefaultPackage } from './jvm-builtins.ts';
import { NO_ENV, substitute, type JType } from './jvm-types.ts';
import type { Decl } from './symbol-table.ts';
import { assignable } from './assignability.ts';
import { chosen, libraryMember } from './calls.ts';
import type { FileResolution } from './file-resolution.ts';
import { lambdaReceiver } from './expression-types.ts';
import { inferred, pick } from './overloads.ts';
import { external, externalOwner, METHOD_KINDS, UNRESOLVED, VALUE_MEMBER_KINDS, type Found, type Resolution } from './resolution.ts';
import { valued } from './value-names.ts';

/**
 * The Kotlin file of this package whose facade class Java calls `name` (`Pricing.kt` is
 * `PricingKt`, or what its `@file:JvmName` says). Java reaches that file's top-level functions
 * and properties as static members of it.
 */
export function facadeIn(context: FileResolution, pkg: string, name: string): string | undefined {
  if (context.fd.file.lang !== 'java') return undefined;
  return context.resolver.facades(pkg)?.get(name);
}

/** A facade named without qualifier: in this package, imported by name, or under a wildcard import. */
export function facadeNamed(context: FileResolution, name: string): { pkg: string; path: string } | undefined {
  const file = context.fd.file;
  if (file.lang !== 'java') return undefined;
  const pkgs = [file.pkg, ...file.imports.filter((i) => !i.static && (i.wildcard || i.path.endsWith(`.${name}`)))
    .map((i) => (i.wildcard ? i.path : i.path.slice(0, i.path.lastIndexOf('.'))))];
  for (const pkg of pkgs) {
    const path = facadeIn(context, pkg, name);
    if (path) return { pkg, path };
  }
  return undefined;
}

/**
 * `PricingKt.priceWithTax(o)`, `PricingKt.isLarge(o)` (an extension, its receiver the first
 * argument), `KotlinExtensions.await(call, continuation)` (a suspend function's Continuation
 * last, overloads by their @JvmName), `PricingKt.getTaxRate()` and `PricingKt.TAX_RATE` (a
 * property's getter, a constant).
 */
export function facadeMember(context: FileResolution, receiver: Resolution, name: string, kind: ReferenceKind, args: (JType | undefined)[] | undefined): Resolution {
  const inFile = [...(context.table.packages.get(receiver.pkg!)?.values() ?? [])].flat().filter((d) => d.file.path === receiver.facade);
  const functions = inFile.filter((d) => d.kind === 'function' && (d.def.jvmName ?? d.name) === name);
  if (kind === 'call' && functions.length) return chosen(context, functions.map((decl) => ({ decl, env: NO_ENV })), args, 'call', true);
  const properties = accessedProperties(inFile, kind === 'call' ? name : undefined, args?.length ?? 0);
  if (kind !== 'call') {
    const fields = inFile.filter((d) => d.kind === 'property' && d.name === name);
    if (fields.length === 1) return valued(context, { decl: fields[0]!, env: NO_ENV }, kind);
  } else if (properties?.found.length === 1) {
    return valued(context, { decl: properties.found[0]!, env: NO_ENV }, properties.write ? 'write' : 'read');
  }
  return { ...UNRESOLVED, kind };
}

/**
 * The Kotlin properties a Java accessor call reaches (`getName()` → name, `isOpen()` → isOpen,
 * `setOpen(v)` → open or isOpen); a @JvmField or const property has no accessors.
 */
function accessedProperties(candidates: Decl[], accessor: string | undefined, argCount: number): { found: Decl[]; write: boolean } | undefined {
  const match = accessor ? /^(get|set|is)([A-Z]\w*)$/.exec(accessor) : undefined;
  if (!match) return undefined;
  const [, prefix, rest] = match;
  const write = prefix === 'set';
  if (write !== (argCount === 1) || argCount > 1) return undefined;
  const plain = rest!.charAt(0).toLowerCase() + rest!.slice(1);
  const names = prefix === 'is' ? [accessor!] : write ? [plain, `is${rest}`] : [plain];
  const found = candidates.filter((d) => d.kind === 'property' && d.file.lang === 'kotlin' && names.includes(d.name)
    && !hasAnnotation(d.def.modifiers, 'JvmField') && !hasModifier(d.def.modifiers, 'const'));
  return { found, write };
}

/**
 * The type a Kotlin smart cast gives a local, a parameter or a property read here: the innermost
 * `x is T` region around the read, for a variable declared before the region began.
 */
export function smartCast(context: FileResolution, decl: Decl, ref: RefEntry): JType | undefined {
  const narrowings = context.fd.file.narrowings;
  if (!narrowings || !(decl.kind === 'local' || decl.kind === 'parameter' || decl.kind === 'property')) return undefined;
  let inner: NarrowEntry | undefined;
  for (const n of narrowings) {
    if (n.start > ref.start) break;
    if (n.name === ref.name && ref.start < n.end && (decl.file !== context.fd.file || decl.def.start < n.start)) inner = n;
  }
  return inner && context.resolveTypeText(inner.type, inner.scope);
}

/**
 * The receiver type of a Kotlin extension whose body this scope is (`fun Order.isLarge()`,
 * `val Order.lineCount get() = …`): inside, `this` is an Order and its members need no qualifier.
 */
export function extensionReceiverOfScope(context: FileResolution, scope: number): JType | undefined {
  const def = context.fd.file.scopes[scope]!.def;
  const decl = def >= 0 ? context.fd.decls[def] : undefined;
  if (!decl) return def < 0 ? lambdaReceiver(context, scope) : undefined;
  if (decl.kind !== 'function' && decl.kind !== 'property' && decl.kind !== 'method') return undefined;
  return context.resolver.receiverTypeOf(decl);
}

/** A Java getter read as a property, or an extension property, on the receiver of an enclosing extension. */
export function viaExtensionReceiver(context: FileResolution, name: string, scope: number, kind: ReferenceKind): Resolution | undefined {
  for (let s = scope; s >= 0; s = context.fd.file.scopes[s]!.parent) {
    const receiver = extensionReceiverOfScope(context, s);
    if (!receiver) continue;
    const accessor = javaAccessor(context, receiver, name, kind === 'write');
    if (accessor) return accessor;
    const extension = visibleExtension(context, name, receiver, 'property');
    if (extension?.confidence === 'resolved') return { ...extension, kind };
  }
  return undefined;
}

/**
 * `get<Name>()`/`is<Name>()` of a Java class read as a Kotlin property, or `set<Name>(v)` written
 * as one. Kotlin makes the synthetic property from the getter: a setter alone makes none, so a
 * write resolves only where the getter exists too (without it, `order.status = …` resolves to
 * nothing, as kotlinc reports it). The write is a reference of the setter alone, the method it
 * calls, as kotlinc's references say; change_impact finds it from a changed getter through the
 * setter (packages/query change-impact.ts, kotlinPropertyWrites).
 */
export function javaAccessor(context: FileResolution, type: JType, name: string, write: boolean): Resolution | undefined {
  const getter = javaGetter(context, type, name);
  // `view.removeClippedSubviews = x` on a repository class whose getter a library supertype
  // declares (ViewGroup's): the write calls the repository's setter.
  if (!getter) return write && getterInLibrary(context, type, name) ? javaSetter(context, type, name) : undefined;
  const returned = context.resolver.typeOfDecl(getter.decl);
  if (!write) return { targets: [{ decl: getter.decl }], confidence: 'resolved', kind: 'call', ...(returned ? { value: substitute(returned, getter.env) } : {}) };
  return javaSetter(context, type, name);
}

/** Whether an external supertype of the type (not the root class) may declare the property's getter. */
function getterInLibrary(context: FileResolution, type: JType, name: string): boolean {
  return getterNames(name).some((getter) => externalOwner(context.resolver.members(type, getter, METHOD_KINDS), getter) !== undefined);
}

/** The one Java setter a Kotlin property write calls. */
function javaSetter(context: FileResolution, type: JType, name: string): Resolution | undefined {
  const setterName = `set${/^is[A-Z]/.test(name) ? name.slice(2) : name.charAt(0).toUpperCase() + name.slice(1)}`;
  const setters = context.resolver.members(type, setterName, METHOD_KINDS).found.filter((f) => f.decl.file.lang === 'java' && (f.decl.params?.length ?? 0) === 1);
  if (setters.length !== 1) return undefined;
  return { targets: [{ decl: setters[0]!.decl }], confidence: 'resolved', kind: 'call' };
}

/** The names of the Java getters a Kotlin property `name` reads: `getName`, `isName` (`isActive` for a property `isActive`). */
function getterNames(name: string): string[] {
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  return [`get${cap}`, /^is[A-Z]/.test(name) ? name : `is${cap}`];
}

/** The Java getter a Kotlin property name stands for: `getName()`, or `isActive()` (for `active` too, as read before). */
function javaGetter(context: FileResolution, type: JType, name: string): Found | undefined {
  for (const accessor of getterNames(name)) {
    const found = context.resolver.members(type, accessor, METHOD_KINDS).found.filter((f) => f.decl.file.lang === 'java' && (f.decl.params?.length ?? 0) === 0);
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/** `getName()`/`isActive()`/`setName(v)` called from Java on a Kotlin property. */
export function kotlinProperty(context: FileResolution, type: JType, name: string, argCount: number): Resolution | undefined {
  const renamed = argCount === 0 ? getterNamed(context, type, name) : undefined;
  if (renamed) return renamed;
  const match = /^(get|set|is)([A-Z]\w*)$/.exec(name);
  if (!match) return undefined;
  const rest = match[2]!;
  const names = match[1] === 'is' ? [name] : match[1] === 'set' ? [rest.charAt(0).toLowerCase() + rest.slice(1), `is${rest}`] : [rest.charAt(0).toLowerCase() + rest.slice(1)];
  const members = names.flatMap((n) => context.resolver.members(type, n, VALUE_MEMBER_KINDS).found);
  const accessed = accessedProperties(members.map((f) => f.decl), name, argCount);
  if (accessed?.found.length !== 1) return undefined;
  const found = members.find((f) => f.decl === accessed.found[0])!;
  const valueType = context.resolver.typeOfDecl(found.decl);
  return {
    targets: [{ decl: found.decl }], confidence: 'resolved', kind: accessed.write ? 'write' : 'read',
    ...(valueType && !accessed.write ? { value: substitute(valueType, found.env) } : {}),
  };
}

/** A property of the type whose getter `@get:JvmName` names so (`@get:JvmName("isReady") val ready`), read from Java. */
function getterNamed(context: FileResolution, type: JType, name: string): Resolution | undefined {
  if (type.t !== 'decl') return undefined;
  for (const decls of type.decl.members?.values() ?? []) {
    const property = decls.find((d) => d.kind === 'property' && d.def.jvmName === name);
    if (!property) continue;
    const valueType = context.resolver.typeOfDecl(property);
    return { targets: [{ decl: property }], confidence: 'resolved', kind: 'read', ...(valueType ? { value: valueType } : {}) };
  }
  return undefined;
}

/**
 * Kotlin extension functions (or properties) named so that the file can see (same package,
 * imported by name or wildcard), applicable to the receiver type.
 */
export function visibleExtension(context: FileResolution, name: string, receiver: JType | undefined, what: 'function' | 'property', args?: (JType | undefined)[]): Resolution | undefined {
  const all = context.table.extensions.get(name);
  if (!all) return undefined;
  const file = context.fd.file;
  const visible = all.filter((d) => {
    if ((what === 'function') !== (d.kind === 'function' || d.kind === 'method')) return false;
    const pkg = d.file.pkg;
    if (!d.parent && pkg === file.pkg) return true;
    // Extensions declared inside a class are visible in that class's file only.
    if (d.parent) return d.file === file;
    return file.imports.some((i) => (i.wildcard ? i.path === pkg : i.path === `${pkg}.${name}`));
  });
  if (visible.length === 0) return undefined;
  const applicable = visible.filter((d) => {
    if (!receiver) return true;
    const declared = context.resolver.receiverTypeOf(d);
    if (!declared) return true;
    return assignable(context.resolver, receiver, declared) !== 'no';
  });
  if (applicable.length === 0) return undefined;
  const picked = what === 'function' ? pick(context.resolver, applicable.map((decl) => ({ decl, env: NO_ENV })), args) : { chosen: applicable.map((decl) => ({ decl, env: NO_ENV })), exact: applicable.length === 1 };
  const exact = picked.exact && picked.chosen.length === 1 && receiver !== undefined;
  const returned = exact ? context.resolver.typeOfDecl(picked.chosen[0]!.decl) : undefined;
  // The extension's type parameters bound by its receiver and arguments (`List<Order>.each { … }` takes an Order).
  const env = exact ? inferred(context.resolver, picked.chosen[0]!, [receiver, ...(args ?? [])], undefined, true) : undefined;
  return {
    targets: picked.chosen.map((f) => ({ decl: f.decl })), confidence: exact ? 'resolved' : 'candidate', kind: what === 'function' ? 'call' : 'read',
    ...(env ? { env } : {}), ...(returned ? { value: env ? substitute(returned, env) : returned } : {}),
  };
}

/** A Kotlin stdlib extension the file sees (default imports, or imported) that applies to the receiver. */
export function libraryExtension(context: FileResolution, name: string, receiver: JType, what: 'function' | 'property', args?: (JType | undefined)[]): Resolution | undefined {
  const imports = context.fd.file.imports;
  const found = context.resolver.library.kotlinExtensions(name, receiver, what).filter(({ member: { owner } }) =>
    isKotlinDefaultPackage(owner) || imports.some((i) => (i.wildcard ? i.path === owner : i.path === `${owner}.${name}`)));
  if (found.length === 0) return undefined;
  const owners = [...new Set(found.map((f) => f.member.owner))];
  const value = what === 'function' ? context.resolver.library.callType(found, args) : context.resolver.library.returnType(found[0]!);
  return {
    targets: owners.map((owner) => ({ ext: external(`${owner}.${name}`, owner, what === 'function' ? 'function' : 'property') })),
    confidence: owners.length === 1 ? 'resolved' : 'candidate', kind: what === 'function' ? 'call' : 'read', ...(value && owners.length === 1 ? { value } : {}),
    // The overloads, bound to the receiver: a lambda passed to one (`orders.filter { it.status }`) takes its parameter types.
    ...(what === 'function' ? { library: found } : {}),
  };
}

/** `get<Name>()`/`is<Name>()` of a library type read as a Kotlin property (`file.name` → File.getName()). */
export function libraryAccessor(context: FileResolution, type: JType, name: string): Resolution | undefined {
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  for (const accessor of [`get${cap}`, /^is[A-Z]/.test(name) ? name : `is${cap}`]) {
    const lookup = context.resolver.members(type, accessor, METHOD_KINDS);
    const found = { ...lookup, library: lookup.library.filter((f) => f.member.params.length === 0 && !f.member.static) };
    const resolution = libraryMember(context, found, accessor, 'call', 'method', [], false);
    if (resolution) return resolution;
  }
  return undefined;
}

/** A companion member Java sees as a static member of the outer class. */
export function isStaticToJava(decl: Decl): boolean {
  const modifiers = decl.def.modifiers;
  return hasAnnotation(modifiers, 'JvmStatic') || hasAnnotation(modifiers, 'JvmField') || hasModifier(modifiers, 'const') || hasModifier(modifiers, 'lateinit');
}

export const KCLASS = 'kotlin.reflect.KClass';

/** `Service::class.java` (and its object and primitive forms): the java.lang.Class of a KClass. */
export function classMapping(type: JType, name: string): JType | undefined {
  if (type.t !== 'ext' || type.fqn !== KCLASS || !['java', 'javaObjectType', 'javaPrimitiveType'].includes(name)) return undefined;
  return { t: 'ext', fqn: 'java.lang.Class', args: type.args };
}
