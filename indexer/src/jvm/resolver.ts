// Resolution of Java and Kotlin references on the extracted file models: scopes (locals and
// parameters shadow fields), imports (single-type, on-demand, static, aliased, implicit), nested
// and inherited members through extends/implements chains within the repository, overloads by
// arity and locally known argument types (a call whose known types fit no overload resolves to
// none), receivers typed along `a.b().c` chains, Kotlin extension functions by receiver type,
// getters seen as properties across the two languages (a Kotlin write needs getter and setter).
//
// Confidence is honest: `resolved` when scope and import resolution found exactly one declaration,
// `candidate` for each of several possible ones (or for a bare name match when the receiver's type
// is unknown), nothing at all when there is no candidate. Never `exact`: there is no compiler here.
import { MODIFIERS, type Confidence, type ReferenceKind, type SymbolKind } from '@sextant/format';
import { CALLABLE_KINDS, TYPE_KINDS, type ExprEntry, type JvmLanguage, type NarrowEntry, type RefEntry, type Role } from './file-model.ts';
import { hasAnnotation, hasModifier } from './jvm-naming.ts';
import { boxesOf, isKotlinDefaultPackage, isPackageRoot, jdkPackageDeclares, primitiveArrayElement, primitiveOfBox, primitiveOfKotlin, runtimeName, widens } from './jvm-builtins.ts';
import { LibraryTypes, type LibraryFound } from './library/library-types.ts';
import { envOf, NO_ENV, sameType, substitute, type JType, type TypeEnv } from './jvm-types.ts';
import { javaRules } from './java-rules.ts';
import { kotlinRules } from './kotlin-rules.ts';
import type { LanguageRules } from './language-rules.ts';
import { CONSTRUCTOR, type Decl, type FileDecls, type SymbolTable } from './symbol-table.ts';
import { parseTypeText, type TypeText } from './type-text.ts';

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

export interface Supertype {
  type: JType;
  /** Written in the superclass position. */
  superclass: boolean;
  /** Index of the inherit reference that names it (-1 for implicit or anonymous supertypes). */
  ref: number;
  implicit: boolean;
}

/** More name matches than this and a bare name match says nothing: no candidates are recorded. */
const MAX_CANDIDATES = 8;
const ROLE_KINDS: Record<Role, ReferenceKind> = {
  call: 'call', new: 'new', read: 'read', write: 'write', type: 'type', inherit: 'inherit', import: 'import',
  qualifier: 'type', decorator: 'decorator', methodref: 'read', constructor: 'call',
};
const VALUE_MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['field', 'property', 'enumMember']);
const METHOD_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'function']);
const UNRESOLVED: Resolution = { targets: [], confidence: 'candidate', kind: 'read' };

interface Found {
  decl: Decl;
  env: TypeEnv;
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

interface MemberLookup {
  found: Found[];
  /** First external supertype met on the way, which may declare the member instead. */
  ext?: string;
  /** A supertype could not be placed: the member may be declared where nobody can see. */
  unknown: boolean;
  /** Members the library models give the external supertypes (when the repository's types declare none). */
  library: LibraryFound[];
}

export class JvmResolver {
  private readonly supers = new Map<Decl, Supertype[]>();
  private readonly declTypes = new Map<Decl, JType | null>();
  private readonly contexts = new Map<FileDecls, FileResolution>();

  /** External types through the library models; a canonical name the repository declares stays the repository's. */
  readonly library: LibraryTypes = new LibraryTypes((fqn) => this.typeByName(fqn, ''), (from, to) => this.assignable(from, to));

  constructor(readonly table: SymbolTable) {}

  rulesOf(fd: FileDecls): LanguageRules {
    return fd.file.lang === 'java' ? javaRules : kotlinRules;
  }

  file(fd: FileDecls): FileResolution {
    let context = this.contexts.get(fd);
    if (!context) this.contexts.set(fd, (context = new FileResolution(this, fd)));
    return context;
  }

  // ---------------------------------------------------------------------------------------------
  // Types of declarations and supertypes

  /** Declared (or, for `var`/`val x = …`, inferred) type of a variable, or a callable's return type. */
  typeOfDecl(decl: Decl): JType | undefined {
    if (this.declTypes.has(decl)) return this.declTypes.get(decl) ?? undefined;
    this.declTypes.set(decl, null); // a cycle (`var a = b; var b = a;`) ends untyped
    const fd = this.declFile(decl);
    const context = this.file(fd);
    let type: JType | undefined;
    if (TYPE_KINDS.has(decl.kind)) type = { t: 'decl', decl, args: [] };
    else if (decl.kind === 'enumMember') type = decl.parent ? { t: 'decl', decl: decl.parent, args: [] } : undefined;
    else if (decl.kind === 'constructor') type = decl.parent ? { t: 'decl', decl: decl.parent, args: [] } : undefined;
    else {
      const written = decl.def.type;
      const scope = CALLABLE_KINDS.has(decl.kind) ? decl.def.ownScope : decl.def.scope;
      if (written && written !== 'var') type = context.resolveTypeText(written, scope);
      else if (decl.kind === 'parameter') type = context.lambdaParameterType(decl);
      if (decl.def.varargs && type) type = { t: 'array', of: type };
      if (!type && decl.def.value !== undefined && decl.def.value >= 0) {
        const value = context.typeOfExpr(decl.def.value);
        type = decl.def.iterates ? value && this.elementType(value) : value;
      }
    }
    this.declTypes.set(decl, type ?? null);
    return type;
  }

  private readonly fileByModel = new Map<unknown, FileDecls>();

  /** The receiver type of a Kotlin extension, read in its declaring file (its own scope sees its type parameters). */
  receiverTypeOf(decl: Decl): JType | undefined {
    if (!decl.def.receiverType) return undefined;
    return this.file(this.declFile(decl)).resolveTypeText(decl.def.receiverType, decl.def.ownScope >= 0 ? decl.def.ownScope : decl.def.scope);
  }

  private facadeIndex?: Map<string, Map<string, string>>;

  /** Kotlin files with top-level functions or properties, by package and the facade class name Java sees them in. */
  facades(pkg: string): ReadonlyMap<string, string> | undefined {
    if (!this.facadeIndex) {
      this.facadeIndex = new Map();
      for (const fd of this.table.files) {
        if (fd.file.lang !== 'kotlin' || !fd.decls.some((d) => !d.parent && (d.kind === 'function' || d.kind === 'property'))) continue;
        const byName = this.facadeIndex.get(fd.file.pkg) ?? this.facadeIndex.set(fd.file.pkg, new Map()).get(fd.file.pkg)!;
        byName.set(fd.file.facade ?? facadeName(fd.file.path), fd.file.path);
      }
    }
    return this.facadeIndex.get(pkg);
  }

  declFile(decl: Decl): FileDecls {
    if (this.fileByModel.size === 0) for (const fd of this.table.files) this.fileByModel.set(fd.file, fd);
    return this.fileByModel.get(decl.file)!;
  }

