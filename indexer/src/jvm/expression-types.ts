// The static type of an expression (a literal, `this`, a cast, an element, arithmetic, a
// lambda) and of a lambda's parameters from the type it is expected to have; argument types
// for overload choice.
import { CALLABLE_KINDS, TYPE_KINDS, type ExprEntry, type RefEntry } from './file-model.ts';
import { boxesOf } from './jvm-builtins.ts';
import type { LibraryFound } from './library/library-types.ts';
import { NO_ENV, substitute, type JType } from './jvm-types.ts';
import type { Decl } from './symbol-table.ts';
import { parseTypeText } from './type-text.ts';
import { boxedPrimitive, isStringType } from './assignability.ts';
import type { FileResolution } from './file-resolution.ts';
import { METHOD_KINDS, type Found, type Resolution } from './resolution.ts';
import { resolveParsedType } from './type-names.ts';

export function computeExprType(context: FileResolution, expr: ExprEntry): JType | undefined {
  switch (expr.form) {
    case 'ref': {
      const resolution = context.resolve(expr.ref);
      return resolution.value ?? lambdaResult(context, expr.ref, resolution);
    }
    case 'literal':
      if (expr.type === 'null') return { t: 'null' };
      if (expr.type === KOTLIN_INT) return { t: 'ext', fqn: KOTLIN_INT, args: [], integerLiteral: true };
      return expr.type.includes('.') ? context.resolver.typeByName(expr.type, context.fd.module) : { t: 'prim', name: expr.type };
    case 'this': {
      if (expr.qualifier >= 0) {
        const qualifier = exprResolution(context, expr.qualifier);
        return qualifier?.denotes;
      }
      const cls = context.enclosingType(expr.scope);
      return cls && { t: 'decl', decl: cls, args: [] };
    }
    case 'super': {
      const cls = context.enclosingType(expr.scope);
      return cls ? context.resolver.supertypes(cls)[0]?.type : undefined;
    }
    case 'cast':
      return context.resolveTypeText(expr.type, expr.scope);
    case 'parens':
      return context.typeOfExpr(expr.value);
    case 'element': {
      const of = context.typeOfExpr(expr.value);
      return of && indexedElement(context, of);
    }
    case 'def': {
      const decl = context.fd.decls[expr.def];
      return decl && { t: 'decl', decl, args: [] };
    }
    case 'lambda': {
      // A Kotlin lambda that declares no parameter takes none, or one as `it`.
      const declared = lambdaParameters(context, expr.scope).length;
      return { t: 'fn', arities: declared === 0 && context.fd.file.lang === 'kotlin' ? [0, 1] : [declared] };
    }
    case 'arithmetic':
      return promoted(expr.operands.map((o) => context.typeOfExpr(o)));
  }
}

/**
 * A library call whose value is what its trailing lambda returns (`let`, `run`, `with`: `R` of
 * `(T) -> R`), which the library model cannot bind without typing the lambda: the type of the
 * lambda's last statement, asked once the call is resolved (the lambda's `it` is typed by it).
 */
function lambdaResult(context: FileResolution, ref: number, resolution: Resolution): JType | undefined {
  const args = context.fd.file.refs[ref]!.args;
  const last = args?.[args.length - 1];
  const lambda = last === undefined || last < 0 ? undefined : context.fd.file.exprs[last];
  if (lambda?.form !== 'lambda' || lambda.value < 0 || !resolution.library?.length) return undefined;
  const returnsLambdaValue = resolution.library.every(({ member }) => {
    const fn = parseTypeText(member.params[member.params.length - 1] ?? '');
    const result = fn?.args[fn.args.length - 1];
    return /^kotlin\.Function\d+$/.test(fn?.segments.join('.') ?? '') && result?.segments.length === 1 && result.args.length === 0 && result.segments[0] === member.type;
  });
  return returnsLambdaValue ? context.typeOfExpr(lambda.value) : undefined;
}

