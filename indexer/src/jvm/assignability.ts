// Whether a value of one type may go where another is expected: primitive widening, boxing,
// subtyping within the repository and through the library models, lambdas to functional
// interfaces, and Kotlin's spellings of JVM types.
import { boxesOf, primitiveArrayElement, primitiveOfBox, primitiveOfKotlin, runtimeName, widens } from './jvm-builtins.ts';
import { sameType, type JType } from './jvm-types.ts';
import { isRootType } from './resolution.ts';
import type { JvmResolver } from './resolver.ts';

/** Whether a value of type `from` can be passed where `to` is expected. */
export function assignable(resolver: JvmResolver, fromWritten: JType, toWritten: JType): 'exact' | 'yes' | 'maybe' | 'no' {
  if (fromWritten.t === 'fn') return implementable(resolver, fromWritten, toWritten);
  if (toWritten.t === 'fn') return 'maybe';
  const from = jvmView(fromWritten);
  const to = jvmView(toWritten);
  if (sameRuntimeType(from, to)) return 'exact';
  if (to.t === 'var' || from.t === 'var') return 'maybe';
  if (from.t === 'null') return to.t === 'prim' ? 'no' : 'yes';
  if (from.t === 'ext' && from.integerLiteral) {
    const expected = primitiveName(to) ?? (to.t === 'ext' ? primitiveOfBox(to.fqn) : undefined);
    if (expected && LITERAL_NARROWS.has(expected)) return 'yes';
  }
  const fromPrim = primitiveName(from);
  const toPrim = primitiveName(to);
  if (fromPrim && toPrim) return fromPrim === toPrim ? 'exact' : widens(fromPrim, toPrim) ? 'yes' : 'no';
  if (fromPrim && to.t === 'ext') {
    if (boxesOf(fromPrim).includes(to.fqn) || isRootType(to.fqn)) return 'yes';
    // A primitive passes as whatever its box is: Integer is a Number, a Comparable, a Serializable.
    const box = boxesOf(fromPrim)[0];
    return box && resolver.library.isSubtype({ t: 'ext', fqn: box, args: [] }, to.fqn) ? 'yes' : 'no';
  }
  if (fromPrim && to.t === 'decl') {
    // Boxing, then a widening reference conversion (JLS 5.3), to the repository's own Number or Object (java.base).
    const box = resolver.table.types.get(boxesOf(fromPrim)[0] ?? '')?.[0];
    return box && resolver.isSubtype(box, to.decl) ? 'yes' : 'no';
  }
  if (toPrim) {
    // Unboxing, then a widening primitive conversion.
    const held = boxedPrimitive(from);
    return held && (held === toPrim || widens(held, toPrim)) ? 'yes' : 'no';
  }
  if (to.t === 'ext' && isRootType(to.fqn)) return 'yes';
  if (from.t === 'array' && (to.t === 'decl' || to.t === 'ext')) {
    // Arrays are Objects, Cloneables and Serializables (JLS 4.10.3).
    return ARRAY_SUPERTYPES.has(to.t === 'decl' ? to.decl.fqn ?? '' : to.fqn) ? 'yes' : 'no';
  }
  if (from.t === 'decl' && to.t === 'decl') return resolver.isSubtype(from.decl, to.decl) ? 'yes' : resolver.hasUnknownSuper(from.decl) ? 'maybe' : 'no';
  if (from.t === 'decl' && to.t === 'ext') return resolver.extendsExternal(from.decl, to.fqn) ? 'yes' : 'maybe';
  if (from.t === 'ext' && to.t === 'decl') return 'no';
  if (from.t === 'array' || to.t === 'array') return from.t === 'array' && to.t === 'array' ? assignable(resolver, from.of, to.of) : 'no';
  if (from.t === 'ext' && to.t === 'ext') {
    const sub = resolver.library.isSubtype(from, to.fqn);
    return sub === true ? 'yes' : sub === false ? 'no' : 'maybe';
  }
  return 'maybe';
}

/**
 * Whether a lambda or method reference can be passed where `to` is expected: a functional
 * interface whose method takes as many parameters (JLS 15.27.3). Classes, arrays, primitives,
 * Object and the JDK's value types are no functional interfaces; other external types may be.
 */