  /** Direct supertypes, superclass first; a class that names none gets its language's root class. */
  supertypes(decl: Decl): Supertype[] {
    const known = this.supers.get(decl);
    if (known) return known;
    this.supers.set(decl, []); // cyclic hierarchies (broken code) stop here
    const fd = this.declFile(decl);
    const context = this.file(fd);
    const rules = this.rulesOf(fd);
    const result: Supertype[] = [];
    const headerScope = decl.def.ownScope >= 0 ? fd.file.scopes[decl.def.ownScope]!.parent : decl.def.scope;
    if (!decl.def.name && decl.def.type) {
      const type = context.resolveTypeText(decl.def.type, decl.def.scope, decl);
      if (type) result.push({ type, superclass: false, ref: -1, implicit: false });
    }
    fd.file.refs.forEach((ref, index) => {
      if (ref.role !== 'inherit' || ref.owner !== decl.defIndex || !ref.text) return;
      const type = context.resolveTypeText(ref.text.replace(/\(.*$/s, ''), headerScope, decl);
      if (type) result.push({ type, superclass: ref.superclass === true, ref: index, implicit: false });
    });
    result.sort((a, b) => Number(b.superclass) - Number(a.superclass));
    const hasClass = result.some((s) => s.superclass || (s.type.t === 'decl' && s.type.decl.kind === 'class' && decl.kind !== 'interface'));
    if (!hasClass && (decl.kind !== 'interface' || rules.lang === 'java')) {
      const root = rules.implicitSuperclass(decl);
      const type = root && this.typeByName(root, fd.module);
      if (type) result.unshift({ type, superclass: true, ref: -1, implicit: true });
    }
    this.supers.set(decl, result);
    return result;
  }

  /** A canonical name as a type: the repository's declaration, else an external type. */
  typeByName(fqn: string, module: string): JType {
    const decl = this.table.typesNamed(fqn, module)[0];
    return decl ? { t: 'decl', decl, args: [] } : { t: 'ext', fqn, args: [] };
  }

  /** Whether `sub` is `sup` or inherits from it, within the repository. */
  isSubtype(sub: Decl, sup: Decl, seen = new Set<Decl>()): boolean {
    if (sub === sup) return true;
    if (seen.has(sub)) return false;
    seen.add(sub);
    return this.supertypes(sub).some((s) => s.type.t === 'decl' && this.isSubtype(s.type.decl, sup, seen));
  }

  /** Whether a repository type inherits (through repository types) from an external one. */
  extendsExternal(sub: Decl, fqn: string, seen = new Set<Decl>()): boolean {
    if (seen.has(sub)) return false;
    seen.add(sub);
    return this.supertypes(sub).some((s) => (s.type.t === 'ext' ? this.library.isSubtype(s.type, fqn) === true : s.type.t === 'decl' && this.extendsExternal(s.type.decl, fqn, seen)));
  }

  /** The element type of iterating over a value (`for (x : xs)`, `for (x in xs)`): an array's component, an Iterable's type argument. */
  elementType(type: JType, seen = new Set<Decl>()): JType | undefined {
    if (type.t === 'array') return type.of;
    if (type.t === 'ext') return this.library.iterationElement(type);
    if (type.t === 'var') {
      const bound = this.bound(type.decl);
      return bound && this.elementType(bound, seen);
    }
    if (type.t !== 'decl' || seen.has(type.decl)) return undefined;
    seen.add(type.decl);
    const env = envOf(type);
    for (const sup of this.supertypes(type.decl)) {
      if (sup.implicit) continue;
      const element = this.elementType(substitute(sup.type, env), seen);
      if (element) return element;
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Members

  /**
   * Members named `name` of a type and its supertypes. Methods collect every overload that no
   * subtype overrides; fields and properties stop at the nearest type that declares one.
   */
  members(type: JType, name: string, kinds: ReadonlySet<SymbolKind>): MemberLookup {
    // Most lookups start from a plain repository type (`this`, a field's class): memoised per kind set.
    if (type.t === 'decl' && type.args.length === 0) {
      let byDecl = this.memberCache.get(kinds);
      if (!byDecl) this.memberCache.set(kinds, (byDecl = new Map()));
      let byName = byDecl.get(type.decl);
      if (!byName) byDecl.set(type.decl, (byName = new Map()));
      let lookup = byName.get(name);
      if (!lookup) byName.set(name, (lookup = this.lookupMembers(type, name, kinds)));
      return lookup;
    }
    return this.lookupMembers(type, name, kinds);
  }

  private readonly memberCache = new Map<ReadonlySet<SymbolKind>, Map<Decl, Map<string, MemberLookup>>>();

  private lookupMembers(type: JType, name: string, kinds: ReadonlySet<SymbolKind>): MemberLookup {
    const found: Found[] = [];
    let ext: string | undefined;
    let unknown = false;
    if (type.t === 'ext') return { found, ext: type.fqn, unknown, library: this.library.members(type, name, kinds) };
    if (type.t === 'var' || type.t === 'null' || type.t === 'prim' || type.t === 'array' || type.t === 'fn') {
      const bound = type.t === 'var' ? this.bound(type.decl) : undefined;
      return bound ? this.members(bound, name, kinds) : { found, unknown: true, library: [] };
    }
    const externals: (JType & { t: 'ext' })[] = [];
    const methods = kinds.has('method') || kinds.has('function') || kinds.has('constructor');
    const queue: { decl: Decl; env: TypeEnv }[] = [{ decl: type.decl, env: envOf(type) }];
    const visited = new Set<Decl>();
    while (queue.length > 0) {
      const { decl, env } = queue.shift()!;
      if (visited.has(decl)) continue;
      visited.add(decl);
      // A supertype's private members are not members of the subtype (JLS 8.2): never inherited.
      const inherited = decl !== type.decl;
      const own = decl.members?.get(name)?.filter((m) => kinds.has(m.kind) && !(inherited && m.mods & MODIFIERS.private)) ?? [];
      for (const member of own) {
        if (methods && found.some((f) => f.decl.kind === member.kind && this.sameSignature(f.decl, member))) continue;
        found.push({ decl: member, env });
      }
      if (own.length > 0 && !methods) break;
      if (kinds.has('constructor')) continue; // constructors are not inherited
      for (const sup of this.supertypes(decl)) {
        const superType = substitute(sup.type, env);
        if (superType.t === 'decl') queue.push({ decl: superType.decl, env: envOf(superType) });
        else if (superType.t === 'ext') {
          ext ??= superType.fqn;
          externals.push(superType);
        } else unknown = true;
      }
    }
    const library = found.length > 0 && !methods ? [] : externals.flatMap((e) => this.library.members(e, name, kinds));
    return { found, ext, unknown, library };
  }

  private bound(typeParam: Decl): JType | undefined {
    const text = typeParam.def.type;
    if (!text) return undefined;
    return this.file(this.declFile(typeParam)).resolveTypeText(text, typeParam.def.scope);
  }

  /**
   * Same name, same number of parameters and the same parameter types where both are known. A
   * class's type variable may stand for anything; the methods' own type variables are compared by
   * their erasure (`<T extends Named> f(T)` and `<T extends Sized> f(T)` are two overloads).
   */
  sameSignature(a: Decl, b: Decl): boolean {
    const pa = a.params ?? [];
    const pb = b.params ?? [];
    if (pa.length !== pb.length || a.name !== b.name) return false;
    const own = (t: JType) => t.t === 'var' && t.decl.parent !== undefined && CALLABLE_KINDS.has(t.decl.parent.kind);
    for (let i = 0; i < pa.length; i++) {
      let ta = this.typeOfDecl(pa[i]!);
      let tb = this.typeOfDecl(pb[i]!);
      if (ta && tb && own(ta) && own(tb)) {
        ta = this.erased(ta);
        tb = this.erased(tb);
      }
      if (!ta || !tb || ta.t === 'var' || tb.t === 'var') continue;
      if (!sameRuntimeType(ta, tb)) return false;
    }
    return true;
  }

  /**
   * The overloads that accept the arguments, chosen as javac does (JLS 15.12.2) as far as the
   * argument types are known: by arity; then the first phase that applies (no boxing nor varargs,
   * then boxing, then varargs); then the most specific method. Where an argument's type is unknown
   * and that leaves a choice, the overloads matching the known arguments best. `caller` is the
   * calling file's language: Java passes a Kotlin callable's parameters as the JVM sees them (a
   * suspend function's Continuation last, default values only with @JvmOverloads, an extension's
   * receiver first when `facade` says it is called through the file's facade class).
   */
  pick(candidates: Found[], args: (JType | undefined)[] | undefined, caller: JvmLanguage = 'kotlin', facade = false): { chosen: Found[]; exact: boolean } {
    if (candidates.length === 0 || !args) return { chosen: candidates, exact: candidates.length === 1 };
    const n = args.length;
    const shapes = new Map(candidates.map((c) => [c, this.slots(c.decl, caller, facade)]));
    const byArity = candidates.filter((c) => arityAccepts(shapes.get(c)!, n));
    // One declaration of the name whose parameter count the call misses: kept, as counting
    // arguments is the less certain reading here (defaults, trailing lambdas, the JVM's view).
    if (byArity.length === 0) return { chosen: candidates, exact: candidates.length === 1 && !facade };
    // Known argument types that fit no overload of the right arity: the call is a compile error,
    // not a use of the overload that remains (removing `discount(String)` leaves `discount("x")`
    // unresolved, never a call of `discount(int)`). Unknown types never rule an overload out.
    const applicable = byArity.map((candidate) => this.applicability(candidate, args, shapes.get(candidate)!, caller)).filter((a): a is Applicability => a !== undefined);
    if (applicable.length === 0) return { chosen: [], exact: false };
    if (applicable.length === 1) return { chosen: [applicable[0]!.found], exact: true };
    // A method applicable for certain in an earlier phase hides every one of a later phase.
    const certain = applicable.filter((a) => a.certain);
    const phase = certain.length ? Math.min(...certain.map((a) => a.phase)) : 3;
    const pool = applicable.filter((a) => a.phase <= phase);
    if (pool.length === 1) return { chosen: [pool[0]!.found], exact: true };
    const specific = pool.filter((m) => pool.every((o) => o === m || this.moreSpecific(m, o)));
    if (specific.length === 1 && specific[0]!.certain) return { chosen: [specific[0]!.found], exact: true };
    const best = Math.max(...pool.map((a) => a.score));
    const top = pool.filter((a) => a.score === best);
    if (top.length === 1) return { chosen: [top[0]!.found], exact: true };
    return { chosen: pool.map((a) => a.found), exact: false };
  }

  /** How a candidate takes the arguments in its parameter slots; undefined when some known argument does not fit. */
  private applicability(found: Found, args: (JType | undefined)[], slots: ParamSlot[], caller: JvmLanguage): Applicability | undefined {
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
      if (type) type = this.erased(substitute(type, found.env));
      if (type && spread && i >= last && type.t === 'array') type = type.of;
      types.push(type);
      const arg = args[i];
      if (!arg || !type) {
        certain = false;
        continue;
      }
      let fit = this.assignable(arg, type);
      if (fit === 'no' && caller === 'kotlin' && this.kotlinMayConvert(arg, type)) fit = 'maybe';
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
  private kotlinMayConvert(arg: JType, param: JType): boolean {
    if (arg.t === 'ext' && /^kotlin\.(jvm\.functions\.)?Function\d*$/.test(arg.fqn)) return param.t === 'decl' || param.t === 'ext';
    const narrowed = this.assignable(param, arg);
    return narrowed === 'yes' || narrowed === 'exact';
  }

  /** `m` is at least as specific as `o`: each of its parameter types is a subtype of `o`'s (JLS 15.12.2.5). */
  private moreSpecific(m: Applicability, o: Applicability): boolean {
    return m.types.every((type, i) => {
      const other = o.types[i];
      if (!type || !other) return false;
      const fit = this.assignable(type, other);
      return fit === 'exact' || fit === 'yes';
    });
  }

  /** A callable's parameters as a caller in `caller` passes them (see pick). */
  private slots(decl: Decl, caller: JvmLanguage, facade: boolean): ParamSlot[] {
    const javaView = caller === 'java' && decl.file.lang === 'kotlin';
    const overloads = javaView && hasAnnotation(decl.def.modifiers, 'JvmOverloads');
    const slots: ParamSlot[] = (decl.params ?? []).map((p) => ({
      type: () => this.typeOfDecl(p), varargs: p.def.varargs === true,
      optional: p.def.value !== undefined && decl.file.lang === 'kotlin' && (!javaView || overloads),
    }));
    if (!javaView) return slots;
    if (facade && decl.def.receiverType) slots.unshift({ type: () => this.receiverTypeOf(decl), varargs: false, optional: false });
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
  inferred(found: Found, allArgs: (JType | undefined)[] | undefined, vars = found.decl.typeParams, facade = false): TypeEnv {
    const params = found.decl.params ?? [];
    const receiver = facade ? this.receiverTypeOf(found.decl) : undefined;
    if (!vars || !params.length && !receiver || !allArgs) return found.env;
    const env = new Map(found.env);
    if (receiver && allArgs[0]) this.unify(receiver, allArgs[0], vars, env, found.decl.file.lang);
    const args = receiver ? allArgs.slice(1) : allArgs;
    if (!params.length) return env;
    const last = params.length - 1;
    const spread = params[last]!.def.varargs === true && !(args.length === params.length && args[last]?.t === 'array');
    args.forEach((arg, i) => {
      const param = params[Math.min(i, last)];
      let type = param && this.typeOfDecl(param);
      if (!arg || !type) return;
      type = substitute(type, found.env);
      if (spread && i >= last && type.t === 'array') type = type.of;
      this.unify(type, arg, vars, env, found.decl.file.lang);
    });
    return env;
  }

  private unify(param: JType, arg: JType, vars: readonly Decl[], env: Map<Decl, JType>, lang: 'java' | 'kotlin'): void {
    if (param.t === 'var') {
      if (vars.includes(param.decl) && !env.has(param.decl) && arg.t !== 'null') {
        const prim = primitiveName(arg);
        env.set(param.decl, prim && arg.t === 'prim' ? { t: 'ext', fqn: boxesOf(prim)[lang === 'java' ? 0 : 1]!, args: [] } : arg);
      }
      return;
    }
    if (param.t === 'array') {
      if (arg.t === 'array') this.unify(param.of, arg.of, vars, env, lang);
      return;
    }
    if ((param.t !== 'decl' && param.t !== 'ext') || param.args.length === 0) return;
    const view = this.asSuper(arg, param);
    if (view) param.args.forEach((p, i) => view[i] && this.unify(p, view[i]!, vars, env, lang));
  }

  /** The type arguments `arg` has as the generic type `of` (`ArrayList<Item>` as a `List<E>`: [Item]), by its supertypes. */
  private asSuper(arg: JType, of: JType & { args: JType[] }, seen = new Set<Decl>()): JType[] | undefined {
    if (of.t === 'decl' && arg.t === 'decl' && arg.decl === of.decl) return arg.args;
    if (of.t === 'ext' && arg.t === 'ext' && runtimeName(arg.fqn) === runtimeName(of.fqn)) return arg.args;
    if (arg.t !== 'decl' || seen.has(arg.decl)) return undefined;
    seen.add(arg.decl);
    const env = envOf(arg);
    for (const sup of this.supertypes(arg.decl)) {
      const found = this.asSuper(substitute(sup.type, env), of, seen);
      if (found) return found;
    }
    return undefined;
  }

  /** A type as overload resolution compares it: a type variable stands for its bound (JLS 4.6). */
  erased(type: JType): JType {
    if (type.t === 'array') return { t: 'array', of: this.erased(type.of) };
    if (type.t !== 'var') return type;
    const bound = this.bound(type.decl);
    return bound && bound.t !== 'var' ? this.erased(bound) : { t: 'ext', fqn: type.decl.file.lang === 'kotlin' ? 'kotlin.Any' : 'java.lang.Object', args: [] };
  }

  /** Whether a value of type `from` can be passed where `to` is expected. */
  assignable(fromWritten: JType, toWritten: JType): 'exact' | 'yes' | 'maybe' | 'no' {
    if (fromWritten.t === 'fn') return this.implementable(fromWritten, toWritten);
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
      return box && this.library.isSubtype({ t: 'ext', fqn: box, args: [] }, to.fqn) ? 'yes' : 'no';
    }
    if (fromPrim && to.t === 'decl') {
      // Boxing, then a widening reference conversion (JLS 5.3), to the repository's own Number or Object (java.base).
      const box = this.table.types.get(boxesOf(fromPrim)[0] ?? '')?.[0];
      return box && this.isSubtype(box, to.decl) ? 'yes' : 'no';
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
    if (from.t === 'decl' && to.t === 'decl') return this.isSubtype(from.decl, to.decl) ? 'yes' : this.hasUnknownSuper(from.decl) ? 'maybe' : 'no';
    if (from.t === 'decl' && to.t === 'ext') return this.extendsExternal(from.decl, to.fqn) ? 'yes' : 'maybe';
    if (from.t === 'ext' && to.t === 'decl') return 'no';
    if (from.t === 'array' || to.t === 'array') return from.t === 'array' && to.t === 'array' ? this.assignable(from.of, to.of) : 'no';
    if (from.t === 'ext' && to.t === 'ext') {
      const sub = this.library.isSubtype(from, to.fqn);
      return sub === true ? 'yes' : sub === false ? 'no' : 'maybe';
    }
    return 'maybe';
  }

  /**
   * Whether a lambda or method reference can be passed where `to` is expected: a functional
   * interface whose method takes as many parameters (JLS 15.27.3). Classes, arrays, primitives,
   * Object and the JDK's value types are no functional interfaces; other external types may be.
   */
  private implementable(fn: JType & { t: 'fn' }, to: JType): 'yes' | 'maybe' | 'no' {
    if (to.t === 'var') return this.implementable(fn, this.erased(to));
    if (to.t === 'prim' || to.t === 'array' || to.t === 'null' || to.t === 'fn') return 'no';
    if (to.t === 'ext') {
      if (isRootType(to.fqn) || primitiveName(to) || primitiveOfBox(to.fqn) || to.fqn === 'java.lang.String') return 'no';
      // A library type the model knows is functional exactly when it has one abstract method.
      if (!this.library.typeOf(to.fqn)) return 'maybe';
      const sam = this.library.functionalMethod(to);
      if (!sam) return 'no';
      return !fn.arities ? 'maybe' : fn.arities.includes(sam.member.params.length) ? 'yes' : 'no';
    }
    const sam = this.functionalMethod(to);
    if (!sam) return to.decl.kind === 'interface' && to.decl.file.lang === 'kotlin' ? 'maybe' : 'no';
    if (sam === 'unknown' || !fn.arities) return 'maybe';
    return fn.arities.includes(sam.decl.params?.length ?? 0) ? 'yes' : 'no';
  }

  /**
   * The one abstract method of a repository functional interface (JLS 9.8), with the environment
   * of the supertype that declares it; 'unknown' when an external superinterface may add one.
   * Java interfaces only: a Kotlin interface's functions with bodies look like abstract ones here.
   */
  functionalMethod(type: JType & { t: 'decl' }): Found | 'unknown' | undefined {
    if (type.decl.kind !== 'interface' || type.decl.file.lang !== 'java') return undefined;
    const abstract: Found[] = [];
    let unknown = false;
    const queue: { decl: Decl; env: TypeEnv }[] = [{ decl: type.decl, env: envOf(type) }];
    const seen = new Set<Decl>();
    while (queue.length) {
      const { decl, env } = queue.shift()!;
      if (seen.has(decl)) continue;
      seen.add(decl);
      // Object's public methods are no interface's abstract ones (JLS 9.8), also where the repository declares Object (java.base).
      if (decl.fqn && isRootType(decl.fqn)) continue;
      for (const members of decl.members?.values() ?? []) {
        for (const m of members) {
          if (m.kind !== 'method' || /\b(default|static|private)\b/.test(m.def.modifiers ?? '')) continue;
          if (ROOT_MEMBERS.has(m.name) && overridesRootMember('java.lang.Object', m)) continue;
          if (!abstract.some((a) => this.sameSignature(a.decl, m))) abstract.push({ decl: m, env });
        }
      }
      for (const sup of this.supertypes(decl)) {
        const t = substitute(sup.type, env);
        if (t.t === 'decl') queue.push({ decl: t.decl, env: envOf(t) });
        else if (t.t === 'ext' && !isRootType(t.fqn)) unknown = true;
      }
    }
    if (abstract.length > 1) return undefined;
    if (unknown) return 'unknown';
    return abstract[0];
  }

  private hasUnknownSuper(decl: Decl, seen = new Set<Decl>()): boolean {
    if (seen.has(decl)) return false;
    seen.add(decl);
    // A library type the model knows never extends a repository type; one it does not know might.
    return this.supertypes(decl).some((s) => (s.type.t === 'decl' ? this.hasUnknownSuper(s.type.decl, seen) : s.type.t === 'ext' && !isRootType(s.type.fqn) && !this.library.typeOf(s.type.fqn)));
  }

  /**
   * What a method overrides: the nearest same-signature method on each supertype path. A path
   * that leaves the repository ends at the external type's member of that name, when the method
   * says it overrides (`@Override`, `override`).
   */
  overridden(method: Decl, declaresOverride: boolean): Target[] {
    const inConstantBody = method.parent?.kind === 'enumMember';
    const owner = inConstantBody ? method.parent!.parent : method.parent;
    if (!owner || !TYPE_KINDS.has(owner.kind)) return [];
    const result: Target[] = [];
    const visited = new Set<Decl>([inConstantBody ? method.parent! : owner]);
    const kinds = CALLABLE_KINDS.has(method.kind) ? METHOD_KINDS : VALUE_MEMBER_KINDS;
    const walk = (sups: Supertype[], env: TypeEnv) => {
      for (const sup of sups) {
        const type = substitute(sup.type, env);
        if (type.t === 'ext') {
          if (declaresOverride && (!isRootType(type.fqn) || overridesRootMember(type.fqn, method))) {
            result.push({ ext: memberOfExternal(type.fqn, method.name, CALLABLE_KINDS.has(method.kind) ? 'method' : 'property') });
          }
          continue;
        }
        if (type.t !== 'decl' || visited.has(type.decl)) continue;
        visited.add(type.decl);
        // Nullability is not written in the JVM signature: an `Int` may override an `int` or an `Integer`, the exact one first.
        // A private member is not inherited, so nothing overrides it (JLS 8.4.8.1).
        const same = type.decl.members?.get(method.name)?.filter((m) => kinds.has(m.kind) && !(m.mods & MODIFIERS.private));
        const signature = (boxes: boolean) => same?.find((m) => !CALLABLE_KINDS.has(m.kind) || this.overrideSignature(method, m, envOf(type), boxes));
        const match = signature(false) ?? signature(true);
        if (match) result.push({ decl: match });
        else walk(this.supertypes(type.decl), envOf(type));
      }
    };
    // A method in an enum constant's body overrides the enum's own.
    walk(inConstantBody ? [{ type: { t: 'decl', decl: owner, args: [] }, superclass: true, ref: -1, implicit: true }] : this.supertypes(owner), NO_ENV);
    return result;
  }

  private overrideSignature(method: Decl, candidate: Decl, env: TypeEnv, boxes: boolean): boolean {
    const pa = method.params ?? [];
    const pb = candidate.params ?? [];
    if (pa.length !== pb.length) return false;
    for (let i = 0; i < pa.length; i++) {
      const ta = this.typeOfDecl(pa[i]!);
      let tb = this.typeOfDecl(pb[i]!);
      if (!ta || !tb) continue;
      tb = substitute(tb, env);
      if (tb.t === 'var' || ta.t === 'var') continue;
      if (!sameRuntimeType(ta, tb, boxes)) return false;
    }
    return true;
  }
}

/**
 * Resolution of one file's references, memoised: receivers and initialisers are resolved on
 * demand, so the order references appear in does not matter.
 */
export class FileResolution {
  private readonly results: (Resolution | undefined)[];
  private readonly exprTypes = new Map<number, JType | null>();
  private readonly typeNames = new Map<string, TypeNameResult>();
  private readonly rules: LanguageRules;
  private readonly table: SymbolTable;

  constructor(private readonly resolver: JvmResolver, readonly fd: FileDecls) {
    this.results = new Array(fd.file.refs.length);
    this.rules = resolver.rulesOf(fd);
    this.table = resolver.table;
  }

  resolve(index: number): Resolution {
    let result = this.results[index];
    if (!result) {
      this.results[index] = UNRESOLVED; // receivers never loop back, but broken code may
      result = this.compute(this.fd.file.refs[index]!, index);
      this.results[index] = result;
    }
    return result;
  }

  typeOfExpr(index: number): JType | undefined {
    if (index < 0) return undefined;
    if (this.exprTypes.has(index)) return this.exprTypes.get(index) ?? undefined;
    this.exprTypes.set(index, null);
    const type = this.computeExprType(this.fd.file.exprs[index]!);
    this.exprTypes.set(index, type ?? null);
    return type;
  }

  private computeExprType(expr: ExprEntry): JType | undefined {
    switch (expr.form) {
      case 'ref':
        return this.resolve(expr.ref).value;
      case 'literal':
        if (expr.type === 'null') return { t: 'null' };
        if (expr.type === KOTLIN_INT) return { t: 'ext', fqn: KOTLIN_INT, args: [], integerLiteral: true };
        return expr.type.includes('.') ? this.resolver.typeByName(expr.type, this.fd.module) : { t: 'prim', name: expr.type };
      case 'this': {
        if (expr.qualifier >= 0) {
          const qualifier = this.exprResolution(expr.qualifier);
          return qualifier?.denotes;
        }
        const cls = this.enclosingType(expr.scope);
        return cls && { t: 'decl', decl: cls, args: [] };
      }
      case 'super': {
        const cls = this.enclosingType(expr.scope);
        return cls ? this.resolver.supertypes(cls)[0]?.type : undefined;
      }
      case 'cast':
        return this.resolveTypeText(expr.type, expr.scope);
      case 'parens':
        return this.typeOfExpr(expr.value);
      case 'element': {
        const of = this.typeOfExpr(expr.value);
        return of && this.indexedElement(of);
      }
      case 'def': {
        const decl = this.fd.decls[expr.def];
        return decl && { t: 'decl', decl, args: [] };
      }
      case 'lambda': {
        // A Kotlin lambda that declares no parameter takes none, or one as `it`.
        const declared = this.lambdaParameters(expr.scope).length;
        return { t: 'fn', arities: declared === 0 && this.fd.file.lang === 'kotlin' ? [0, 1] : [declared] };
      }
      case 'arithmetic':
        return this.promoted(expr.operands.map((o) => this.typeOfExpr(o)));
    }
  }

  /**
   * The type of a lambda's parameter without a written type: the matching parameter of the
   * functional interface method the lambda implements, its target being the parameter of the call
   * it is passed to or the variable it initialises (JLS 15.27.3).
   */
  lambdaParameterType(param: Decl): JType | undefined {
    return this.lambdaParameterAt(param.def.scope, this.lambdaParameters(param.def.scope).indexOf(param));
  }

  /**
   * The type of a lambda's parameter by position: of the functional interface method it
   * implements, or the parameter type of the Kotlin function type it is passed as (`(Order) -> Unit`).
   */
  private lambdaParameterAt(scope: number, position: number): JType | undefined {
    const lambda = this.lambdaSites().byScope.get(scope);
    const target = lambda === undefined ? undefined : this.targetType(lambda);
    if (target?.t === 'ext' && /^kotlin\.Function\d+$/.test(target.fqn) && target.args.length > 1) {
      const type = target.args[position];
      return type && position < target.args.length - 1 && type.t !== 'null' ? type : undefined;
    }
    if (target?.t === 'ext') {
      // A JDK or stdlib functional interface (Consumer<Item>, Function1<A, R>): its one abstract method's parameter.
      const sam = this.resolver.library.functionalMethod(target);
      const text = sam?.member.params[position];
      return text === undefined ? undefined : this.resolver.library.resolve(text, sam!.env, sam!.member);
    }
    if (target?.t !== 'decl') return undefined;
    const sam = this.resolver.functionalMethod(target);
    const samParam = sam && sam !== 'unknown' ? sam.decl.params?.[position] : undefined;
    const type = samParam && this.resolver.typeOfDecl(samParam);
    return type && substitute(type, (sam as Found).env);
  }

  /** Kotlin's implicit `it`: the only parameter of the innermost enclosing lambda that declares none. */
  private implicitIt(scope: number): JType | undefined {
    const lambdas = this.lambdaSites().byScope;
    for (let s = scope; s >= 0; s = this.fd.file.scopes[s]!.parent) {
      if (!lambdas.has(s) || this.lambdaParameters(s).length > 0) continue;
      return this.lambdaParameterAt(s, 0);
    }
    return undefined;
  }

  /** The type a lambda expression is expected to have: a call's parameter, a variable's declared type. */
  private targetType(expr: number): JType | undefined {
    const sites = this.lambdaSites();
    const variable = sites.variables.get(expr);
    if (variable) return this.resolver.typeOfDecl(variable);
    const argument = sites.arguments.get(expr);
    if (!argument) return undefined;
    const call = this.resolve(argument.ref);
    if (call.library) return this.libraryParameterType(call.library, this.fd.file.refs[argument.ref]!.args?.length ?? 0, argument.position);
    const method = call.confidence === 'resolved' ? call.targets[call.targets.length - 1]?.decl : undefined;
    const params = method && CALLABLE_KINDS.has(method.kind) ? method.params : undefined;
    if (!params?.length) return undefined;
    const param = params[Math.min(argument.position, params.length - 1)]!;
    let type = this.resolver.typeOfDecl(param);
    if (type && param.def.varargs && type.t === 'array' && argument.position >= params.length - 1) type = type.of;
    return type && substitute(type, call.env ?? NO_ENV);
  }

  /** The type of a library call's parameter at a position, when every overload of that arity agrees on it. */
  private libraryParameterType(found: LibraryFound[], arity: number, position: number): JType | undefined {
    let result: JType | undefined;
    for (const { member, env } of found) {
      if (member.varargs ? arity < member.params.length - 1 : arity > member.params.length || arity < member.required) continue;
      let text = member.params[Math.min(position, member.params.length - 1)];
      if (text === undefined) return undefined;
      if (member.varargs && position >= member.params.length - 1) text = text.replace(/\[\]$/, '');
      const type = this.resolver.library.resolve(text, env, member);
      if (!type || (result && (type.t !== result.t || (type.t === 'ext' && result.t === 'ext' && type.fqn !== result.fqn)))) return undefined;
      result = type;
    }
    return result;
  }

  private sites?: { byScope: Map<number, number>; arguments: Map<number, { ref: number; position: number }>; variables: Map<number, Decl> };

  /** Where the file's lambdas are: by their scope, as arguments of calls, as initialisers of variables. */
  private lambdaSites(): NonNullable<FileResolution['sites']> {
    if (this.sites) return this.sites;
    const { exprs, refs } = this.fd.file;
    const sites: NonNullable<FileResolution['sites']> = { byScope: new Map(), arguments: new Map(), variables: new Map() };
    exprs.forEach((expr, index) => {
      if (expr.form === 'lambda') sites.byScope.set(expr.scope, index);
    });
    if (sites.byScope.size > 0) {
      refs.forEach((ref, index) => ref.args?.forEach((arg, position) => {
        if (exprs[arg]?.form === 'lambda') sites.arguments.set(arg, { ref: index, position });
      }));
      for (const decl of this.fd.decls) {
        const value = decl.def.value;
        if (value !== undefined && value >= 0 && exprs[value]?.form === 'lambda' && decl.def.type) sites.variables.set(value, decl);
      }
    }
    return (this.sites = sites);
  }

  /**
   * The type of an arithmetic operation on operands of these types: a String when one is (only
   * `+` takes one), boolean for booleans (`&`, `|`, `^`), else the binary numeric promotion of the
   * unboxed operands (JLS 5.6: double, float, long, or int).
   */
  private promoted(operands: (JType | undefined)[]): JType | undefined {
    const string = operands.find(isStringType);
    if (string) return string;
    const prims = operands.map((t) => t && (t.t === 'prim' ? t.name : boxedPrimitive(t)));
    if (prims.some((p) => p === undefined)) return undefined;
    if (prims.every((p) => p === 'boolean')) return { t: 'prim', name: 'boolean' };
    const name = ['double', 'float', 'long'].find((wide) => prims.includes(wide)) ?? 'int';
    return { t: 'prim', name };
  }

  /** A lambda's parameters, in order. */
  private lambdaParameters(scope: number): Decl[] {
    const params: Decl[] = [];
    for (const decls of this.fd.byScope.get(scope)?.values() ?? []) for (const d of decls) if (d.kind === 'parameter') params.push(d);
    return params.sort((a, b) => a.def.start - b.def.start);
  }

  /** In Kotlin a Java primitive (a Java method's `long`) is a kotlin.Long, with its members (`toFloat()`). */
  private kotlinView(type: JType | undefined): JType | undefined {
    if (type?.t !== 'prim' || this.fd.file.lang !== 'kotlin') return type;
    const kotlin = boxesOf(type.name)[1];
    return kotlin ? { t: 'ext', fqn: kotlin, args: [] } : type;
  }

  private exprResolution(index: number): Resolution | undefined {
    const expr = this.fd.file.exprs[index];
    if (!expr) return undefined;
    if (expr.form === 'ref') return this.resolve(expr.ref);
    if (expr.form === 'parens') return this.exprResolution(expr.value);
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Scopes

  /** The innermost class-like declaration whose scope contains `scope`. */
  enclosingType(scope: number): Decl | undefined {
    for (let s = scope; s >= 0; s = this.fd.file.scopes[s]!.parent) {
      const def = this.fd.file.scopes[s]!.def;
      if (def >= 0 && TYPE_KINDS.has(this.fd.decls[def]!.kind)) return this.fd.decls[def];
    }
    return undefined;
  }

  private declared(scope: number, name: string): Decl[] | undefined {
    return this.fd.byScope.get(scope)?.get(name);
  }

  // ---------------------------------------------------------------------------------------------
  // Types by name

  resolveTypeText(text: string, scope: number, resolvingSupersOf?: Decl): JType | undefined {
    const parsed = parseTypeText(text);
    return parsed && this.resolveParsedType(parsed, scope, resolvingSupersOf);
  }

  private resolveParsedType(parsed: TypeText, scope: number, header?: Decl): JType | undefined {
    let type: JType | undefined;
    if (parsed.functional) {
      // `(A) -> B` is a kotlin.Function1<A, B> (kotlin.jvm.functions.Function1 to Java).
      const parts = parsed.params && parsed.result ? [...parsed.params, parsed.result] : undefined;
      type = { t: 'ext', fqn: parts ? `kotlin.Function${parts.length - 1}` : 'kotlin.Function', args: parts?.map((p) => this.resolveParsedType(p, scope, header) ?? ({ t: 'null' } as JType)) ?? [] };
    }
    else if (parsed.segments.length === 1 && this.rules.primitive(parsed.segments[0]!)) type = { t: 'prim', name: parsed.segments[0]! };
    else {
      const [first, ...rest] = parsed.segments;
      const named = this.typeName(first!, scope, header);
      // A guess (several wildcard imports could supply the name) is not a type to build on.
      if (named.types.length > 0 && (!named.certain || named.types.length > 1)) return undefined;
      let current: JType | undefined = named.types[0];
      let pkg = current ? undefined : named.pkg ?? first;
      for (const segment of rest) {
        if (current) {
          current = this.memberType(current, segment);
          if (!current) return undefined;
        } else {
          const fqn = `${pkg}.${segment}`;
          const decl = this.table.typesNamed(fqn, this.fd.module)[0];
          if (decl) current = { t: 'decl', decl, args: [] };
          else if (this.table.packageNames.has(fqn) || /^[a-z]/.test(segment)) pkg = fqn;
          else current = { t: 'ext', fqn, args: [] };
        }
      }
      type = current;
      if (type && parsed.args.length > 0 && (type.t === 'decl' || type.t === 'ext')) {
        const args = parsed.args.map((arg) => this.resolveParsedType(arg, scope, header) ?? ({ t: 'null' } as JType));
        type = { ...type, args };
      }
    }
    for (let i = 0; type && i < parsed.dims; i++) type = { t: 'array', of: type };
    return type;
  }

  /** A nested type of a type (declared or inherited). */
  memberType(type: JType, name: string): JType | undefined {
    if (type.t === 'ext') return { t: 'ext', fqn: `${type.fqn}.${name}`, args: [] };
    const found = this.resolver.members(type, name, TYPE_MEMBER_KINDS).found[0];
    if (found) return { t: 'decl', decl: found.decl, args: [] };
    const ext = this.resolver.members(type, name, TYPE_MEMBER_KINDS).ext;
    return ext ? { t: 'ext', fqn: `${ext}.${name}`, args: [] } : undefined;
  }

  /**
   * A simple type name in a scope: type parameters and local classes, member types of enclosing
   * classes (and their supertypes), then imports, the file's package, wildcard imports and the
   * language's implicit imports. `header` is the class whose supertypes are being resolved: its own
   * inherited member types are not in scope there (and asking for them would loop).
   */
  typeName(name: string, scope: number, header?: Decl): TypeNameResult {
    const memo = `${scope}|${name}|${header?.id ?? ''}`;
    let result = this.typeNames.get(memo);
    if (!result) {
      result = this.computeTypeName(name, scope, header);
      this.typeNames.set(memo, result);
    }
    return result;
  }

  private computeTypeName(name: string, scope: number, header?: Decl): TypeNameResult {
    const file = this.fd.file;
    if (header?.typeParams) {
      const param = header.typeParams.find((p) => p.name === name);
      if (param) return { types: [{ t: 'var', decl: param }], certain: true };
    }
    for (let s = scope; s >= 0; s = file.scopes[s]!.parent) {
      const local = this.declared(s, name)?.filter((d) => TYPE_KINDS.has(d.kind) || d.kind === 'typeParameter' || d.kind === 'type');
      if (local?.length) return { types: [local[0]!.kind === 'typeParameter' ? { t: 'var', decl: local[0]! } : this.aliasOrType(local[0]!)], certain: true };
      const def = file.scopes[s]!.def;
      const owner = def >= 0 ? this.fd.decls[def]! : undefined;
      if (owner && TYPE_KINDS.has(owner.kind)) {
        if (owner.name === name && owner.def.name) return { types: [{ t: 'decl', decl: owner, args: [] }], certain: true };
        if (owner !== header) {
          const member = this.resolver.members({ t: 'decl', decl: owner, args: [] }, name, TYPE_MEMBER_KINDS).found[0];
          if (member) return { types: [{ t: 'decl', decl: member.decl, args: [] }], certain: true };
        }
      }
    }
    // Imports by name (Kotlin aliases included).
    for (const entry of file.imports) {
      if (entry.wildcard || entry.static && file.lang === 'java') continue;
      const last = entry.alias ?? entry.path.slice(entry.path.lastIndexOf('.') + 1);
      if (last !== name) continue;
      const decls = this.table.typesNamed(entry.path, this.fd.module);
      if (decls.length) return { types: [this.aliasOrType(decls[0]!)], certain: true };
      const alias = this.packageMember(entry.path, 'type');
      if (alias) return { types: [this.aliasOrType(alias)], certain: true };
      if (file.lang === 'kotlin' && /^[a-z]/.test(last) && !entry.alias) continue; // an imported function
      if (this.facadeIn(entry.path.slice(0, entry.path.lastIndexOf('.')), last)) continue; // a Kotlin file facade, no type
      return { types: [{ t: 'ext', fqn: entry.path, args: [] }], certain: true };
    }
    for (const entry of file.imports) {
      if (!entry.static || entry.wildcard || file.lang !== 'java' || !entry.path.endsWith(`.${name}`)) continue;
      const owner = this.resolveTypeText(entry.path.slice(0, entry.path.lastIndexOf('.')), -1);
      const nested = owner && this.memberType(owner, name);
      if (nested) return { types: [nested], certain: true };
    }
    // The file's own package (every module), top-level types and Kotlin type aliases.
    const samePackage = this.table.packages.get(file.pkg)?.get(name)?.filter((d) => TYPE_KINDS.has(d.kind) || d.kind === 'type');
    if (samePackage?.length) return { types: [this.aliasOrType(this.table.layout.prefer(samePackage, this.fd.module, (d) => d.file.path)[0]!)], certain: true };
    // Wildcard imports: repository packages and types first.
    const external: string[] = [];
    for (const entry of file.imports) {
      if (!entry.wildcard) continue;
      const decls = this.table.typesNamed(`${entry.path}.${name}`, this.fd.module);
      if (decls.length) return { types: [this.aliasOrType(decls[0]!)], certain: true };
      const alias = this.packageMember(`${entry.path}.${name}`, 'type');
      if (alias) return { types: [this.aliasOrType(alias)], certain: true };
      const owner = this.table.typesNamed(entry.path, this.fd.module)[0];
      if (owner) {
        const member = this.resolver.members({ t: 'decl', decl: owner, args: [] }, name, TYPE_MEMBER_KINDS).found[0];
        if (member) return { types: [{ t: 'decl', decl: member.decl, args: [] }], certain: true };
        continue;
      }
      if (!this.table.packages.has(entry.path)) external.push(entry.path);
    }
    const implicit = this.rules.implicitType(name);
    if (implicit) return { types: [this.resolver.typeByName(implicit, this.fd.module)], certain: true };
    if (this.table.packageNames.has(name)) return { types: [], pkg: name, certain: true };
    if (external.length > 0 && /^[A-Z]/.test(name)) {
      // Every wildcard package known and exactly one declaring the name: that one, whatever the language.
      const declares = external.map((p) => jdkPackageDeclares(p, name));
      if (!declares.includes(undefined) && declares.filter(Boolean).length === 1) {
        return { types: [{ t: 'ext', fqn: `${external[declares.indexOf(true)]}.${name}`, args: [] }], certain: true };
      }
      return { types: external.map((p) => ({ t: 'ext', fqn: `${p}.${name}`, args: [] })), certain: external.length === 1 && this.rules.wildcardPlacesForCertain };
    }
    return { types: [], certain: false };
  }

  /** A Kotlin type alias stands for the type it names; everything else for itself. */
  private aliasOrType(decl: Decl): JType {
    if (decl.kind === 'type' && decl.def.type) {
      const target = this.resolver.file(this.resolver.declFile(decl)).resolveTypeText(decl.def.type, decl.def.scope);
      if (target) return target;
    }
    return { t: 'decl', decl, args: [] };
  }

  /** A top-level declaration by its qualified name (`com.example.fmt`), of a kind. */
  private packageMember(qualified: string, what: 'type' | 'value' | 'function'): Decl | undefined {
    const dot = qualified.lastIndexOf('.');
    const decls = this.table.packages.get(qualified.slice(0, Math.max(0, dot)))?.get(qualified.slice(dot + 1));
    return decls?.find((d) => (what === 'type' ? d.kind === 'type' || TYPE_KINDS.has(d.kind) : what === 'function' ? d.kind === 'function' : d.kind === 'property'));
  }

  // ---------------------------------------------------------------------------------------------
  // References

  private compute(ref: RefEntry, index: number): Resolution {
    const header = ref.header ? this.fd.decls[ref.owner] : undefined;
    if (header && TYPE_KINDS.has(header.kind) && header.def.ownScope >= 0) {
      // In a class's header only its type parameters are added to the scope around the class.
      const outside = { ...ref, header: false, scope: this.fd.file.scopes[header.def.ownScope]!.parent };
      return ref.role === 'type' || ref.role === 'inherit' || ref.role === 'decorator' ? this.typeReference(outside, header) : this.compute(outside, index);
    }
    switch (ref.role) {
      case 'type':
      case 'inherit':
      case 'decorator':
        return this.typeReference(ref);
      case 'qualifier':
      case 'import':
        return this.qualifier(ref);
      case 'read':
      case 'write':
        return this.value(ref, index);
      case 'call':
        return this.call(ref);
      case 'new':
        return this.creation(ref);
      case 'methodref':
        return this.methodReference(ref);
      case 'constructor':
        return this.constructorCall(ref);
    }
  }

  private receiverOf(ref: RefEntry): Resolution | undefined {
    return ref.receiver >= 0 ? this.exprResolution(ref.receiver) : undefined;
  }

  private typeReference(ref: RefEntry, header?: Decl): Resolution {
    const kind = ROLE_KINDS[ref.role];
    if (ref.receiver >= 0) {
      const receiver = this.receiverOf(ref);
      if (receiver?.denotes) {
        const nested = this.memberType(receiver.denotes, ref.name);
        return nested ? typed(nested, kind) : { ...UNRESOLVED, kind };
      }
      if (receiver?.pkg !== undefined) return this.inPackage(receiver.pkg, ref.name, kind);
      return { ...UNRESOLVED, kind };
    }
    const named = this.typeName(ref.name, ref.scope, header);
    if (named.pkg !== undefined && named.types.length === 0) return { targets: [], confidence: 'resolved', kind, pkg: named.pkg, ignored: true };
    if (named.types.length === 0) return { ...UNRESOLVED, kind };
    const result = typed(named.types[0]!, kind);
    if (named.types.length > 1 || !named.certain) {
      return { targets: candidateTargets(named.types), confidence: 'candidate', kind };
    }
    return result;
  }

  /** `P.name` where P is a package: a repository type, a subpackage, or an external type. */
  private inPackage(pkg: string, name: string, kind: ReferenceKind): Resolution {
    const fqn = `${pkg}.${name}`;
    const decl = this.table.typesNamed(fqn, this.fd.module)[0];
    if (decl) return typed({ t: 'decl', decl, args: [] }, kind);
    if (this.table.packageNames.has(fqn) || /^[a-z]/.test(name)) return { targets: [], confidence: 'resolved', kind, pkg: fqn, ignored: true };
    const facade = this.facadeIn(pkg, name);
    if (facade) return { targets: [], confidence: 'resolved', kind, pkg, facade, ignored: true };
    return typed({ t: 'ext', fqn, args: [] }, kind);
  }

  /**
   * The Kotlin file of this package whose facade class Java calls `name` (`Pricing.kt` is
   * `PricingKt`, or what its `@file:JvmName` says). Java reaches that file's top-level functions
   * and properties as static members of it.
   */
  private facadeIn(pkg: string, name: string): string | undefined {
    if (this.fd.file.lang !== 'java') return undefined;
    return this.resolver.facades(pkg)?.get(name);
  }

  /** A facade named without qualifier: in this package, imported by name, or under a wildcard import. */
  private facade(name: string): { pkg: string; path: string } | undefined {
    const file = this.fd.file;
    if (file.lang !== 'java') return undefined;
    const pkgs = [file.pkg, ...file.imports.filter((i) => !i.static && (i.wildcard || i.path.endsWith(`.${name}`)))
      .map((i) => (i.wildcard ? i.path : i.path.slice(0, i.path.lastIndexOf('.'))))];
    for (const pkg of pkgs) {
      const path = this.facadeIn(pkg, name);
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
  private facadeMember(receiver: Resolution, name: string, kind: ReferenceKind, args: (JType | undefined)[] | undefined): Resolution {
    const inFile = [...(this.table.packages.get(receiver.pkg!)?.values() ?? [])].flat().filter((d) => d.file.path === receiver.facade);
    const functions = inFile.filter((d) => d.kind === 'function' && (d.def.jvmName ?? d.name) === name);
    if (kind === 'call' && functions.length) return this.chosen(functions.map((decl) => ({ decl, env: NO_ENV })), args, 'call', true);
    const properties = this.accessedProperties(inFile, kind === 'call' ? name : undefined, args?.length ?? 0);
    if (kind !== 'call') {
      const fields = inFile.filter((d) => d.kind === 'property' && d.name === name);
      if (fields.length === 1) return this.valued({ decl: fields[0]!, env: NO_ENV }, kind);
    } else if (properties?.found.length === 1) {
      return this.valued({ decl: properties.found[0]!, env: NO_ENV }, properties.write ? 'write' : 'read');
    }
    return { ...UNRESOLVED, kind };
  }

  /**
   * The Kotlin properties a Java accessor call reaches (`getName()` → name, `isOpen()` → isOpen,
   * `setOpen(v)` → open or isOpen); a @JvmField or const property has no accessors.
   */
  private accessedProperties(candidates: Decl[], accessor: string | undefined, argCount: number): { found: Decl[]; write: boolean } | undefined {
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

  private qualifier(ref: RefEntry): Resolution {
    const imported = ref.importIndex >= 0 ? this.fd.file.imports[ref.importIndex] : undefined;
    const kind: ReferenceKind = imported ? 'import' : 'type';
    const receiver = this.receiverOf(ref);
    if (!receiver) {
      if (!imported) {
        const named = this.typeName(ref.name, ref.scope);
        if (named.types.length === 1 && named.certain) return typed(named.types[0]!, kind);
      }
      return { targets: [], confidence: 'resolved', kind, pkg: ref.name, ignored: true };
    }
    const last = ref.role === 'import';
    if (receiver.denotes) {
      if (last && imported?.static && !imported.wildcard) return this.staticImport(receiver.denotes, ref.name);
      const nested = this.memberType(receiver.denotes, ref.name);
      return nested ? typed(nested, kind) : { ...UNRESOLVED, kind };
    }
    if (receiver.pkg === undefined) return { ...UNRESOLVED, kind };
    const fqn = `${receiver.pkg}.${ref.name}`;
    const decl = this.table.typesNamed(fqn, this.fd.module)[0];
    if (decl) return typed({ t: 'decl', decl, args: [] }, kind);
    if (imported && this.fd.file.lang === 'kotlin' && last) {
      // Kotlin imports name functions and properties as well as types.
      const members = this.table.packages.get(receiver.pkg)?.get(ref.name);
      if (members?.length) return { targets: members.map((d) => ({ decl: d })), confidence: members.length === 1 ? 'resolved' : 'candidate', kind };
    }
    if (this.table.packageNames.has(fqn)) return { targets: [], confidence: 'resolved', kind, pkg: fqn, ignored: true };
    if (last && imported && !imported.wildcard && /^[a-z]/.test(ref.name) && this.fd.file.lang === 'kotlin') {
      return { targets: [{ ext: external(fqn, receiver.pkg, 'function') }], confidence: 'resolved', kind };
    }
    if (/^[A-Z]/.test(ref.name)) return typed({ t: 'ext', fqn, args: [] }, kind);
    return { targets: [], confidence: 'resolved', kind, pkg: fqn, ignored: true };
  }

  /** `import static a.B.name;`: every member of B called `name`. */
  private staticImport(owner: JType, name: string): Resolution {
    const kind: ReferenceKind = 'import';
    const lookup = this.resolver.members(owner, name, STATIC_IMPORTABLE);
    if (lookup.found.length) return { targets: lookup.found.map((f) => ({ decl: f.decl })), confidence: 'resolved', kind };
    const ownerName = externalOwner(lookup, name) ?? (owner.t === 'ext' ? owner.fqn : undefined);
    if (ownerName) return { targets: [{ ext: memberOfExternal(ownerName, name, /^[A-Z0-9_]+$/.test(name) ? 'field' : 'method') }], confidence: 'resolved', kind };
    return { ...UNRESOLVED, kind };
  }

  private value(ref: RefEntry, index: number): Resolution {
    const kind = ROLE_KINDS[ref.role];
    if (ref.caseLabel) return this.caseLabel(ref, index, kind);
    if (ref.receiver >= 0) return this.valueOfMember(ref, kind);
    const variable = this.variable(ref.name, ref.scope, ref.start);
    if (variable?.length === 1) {
      const resolution = this.valued(variable[0]!, kind);
      const narrowed = kind === 'read' ? this.smartCast(variable[0]!.decl, ref) : undefined;
      return narrowed ? { ...resolution, value: narrowed } : resolution;
    }
    if (variable) return { targets: variable.map((v) => ({ decl: v.decl })), confidence: 'candidate', kind };
    if (this.fd.file.lang === 'kotlin' && ref.name === 'field') {
      const property = this.fd.decls[ref.owner];
      if (property?.kind === 'property') return this.valued({ decl: property, env: NO_ENV }, kind);
    }
    const onReceiver = this.fd.file.lang === 'kotlin' ? this.viaExtensionReceiver(ref.name, ref.scope, kind) : undefined;
    if (onReceiver) return onReceiver;
    const inherited = this.fromExternalSupertype(ref.name, ref.scope, VALUE_MEMBER_KINDS, this.valueKind());
    if (inherited && /^[a-z_$]/.test(ref.name) && !this.isPackageName(ref.name, index)) return { ...inherited, kind };
    const named = this.typeName(ref.name, ref.scope);
    if (named.types.length > 0) {
      const type = named.types[0]!;
      if (named.types.length > 1 || !named.certain) return { targets: candidateTargets(named.types), confidence: 'candidate', kind };
      // A Kotlin object is a value of its own type; a class name qualifies static members.
      const isObject = type.t === 'decl' && (type.decl.def.nodeType === 'object_declaration' || type.decl.def.nodeType === 'companion_object');
      return { targets: targetOfType(type), confidence: 'resolved', kind, denotes: type, ...(isObject ? { value: type } : {}) };
    }
    if (named.pkg !== undefined) return { targets: [], confidence: 'resolved', kind, pkg: named.pkg, ignored: true };
    const facade = this.facade(ref.name);
    if (facade) return { targets: [], confidence: 'resolved', kind, pkg: facade.pkg, facade: facade.path, ignored: true };
    if (inherited) return { ...inherited, kind };
    if (this.rules.implicitName(ref.name)) {
      const it = this.implicitIt(ref.scope);
      return { targets: [], confidence: 'resolved', kind, ignored: true, ...(it ? { value: it } : {}) };
    }
    if (this.isPackageName(ref.name, index)) return { targets: [], confidence: 'resolved', kind, pkg: ref.name, ignored: true };
    return this.byName(ref.name, VALUE_MEMBER_KINDS, kind, undefined);
  }

  /**
   * `case NAME`: a constant of the subject's type when that is an enum (JLS 14.11.1), else a name in
   * scope like any other (`case MAX_SIZE:` on an int). A subject of unknown type leaves both open.
   */
  private caseLabel(ref: RefEntry, index: number, kind: ReferenceKind): Resolution {
    const subject = this.typeOfExpr(ref.receiver);
    const inScope = () => this.value({ ...ref, caseLabel: false, receiver: -1 }, index);
    if (!subject) {
      const constants = this.byName(ref.name, ENUM_CONSTANT, kind, undefined).targets;
      const named = this.variable(ref.name, ref.scope, ref.start)?.map((f) => ({ decl: f.decl })) ?? [];
      const targets = [...named, ...constants];
      return targets.length ? { targets, confidence: 'candidate', kind } : { ...UNRESOLVED, kind };
    }
    const enumLike = subject.t === 'decl' ? subject.decl.kind === 'enum' : subject.t === 'ext' && !primitiveOfBox(subject.fqn) && !isStringType(subject);
    return enumLike ? this.valueOfMember(ref, kind) : inScope();
  }

  /**
   * The type a Kotlin smart cast gives a local, a parameter or a property read here: the innermost
   * `x is T` region around the read, for a variable declared before the region began.
   */
  private smartCast(decl: Decl, ref: RefEntry): JType | undefined {
    const narrowings = this.fd.file.narrowings;
    if (!narrowings || !(decl.kind === 'local' || decl.kind === 'parameter' || decl.kind === 'property')) return undefined;
    let inner: NarrowEntry | undefined;
    for (const n of narrowings) {
      if (n.start > ref.start) break;
      if (n.name === ref.name && ref.start < n.end && (decl.file !== this.fd.file || decl.def.start < n.start)) inner = n;
    }
    return inner && this.resolveTypeText(inner.type, inner.scope);
  }

  /** An undeclared name that qualifies another and looks like a package root (`java` in `java.util.List.of()`). */
  private isPackageName(name: string, index: number): boolean {
    return (this.table.packageNames.has(name) || isPackageRoot(name)) && this.isQualifier(index);
  }

  /**
   * A member no repository type declares, in a class that extends an external one: it is
   * inherited from there (or named by a static import). Resolved when exactly one external
   * supertype chain and no external on-demand static import could supply it.
   */
  private fromExternalSupertype(name: string, scope: number, kinds: ReadonlySet<SymbolKind>, kind: SymbolKind): Resolution | undefined {
    const file = this.fd.file;
    if (file.lang === 'java') {
      const single = file.imports.find((i) => i.static && !i.wildcard && i.path.endsWith(`.${name}`));
      if (single) {
        const owner = single.path.slice(0, single.path.lastIndexOf('.'));
        if (!this.table.typesNamed(owner, this.fd.module).length) return { targets: [{ ext: memberOfExternal(owner, name, kind) }], confidence: 'resolved', kind: 'read' };
      }
    }
    const owners = new Set<string>();
    let unknown = false;
    for (let s = scope; s >= 0; s = file.scopes[s]!.parent) {
      const owner = this.ownerOfScope(s);
      if (!owner) continue;
      const lookup = this.resolver.members({ t: 'decl', decl: owner, args: [] }, name, kinds);
      if (lookup.found.length) return undefined;
      const ext = externalOwner(lookup, name);
      if (ext) owners.add(ext);
      unknown ||= lookup.unknown;
      if (owners.size > 0) break;
    }
    if (owners.size === 0) return undefined;
    const staticWildcards = file.imports.some((i) => i.static && i.wildcard && !this.table.typesNamed(i.path, this.fd.module).length);
    const confidence: Confidence = unknown || staticWildcards ? 'candidate' : 'resolved';
    return { targets: [...owners].map((owner) => ({ ext: memberOfExternal(owner, name, kind) })), confidence, kind: 'read' };
  }

  /** Whether some other reference of the file uses this one's node as its receiver. */
  private qualifierRefs?: Set<number>;

  private isQualifier(index: number): boolean {
    if (!this.qualifierRefs) {
      this.qualifierRefs = new Set();
      for (const other of this.fd.file.refs) {
        const expr = other.receiver >= 0 ? this.fd.file.exprs[other.receiver] : undefined;
        if (expr?.form === 'ref') this.qualifierRefs.add(expr.ref);
      }
    }
    return this.qualifierRefs.has(index);
  }

  /**
   * A variable by simple name: locals and parameters declared before the use in enclosing code
   * scopes, then fields and properties of enclosing classes (inherited ones too), then statically
   * imported fields (Java) or imported and same-package top-level properties (Kotlin).
   */
  private variable(name: string, scope: number, offset: number): Found[] | undefined {
    const file = this.fd.file;
    for (let s = scope; s >= 0; s = file.scopes[s]!.parent) {
      const here = this.declared(s, name);
      if (here) {
        const visible = here.filter((d) => (d.kind === 'local' || d.kind === 'parameter') && (d.kind === 'parameter' || d.def.start <= offset)
          || VALUE_MEMBER_KINDS.has(d.kind) && !TYPE_KINDS.has(d.kind));
        if (visible.length) return [{ decl: visible[visible.length - 1]!, env: NO_ENV }];
      }
      const receiver = this.extensionReceiverOfScope(s);
      if (receiver) {
        const lookup = this.accessible(this.resolver.members(receiver, name, VALUE_MEMBER_KINDS), scope);
        if (lookup.found.length) return [lookup.found[0]!];
      }
      const owner = this.ownerOfScope(s);
      if (owner) {
        const lookup = this.resolver.members({ t: 'decl', decl: owner, args: [] }, name, VALUE_MEMBER_KINDS);
        if (lookup.found.length) return [lookup.found[0]!];
        if (owner.companion) {
          const companion = this.resolver.members({ t: 'decl', decl: owner.companion, args: [] }, name, VALUE_MEMBER_KINDS);
          if (companion.found.length) return [companion.found[0]!];
        }
      }
    }
    return this.fileLevel(name, VALUE_MEMBER_KINDS, 'value');
  }

  /**
   * The receiver type of a Kotlin extension whose body this scope is (`fun Order.isLarge()`,
   * `val Order.lineCount get() = …`): inside, `this` is an Order and its members need no qualifier.
   */
  private extensionReceiverOfScope(scope: number): JType | undefined {
    const def = this.fd.file.scopes[scope]!.def;
    const decl = def >= 0 ? this.fd.decls[def] : undefined;
    if (!decl || (decl.kind !== 'function' && decl.kind !== 'property' && decl.kind !== 'method')) return undefined;
    return this.resolver.receiverTypeOf(decl);
  }

  /** A Java getter read as a property, or an extension property, on the receiver of an enclosing extension. */
  private viaExtensionReceiver(name: string, scope: number, kind: ReferenceKind): Resolution | undefined {
    for (let s = scope; s >= 0; s = this.fd.file.scopes[s]!.parent) {
      const receiver = this.extensionReceiverOfScope(s);
      if (!receiver) continue;
      const accessor = this.javaAccessor(receiver, name, kind === 'write');
      if (accessor) return accessor;
      const extension = this.extension(name, receiver, 'property');
      if (extension?.confidence === 'resolved') return { ...extension, kind };
    }
    return undefined;
  }

  private ownerOfScope(scope: number): Decl | undefined {
    const def = this.fd.file.scopes[scope]!.def;
    const decl = def >= 0 ? this.fd.decls[def] : undefined;
    return decl && TYPE_KINDS.has(decl.kind) ? decl : undefined;
  }

  /** Statically imported members (Java), imported and same-package top-level declarations (Kotlin). */
  private fileLevel(name: string, kinds: ReadonlySet<SymbolKind>, what: 'value' | 'function'): Found[] | undefined {
    const file = this.fd.file;
    if (file.lang === 'java') {
      for (const wildcard of [false, true]) {
        const found: Found[] = [];
        for (const entry of file.imports) {
          if (!entry.static || entry.wildcard !== wildcard) continue;
          if (!wildcard && !entry.path.endsWith(`.${name}`)) continue;
          const ownerText = wildcard ? entry.path : entry.path.slice(0, entry.path.lastIndexOf('.'));
          const owner = this.table.typesNamed(ownerText, this.fd.module)[0];
          if (!owner) continue;
          found.push(...this.resolver.members({ t: 'decl', decl: owner, args: [] }, name, kinds).found);
        }
        if (found.length) return found;
      }
      return undefined;
    }
    const top = (d: Decl) => (what === 'function' ? d.kind === 'function' && !d.def.receiverType : d.kind === 'property' && !d.def.receiverType);
    for (const entry of file.imports) {
      if (entry.wildcard || (entry.alias ?? entry.path.slice(entry.path.lastIndexOf('.') + 1)) !== name) continue;
      const dot = entry.path.lastIndexOf('.');
      const decls = this.table.packages.get(entry.path.slice(0, dot))?.get(entry.path.slice(dot + 1))?.filter(top);
      if (decls?.length) return decls.map((decl) => ({ decl, env: NO_ENV }));
      // `import com.example.Registry.register` imports an object's member.
      const owner = this.table.typesNamed(entry.path.slice(0, dot), this.fd.module)[0];
      const members = owner && this.resolver.members({ t: 'decl', decl: owner, args: [] }, entry.path.slice(dot + 1), kinds).found;
      if (members?.length) return members;
    }
    const same = this.table.packages.get(file.pkg)?.get(name)?.filter(top);
    if (same?.length) return same.map((decl) => ({ decl, env: NO_ENV }));
    const star: Found[] = [];
    for (const entry of file.imports) {
      if (!entry.wildcard) continue;
      star.push(...(this.table.packages.get(entry.path)?.get(name)?.filter(top) ?? []).map((decl) => ({ decl, env: NO_ENV })));
    }
    return star.length ? star : undefined;
  }

  private valued(found: Found, kind: ReferenceKind): Resolution {
    const type = this.resolver.typeOfDecl(found.decl);
    return { targets: [{ decl: found.decl }], confidence: 'resolved', kind, ...(type ? { value: substitute(type, found.env) } : {}) };
  }

  private valueOfMember(ref: RefEntry, kind: ReferenceKind): Resolution {
    const receiver = this.exprResolution(ref.receiver);
    if (receiver?.facade) return this.facadeMember(receiver, ref.name, kind, undefined);
    if (receiver?.pkg !== undefined && !receiver.denotes) return this.inPackage(receiver.pkg, ref.name, kind);
    if (receiver?.denotes && !receiver.value) {
      // `Type.member`: a static field, an enum constant, a companion member or a nested type.
      const lookup = this.accessible(this.staticMembers(receiver.denotes, ref.name, VALUE_MEMBER_KINDS), ref.scope);
      if (lookup.found.length) return this.valued(lookup.found[0]!, kind);
      const fromLibrary = this.libraryMember(lookup, ref.name, kind, this.valueKind(), undefined, true);
      if (fromLibrary) return fromLibrary;
      if (ref.name === 'INSTANCE' && receiver.denotes.t === 'decl' && receiver.denotes.decl.def.nodeType === 'object_declaration') {
        return { targets: [], confidence: 'resolved', kind, value: receiver.denotes, ignored: true };
      }
      if (receiver.denotes.t === 'ext' && /^[A-Z][A-Z0-9_]*$/.test(ref.name)) {
        // `RetentionPolicy.RUNTIME`: constants are written in capitals, nested types in CamelCase.
        return { targets: [{ ext: memberOfExternal(receiver.denotes.fqn, ref.name, this.valueKind()) }], confidence: 'resolved', kind };
      }
      const nested = this.memberType(receiver.denotes, ref.name);
      if (nested && (nested.t === 'decl' || /^[A-Z]/.test(ref.name))) {
        const isObject = nested.t === 'decl' && (nested.decl.def.nodeType === 'object_declaration' || nested.decl.def.nodeType === 'companion_object');
        return { targets: targetOfType(nested), confidence: 'resolved', kind, denotes: nested, ...(isObject ? { value: nested } : {}) };
      }
      const ownerName = externalOwner(lookup, ref.name) ?? (receiver.denotes.t === 'ext' ? receiver.denotes.fqn : undefined);
      if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, this.valueKind()) }], confidence: 'resolved', kind };
      return this.byName(ref.name, VALUE_MEMBER_KINDS, kind, undefined);
    }
    const type = ref.receiver >= 0 ? this.kotlinView(this.typeOfExpr(ref.receiver)) : undefined;
    if (!type) return this.byName(ref.name, VALUE_MEMBER_KINDS, kind, undefined);
    const mapped = this.fd.file.lang === 'kotlin' ? classMapping(type, ref.name) : undefined;
    if (mapped) return { targets: [{ ext: external(`kotlin.jvm.${ref.name}`, 'kotlin.jvm', 'property') }], confidence: 'resolved', kind, value: mapped };
    if (type.t === 'array') return ref.name === 'length' || ref.name === 'size' ? { targets: [], confidence: 'resolved', kind, value: { t: 'prim', name: 'int' }, ignored: true } : { ...UNRESOLVED, kind };
    const lookup = this.accessible(this.resolver.members(type, ref.name, VALUE_MEMBER_KINDS), ref.scope);
    if (lookup.found.length) return this.valued(lookup.found[0]!, kind);
    const fromLibrary = this.libraryMember(lookup, ref.name, kind, this.valueKind(), undefined, false);
    if (fromLibrary) return fromLibrary;
    if (ref.name === 'INSTANCE' && type.t === 'decl' && type.decl.def.nodeType === 'object_declaration') {
      // Java reaches a Kotlin object through its synthetic INSTANCE field: no symbol, the object's type.
      return { targets: [], confidence: 'resolved', kind, value: type, ignored: true };
    }
    // Kotlin reads a Java getter as a property (`person.name` → getName()), writes through its setter.
    if (this.fd.file.lang === 'kotlin') {
      const accessor = this.javaAccessor(type, ref.name, kind === 'write');
      if (accessor) return accessor;
      const extension = this.extension(ref.name, type, 'property') ?? this.libraryAccessor(type, ref.name) ?? this.libraryExtension(ref.name, type, 'property');
      if (extension) return { ...extension, kind: extension.kind === 'call' ? 'call' : kind };
    }
    const ownerName = externalOwner(lookup, ref.name);
    if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, this.valueKind()) }], confidence: 'resolved', kind };
    return this.byName(ref.name, VALUE_MEMBER_KINDS, kind, undefined);
  }

  /** Private members are visible inside their outermost class only. */
  private accessible(lookup: MemberLookup, scope: number): MemberLookup {
    if (!lookup.found.some((f) => f.decl.mods & MODIFIERS.private)) return lookup;
    const here = outermost(this.enclosingType(scope));
    const found = lookup.found.filter((f) => !(f.decl.mods & MODIFIERS.private) || outermost(f.decl) === here);
    return { ...lookup, found };
  }

  private recordComponent(type: JType, name: string): Decl | undefined {
    if (type.t !== 'decl' || type.decl.def.nodeType !== 'record_declaration') return undefined;
    return type.decl.members?.get(name)?.find((m) => m.kind === 'field' && m.def.nodeType === 'formal_parameter');
  }

  private valueKind(): SymbolKind {
    return this.fd.file.lang === 'kotlin' ? 'property' : 'field';
  }

  /** Members reached through a type name: its own and inherited statics, a Kotlin companion's, an object's. */
  private staticMembers(type: JType, name: string, kinds: ReadonlySet<SymbolKind>): MemberLookup {
    const lookup = this.resolver.members(type, name, kinds);
    if (lookup.found.length || type.t !== 'decl' || !type.decl.companion) return lookup;
    const companion = this.resolver.members({ t: 'decl', decl: type.decl.companion, args: [] }, name, kinds);
    // Java reaches a companion's members through the class only when they are static there (@JvmStatic, @JvmField, const).
    const found = this.fd.file.lang === 'java' ? companion.found.filter((f) => isStaticToJava(f.decl)) : companion.found;
    return found.length ? { ...companion, found } : lookup;
  }

  /**
   * `get<Name>()`/`is<Name>()` of a Java class read as a Kotlin property, or `set<Name>(v)` written
   * as one. Kotlin makes the synthetic property from the getter: a setter alone makes none, so a
   * write resolves only where the getter exists too (without it, `order.status = …` resolves to
   * nothing, as kotlinc reports it). The write is a reference of the setter alone, the method it
   * calls, as kotlinc's references say; change_impact finds it from a changed getter through the
   * setter (packages/query change-impact.ts, kotlinPropertyWrites).
   */
  private javaAccessor(type: JType, name: string, write: boolean): Resolution | undefined {
    const getter = this.javaGetter(type, name);
    if (!getter) return undefined;
    const returned = this.resolver.typeOfDecl(getter.decl);
    if (!write) return { targets: [{ decl: getter.decl }], confidence: 'resolved', kind: 'call', ...(returned ? { value: substitute(returned, getter.env) } : {}) };
    const setterName = `set${/^is[A-Z]/.test(name) ? name.slice(2) : name.charAt(0).toUpperCase() + name.slice(1)}`;
    const setters = this.resolver.members(type, setterName, METHOD_KINDS).found.filter((f) => f.decl.file.lang === 'java' && (f.decl.params?.length ?? 0) === 1);
    if (setters.length !== 1) return undefined;
    return { targets: [{ decl: setters[0]!.decl }], confidence: 'resolved', kind: 'call' };
  }

  /** The Java getter a Kotlin property name stands for: `getName()`, or `isActive()` (for `active` too, as read before). */
  private javaGetter(type: JType, name: string): Found | undefined {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    for (const accessor of [`get${cap}`, /^is[A-Z]/.test(name) ? name : `is${cap}`]) {
      const found = this.resolver.members(type, accessor, METHOD_KINDS).found.filter((f) => f.decl.file.lang === 'java' && (f.decl.params?.length ?? 0) === 0);
      if (found.length === 1) return found[0];
    }
    return undefined;
  }

  /** `getName()`/`isActive()`/`setName(v)` called from Java on a Kotlin property. */
  private kotlinProperty(type: JType, name: string, argCount: number): Resolution | undefined {
    const match = /^(get|set|is)([A-Z]\w*)$/.exec(name);
    if (!match) return undefined;
    const rest = match[2]!;
    const names = match[1] === 'is' ? [name] : match[1] === 'set' ? [rest.charAt(0).toLowerCase() + rest.slice(1), `is${rest}`] : [rest.charAt(0).toLowerCase() + rest.slice(1)];
    const members = names.flatMap((n) => this.resolver.members(type, n, VALUE_MEMBER_KINDS).found);
    const accessed = this.accessedProperties(members.map((f) => f.decl), name, argCount);
    if (accessed?.found.length !== 1) return undefined;
    const found = members.find((f) => f.decl === accessed.found[0])!;
    const valueType = this.resolver.typeOfDecl(found.decl);
    return {
      targets: [{ decl: found.decl }], confidence: 'resolved', kind: accessed.write ? 'write' : 'read',
      ...(valueType && !accessed.write ? { value: substitute(valueType, found.env) } : {}),
    };
  }

  /**
   * Kotlin extension functions (or properties) named so that the file can see (same package,
   * imported by name or wildcard), applicable to the receiver type.
   */
  private extension(name: string, receiver: JType | undefined, what: 'function' | 'property', args?: (JType | undefined)[]): Resolution | undefined {
    const all = this.table.extensions.get(name);
    if (!all) return undefined;
    const file = this.fd.file;
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
      const declared = this.resolver.receiverTypeOf(d);
      if (!declared) return true;
      return this.resolver.assignable(receiver, declared) !== 'no';
    });
    if (applicable.length === 0) return undefined;
    const picked = what === 'function' ? this.resolver.pick(applicable.map((decl) => ({ decl, env: NO_ENV })), args) : { chosen: applicable.map((decl) => ({ decl, env: NO_ENV })), exact: applicable.length === 1 };
    const exact = picked.exact && picked.chosen.length === 1 && receiver !== undefined;
    const returned = exact ? this.resolver.typeOfDecl(picked.chosen[0]!.decl) : undefined;
    // The extension's type parameters bound by its receiver and arguments (`List<Order>.each { … }` takes an Order).
    const env = exact ? this.resolver.inferred(picked.chosen[0]!, [receiver, ...(args ?? [])], undefined, true) : undefined;
    return {
      targets: picked.chosen.map((f) => ({ decl: f.decl })), confidence: exact ? 'resolved' : 'candidate', kind: what === 'function' ? 'call' : 'read',
      ...(env ? { env } : {}), ...(returned ? { value: env ? substitute(returned, env) : returned } : {}),
    };
  }

