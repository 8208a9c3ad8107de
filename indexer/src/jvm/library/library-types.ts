// External types (`{ t: 'ext' }`) seen through the library models: their supertypes with type
// arguments substituted, their members by name, subtyping between them, the element type of
// iterating over one, and the return type of a call on one, its overload chosen by the argument
// types and its type variables bound from the receiver and the arguments (`List<String>.get(i)` is
// a String, `Objects.requireNonNull(x)` has x's type). The resolver asks; nothing here knows a
// repository declaration except through the `typeByName` it is given.
import type { SymbolKind } from '@sextant/format';
import { kotlinViewOf, runtimeName } from '../jvm-builtins.ts';
import type { JType } from '../jvm-types.ts';
import { parseTypeText, type TypeText } from '../type-text.ts';
import { JDK_MODEL, KOTLIN_STDLIB_MODEL, type LibraryMember, type LibraryType } from './library-model.ts';

/** Type variables of a library type or member bound to the types they stand for. */
export type LibraryEnv = ReadonlyMap<string, JType>;

export interface LibraryFound {
  member: LibraryMember;
  /** The receiver type's arguments, by the declaring type's parameter names. */
  env: LibraryEnv;
}

export type Fit = 'exact' | 'yes' | 'maybe' | 'no';

const EMPTY: LibraryEnv = new Map();
const JAVA_ITERABLE = 'java.lang.Iterable';
const KOTLIN_ITERABLES = ['kotlin.collections.Iterable', 'kotlin.sequences.Sequence'];

export class LibraryTypes {
  /**
   * `typeByName` makes a canonical name a type (a repository declaration when the repository has
   * one, as java.base does for java.lang.String); `assignable` is the resolver's, for overloads.
   */
  constructor(
    private readonly typeByName: (fqn: string) => JType,
    private readonly assignable: (from: JType, to: JType) => Fit,
  ) {}

  /** A type's model record: the Kotlin view for `kotlin.*` names, else the JDK's (a mapped Kotlin type falls back to its Java type). */
  typeOf(fqn: string): LibraryType | undefined {
    if (fqn.startsWith('kotlin.')) {
      const kotlin = KOTLIN_STDLIB_MODEL.type(fqn);
      if (kotlin) return kotlin;
      // A type alias (`kotlin.NoSuchElementException`) is the type it stands for.
      const dot = fqn.lastIndexOf('.');
      const alias = KOTLIN_STDLIB_MODEL.alias(fqn.slice(0, dot), fqn.slice(dot + 1));
      const aliased = alias !== undefined ? parseTypeText(alias) : undefined;
      if (aliased && aliased.dims === 0 && !aliased.functional) return this.typeOf(aliased.segments.join('.'));
      const java = runtimeName(fqn);
      return java === fqn ? undefined : JDK_MODEL.type(java);
    }
    return JDK_MODEL.type(fqn);
  }

  /** Top-level functions (not extensions) of a Kotlin stdlib package by name. */
  kotlinFunctions(pkg: string, name: string): LibraryFound[] {
    return KOTLIN_STDLIB_MODEL.topLevel(pkg, name).filter((m) => m.kind === 'method' && !m.receiver).map((member) => ({ member, env: EMPTY }));
  }

  /** Kotlin stdlib extensions (functions or properties) of a name whose receiver accepts the type. */
  kotlinExtensions(name: string, receiver: JType, what: 'function' | 'property'): LibraryFound[] {
    const result: LibraryFound[] = [];
    for (const member of KOTLIN_STDLIB_MODEL.extensions(name)) {
      if ((member.kind === 'method') !== (what === 'function')) continue;
      const env = new Map<string, JType>();
      const vars = new Set(member.typeParams.map((p) => p.name));
      const written = parseTypeText(member.receiver!);
      if (!written || !this.bind(written, receiver, vars, env)) continue;
      result.push({ member, env });
    }
    return result;
  }

  /** A Kotlin stdlib extension applying to any receiver (`let`, `apply`, `to`): its package, when the name has one. */
  anyReceiverExtension(name: string): string | undefined {
    const member = KOTLIN_STDLIB_MODEL.extensions(name).find((m) => m.typeParams.some((p) => p.name === m.receiver && p.bounds.length === 0));
    return member?.owner;
  }