function implementable(resolver: JvmResolver, fn: JType & { t: 'fn' }, to: JType): 'yes' | 'maybe' | 'no' {
  if (to.t === 'var') return implementable(resolver, fn, resolver.erased(to));
  if (to.t === 'prim' || to.t === 'array' || to.t === 'null' || to.t === 'fn') return 'no';
  if (to.t === 'ext') {
    if (isRootType(to.fqn) || primitiveName(to) || primitiveOfBox(to.fqn) || to.fqn === 'java.lang.String') return 'no';
    // A library type the model knows is functional exactly when it has one abstract method.
    if (!resolver.library.typeOf(to.fqn)) return 'maybe';
    const sam = resolver.library.functionalMethod(to);
    if (!sam) return 'no';
    return !fn.arities ? 'maybe' : fn.arities.includes(sam.member.params.length) ? 'yes' : 'no';
  }
  const sam = resolver.functionalMethod(to);
  if (!sam) return to.decl.kind === 'interface' && to.decl.file.lang === 'kotlin' ? 'maybe' : 'no';
  if (sam === 'unknown' || !fn.arities) return 'maybe';
  return fn.arities.includes(sam.decl.params?.length ?? 0) ? 'yes' : 'no';
}

/** The types a Kotlin integer literal takes besides Int when one is expected. */
const LITERAL_NARROWS: ReadonlySet<string> = new Set(['byte', 'short', 'long']);

const ARRAY_SUPERTYPES = new Set(['java.lang.Object', 'java.lang.Cloneable', 'java.io.Serializable', 'kotlin.Any']);

/** The primitive a box holds, whether the box is external or the repository's own (java.base declares java.lang.Integer). */
export function boxedPrimitive(type: JType): string | undefined {
  if (type.t === 'ext') return primitiveOfBox(type.fqn);
  return type.t === 'decl' && type.decl.fqn ? primitiveOfBox(type.decl.fqn) : undefined;
}

export function isStringType(type: JType | undefined): boolean {
  return type?.t === 'ext' ? type.fqn === 'java.lang.String' : type?.t === 'decl' && type.decl.fqn === 'java.lang.String';
}

export function primitiveName(type: JType): string | undefined {
  if (type.t === 'prim') return type.name;
  if (type.t === 'ext') return primitiveOfKotlin(type.fqn);
  return undefined;
}

/**
 * Whether two types erase to the same JVM type: Kotlin's spellings mapped to Java's (`Array<T>`
 * is `T[]`, `IntArray` `int[]`, `Int` `int`, `Any` Object, `MutableList` java.util.List). With
 * `boxes`, a primitive and its box are the same too (Kotlin's `Int?` is an Integer).
 */
export function sameRuntimeType(written: JType, otherWritten: JType, boxes = false): boolean {
  const a = jvmView(written);
  const b = jvmView(otherWritten);
  if (a.t === 'array' && b.t === 'array') return sameRuntimeType(a.of, b.of);
  if (a.t === 'ext' && b.t === 'ext') {
    if (runtimeName(a.fqn) === runtimeName(b.fqn)) return true;
  }
  const pa = primitiveName(a) ?? (boxes ? unboxed(a) : undefined);
  const pb = primitiveName(b) ?? (boxes ? unboxed(b) : undefined);
  if (pa || pb) return pa === pb;
  return sameType(a, b);
}

/** The primitive a Java box holds (`java.lang.Integer` → int). */
function unboxed(type: JType): string | undefined {
  return type.t === 'ext' ? primitiveOfBox(type.fqn) : undefined;
}

/** A type as the JVM sees it: Kotlin's arrays as arrays (elements boxed), `Unit` as void. */
function jvmView(type: JType): JType {
  if (type.t !== 'ext') return type;
  if (type.fqn === 'kotlin.Array') {
    const element = type.args[0];
    if (!element) return type;
    const prim = primitiveName(element);
    return { t: 'array', of: prim ? { t: 'ext', fqn: boxesOf(prim)[0]!, args: [] } : jvmView(element) };
  }
  const prim = primitiveArrayElement(type.fqn);
  if (prim) return { t: 'array', of: { t: 'prim', name: prim } };
  if (type.fqn === 'kotlin.Unit') return { t: 'prim', name: 'void' };
  return type;
}
