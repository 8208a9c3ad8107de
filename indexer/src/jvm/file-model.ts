// What the tag extractor keeps of one Java or Kotlin file once its syntax tree is gone: definitions,
// references with the syntax their resolution needs (receiver, arguments, scope), expressions whose
// type resolution can follow, scopes and imports. Plain data, so resolution can run after every file
// is parsed without keeping a single tree alive.
import type { ProblemRecord, SymbolKind } from '@sextant/format';

export type JvmLanguage = 'java' | 'kotlin';

/** Kinds that declare a type (and open a member scope). */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum']);
/** Kinds that declare something callable (and open a code scope). */
export const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'constructor', 'function']);

/**
 * What a reference capture says the name is: a method called, a class instantiated, a variable
 * read or written, a type named, a supertype, an imported name, a segment of a dotted name, an
 * annotation, a method named without a call (`Foo::bar`, annotation elements), or an explicit
 * constructor call (`this(…)`, `super(…)`).
 */
export const ROLES = ['call', 'new', 'read', 'write', 'type', 'inherit', 'import', 'qualifier', 'decorator', 'methodref', 'constructor'] as const;
export type Role = (typeof ROLES)[number];

/** 1-based line and column (UTF-16) of a name's start and end. */
export interface NameRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface DefEntry extends NameRange {
  kind: SymbolKind;
  /** Empty for anonymous declarations (the language names them). */
  name: string;
  /** Node type of the declaration, for language rules (`companion_object`, `spread_parameter`, …). */
  nodeType: string;
  /**
   * Declaration extent (UTF-16 offsets) and as positions, for the outline: four numbers, not an
   * array, since every declaration of the commit is held until the build ends (an array cost 80
   * bytes more each, 16 MB on java.base).
   */
  start: number;
  end: number;
  rangeLine: number;
  rangeColumn: number;
  rangeEndLine: number;
  rangeEndColumn: number;
  /** Enclosing definition (container), -1 at file level. */
  parent: number;
  /** Scope the name is declared in; its own scope when it is class- or function-like, else -1. */
  scope: number;
  ownScope: number;
  /** Declared inside code (a body, a lambda): locals, parameters, local classes and functions. */
  local: boolean;
  /** Type as written: of a variable, or a method's return type; a type parameter's (first) upper bound. */
  type?: string;
  /** A type parameter's further upper bounds (`where T : A, T : B`), as written. */
  bounds?: string[];
  /** Extension receiver type as written (Kotlin). */
  receiverType?: string;
  /** Expression of the initialiser (or of the iterated value for loop variables). */
  value?: number;
  doc?: string;
  modifiers?: string;
  signature?: string;
  varargs?: boolean;
  /** A loop variable: its type is the element type of `value`. */
  iterates?: boolean;
  /** The name Java calls a Kotlin declaration by (`@JvmName`). */
  jvmName?: string;
  /** A method or function declared without a body (abstract, an interface's, native, external). */
  bodyless?: true;
}

export interface RefEntry extends NameRange {
  role: Role;
  name: string;
  /** Offset of the name, for scope ordering (a local is visible after its declaration). */
  start: number;
  scope: number;
  /** Innermost enclosing definition that can hold code (the caller), -1 at file level. */
  owner: number;
  /** Expression of the receiver (`a` in `a.b()`, the qualifier of a dotted name), -1 when none. */
  receiver: number;
  /** Argument expressions of a call or object creation (-1 for an argument nothing describes). */
  args?: number[];
  /** Index of the import declaration the name is part of, -1 outside imports. */
  importIndex: number;
  /** A supertype named in a class's superclass position (`extends`, a Kotlin constructor call). */
  superclass?: boolean;
  /** A switch label (`case NAME`); its receiver is the switch's subject, whose type says what the name is. */
  caseLabel?: boolean;
  /**
   * Named in a class's header (its annotations, type parameters, supertypes): the class is the
   * reference's owner, its type parameters are in scope there and its members are not (JLS 6.3).
   */
  header?: boolean;
  /**
   * A supertype, or the type a generic object creation names, as written with its type arguments;
   * for a Kotlin call, its explicit type arguments (`<Order>` in `mutableListOf<Order>()`).
   */
  text?: string;
}

/** An expression resolution can type: a reference, a literal, `this`/`super`, a cast, a wrapper. */
export type ExprEntry =
  | { form: 'ref'; ref: number }
  | { form: 'literal'; type: string }
  | { form: 'this'; qualifier: number; scope: number }
  | { form: 'super'; scope: number }
  | { form: 'cast'; type: string; scope: number }
  | { form: 'parens'; value: number }
  /** An arithmetic operation: the binary numeric promotion of its operands, a String when one is. */
  | { form: 'arithmetic'; operands: number[] }
  | { form: 'element'; value: number }
  /** An object expression that declares a class (`object : Runnable { … }`). */
  | { form: 'def'; def: number }
  /** A lambda; `scope` is its own, where its parameters are declared. */
  /**
   * A lambda; `scope` is its own, where its parameters are declared; `value` its last statement (-1:
   * none). Its expected type, where no call or variable gives one: the function it is `returned`
   * from's return type, or the type it is `cast` to (as written).
   */
  | { form: 'lambda'; scope: number; value: number; returned?: true; cast?: string };

export interface ScopeEntry {
  start: number;
  end: number;
  parent: number;
  /** The definition whose own scope this is, -1 for a code block. */
  def: number;
  /** Locals live here (a body, a block, a lambda), as opposed to a class's member scope. */
  code: boolean;
}

export interface ImportEntry {
  path: string;
  wildcard: boolean;
  static: boolean;
  alias?: string;
}

/** A region where a Kotlin variable is known to have a narrower type (a smart cast after `x is T`). */
export interface NarrowEntry {
  name: string;
  /** The type as written, read in `scope`. */
  type: string;
  scope: number;
  start: number;
  end: number;
}

export interface FileModel {
  path: string;
  lang: JvmLanguage;
  pkg: string;
  /** The class Java sees a Kotlin file's top-level declarations in, when `@file:JvmName` names it. */
  facade?: string;
  imports: ImportEntry[];
  defs: DefEntry[];
  refs: RefEntry[];
  exprs: ExprEntry[];
  scopes: ScopeEntry[];
  /** Kotlin smart casts, in document order of their start. */
  narrowings?: NarrowEntry[];
  problems: ProblemRecord[];
}