/**
 * The type of a lambda's parameter by position: of the functional interface method it
 * implements, or the parameter type of the Kotlin function type it is passed as (`(Order) -> Unit`).
 */
export function lambdaParameterAt(context: FileResolution, scope: number, position: number): JType | undefined {
  const lambda = context.lambdaSites().byScope.get(scope);
  const target = lambda === undefined ? undefined : targetType(context, lambda);
  if (target?.t === 'ext' && /^kotlin\.Function\d+$/.test(target.fqn) && target.args.length > 1) {
    const type = target.args[position];
    return type && position < target.args.length - 1 && type.t !== 'null' ? type : undefined;
  }
  if (target?.t === 'ext') {
    // A JDK or stdlib functional interface (Consumer<Item>, Function1<A, R>): its one abstract method's parameter.
    const sam = context.resolver.library.functionalMethod(target);
    const text = sam?.member.params[position];
    return text === undefined ? undefined : context.resolver.library.resolve(text, sam!.env, sam!.member);
  }
  if (target?.t !== 'decl') return undefined;
  const sam = context.resolver.functionalMethod(target);
  const samParam = sam && sam !== 'unknown' ? sam.decl.params?.[position] : undefined;
  const type = samParam && context.resolver.typeOfDecl(samParam);
  return type && substitute(type, (sam as Found).env);
}

/** The scope of the innermost enclosing lambda that declares no parameters and has Kotlin's `it` (a receiver lambda has none). */
export function implicitItScope(context: FileResolution, scope: number): number | undefined {
  const lambdas = context.lambdaSites().byScope;
  for (let s = scope; s >= 0; s = context.fd.file.scopes[s]!.parent) {
    if (lambdas.has(s) && lambdaParameters(context, s).length === 0 && !takesReceiver(context, s)) return s;
  }
  return undefined;
}

/**
 * Stdlib functions whose lambda runs with its argument as `this` (`T.() -> R`), which the library
 * model, read from bytecode, cannot tell from `(T) -> R`: `order.apply { close() }`.
 */
const RECEIVER_LAMBDAS: ReadonlySet<string> = new Set([
  'kotlin.apply', 'kotlin.run', 'kotlin.with', 'kotlin.text.buildString',
  'kotlin.collections.buildList', 'kotlin.collections.buildSet', 'kotlin.collections.buildMap',
]);

/** Whether the lambda of this scope is passed where a function type with a receiver is expected. */
function takesReceiver(context: FileResolution, scope: number): boolean {
  const sites = context.lambdaSites();
  const lambda = sites.byScope.get(scope);
  const argument = lambda === undefined ? undefined : sites.arguments.get(lambda);
  if (!argument) return false;
  const call = context.resolve(argument.ref);
  if (call.library) return call.library.some(({ member }) => RECEIVER_LAMBDAS.has(`${member.owner}.${member.name}`));
  const type = parameterAt(calleeOf(call), argument.position)?.param.def.type;
  // A function type with a receiver as written (`Order.() -> Unit`, `(Builder.() -> Unit)?`).
  return type !== undefined && parseTypeText(type)?.receiver === true;
}

/** The implicit receiver (`this`) of a lambda passed as a function type with a receiver: what `apply`'s block runs on. */
export function lambdaReceiver(context: FileResolution, scope: number): JType | undefined {
  return takesReceiver(context, scope) ? lambdaParameterAt(context, scope, 0) : undefined;
}

/** Kotlin's implicit `it`: the only parameter of the innermost enclosing lambda that declares none. */
export function implicitIt(context: FileResolution, scope: number): JType | undefined {
  const lambda = implicitItScope(context, scope);
  return lambda === undefined ? undefined : lambdaParameterAt(context, lambda, 0);
}

