// Which overload a call chooses (JLS 15.12.2 as far as argument types are known, with the
// JVM's view of a Kotlin callable for a Java caller) and the type arguments the chosen method
// infers from its arguments.
import { MODIFIERS } from '@sextant/format';
import type { JvmLanguage } from './file-model.ts';
import { hasAnnotation } from './jvm-naming.ts';
import { boxesOf, runtimeName } from './jvm-builtins.ts';
import { envOf, substitute, type JType, type TypeEnv } from './jvm-types.ts';
import type { Decl } from './symbol-table.ts';
import { assignable, primitiveName } from './assignability.ts';
import type { Found } from './resolution.ts';
import type { JvmResolver } from './resolver.ts';

/**
 * The overloads that accept the arguments, chosen as javac does (JLS 15.12.2) as far as the
 * argument types are known: by arity; then the first phase that applies (no boxing nor varargs,
 * then boxing, then varargs); then the most specific method. Where an argument's type is unknown
 * and that leaves a choice, the overloads matching the known arguments best. `caller` is the
 * calling file's language: Java passes a Kotlin callable's parameters as the JVM sees them (a
 * suspend function's Continuation last, default values only with @JvmOverloads, an extension's
 * receiver first when `facade` says it is called through the file's facade class).
 */
export function pick(resolver: JvmResolver, candidates: Found[], args: (JType | undefined)[] | undefined, caller: JvmLanguage = 'kotlin', facade = false): { chosen: Found[]; exact: boolean } {
  if (candidates.length === 0 || !args) return { chosen: candidates, exact: candidates.length === 1 };
  const n = args.length;
  const shapes = new Map(candidates.map((c) => [c, slots(resolver, c.decl, caller, facade)]));
  const byArity = candidates.filter((c) => arityAccepts(shapes.get(c)!, n));
  // One declaration of the name whose parameter count the call misses: kept, as counting
  // arguments is the less certain reading here (defaults, trailing lambdas, the JVM's view).
  if (byArity.length === 0) return { chosen: candidates, exact: candidates.length === 1 && !facade };
  // Known argument types that fit no overload of the right arity: the call is a compile error,
  // not a use of the overload that remains (removing `discount(String)` leaves `discount("x")`
  // unresolved, never a call of `discount(int)`). Unknown types never rule an overload out.
  const applicable = byArity.map((candidate) => applicability(resolver, candidate, args, shapes.get(candidate)!, caller)).filter((a): a is Applicability => a !== undefined);
  if (applicable.length === 0) return { chosen: [], exact: false };
  if (applicable.length === 1) return { chosen: [applicable[0]!.found], exact: true };
  // A method applicable for certain in an earlier phase hides every one of a later phase.
  const certain = applicable.filter((a) => a.certain);
  const phase = certain.length ? Math.min(...certain.map((a) => a.phase)) : 3;
  const pool = applicable.filter((a) => a.phase <= phase);
  if (pool.length === 1) return { chosen: [pool[0]!.found], exact: true };
  const specific = pool.filter((m) => pool.every((o) => o === m || moreSpecific(resolver, m, o)));
  if (specific.length === 1 && specific[0]!.certain) return { chosen: [specific[0]!.found], exact: true };
  const best = Math.max(...pool.map((a) => a.score));
  const top = pool.filter((a) => a.score === best);
  if (top.length === 1) return { chosen: [top[0]!.found], exact: true };
  return { chosen: pool.map((a) => a.found), exact: false };
}

