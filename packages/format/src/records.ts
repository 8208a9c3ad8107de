// The records stored in shards. Positions are 1-based lines and 1-based columns counted in UTF-16
// code units (as LSP and the TypeScript compiler count). Occurrence lists are flattened number
// arrays (fixed stride) because a repository has millions of them and objects cost memory and
// decode time in the worker.

export const SYMBOL_KINDS = [
  'class', 'interface', 'type', 'enum', 'enumMember', 'function', 'method', 'constructor',
  'property', 'field', 'getter', 'setter', 'variable', 'constant', 'namespace', 'module',
  'typeParameter', 'parameter', 'local', 'component',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

export const REFERENCE_KINDS = [
  'definition', 'call', 'new', 'read', 'write', 'type', 'import', 'export', 'inherit', 'jsx', 'decorator',
] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/**
 * Stored by index (symbol, file-table, name and unresolved shards): a language is only ever appended.
 * The first four are resolved by a compiler or by scope; the rest by a SCIP index or by tags alone.
 */
export const LANGUAGES = [
  'typescript', 'javascript', 'java', 'kotlin',
  'python', 'go', 'rust', 'csharp', 'ruby', 'php', 'c', 'cpp', 'swift', 'scala', 'bash',
] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * A strided integer column of a record: an array where a writer builds it, an Int32Array where a
 * reader unpacks it from a shard (four bytes a value, one allocation, no per-element growth).
 */
export type IntList = number[] | Int32Array;

/**
 * `sameProperty` joins the same-named members of the object type literals of one union
 * (`{ kind: 'min'; message?: string } | { kind: 'max'; message?: string }`), which the TypeScript
 * language service treats as one property when it finds references.
 */
export const EDGE_KINDS = ['extends', 'implements', 'overrides', 'calls', 'sameProperty'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

/**
 * The modifier keywords a signature starts with (TypeScript, Java, Kotlin): compared as the
 * `modifiers` aspect (DeclRecord.mods), never as the signature, so DeclRecord.sig leaves them out
 * and diff_symbols strips them from a shown signature.
 */
export const LEADING_MODIFIERS = /^(?:(?:export|default|declare|public|private|protected|internal|static|abstract|async|readonly|override|accessor|final|open|sealed|const)\s+)+/;

/** Bit flags of a symbol's modifiers. */
export const MODIFIERS = {
  exported: 1, default: 2, static: 4, abstract: 8, async: 16, readonly: 32,
  private: 64, protected: 128, public: 256, declare: 512, optional: 1024,
} as const;
export type Modifier = keyof typeof MODIFIERS;

/**
 * Bit flags of a file's classification. `global`: a TypeScript or JavaScript file whose declarations
 * reach beyond its module (a script, `declare global`, `declare module "x"`), which an incremental
 * build's program holds whatever it walks (8 is left out: a name's flags are its file's, and 8 is
 * NAME_FLAG_EXTERNAL there).
 */
export const FILE_FLAGS = { test: 1, generated: 2, vendored: 4, global: 16 } as const;
export type FileFlag = keyof typeof FILE_FLAGS;

/** Stride of one entry in SymbolRecord.defs: pathIndex, line, column, endLine, endColumn. */
export const DEF_STRIDE = 5;
/**
 * How a reference was resolved: exact (by a compiler, or a SCIP index's precise indexer), resolved (scope and import resolution found
 * exactly one declaration), candidate (a name match only; several declarations were possible).
 */
export const CONFIDENCES = ['exact', 'resolved', 'candidate'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** Stride of one entry in SymbolRecord.refs: pathIndex, line, column, endLine, endColumn, kind, fromIndex (-1: module scope), confidence. */
export const REF_STRIDE = 8;
/** Stride of one entry in FileRecord.occ: line, column, endLine, endColumn, symbolIndex, kind. */
export const OCC_STRIDE = 6;

/** A symbol mentioned by a shard without being stored in it: enough to name it and chain to it. */
export interface PeerRecord {
  key: string;
  name: string;
  kind: SymbolKind;
}

export interface ExternalOrigin {
  /** npm package name, or "typescript/lib" for the TypeScript standard library. */
  package: string;
  version?: string;
}

export interface SymbolRecord {
  key: string;
  name: string;
  kind: SymbolKind;
  /** Dotted name inside its module, e.g. `OrderService.submit`. */
  qname: string;
  lang: Language;
  /** Module (file) path of the first declaration; absent for external symbols. */
  path?: string;
  mods: number;
  signature?: string;
  doc?: string;
  /** Key of the enclosing symbol. */
  container?: string;
  external?: ExternalOrigin;
  /** Locals and parameters: referenced, never searched. */
  local?: boolean;
  /** Declaration name ranges, DEF_STRIDE each, in (path, position) order. */
  defs: IntList;
  /**
   * The source line of each declaration (parallel to defs) as previewOf gives it, so a definition's
   * preview needs no text shard; absent for locals (reached through their file, whose text a
   * position lookup reads anyway) and externals.
   */
  previews?: string[];
  /**
   * References, REF_STRIDE each, definitions excluded, in REFERENCE_ORDER (reference-order.ts): by
   * the class of their file, then path and position. Indexes written before that order hold them in
   * (path, position) order and still decode; find_references notices which it reads.
   */
  refs: IntList;
  /**
   * Per reference, parallel to refs, which declaration a call there resolved to (the compiler's
   * resolved signature), -1 where none was chosen: an index into defs (an overload), or past them
   * into signatures. Absent when no call chose among several.
   */
  refDecls?: IntList;
  /**
   * Call signatures of the symbol's type that calls resolved to, DEF_STRIDE each, where the type
   * has several (a dual API: `const map: { (f): …; (self, f): … }`): they are no declaration of the
   * symbol, so defs does not hold them.
   */
  signatures?: IntList;
  /** The symbol's node in the graph shards (an ordinal, graph-shard.ts), -1 when it has no edges. */
  graph: number;
}


export interface OutlineNode {
  name: string;
  kind: SymbolKind;
  /** Index into FileRecord.syms, -1 when the compiler did not see this declaration. */
  sym: number;
  /** Whole declaration: line, column, endLine, endColumn. */
  range: [number, number, number, number];
  /** Name: line, column. */
  at: [number, number];
  children: OutlineNode[];
}

export interface ProblemRecord {
  source: 'syntax' | 'compiler';
  severity: 'error' | 'warning';
  code?: number;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /**
   * Keys of the symbols a compiler error stems from, as the indexer asked the checker
   * (indexer/src/ts/diagnostic-blame.ts): change_impact attributes a new error to the changed
   * symbols among them. Absent for syntax errors, warnings and languages without a compiler.
   */
  blame?: string[];
  /**
   * Names in the code the error is blamed on that the checker could not resolve (a use of what
   * is no longer declared or exported): change_impact attributes the error to a change that took
   * a symbol of that name away. Absent where `blame` is, and when every name resolved.
   */
  blameNames?: string[];
}

/**
 * A symbol declared in a file, with what comparing two commits needs without reading symbol shards
 * (diff_symbols reads the change records of the changed files only). One per declared symbol that
 * is not a local, in declaration order; a symbol declared several times in one file (overloads,
 * merged declarations) has one, its ranges covering all of them.
 */
export interface DeclRecord {
  /** The declared symbol's key. */
  key: string;
  name: string;
  kind: SymbolKind;
  /** The symbol's qualified name, as SymbolRecord.qname. */
  qname: string;
  /** MODIFIERS bits, as SymbolRecord.mods. */
  mods: number;
  signature?: string;
  /** Index into ChangeRecord.decls of the enclosing declaration in this file, -1 when none. */
  container: number;
  /** The name of the first declaration: line, column, endLine, endColumn. */
  at: [number, number, number, number];
  /** The whole first declaration: line, column, endLine, endColumn (the name's range when the outline has no node for it). */
  range: [number, number, number, number];
  /**
   * Fingerprint of the declaration's body (indexer/src/decl-fingerprint.ts: its text after the
   * signature, whitespace-normalised, its own name masked, the text of nested declarations that are
   * decls of their own left out); '' when it has none (an abstract method, a property without initializer).
   */
  body: string;
  /** Fingerprint of the doc comment's text; '' when there is none. */
  doc: string;
  /**
   * Fingerprint of the whole signatures of every declaration of the symbol in this file (`signature`
   * shows the first, cut at 300 characters), its own name masked (the declared name, and every later
   * use not qualified: `ns.name` is another symbol's): a change to any of them is a `signature` change. Absent where the indexer does not compute one (then `signature` is compared).
   */
  sig?: string;
}

/**
 * What comparing a file across two commits needs, apart from the file record and its text
 * (change-shard.ts): its declarations and its unresolved identifiers. Small, so that diff_symbols reads
 * these of the changed files and not their occurrences.
 */
export interface ChangeRecord {
  path: string;
  decls: DeclRecord[];
  /**
   * Identifiers in reference positions that the indexer resolved to no symbol (a name the compiler
   * cannot find, a member of an `any`, a Java or Kotlin name nothing in scope declares),
   * UNRESOLVED_STRIDE each, in position order; null when the file's indexer does not record them
   * (then nobody knows whether there are any).
   */
  unresolved: IntList | null;
  /** What the module exports that is declared in another file (empty for a file that re-exports nothing). */
  reexports: ReexportRecord[];
}

/**
 * A name a module exports that is declared elsewhere: `export { x } from`, `export *`, `export * as
 * ns from`, `export { y }` of an import. Comparing them tells a barrel that lost or gained a name,
 * which no declaration of its own shows.
 */
export interface ReexportRecord {
  /** The name importers use. */
  name: string;
  /** The exported symbol's key (the module's, for `export * as ns`). */
  key: string;
  kind: SymbolKind;
  qname: string;
  /** The statement or specifier that exports it: line, column, endLine, endColumn. */
  at: [number, number, number, number];
}

/** Stride of one entry in ChangeRecord.unresolved: line, column, endLine, endColumn, kind (index into REFERENCE_KINDS). */
export const UNRESOLVED_STRIDE = 5;

export interface FileRecord {
  path: string;
  lang: Language;
  /** Git blob id at the indexed commit. */
  blob: string;
  bytes: number;
  /** Length of each line in UTF-16 code units, without its line break. */
  lineLengths: IntList;
  flags: number;
  /** Keys of the symbols occurring in the file (indexes of occ entries point here). */
  syms: string[];
  /** Occurrences, OCC_STRIDE each, sorted by position; kind is an index into REFERENCE_KINDS. */
  occ: IntList;
  outline: OutlineNode[];
  /** At most MAX_FILE_PROBLEMS of the file's problems, in the compiler's order. */
  problems: ProblemRecord[];
  /** Problems the file has beyond those recorded (0 when all are). */
  problemsOmitted: number;
}

/**
 * Problems recorded per file: a file the compiler reports more of says how many it left out. High
 * enough for a change that breaks a whole test file (the review bench saw 1,189 new errors in one
 * of zod's when its barrel lost an `export *`), so that each is reported; still a bound for a
 * generated file that does not compile.
 */
export const MAX_FILE_PROBLEMS = 2000;


/** Flag of a name-shard entry (besides its file's FILE_FLAGS): the symbol is external. */
export const NAME_FLAG_EXTERNAL = 8;
