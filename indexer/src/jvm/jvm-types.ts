// Static types as far as resolution follows them: a repository type (with type arguments), an
// external type known by its qualified name, a primitive, an array, a type variable, a lambda. Enough to
// chain `a.b().c`, pick overloads by argument type and substitute a generic member's type.
import type { Decl } from './symbol-table.ts';

export type JType =
  | { t: 'decl'; decl: Decl; args: JType[] }
  /**
   * `integerLiteral`: a Kotlin integer literal (`10`), an Int that also fits where a Byte, Short or
   * Long is expected (its type is the expected one when the value fits, Kotlin spec 'Integer literals').
   */
  | { t: 'ext'; fqn: string; args: JType[]; integerLiteral?: true }
  | { t: 'prim'; name: string }
  | { t: 'array'; of: JType }
  | { t: 'var'; decl: Decl }
  | { t: 'null' }
  /**
   * A lambda or method reference: it has no type of its own but takes the functional interface it
   * is passed to. `arities`: the parameter counts of the interface methods it can implement (none
   * known: any).
   */
  | { t: 'fn'; arities?: readonly number[] };

export type TypeEnv = ReadonlyMap<Decl, JType>;

export const NO_ENV: TypeEnv = new Map();

export function substitute(type: JType, env: TypeEnv): JType {
  if (env.size === 0) return type;
  switch (type.t) {
    case 'var':
      return env.get(type.decl) ?? type;
    case 'array':
      return { t: 'array', of: substitute(type.of, env) };
    case 'decl':
    case 'ext':
      return type.args.length === 0 ? type : { ...type, args: type.args.map((a) => substitute(a, env)) };
    default:
      return type;
  }
}

/** Type parameters of a repository type bound to the arguments it is used with. */
export function envOf(type: JType): TypeEnv {
  if (type.t !== 'decl' || type.args.length === 0 || !type.decl.typeParams) return NO_ENV;
  const env = new Map<Decl, JType>();
  type.decl.typeParams.forEach((param, i) => {
    const arg = type.args[i];
    if (arg) env.set(param, arg);
  });
  return env;
}

export function sameType(a: JType, b: JType): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'decl':
      return a.decl === (b as typeof a).decl;
    case 'ext':
      return a.fqn === (b as typeof a).fqn;
    case 'prim':
      return a.name === (b as typeof a).name;
    case 'array':
      return sameType(a.of, (b as typeof a).of);
    case 'var':
      return a.decl === (b as typeof a).decl;
    default:
      return true;
  }
}