  /** A Kotlin call's explicit type arguments (`<Order>` of `mutableListOf<Order>()`), when each is known. */
  private typeArguments(ref: RefEntry): JType[] | undefined {
    const parsed = ref.role === 'call' && ref.text ? parseTypeText(`T${ref.text}`) : undefined;
    const args = parsed?.args.map((arg) => this.resolveParsedType(arg, ref.scope));
    return args?.every((a) => a !== undefined) ? args as JType[] : undefined;
  }

  /**
   * The arguments' types, for overload choice. In Kotlin a bare `this` inside a lambda may be the
   * lambda's receiver (`n.apply { start(this) }`), which this resolver does not type: unknown there.
   */
  private argTypes(ref: RefEntry): (JType | undefined)[] | undefined {
    return ref.args?.map((a) => (this.receiverLambdaThis(a) ? undefined : this.typeOfExpr(a)));
  }

  private receiverLambdaThis(index: number): boolean {
    const expr = this.fd.file.exprs[index];
    if (this.fd.file.lang !== 'kotlin' || expr?.form !== 'this' || expr.qualifier >= 0) return false;
    const lambdas = this.lambdaSites().byScope;
    for (let s = expr.scope; s >= 0; s = this.fd.file.scopes[s]!.parent) {
      if (lambdas.has(s)) return true;
      if (this.ownerOfScope(s)) return false;
    }
    return false;
  }