/** How a candidate takes the arguments in its parameter slots; undefined when some known argument does not fit. */
function applicability(resolver: JvmResolver, found: Found, args: (JType | undefined)[], slots: ParamSlot[], caller: JvmLanguage): Applicability | undefined {
  const n = args.length;
  const last = slots.length - 1;
  const spread = last >= 0 && slots[last]!.varargs
    && !(n === slots.length && (args[last]?.t === 'array' || args[last]?.t === 'null'));
  const types: (JType | undefined)[] = [];
  let score = 0;
  let certain = true;
  let boxing = false;
  for (let i = 0; i < n; i++) {
    const slot = slots[Math.min(i, last)];
    let type = slot?.type();
    if (type) type = resolver.erased(substitute(type, found.env));
    if (type && spread && i >= last && type.t === 'array') type = type.of;
    types.push(type);
    const arg = args[i];
    if (!arg || !type) {
      certain = false;
      continue;
    }
    let fit = assignable(resolver, arg, type);
    if (fit === 'no' && caller === 'kotlin' && kotlinMayConvert(resolver, arg, type)) fit = 'maybe';
    if (fit === 'no') return undefined;
    if (fit === 'maybe') certain = false;
    else score += fit === 'exact' ? 2 : 1;
    if (arg.t !== 'null' && (primitiveName(arg) === undefined) !== (primitiveName(type) === undefined)) boxing = true;
  }
  return { found, types, score, certain, phase: spread ? 3 : boxing ? 2 : 1 };
}

/**
 * Where Kotlin may pass what its declared type says it cannot: a smart cast this resolver does
 * not see (a contract, `require(x is T)`) narrows a variable to a subtype, and a value of a
 * function type converts to a Java functional interface. Neither rules an overload out.
 */
function kotlinMayConvert(resolver: JvmResolver, arg: JType, param: JType): boolean {
  if (arg.t === 'ext' && /^kotlin\.(jvm\.functions\.)?Function\d*$/.test(arg.fqn)) return param.t === 'decl' || param.t === 'ext';
  const narrowed = assignable(resolver, param, arg);
  return narrowed === 'yes' || narrowed === 'exact';
}

/** `m` is at least as specific as `o`: each of its parameter types is a subtype of `o`'s (JLS 15.12.2.5). */
function moreSpecific(resolver: JvmResolver, m: Applicability, o: Applicability): boolean {
  return m.types.every((type, i) => {
    const other = o.types[i];
    if (!type || !other) return false;
    const fit = assignable(resolver, type, other);
    return fit === 'exact' || fit === 'yes';
  });
}

/** A callable's parameters as a caller in `caller` passes them (see pick). */
function slots(resolver: JvmResolver, decl: Decl, caller: JvmLanguage, facade: boolean): ParamSlot[] {
  const javaView = caller === 'java' && decl.file.lang === 'kotlin';
  const overloads = javaView && hasAnnotation(decl.def.modifiers, 'JvmOverloads');
  const slots: ParamSlot[] = (decl.params ?? []).map((p) => ({
    type: () => resolver.typeOfDecl(p), varargs: p.def.varargs === true,
    optional: p.def.value !== undefined && decl.file.lang === 'kotlin' && (!javaView || overloads),
  }));
  if (!javaView) return slots;
  if (facade && decl.def.receiverType) slots.unshift({ type: () => resolver.receiverTypeOf(decl), varargs: false, optional: false });
  if (decl.mods & MODIFIERS.async) slots.push({ type: () => ({ t: 'ext', fqn: 'kotlin.coroutines.Continuation', args: [] }), varargs: false, optional: false });
  return slots;
}

/**
 * The type environment of a chosen method with its own type parameters bound from the arguments
 * (`<T> T checkNotNull(T)` on an Item returns an Item): unification of each parameter's type with
 * its argument's, a first binding winning, primitives boxed. Unbound ones stay variables (their
 * bound gives their members). Through a Kotlin file's facade (`facade`), an extension's receiver
 * is the first argument.
 */