/** The type a lambda expression is expected to have: a call's parameter, a variable's declared type. */
function targetType(context: FileResolution, expr: number): JType | undefined {
  const sites = context.lambdaSites();
  const variable = sites.variables.get(expr);
  if (variable) return context.resolver.typeOfDecl(variable);
  const argument = sites.arguments.get(expr);
  if (!argument) return expectedType(context, context.fd.file.exprs[expr]!);
  const call = context.resolve(argument.ref);
  if (call.library) return libraryParameterType(context, call.library, argTypes(context, context.fd.file.refs[argument.ref]!) ?? [], argument.position);
  const callee = calleeOf(call);
  // `Check { it.total > 1 }`: an interface's SAM constructor takes the lambda as the interface.
  if (callee?.kind === 'interface' && argument.position === 0) return { t: 'decl', decl: callee, args: [] };
  const at = parameterAt(callee, argument.position);
  if (!at) return undefined;
  let type = context.resolver.typeOfDecl(at.param);
  if (type && at.param.def.varargs && type.t === 'array' && at.last) type = type.of;
  return type && substitute(type, call.env ?? NO_ENV);
}

/** The repository declaration a resolved call passes its arguments to (its last target: the constructor beside the class). */
function calleeOf(call: Resolution): Decl | undefined {
  return call.confidence === 'resolved' ? call.targets[call.targets.length - 1]?.decl : undefined;
}

/**
 * The parameter an argument at `position` is passed to: a method's, a constructor's, or, for a
 * Kotlin class called through its primary constructor (the class itself), the class's own; and
 * whether it is the last (a varargs parameter takes the rest).
 */
function parameterAt(callee: Decl | undefined, position: number): { param: Decl; last: boolean } | undefined {
  const params = callee && (CALLABLE_KINDS.has(callee.kind) || TYPE_KINDS.has(callee.kind)) ? callee.params : undefined;
  if (!params?.length) return undefined;
  return { param: params[Math.min(position, params.length - 1)]!, last: position >= params.length - 1 };
}

/** A lambda's type where no call or variable gives one: the type it is cast to, or the return type of the function returning it. */
function expectedType(context: FileResolution, lambda: ExprEntry): JType | undefined {
  if (lambda.form !== 'lambda' || lambda.scope < 0) return undefined;
  const { scopes } = context.fd.file;
  if (lambda.cast !== undefined) return context.resolveTypeText(lambda.cast, scopes[lambda.scope]!.parent);
  if (!lambda.returned) return undefined;
  for (let s = scopes[lambda.scope]!.parent; s >= 0; s = scopes[s]!.parent) {
    const def = scopes[s]!.def;
    const decl = def >= 0 ? context.fd.decls[def] : undefined;
    if (decl && CALLABLE_KINDS.has(decl.kind)) return context.resolver.typeOfDecl(decl);
    // A `return` inside another lambda returns from the function only when labelled: not followed here.
    if (context.lambdaSites().byScope.has(s)) return undefined;
  }
  return undefined;
}

/**
 * The type of a library call's parameter at a position, its type variables bound from the other
 * arguments (`with(order) { … }`: T is Order), when every overload of that arity agrees on it.
 */
function libraryParameterType(context: FileResolution, found: LibraryFound[], args: (JType | undefined)[], position: number): JType | undefined {
  const arity = args.length;
  let result: JType | undefined;
  for (const candidate of found) {
    const { member } = candidate;
    if (member.varargs ? arity < member.params.length - 1 : arity > member.params.length || arity < member.required) continue;
    let text = member.params[Math.min(position, member.params.length - 1)];
    if (text === undefined) return undefined;
    if (member.varargs && position >= member.params.length - 1) text = text.replace(/\[\]$/, '');
    const type = context.resolver.library.resolve(text, context.resolver.library.boundEnv(candidate, args), member);
    if (!type || (result && (type.t !== result.t || (type.t === 'ext' && result.t === 'ext' && type.fqn !== result.fqn)))) return undefined;
    result = type;
  }
  return result;
}

