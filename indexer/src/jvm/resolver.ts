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
//
// JvmResolver answers for the whole repository: the types of declarations, their supertypes and
// members, what a method overrides. The rest, by the question each module answers:
// resolution.ts (what a resolution says), file-resolution.ts (one file's references, memoised,
// by role), type-names.ts (which type or package a name denotes: scopes and imports),
// value-names.ts (which variable, field or constant a name denotes), calls.ts (which method or
// constructor a call reaches), overloads.ts (which overload the arguments choose, what they
// infer), assignability.ts (which conversions the JVM allows), expression-types.ts (the static
// type of an expression, a lambda's parameters), kotlin-interop.ts (Kotlin's own rules and what
// each language sees of the other).
import { MODIFIERS, type SymbolKind } from '@sextant/format';
import { CALLABLE_KINDS, TYPE_KINDS } from './file-model.ts';
import { LibraryTypes } from './library/library-types.ts';
import { envOf, NO_ENV, substitute, type JType, type TypeEnv } from './jvm-types.ts';
import { javaRules } from './java-rules.ts';
import { kotlinRules } from './kotlin-rules.ts';
import type { LanguageRules } from './language-rules.ts';
import type { Decl, FileDecls, SymbolTable } from './symbol-table.ts';
import { assignable, sameRuntimeType } from './assignability.ts';
import { FileResolution } from './file-resolution.ts';
import { isRootType, memberOfExternal, METHOD_KINDS, ROOT_MEMBERS, VALUE_MEMBER_KINDS, type Found, type MemberLookup, type Target } from './resolution.ts';

export interface Supertype {
  type: JType;
  /** Written in the superclass position. */
  superclass: boolean;
  /** Index of the inherit reference that names it (-1 for implicit or anonymous supertypes). */
  ref: number;
  implicit: boolean;
}

export class JvmResolver {
  private readonly supers = new Map<Decl, Supertype[]>();
  private readonly declTypes = new Map<Decl, JType | null>();
  private readonly contexts = new Map<FileDecls, FileResolution>();

  /** External types through the library models; a canonical name the repository declares stays the repository's. */
  readonly library: LibraryTypes = new LibraryTypes((fqn) => this.typeByName(fqn, ''), (from, to) => assignable(this, from, to));

  constructor(readonly table: SymbolTable) {}

  rulesOf(fd: FileDecls): LanguageRules {
    return fd.file.lang === 'java' ? javaRules : kotlinRules;
  }

  file(fd: FileDecls): FileResolution {
    let context = this.contexts.get(fd);
    if (!context) this.contexts.set(fd, (context = new FileResolution(this, fd)));
    return context;
  }

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
    if (type.t === 'var') {
      // A value of a type variable has the members of each of its bounds (`where T : A, T : B`).
      let first: MemberLookup | undefined;
      for (const bound of this.bounds(type.decl)) {
        const lookup = this.members(bound, name, kinds);
        if (lookup.found.length || lookup.library.length) return lookup;
        first ??= lookup;
      }
      return first ?? { found, unknown: true, library: [] };
    }
    if (type.t === 'null' || type.t === 'prim' || type.t === 'array' || type.t === 'fn') return { found, unknown: true, library: [] };
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

  /** A type variable's first bound: its erasure (JLS 4.6). */
  private bound(typeParam: Decl): JType | undefined {
    return this.bounds(typeParam)[0];
  }

  private bounds(typeParam: Decl): JType[] {
    const { type, bounds = [], scope } = typeParam.def;
    const file = this.file(this.declFile(typeParam));
    const out: JType[] = [];
    for (const text of type === undefined ? bounds : [type, ...bounds]) {
      const resolved = file.resolveTypeText(text, scope);
      if (resolved) out.push(resolved);
    }
    return out;
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
    // A method's own type variable, or an array of one (`<T> T[] toArray(T[] a)`).
    const own = (t: JType): boolean => (t.t === 'array' ? own(t.of) : t.t === 'var' && t.decl.parent !== undefined && CALLABLE_KINDS.has(t.decl.parent.kind));
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

  /** A type as overload resolution compares it: a type variable stands for its bound (JLS 4.6). */
  erased(type: JType): JType {
    if (type.t === 'array') return { t: 'array', of: this.erased(type.of) };
    if (type.t !== 'var') return type;
    const bound = this.bound(type.decl);
    return bound && bound.t !== 'var' ? this.erased(bound) : { t: 'ext', fqn: type.decl.file.lang === 'kotlin' ? 'kotlin.Any' : 'java.lang.Object', args: [] };
  }

  /**
   * The one abstract method of a repository functional interface (JLS 9.8), with the environment
   * of the supertype that declares it; 'unknown' when an external superinterface may add one. A
   * Kotlin interface's abstract functions are those without a body (`fun interface Check`).
   */
  functionalMethod(type: JType & { t: 'decl' }): Found | 'unknown' | undefined {
    if (type.decl.kind !== 'interface') return undefined;
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
          // A Kotlin interface's abstract members are those without a body (a `fun interface` has one).
          if (m.kind !== 'method' || /\b(default|static|private)\b/.test(m.def.modifiers ?? '') || (m.file.lang === 'kotlin' && !m.def.bodyless)) continue;
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

  hasUnknownSuper(decl: Decl, seen = new Set<Decl>()): boolean {
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

/** The class Java sees a Kotlin file's top-level declarations in: `Pricing.kt`'s is `PricingKt`, `order-utils.kt`'s `Order_utilsKt`. */
function facadeName(path: string): string {
  const stem = path.slice(path.lastIndexOf('/') + 1).replace(/\.kts?$/, '').replace(/[^\w$]/g, '_');
  return `${stem.charAt(0).toUpperCase()}${stem.slice(1)}Kt`;
}

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