  /** Direct supertypes of an external type, its type arguments substituted; undefined when the model does not know it. */
  supertypes(type: JType & { t: 'ext' }): JType[] | undefined {
    const model = this.typeOf(type.fqn);
    if (!model) return undefined;
    const env = envOfType(model, type);
    const result: JType[] = [];
    for (const text of model.supertypes) {
      const sup = this.resolve(text, env);
      if (sup) result.push(sup);
    }
    return result;
  }

  /** Whether an external type is `to` or inherits from it; undefined when part of its hierarchy is unknown. */
  isSubtype(from: JType & { t: 'ext' }, to: string): boolean | undefined {
    const target = runtimeName(to);
    const seen = new Set<string>();
    let unknown = false;
    const queue: JType[] = [from];
    while (queue.length > 0) {
      const type = queue.shift()!;
      if (type.t !== 'ext') continue; // a repository type never appears above a library type
      const name = runtimeName(type.fqn);
      if (name === target) return true;
      if (seen.has(type.fqn)) continue;
      seen.add(type.fqn);
      const sups = this.supertypes(type);
      if (!sups) unknown = true;
      else queue.push(...sups);
    }
    return unknown ? undefined : false;
  }

  /** The supertype of `type` (itself included) whose erasure is `fqn`, with its arguments. */
  asSuper(type: JType, fqn: string): JType | undefined {
    const target = runtimeName(fqn);
    const seen = new Set<string>();
    const queue: JType[] = [type];
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (current.t !== 'ext') continue;
      if (runtimeName(current.fqn) === target) return current;
      if (seen.has(current.fqn)) continue;
      seen.add(current.fqn);
      queue.push(...(this.supertypes(current) ?? []));
    }
    return undefined;
  }

  /**
   * Members named `name` of an external type and its supertypes. Methods collect every overload
   * no subtype redeclares; fields and properties stop at the nearest type declaring one.
   */
  members(type: JType & { t: 'ext' }, name: string, kinds: ReadonlySet<SymbolKind>): LibraryFound[] {
    const found: LibraryFound[] = [];
    const signatures = new Set<string>();
    const wantsCallable = kinds.has('method') || kinds.has('function') || kinds.has('constructor');
    for (const { model, env } of this.ancestry(type)) {
      const own = (model.members.get(name) ?? []).filter((m) => memberMatches(m, kinds));
      for (const member of own) {
        const signature = `${member.kind}(${member.params.map((p) => this.erasure(p, env, member)).join(',')})`;
        if (wantsCallable && signatures.has(signature)) continue;
        signatures.add(signature);
        found.push({ member, env });
      }
      if (own.length > 0 && !wantsCallable) break;
      if (kinds.has('constructor')) break;
    }
    // Kotlin sees a Java String as kotlin.String, with its `length` property: the Kotlin view's members when Java's have none of the name.
    const kotlin = found.length === 0 ? kotlinViewOf(type.fqn) : undefined;
    return kotlin ? this.members({ t: 'ext', fqn: kotlin, args: type.args }, name, kinds) : found;
  }

  /** The type and its external supertypes, breadth first, each once, with the type arguments each is reached with. */
  private *ancestry(type: JType & { t: 'ext' }): Generator<{ model: LibraryType; env: LibraryEnv }> {
    const seen = new Set<string>();
    const queue: (JType & { t: 'ext' })[] = [type];
    while (queue.length > 0) {
      const current = queue.shift()!;
      if (seen.has(current.fqn)) continue;
      seen.add(current.fqn);
      const model = this.typeOf(current.fqn);
      if (!model) continue;
      yield { model, env: envOfType(model, current) };
      for (const sup of this.supertypes(current) ?? []) if (sup.t === 'ext') queue.push(sup);
    }
  }

  /**
   * The type a call of these overloads yields: the overloads that accept the arguments (by arity,
   * then by argument type), their type variables bound from the arguments; a type when they agree.
   */
  callType(found: LibraryFound[], args: (JType | undefined)[] | undefined, typeArgs?: readonly JType[]): JType | undefined {
    let candidates = found;
    if (args) {
      const n = args.length;
      candidates = found.filter(({ member }) => (member.varargs ? n >= member.params.length - 1 : n <= member.params.length && n >= member.required));
      if (candidates.length > 1) {
        let best: LibraryFound[] = [];
        let bestScore = -1;
        for (const candidate of candidates) {
          const score = this.fitScore(candidate, args);
          if (score < 0) continue;
          if (score > bestScore) [best, bestScore] = [[candidate], score];
          else if (score === bestScore) best.push(candidate);
        }
        if (best.length > 0) candidates = best;
      }
    }
    let result: JType | undefined;
    for (const candidate of candidates) {
      const type = this.returnType(candidate, args, typeArgs);
      if (!type || (result && !sameShape(result, type))) return undefined;
      result = type;
    }
    return result;
  }

  /**
   * The value type of a field or property, or a method's return type with its type variables
   * bound from the explicit type arguments (`mutableListOf<Order>()`), else from the arguments.
   */
  returnType(found: LibraryFound, args?: (JType | undefined)[], typeArgs?: readonly JType[]): JType | undefined {
    return found.member.type ? this.resolve(found.member.type, this.boundEnv(found, args, typeArgs)) : undefined;
  }

  /**
   * The receiver's type environment with the member's own type variables bound: from the explicit
   * type arguments (`mutableListOf<Order>()`), else from the arguments (`with(order) { … }` binds T).
   */
  boundEnv({ member, env }: LibraryFound, args?: (JType | undefined)[], typeArgs?: readonly JType[]): LibraryEnv {
    if (typeArgs?.length === member.typeParams.length && typeArgs.length > 0) {
      const local = new Map(env);
      member.typeParams.forEach((p, i) => local.set(p.name, typeArgs[i]!));
      return local;
    }
    if (member.typeParams.length === 0 || !args) return env;
    const vars = new Set(member.typeParams.map((p) => p.name));
    const local = new Map(env);
    args.forEach((arg, i) => {
      const text = member.params[Math.min(i, member.params.length - 1)];
      const written = text && parseTypeText(member.varargs && i >= member.params.length - 1 && arg?.t !== 'array' ? text.replace(/\[\]$/, '') : text);
      if (arg && written) this.bind(written, arg, vars, local);
    });
    return local;
  }

  private fitScore({ member, env }: LibraryFound, args: (JType | undefined)[]): number {
    let score = 0;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      let text = member.params[Math.min(i, member.params.length - 1)];
      if (!arg || !text) continue;
      const lastVarargs = member.varargs && i >= member.params.length - 1;
      if (lastVarargs && !(arg.t === 'array' && args.length === member.params.length)) text = text.replace(/\[\]$/, '');
      const param = this.resolve(text, env, member);
      if (!param) continue;
      const fit = this.assignable(arg, param);
      if (fit === 'no') return -1;
      score += fit === 'exact' ? 2 : fit === 'yes' ? 1 : 0;
    }
    return score;
  }

  /**
   * Binds the type variables of `written` by matching it against an actual type (`List<T>`
   * against `ArrayList<String>` binds T to String). False when the actual type cannot be one.
   */
  private bind(written: TypeText, actual: JType, vars: ReadonlySet<string>, env: Map<string, JType>): boolean {
    if (written.functional) return true;
    if (written.dims > 0) {
      if (actual.t !== 'array') return actual.t === 'null';
      return this.bind({ ...written, dims: written.dims - 1 }, actual.of, vars, env);
    }
    const name = written.segments.join('.');
    if (written.segments.length === 1 && vars.has(name)) {
      if (!env.has(name) && actual.t !== 'null') env.set(name, actual);
      return true;
    }
    if (name === 'java.lang.Object' || name === 'kotlin.Any' || actual.t === 'null') return true;
    if (actual.t !== 'ext') return this.assignable(actual, this.typeByName(name)) !== 'no';
    const sup = this.asSuper(actual, name);
    if (!sup || sup.t !== 'ext') return this.isSubtype(actual, name) !== false;
    written.args.forEach((arg, i) => {
      const a = sup.args[i];
      if (a) this.bind(arg, a, vars, env);
    });
    return true;
  }

  /** A type as the model writes it, made a JType; undefined when it names an unbound type variable. */
  resolve(text: string, env: LibraryEnv, member?: LibraryMember): JType | undefined {
    const parsed = parseTypeText(text);
    return parsed && this.fromText(parsed, env, member);
  }

  private fromText(parsed: TypeText, env: LibraryEnv, member?: LibraryMember): JType | undefined {
    let type: JType | undefined;
    if (parsed.functional) type = { t: 'ext', fqn: 'kotlin.Function', args: [] };
    else if (parsed.segments.length === 1) {
      const name = parsed.segments[0]!;
      if (PRIMITIVES.has(name)) type = { t: 'prim', name };
      else {
        type = env.get(name);
        // An unbound type variable of the member (a `<T> T get()`) stands for its bound when it has one.
        const param = member?.typeParams.find((p) => p.name === name);
        if (!type && param?.bounds.length) type = this.resolve(param.bounds[0]!, EMPTY);
        if (type?.t === 'null') type = undefined;
      }
    } else {
      const named = this.typeByName(parsed.segments.join('.'));
      const args: JType[] = parsed.args.map((a) => (a.segments[0] === '?' ? undefined : this.fromText(a, env, member)) ?? { t: 'null' });
      type = args.length > 0 && (named.t === 'ext' || named.t === 'decl') ? { ...named, args } : named;
    }
    for (let i = 0; type && i < parsed.dims; i++) type = { t: 'array', of: type };
    return type;
  }

  /** A parameter type's erasure, to tell overloads apart. */
  private erasure(text: string, env: LibraryEnv, member: LibraryMember): string {
    const type = this.resolve(text, env, member);
    return type ? erasedName(type) : '?';
  }

  /**
   * The one abstract method of a library functional interface (JLS 9.8: Object's public methods
   * do not count), with the environment of the type that declares it; undefined for none or several.
   */
  functionalMethod(type: JType & { t: 'ext' }): LibraryFound | undefined {
    if (this.typeOf(type.fqn)?.kind !== 'interface') return undefined;
    const abstract: LibraryFound[] = [];
    const signatures = new Set<string>();
    for (const { model, env } of this.ancestry(type)) {
      for (const members of model.members.values()) {
        for (const member of members) {
          if (member.kind !== 'method' || !member.abstract || OBJECT_METHODS.has(`${member.name}/${member.params.length}`)) continue;
          const signature = `${member.name}(${member.params.map((p) => this.erasure(p, env, member)).join(',')})`;
          if (signatures.has(signature)) continue;
          signatures.add(signature);
          abstract.push({ member, env });
        }
      }
    }
    return abstract.length === 1 ? abstract[0] : undefined;
  }

  /** The element type of iterating over an external type (`for (x : xs)`, `for (x in xs)`). */
  iterationElement(type: JType): JType | undefined {
    if (type.t !== 'ext') return undefined;
    for (const iterable of [JAVA_ITERABLE, ...KOTLIN_ITERABLES]) {
      const sup = this.asSuper(type, iterable);
      if (sup?.t === 'ext' && sup.args[0] && sup.args[0].t !== 'null') return sup.args[0];
    }
    // Kotlin iterates over anything with an `iterator()` operator: arrays, progressions, maps.
    const iterator = this.callType(this.members(type, 'iterator', CALLABLES), []);
    if (iterator?.t !== 'ext') return undefined;
    return this.callType(this.members(iterator, 'next', CALLABLES), []);
  }
}