/**
 * The type of an arithmetic operation on operands of these types: a String when one is (only
 * `+` takes one), boolean for booleans (`&`, `|`, `^`), else the binary numeric promotion of the
 * unboxed operands (JLS 5.6: double, float, long, or int).
 */
function promoted(operands: (JType | undefined)[]): JType | undefined {
  const string = operands.find(isStringType);
  if (string) return string;
  const prims = operands.map((t) => t && (t.t === 'prim' ? t.name : boxedPrimitive(t)));
  if (prims.some((p) => p === undefined)) return undefined;
  if (prims.every((p) => p === 'boolean')) return { t: 'prim', name: 'boolean' };
  const name = ['double', 'float', 'long'].find((wide) => prims.includes(wide)) ?? 'int';
  return { t: 'prim', name };
}

/** A lambda's parameters, in order. */
export function lambdaParameters(context: FileResolution, scope: number): Decl[] {
  const params: Decl[] = [];
  for (const decls of context.byScope.get(scope)?.values() ?? []) for (const d of decls) if (d.kind === 'parameter') params.push(d);
  return params.sort((a, b) => a.def.start - b.def.start);
}

/** In Kotlin a Java primitive (a Java method's `long`) is a kotlin.Long, with its members (`toFloat()`). */
export function kotlinView(context: FileResolution, type: JType | undefined): JType | undefined {
  if (type?.t !== 'prim' || context.fd.file.lang !== 'kotlin') return type;
  const kotlin = boxesOf(type.name)[1];
  return kotlin ? { t: 'ext', fqn: kotlin, args: [] } : type;
}

export function exprResolution(context: FileResolution, index: number): Resolution | undefined {
  const expr = context.fd.file.exprs[index];
  if (!expr) return undefined;
  if (expr.form === 'ref') return context.resolve(expr.ref);
  if (expr.form === 'parens') return exprResolution(context, expr.value);
  return undefined;
}

/** A Kotlin call's explicit type arguments (`<Order>` of `mutableListOf<Order>()`), when each is known. */
export function typeArguments(context: FileResolution, ref: RefEntry): JType[] | undefined {
  const parsed = ref.role === 'call' && ref.text ? parseTypeText(`T${ref.text}`) : undefined;
  const args = parsed?.args.map((arg) => resolveParsedType(context, arg, ref.scope));
  return args?.every((a) => a !== undefined) ? args as JType[] : undefined;
}

/**
 * The arguments' types, for overload choice. In Kotlin a bare `this` inside a lambda may be the
 * lambda's receiver (`n.apply { start(this) }`), which this resolver does not type: unknown there.
 */
export function argTypes(context: FileResolution, ref: RefEntry): (JType | undefined)[] | undefined {
  return ref.args?.map((a) => (receiverLambdaThis(context, a) ? undefined : context.typeOfExpr(a)));
}

function receiverLambdaThis(context: FileResolution, index: number): boolean {
  const expr = context.fd.file.exprs[index];
  if (context.fd.file.lang !== 'kotlin' || expr?.form !== 'this' || expr.qualifier >= 0) return false;
  const lambdas = context.lambdaSites().byScope;
  for (let s = expr.scope; s >= 0; s = context.fd.file.scopes[s]!.parent) {
    if (lambdas.has(s)) return true;
    if (context.ownerOfScope(s)) return false;
  }
  return false;
}

/** The value of `xs[i]`: an array's component, else what the type's `get` operator returns (a list's element, a map's value). */
function indexedElement(context: FileResolution, type: JType): JType | undefined {
  if (type.t === 'array') return type.of;
  if (type.t === 'ext') {
    const get = context.resolver.library.members(type, 'get', METHOD_KINDS).filter((f) => f.member.params.length === 1 && !f.member.static);
    const value = get.length ? context.resolver.library.callType(get, [undefined]) : undefined;
    if (value) return value;
  }
  return context.resolver.elementType(type);
}

const KOTLIN_INT = 'kotlin.Int';