export function inferred(resolver: JvmResolver, found: Found, allArgs: (JType | undefined)[] | undefined, vars = found.decl.typeParams, facade = false): TypeEnv {
  const params = found.decl.params ?? [];
  const receiver = facade ? resolver.receiverTypeOf(found.decl) : undefined;
  if (!vars || !params.length && !receiver || !allArgs) return found.env;
  const env = new Map(found.env);
  if (receiver && allArgs[0]) unify(resolver, receiver, allArgs[0], vars, env, found.decl.file.lang);
  const args = receiver ? allArgs.slice(1) : allArgs;
  if (!params.length) return env;
  const last = params.length - 1;
  const spread = params[last]!.def.varargs === true && !(args.length === params.length && args[last]?.t === 'array');
  args.forEach((arg, i) => {
    const param = params[Math.min(i, last)];
    let type = param && resolver.typeOfDecl(param);
    if (!arg || !type) return;
    type = substitute(type, found.env);
    if (spread && i >= last && type.t === 'array') type = type.of;
    unify(resolver, type, arg, vars, env, found.decl.file.lang);
  });
  return env;
}

function unify(resolver: JvmResolver, param: JType, arg: JType, vars: readonly Decl[], env: Map<Decl, JType>, lang: 'java' | 'kotlin'): void {
  if (param.t === 'var') {
    if (vars.includes(param.decl) && !env.has(param.decl) && arg.t !== 'null') {
      const prim = primitiveName(arg);
      env.set(param.decl, prim && arg.t === 'prim' ? { t: 'ext', fqn: boxesOf(prim)[lang === 'java' ? 0 : 1]!, args: [] } : arg);
    }
    return;
  }
  if (param.t === 'array') {
    if (arg.t === 'array') unify(resolver, param.of, arg.of, vars, env, lang);
    return;
  }
  if ((param.t !== 'decl' && param.t !== 'ext') || param.args.length === 0) return;
  const view = asSuper(resolver, arg, param);
  if (view) param.args.forEach((p, i) => view[i] && unify(resolver, p, view[i]!, vars, env, lang));
}

/** The type arguments `arg` has as the generic type `of` (`ArrayList<Item>` as a `List<E>`: [Item]), by its supertypes. */
function asSuper(resolver: JvmResolver, arg: JType, of: JType & { args: JType[] }, seen = new Set<Decl>()): JType[] | undefined {
  if (of.t === 'decl' && arg.t === 'decl' && arg.decl === of.decl) return arg.args;
  if (of.t === 'ext' && arg.t === 'ext' && runtimeName(arg.fqn) === runtimeName(of.fqn)) return arg.args;
  if (arg.t !== 'decl' || seen.has(arg.decl)) return undefined;
  seen.add(arg.decl);
  const env = envOf(arg);
  for (const sup of resolver.supertypes(arg.decl)) {
    const found = asSuper(resolver, substitute(sup.type, env), of, seen);
    if (found) return found;
  }
  return undefined;
}

interface Applicability {
  found: Found;
  /** The parameter type each argument meets (a varargs element when spread), erased. */
  types: (JType | undefined)[];
  /** 2 for each argument of exactly the parameter's type, 1 for each that converts. */
  score: number;
  /** Every argument's type is known and fits for sure. */
  certain: boolean;
  /** The phase of JLS 15.12.2 that applies it: 1 strict or widening, 2 with boxing, 3 varargs. */
  phase: 1 | 2 | 3;
}

/** One parameter as a call passes it. */
interface ParamSlot {
  type(): JType | undefined;
  varargs: boolean;
  optional: boolean;
}

/** Whether parameter slots take this many arguments: optional ones may be left out, varargs take any number more. */
function arityAccepts(slots: readonly ParamSlot[], n: number): boolean {
  const required = slots.filter((slot) => !slot.optional).length;
  const varargs = slots.length > 0 && slots[slots.length - 1]!.varargs;
  return varargs ? n >= slots.length - 1 : n <= slots.length && n >= required;
}

/** Whether a callable takes this many arguments (Kotlin parameters with defaults may be left out). */
export function arityFits(decl: Decl, n: number): boolean {
  const params = decl.params ?? [];
  const required = params.filter((p) => p.def.value === undefined || decl.file.lang === 'java').length;
  const varargs = params.length > 0 && params[params.length - 1]!.def.varargs;
  return varargs ? n >= params.length - 1 : n <= params.length && n >= required;
}