  private call(ref: RefEntry): Resolution {
    const args = this.argTypes(ref);
    if (ref.receiver >= 0) return this.memberCall(ref, args);
    const file = this.fd.file;
    // Local functions (Kotlin), then methods of enclosing classes, innermost first.
    for (let s = ref.scope; s >= 0; s = file.scopes[s]!.parent) {
      const local = this.declared(s, ref.name)?.filter((d) => d.kind === 'function');
      if (local?.length) return this.chosen(local.map((decl) => ({ decl, env: NO_ENV })), args, 'call');
      const receiver = file.lang === 'kotlin' ? this.extensionReceiverOfScope(s) : undefined;
      if (receiver) {
        const found = this.accessible(this.resolver.members(receiver, ref.name, METHOD_KINDS), ref.scope).found;
        if (found.length) return this.chosen(found, args, 'call');
        const extension = this.extension(ref.name, receiver, 'function', args);
        if (extension?.confidence === 'resolved') return extension;
      }
      const owner = this.ownerOfScope(s);
      if (!owner) continue;
      const lookup = this.resolver.members({ t: 'decl', decl: owner, args: [] }, ref.name, METHOD_KINDS);
      let found = lookup.found;
      if (!found.length && owner.companion) found = this.resolver.members({ t: 'decl', decl: owner.companion, args: [] }, ref.name, METHOD_KINDS).found;
      if (found.length) return this.chosen(found, args, 'call');
      if (file.lang === 'kotlin') {
        const extension = this.extension(ref.name, { t: 'decl', decl: owner, args: [] }, 'function', args);
        if (extension?.confidence === 'resolved') return extension;
      }
    }
    const imported = this.fileLevel(ref.name, METHOD_KINDS, 'function');
    if (imported?.length) return this.chosen(imported, args, 'call');
    const inherited = this.fromExternalSupertype(ref.name, ref.scope, METHOD_KINDS, 'method');
    if (inherited) return { ...inherited, kind: 'call' };
    if (file.lang === 'kotlin') {
      // `Order(…)` is a constructor call; `println(…)` a default import.
      const named = this.typeName(ref.name, ref.scope);
      // `ArrayList<Order>()`: the written type arguments are the created value's.
      if (named.types.length > 0) return this.construct(named, args, 'new', ref.text ? { ...ref, text: `${ref.name}${ref.text}` } : undefined);
      const implicit = this.rules.implicitFunction(ref.name);
      if (implicit) {
        const pkg = implicit.slice(0, implicit.lastIndexOf('.'));
        const value = this.resolver.library.callType(this.resolver.library.kotlinFunctions(pkg, ref.name), args, this.typeArguments(ref));
        return { targets: [{ ext: external(implicit, pkg, 'function') }], confidence: 'resolved', kind: 'call', ...(value ? { value } : {}) };
      }
    }
    return this.byName(ref.name, METHOD_KINDS, 'call', args);
  }