const CALLABLES: ReadonlySet<SymbolKind> = new Set(['method', 'function']);
/** java.lang.Object's public methods by name and arity: an interface redeclaring one (Comparator's equals) gains no abstract method. */
const OBJECT_METHODS = new Set(['equals/1', 'hashCode/0', 'toString/0']);
const PRIMITIVES = new Set(['boolean', 'byte', 'short', 'int', 'long', 'char', 'float', 'double', 'void']);

function memberMatches(member: LibraryMember, kinds: ReadonlySet<SymbolKind>): boolean {
  switch (member.kind) {
    case 'method':
      return kinds.has('method') || kinds.has('function');
    case 'constructor':
      return kinds.has('constructor');
    case 'field':
    case 'property':
      return kinds.has('field') || kinds.has('property') || kinds.has('enumMember');
  }
}

function envOfType(model: LibraryType, type: JType & { t: 'ext' }): LibraryEnv {
  if (type.args.length === 0 || model.typeParams.length === 0) return EMPTY;
  const env = new Map<string, JType>();
  model.typeParams.forEach((p, i) => {
    const arg = type.args[i];
    if (arg && arg.t !== 'null') env.set(p.name, arg);
  });
  return env;
}

function erasedName(type: JType): string {
  switch (type.t) {
    case 'ext':
      return runtimeName(type.fqn);
    case 'decl':
      return type.decl.fqn ?? type.decl.qname;
    case 'prim':
      return type.name;
    case 'array':
      return `${erasedName(type.of)}[]`;
    default:
      return '?';
  }
}

/** Two results of a call are the same type for what follows: the same erasure. */
function sameShape(a: JType, b: JType): boolean {
  return erasedName(a) === erasedName(b) && (a.t !== 'ext' || b.t !== 'ext' || a.args.length === b.args.length);
}