  private memberCall(ref: RefEntry, args: (JType | undefined)[] | undefined): Resolution {
    const receiverExpr = this.fd.file.exprs[ref.receiver];
    const receiver = this.exprResolution(ref.receiver);
    if (receiver?.facade) return this.facadeMember(receiver, ref.name, 'call', args);
    if (receiver?.pkg !== undefined && !receiver.denotes) {
      // Kotlin constructs a class named by its package without `new` (`retrofit2.Retrofit()`).
      const inPackage = this.fd.file.lang === 'kotlin' && /^[A-Z]/.test(ref.name) ? this.inPackage(receiver.pkg, ref.name, 'new') : undefined;
      return inPackage?.denotes ? this.construct({ types: [inPackage.denotes], certain: true }, args, 'new') : { ...UNRESOLVED, kind: 'call' };
    }
    const isStatic = receiver?.denotes !== undefined && receiver.value === undefined;
    const type = isStatic ? receiver!.denotes! : this.kotlinView(this.typeOfExpr(ref.receiver));
    if (!type) {
      if (this.fd.file.lang === 'kotlin') {
        const extension = this.extension(ref.name, undefined, 'function', args);
        if (extension) return { ...extension, confidence: 'candidate' };
        const anyReceiver = this.resolver.library.anyReceiverExtension(ref.name);
        if (anyReceiver) return { targets: [{ ext: external(`${anyReceiver}.${ref.name}`, anyReceiver, 'function') }], confidence: 'resolved', kind: 'call' };
      }
      return this.byName(ref.name, METHOD_KINDS, 'call', args);
    }
    const lookup = this.accessible(isStatic ? this.staticMembers(type, ref.name, METHOD_KINDS) : this.resolver.members(type, ref.name, METHOD_KINDS), ref.scope);
    if (lookup.found.length === 0 && (args?.length ?? 0) === 0) {
      // A record's component is read through its accessor method, which nobody declares.
      const component = this.recordComponent(type, ref.name);
      if (component) return { ...this.valued({ decl: component, env: envOf(type) }, 'call') };
    }
    if (lookup.found.length) {
      const resolution = this.chosen(lookup.found, args, 'call');
      // Overloads the repository does not declare may live in an external supertype (not in the
      // root class unless the name is one of its members, nor where a supertype is unplaced).
      if (resolution.confidence === 'resolved' || !externalOwner(lookup, ref.name) && !lookup.unknown) return resolution;
    }
    if (isStatic && this.fd.file.lang === 'kotlin' && /^[A-Z]/.test(ref.name)) {
      // `Retrofit.Builder()`: Kotlin constructs a nested class without `new`.
      const nested = this.memberType(type, ref.name);
      if (nested && (nested.t === 'decl' || lookup.found.length === 0)) return this.construct({ types: [nested], certain: true }, args, 'new');
    }
    const fromLibrary = this.libraryMember(lookup, ref.name, 'call', 'method', args, isStatic);
    if (fromLibrary) return fromLibrary;
    if (this.fd.file.lang === 'java') {
      const property = this.kotlinProperty(type, ref.name, args?.length ?? 0);
      if (property) return property;
    } else {
      const extension = this.extension(ref.name, type, 'function', args) ?? this.libraryExtension(ref.name, type, 'function', args);
      if (extension) return extension;
    }
    // An array's clone() is an array of the same type (JLS 10.7); its other members are Object's.
    if (type.t === 'array') return { targets: [], confidence: 'resolved', kind: 'call', ignored: true, ...(ref.name === 'clone' ? { value: type } : {}) };
    const ownerName = externalOwner(lookup, ref.name);
    if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, 'method') }], confidence: 'resolved', kind: 'call' };
    if (receiverExpr?.form === 'super' && ownerName) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, 'method') }], confidence: 'resolved', kind: 'call' };
    return this.byName(ref.name, METHOD_KINDS, 'call', args);
  }

  /**
   * A member the library models give an external type (or the external supertype of a repository
   * one), when no repository type declares it: the declaring library type's member, its value the
   * type the chosen overloads return. Reached through a type name, static members come first.
   */
  private libraryMember(lookup: MemberLookup, name: string, kind: ReferenceKind, symbolKind: SymbolKind, args: (JType | undefined)[] | undefined, isStatic: boolean): Resolution | undefined {
    if (lookup.found.length > 0 || lookup.unknown || lookup.library.length === 0) return undefined;
    let found = lookup.library;
    if (isStatic && found.some((f) => f.member.static)) found = found.filter((f) => f.member.static);
    const library = this.resolver.library;
    const value = symbolKind === 'method' ? library.callType(found, args) : library.returnType(found[0]!);
    return { targets: [{ ext: memberOfExternal(found[0]!.member.owner, name, symbolKind) }], confidence: 'resolved', kind, library: found, ...(value ? { value } : {}) };
  }

  /** A Kotlin stdlib extension the file sees (default imports, or imported) that applies to the receiver. */
  private libraryExtension(name: string, receiver: JType, what: 'function' | 'property', args?: (JType | undefined)[]): Resolution | undefined {
    const imports = this.fd.file.imports;
    const found = this.resolver.library.kotlinExtensions(name, receiver, what).filter(({ member: { owner } }) =>
      isKotlinDefaultPackage(owner) || imports.some((i) => (i.wildcard ? i.path === owner : i.path === `${owner}.${name}`)));
    if (found.length === 0) return undefined;
    const owners = [...new Set(found.map((f) => f.member.owner))];
    const value = what === 'function' ? this.resolver.library.callType(found, args) : this.resolver.library.returnType(found[0]!);
    return {
      targets: owners.map((owner) => ({ ext: external(`${owner}.${name}`, owner, what === 'function' ? 'function' : 'property') })),
      confidence: owners.length === 1 ? 'resolved' : 'candidate', kind: what === 'function' ? 'call' : 'read', ...(value && owners.length === 1 ? { value } : {}),
      // The overloads, bound to the receiver: a lambda passed to one (`orders.filter { it.status }`) takes its parameter types.
      ...(what === 'function' ? { library: found } : {}),
    };
  }

  /** `get<Name>()`/`is<Name>()` of a library type read as a Kotlin property (`file.name` → File.getName()). */
  private libraryAccessor(type: JType, name: string): Resolution | undefined {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    for (const accessor of [`get${cap}`, /^is[A-Z]/.test(name) ? name : `is${cap}`]) {
      const lookup = this.resolver.members(type, accessor, METHOD_KINDS);
      const found = { ...lookup, library: lookup.library.filter((f) => f.member.params.length === 0 && !f.member.static) };
      const resolution = this.libraryMember(found, accessor, 'call', 'method', [], false);
      if (resolution) return resolution;
    }
    return undefined;
  }

  /** The value of `xs[i]`: an array's component, else what the type's `get` operator returns (a list's element, a map's value). */
  private indexedElement(type: JType): JType | undefined {
    if (type.t === 'array') return type.of;
    if (type.t === 'ext') {
      const get = this.resolver.library.members(type, 'get', METHOD_KINDS).filter((f) => f.member.params.length === 1 && !f.member.static);
      const value = get.length ? this.resolver.library.callType(get, [undefined]) : undefined;
      if (value) return value;
    }
    return this.resolver.elementType(type);
  }

  /** Overload choice among found methods; the value is the return type when one was chosen. */
  private chosen(found: Found[], args: (JType | undefined)[] | undefined, kind: ReferenceKind, facade = false): Resolution {
    const { chosen, exact } = this.resolver.pick(found, args, this.fd.file.lang, facade);
    if (exact && chosen.length === 1) {
      const returned = this.resolver.typeOfDecl(chosen[0]!.decl);
      const env = this.resolver.inferred(chosen[0]!, args, undefined, facade);
      return { targets: [{ decl: chosen[0]!.decl }], confidence: 'resolved', kind, env, ...(returned ? { value: substitute(returned, env) } : {}) };
    }
    return { targets: chosen.map((f) => ({ decl: f.decl })), confidence: 'candidate', kind };
  }

  private creation(ref: RefEntry): Resolution {
    const args = this.argTypes(ref);
    let named: TypeNameResult;
    if (ref.name === 'new') {
      // `Foo::new`: a function value making Foos, as many parameters as a constructor has.
      const receiver = this.receiverOf(ref);
      named = { types: receiver?.denotes ? [receiver.denotes] : [], certain: true };
      const created = named.types[0];
      const constructors = created?.t === 'decl' ? created.decl.members?.get(CONSTRUCTOR) ?? [] : [];
      const value: JType = created?.t !== 'decl' ? { t: 'fn' } : constructors.length ? referenceValue(constructors, false) : { t: 'fn', arities: [0] };
      return { ...this.construct(named, undefined, 'new'), value };
    }
    if (ref.receiver >= 0) {
      const resolution = this.typeReference({ ...ref, role: 'type' });
      named = { types: resolution.denotes ? [resolution.denotes] : [], certain: resolution.confidence === 'resolved' };
    } else {
      named = this.typeName(ref.name, ref.scope);
    }
    return this.construct(named, args, 'new', ref);
  }

  /**
   * The class and, when it declares constructors, the one the arguments select. `creation`: the
   * `new` expression, whose written type arguments (or, for `<>`, the chosen constructor's
   * arguments) give the created value its type arguments.
   */
  private construct(named: TypeNameResult, args: (JType | undefined)[] | undefined, kind: ReferenceKind, creation?: RefEntry): Resolution {
    if (named.types.length === 0) return { ...UNRESOLVED, kind };
    if (named.types.length > 1 || !named.certain) return { targets: candidateTargets(named.types), confidence: 'candidate', kind };
    let type = named.types[0]!;
    const targets = targetOfType(type);
    const written = creation?.text && !creation.text.endsWith('<>') ? this.resolveTypeText(creation.text, creation.scope) : undefined;
    if (written && (written.t === 'decl' || written.t === 'ext') && written.args.length > 0) type = written;
    if (type.t !== 'decl') return { targets, confidence: 'resolved', kind, value: type };
    const constructors = type.decl.members?.get(CONSTRUCTOR) ?? [];
    if (constructors.length === 0) return { targets, confidence: 'resolved', kind, value: type };
    const { chosen, exact } = this.resolver.pick(constructors.map((decl) => ({ decl, env: NO_ENV })), args, this.fd.file.lang);
    // A Kotlin primary constructor is the class itself: explicit constructors may not match at all.
    if (this.primaryConstructorFits(type.decl, args) && (!exact || !constructors.some((c) => arityFits(c, args!.length)))) {
      return { targets, confidence: 'resolved', kind, value: type };
    }
    if (exact && chosen.length === 1) {
      const vars = type.decl.typeParams;
      if (creation?.text?.endsWith('<>') && vars) {
        // `new Box<>(item)`: the class's type arguments inferred from the constructor's (JLS 15.9.3).
        const env = this.resolver.inferred(chosen[0]!, args, vars);
        type = { ...type, args: vars.map((v): JType => env.get(v) ?? { t: 'var', decl: v }) };
      }
      return { targets: [...targets, { decl: chosen[0]!.decl }], confidence: 'resolved', kind, value: type };
    }
    return { targets: [...targets, ...chosen.map((f) => ({ decl: f.decl }))], confidence: 'candidate', kind, value: type };
  }

  private methodReference(ref: RefEntry): Resolution {
    const kind: ReferenceKind = 'read';
    let type: JType | undefined;
    let isStatic = false;
    if (ref.receiver >= 0) {
      const receiver = this.exprResolution(ref.receiver);
      isStatic = receiver?.denotes !== undefined && receiver.value === undefined;
      type = isStatic ? receiver!.denotes : this.typeOfExpr(ref.receiver);
    } else {
      const owner = this.enclosingType(ref.scope);
      const found = owner ? this.resolver.members({ t: 'decl', decl: owner, args: [] }, ref.name, METHOD_KINDS).found : [];
      const top = found.length ? found : this.fileLevel(ref.name, METHOD_KINDS, 'function') ?? [];
      if (top.length) return { targets: top.map((f) => ({ decl: f.decl })), confidence: top.length === 1 ? 'resolved' : 'candidate', kind };
      return this.byName(ref.name, METHOD_KINDS, kind, undefined);
    }
    if (!type) return this.byName(ref.name, METHOD_KINDS, kind, undefined);
    // `Service::class`, `x::class`: no member, the class's KClass.
    if (ref.name === 'class' && this.fd.file.lang === 'kotlin') return { targets: [], confidence: 'resolved', kind, ignored: true, value: { t: 'ext', fqn: KCLASS, args: [type] } };
    const lookup = isStatic ? this.staticMembers(type, ref.name, METHOD_OR_VALUE) : this.resolver.members(type, ref.name, METHOD_OR_VALUE);
    if (lookup.found.length) {
      const value = referenceValue(lookup.found.map((f) => f.decl), isStatic);
      return { targets: lookup.found.map((f) => ({ decl: f.decl })), confidence: lookup.found.length === 1 ? 'resolved' : 'candidate', kind, value };
    }
    const ownerName = externalOwner(lookup, ref.name);
    if (ownerName && !lookup.unknown) return { targets: [{ ext: memberOfExternal(ownerName, ref.name, 'method') }], confidence: 'resolved', kind, value: { t: 'fn' } };
    return { ...this.byName(ref.name, METHOD_KINDS, kind, undefined), value: { t: 'fn' } };
  }

  /** `this(…)` and `super(…)` in a constructor. */
  private constructorCall(ref: RefEntry): Resolution {
    const cls = this.enclosingType(ref.scope);
    if (!cls) return { ...UNRESOLVED, kind: 'call' };
    let target: JType | undefined = { t: 'decl', decl: cls, args: [] };
    if (ref.name === 'super') {
      // A Kotlin class with secondary constructors names its superclass without a call (`: Base`).
      const supers = this.resolver.supertypes(cls);
      target = (supers.find((s) => s.superclass && !s.implicit) ?? supers.find((s) => s.type.t === 'decl' && s.type.decl.kind === 'class')
        ?? (supers.filter((s) => s.type.t === 'ext' && !s.implicit).length === 1 ? supers.find((s) => s.type.t === 'ext' && !s.implicit) : undefined)
        ?? supers.find((s) => s.superclass))?.type;
    }
    if (!target) return { ...UNRESOLVED, kind: 'call' };
    if (target.t === 'ext') return { targets: [{ ext: memberOfExternal(target.fqn, target.fqn.slice(target.fqn.lastIndexOf('.') + 1), 'constructor') }], confidence: 'resolved', kind: 'call' };
    if (target.t !== 'decl') return { ...UNRESOLVED, kind: 'call' };
    const constructors = target.decl.members?.get(CONSTRUCTOR) ?? [];
    const args = this.argTypes(ref);
    if (constructors.length === 0 || this.primaryConstructorFits(target.decl, args) && !constructors.some((c) => arityFits(c, args!.length))) {
      return { targets: [{ decl: target.decl }], confidence: 'resolved', kind: 'call' };
    }
    return this.chosen(constructors.map((decl) => ({ decl, env: NO_ENV })), args, 'call');
  }

  /** Whether the arguments fit a Kotlin class's primary constructor (the class's own parameters). */
  private primaryConstructorFits(cls: Decl, args: (JType | undefined)[] | undefined): boolean {
    return cls.file.lang === 'kotlin' && cls.params !== undefined && args !== undefined && arityFits(cls, args.length);
  }

  /**
   * The last resort: declarations of members with this name anywhere in the repository. Only a
   * name matches, so each is a candidate; too many say nothing and none is recorded.
   */
  private byName(name: string, kinds: ReadonlySet<SymbolKind>, kind: ReferenceKind, args: (JType | undefined)[] | undefined): Resolution {
    let matches = (this.table.membersByName.get(name) ?? []).filter((d) => kinds.has(d.kind) && !d.local);
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
}

interface TypeNameResult {
  types: JType[];
  /** Scope or import resolution placed the name (several types or a guess are not certain). */
  certain: boolean;
  pkg?: string;
}

const TYPE_MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum']);
const STATIC_IMPORTABLE: ReadonlySet<SymbolKind> = new Set(['method', 'function', 'field', 'property', 'enumMember', 'class', 'interface', 'enum']);
const METHOD_OR_VALUE: ReadonlySet<SymbolKind> = new Set(['method', 'function', 'field', 'property']);
const ENUM_CONSTANT: ReadonlySet<SymbolKind> = new Set(['enumMember']);

function typed(type: JType, kind: ReferenceKind): Resolution {
  return { targets: targetOfType(type), confidence: 'resolved', kind, denotes: type };
}

/**
 * Candidates for a name several types could supply. Only repository declarations: an external
 * name guessed from a wildcard import (`java.util.concurrent.List`) may not exist at all, and a
 * symbol that does not exist must not appear in the index.
 */
function candidateTargets(types: JType[]): Target[] {
  return types.flatMap((t) => (t.t === 'decl' ? [{ decl: t.decl }] : []));
}

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

function targetOfType(type: JType): Target[] {
  if (type.t === 'decl' || type.t === 'var') return [{ decl: type.decl }];
  if (type.t === 'ext') return [{ ext: external(type.fqn, packageOf(type.fqn), 'class') }];
  return [];
}

function external(qname: string, pkg: string, kind: SymbolKind): ExternalTarget {
  return { qname, name: qname.slice(qname.lastIndexOf('.') + 1), kind, pkg };
}

/** An external member, named `java.util.List#add` (Kotlin's own types: `kotlin.collections.List.size`). */
function memberOfExternal(owner: string, name: string, kind: SymbolKind): ExternalTarget {
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

const packages = new Map<string, string>();

function computePackage(fqn: string): string {
  const segments = fqn.split('.');
  const type = segments.findIndex((s) => /^[A-Z]/.test(s));
  return segments.slice(0, type > 0 ? type : Math.max(1, segments.length - 1)).join('.');
}

/** A companion member Java sees as a static member of the outer class. */
function isStaticToJava(decl: Decl): boolean {
  const modifiers = decl.def.modifiers;
  return hasAnnotation(modifiers, 'JvmStatic') || hasAnnotation(modifiers, 'JvmField') || hasModifier(modifiers, 'const') || hasModifier(modifiers, 'lateinit');
}

/** Whether parameter slots take this many arguments: optional ones may be left out, varargs take any number more. */
function arityAccepts(slots: readonly ParamSlot[], n: number): boolean {
  const required = slots.filter((slot) => !slot.optional).length;
  const varargs = slots.length > 0 && slots[slots.length - 1]!.varargs;
  return varargs ? n >= slots.length - 1 : n <= slots.length && n >= required;
}

/** Whether a callable takes this many arguments (Kotlin parameters with defaults may be left out). */
function arityFits(decl: Decl, n: number): boolean {
  const params = decl.params ?? [];
  const required = params.filter((p) => p.def.value === undefined || decl.file.lang === 'java').length;
  const varargs = params.length > 0 && params[params.length - 1]!.def.varargs;
  return varargs ? n >= params.length - 1 : n <= params.length && n >= required;
}

const KCLASS = 'kotlin.reflect.KClass';
const KOTLIN_INT = 'kotlin.Int';
/** The types a Kotlin integer literal takes besides Int when one is expected. */
const LITERAL_NARROWS: ReadonlySet<string> = new Set(['byte', 'short', 'long']);

/** `Service::class.java` (and its object and primitive forms): the java.lang.Class of a KClass. */
function classMapping(type: JType, name: string): JType | undefined {
  if (type.t !== 'ext' || type.fqn !== KCLASS || !['java', 'javaObjectType', 'javaPrimitiveType'].includes(name)) return undefined;
  return { t: 'ext', fqn: 'java.lang.Class', args: type.args };
}

const ARRAY_SUPERTYPES = new Set(['java.lang.Object', 'java.lang.Cloneable', 'java.io.Serializable', 'kotlin.Any']);

/** The primitive a box holds, whether the box is external or the repository's own (java.base declares java.lang.Integer). */
function boxedPrimitive(type: JType): string | undefined {
  if (type.t === 'ext') return primitiveOfBox(type.fqn);
  return type.t === 'decl' && type.decl.fqn ? primitiveOfBox(type.decl.fqn) : undefined;
}

function isStringType(type: JType | undefined): boolean {
  return type?.t === 'ext' ? type.fqn === 'java.lang.String' : type?.t === 'decl' && type.decl.fqn === 'java.lang.String';
}

function primitiveName(type: JType): string | undefined {
  if (type.t === 'prim') return type.name;
  if (type.t === 'ext') return primitiveOfKotlin(type.fqn);
  return undefined;
}

/** The class Java sees a Kotlin file's top-level declarations in: `Pricing.kt`'s is `PricingKt`, `order-utils.kt`'s `Order_utilsKt`. */
function facadeName(path: string): string {
  const stem = path.slice(path.lastIndexOf('/') + 1).replace(/\.kts?$/, '').replace(/[^\w$]/g, '_');
  return `${stem.charAt(0).toUpperCase()}${stem.slice(1)}Kt`;
}

function outermost(decl: Decl | undefined): Decl | undefined {
  let current = decl;
  while (current?.parent) current = current.parent;
  return current;
}

/** Members every object has (java.lang.Object's, kotlin.Any's). */
const ROOT_MEMBERS = new Set(['equals', 'hashCode', 'toString', 'getClass', 'notify', 'notifyAll', 'wait', 'clone', 'finalize']);

/**
 * The root members a class can override, by parameter count: Object's getClass, notify, notifyAll
 * and wait are final, and kotlin.Any has only equals, hashCode and toString. Without this a Kotlin
 * `override fun notify(…)` of the repository's own interface also "overrode" kotlin.Any.notify.
 */
const OVERRIDABLE_ROOT_MEMBERS: Readonly<Record<string, ReadonlyMap<string, number>>> = {
  'java.lang.Object': new Map([['equals', 1], ['hashCode', 0], ['toString', 0], ['clone', 0], ['finalize', 0]]),
  'kotlin.Any': new Map([['equals', 1], ['hashCode', 0], ['toString', 0]]),
};

function overridesRootMember(root: string, method: Decl): boolean {
  return OVERRIDABLE_ROOT_MEMBERS[root]?.get(method.name) === (method.params?.length ?? 0);
}

/**
 * The external type that must declare a member the repository's types do not: the first external
 * supertype met, unless that is only the root class and the name is none of its members.
 */
function externalOwner(lookup: MemberLookup, name: string): string | undefined {
  if (!lookup.ext) return undefined;
  return isRootType(lookup.ext) && !ROOT_MEMBERS.has(name) ? undefined : lookup.ext;
}

function isRootType(fqn: string): boolean {
  return fqn === 'java.lang.Object' || fqn === 'kotlin.Any';
}

/**
 * Whether two types erase to the same JVM type: Kotlin's spellings mapped to Java's (`Array<T>`
 * is `T[]`, `IntArray` `int[]`, `Int` `int`, `Any` Object, `MutableList` java.util.List). With
 * `boxes`, a primitive and its box are the same too (Kotlin's `Int?` is an Integer).
 */
function sameRuntimeType(written: JType, otherWritten: JType, boxes = false): boolean {
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
