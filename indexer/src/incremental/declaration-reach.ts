// How far a change to TypeScript and JavaScript files reaches, by declaration rather than by file:
// the files an incremental build must walk again are those that use a declaration whose shape the
// change may alter. Without it, a change reaches every file that uses anything declared in a changed
// file, transitively, which in a codebase whose modules import one another in one large cycle (effect)
// is nearly every file, and the build falls back to full for a one-line change.
//
// The shape of a declaration D (what a use of D can see: its type, members, modifiers) can change
// when D's own text changes, or when a declaration used in D's shape text changes. D's shape text is
// its whole range, except the parts a type annotation fixes: the body of a function, method,
// accessor or constructor whose parameters and return type are all annotated, and the initializer of
// a variable or property whose type is annotated. A member's change is its container's (a class or
// interface is compared structurally), and a use outside every declaration (a top-level statement)
// may change anything the file declares. From the declarations the edit touches (none when it lies
// within a fully annotated body), the closure under these rules; every file that holds a use of one
// is walked. The uses are the previous index's
// occurrences, which record every identifier the compiler resolved to a repository symbol.
//
// An edited import may change what a name means anywhere in the file: every top-level declaration
// of the file is touched. A re-export edited (`export { a } from`, `export * from`, `export { b }`)
// changes what the file exports without touching a declaration: the barrels passing those names on,
// and the files that use a name so re-exported and import one of those barrels, are walked, and what
// they declare with it is shaped. A top-level name added (or newly exported) may make an `export *`
// ambiguous: the users of every top-level declaration of that name are walked. A name added, removed
// or no longer exported may make an import that failed resolve, or an `export *` unambiguous, or change
// a compiler's suggestion: the files with compiler problems, and those with an unresolved identifier
// spelled like one of those names, are walked too (a syntax problem depends on its file's text alone).
// It answers only where that reasoning holds, and leaves the file-level closure to decide otherwise: a
// file added or removed; a file exporting for the first time; an `export *` added; an edit outside
// every declaration other than to imports, re-exports and declaration statements (a top-level
// expression, `export default`: what a module exports may change).
import { ts } from 'ts-morph';
import { lineStarts, occurrencesOf, offsetAt, unresolvedCount, unresolvedOf, type ChangeRecord, type FileRecord, type ReexportRecord } from '@sextant/format';
import { moduleSymbolKey } from '../ts/declaration-table.ts';
import { editSpan } from './position-shift.ts';

/** A 1-based line and column (UTF-16), as occurrences and declaration ranges hold them. */
type Position = readonly [number, number];
/** line, column, endLine, endColumn. */
type Range = readonly [number, number, number, number];

export interface DeclarationReachInput {
  files: ReadonlyMap<string, FileRecord>;
  changes: ReadonlyMap<string, ChangeRecord>;
  /** Changed TypeScript and JavaScript files, with their previous and new texts (undefined: added or removed). */
  changed: readonly { path: string; before: string | undefined; after: string | undefined }[];
  /** The previous text of a file that did not change. */
  unchangedText(path: string): string | undefined;
  /** Past this many files walked the build is in full: the reach stops there (what it returns is then only that many). */
  maxWalk?: number;
}

/** The files to walk again, or why the declarations cannot tell (the file-level closure decides). */
export type DeclarationReach = { walk: Set<string> } | { undecided: string };

const before = (a: Position, b: Position) => a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);
const contains = (r: Range, p: Position) => before([r[0], r[1]], p) && before(p, [r[2], r[3]]);
/** Whether `inner` lies wholly within `outer`. */
const within = (outer: Range, inner: Range) => contains(outer, [inner[0], inner[1]]) && contains(outer, [inner[2], inner[3]]);
/** The 1-based range of characters [from, to) of a parsed file. */
function rangeOf(source: ts.SourceFile, from: number, to: number): Range {
  const a = source.getLineAndCharacterOfPosition(from);
  const b = source.getLineAndCharacterOfPosition(to);
  return [a.line + 1, a.character + 1, b.line + 1, b.character + 1];
}
const meets = (r: Range, s: Range) => before([r[0], r[1]], [s[2], s[3]]) && before([s[0], s[1]], [r[2], r[3]]);

export function declarationReach(input: DeclarationReachInput): DeclarationReach {
  const { files, changes } = input;
  const seeds = new Set<string>();
  // Names the change adds, removes or stops exporting, and the re-exports it touches.
  const names = new Set<string>();
  const added = new Set<string>();
  const reexports: { path: string; record: ReexportRecord }[] = [];
  for (const { path, before: old, after } of input.changed) {
    if (old === undefined || after === undefined) return { undecided: `${path} was ${old === undefined ? 'added' : 'removed'}` };
    const change = changes.get(path);
    if (!change) return { undecided: `${path} has no declarations in the previous index` };
    const edit = touched(path, old, after, change);
    if ('undecided' in edit) return edit;
    for (const key of edit.seeds) seeds.add(key);
    for (const name of [...edit.removed, ...edit.added]) names.add(name);
    for (const name of edit.added) added.add(name);
    for (const record of edit.reexports) {
      reexports.push({ path, record });
      names.add(record.name);
    }
  }

  // Who uses each key, and each declaration's container, from the file and change records.
  const usersOf = new Map<string, string[]>();
  for (const [path, file] of files) for (const key of file.syms) (usersOf.get(key) ?? usersOf.set(key, []).get(key)!).push(path);
  const containerOf = new Map<string, string>();
  for (const change of changes.values()) for (const decl of change.decls) if (decl.container >= 0) containerOf.set(decl.key, change.decls[decl.container]!.key);
  const textOf = (path: string) => input.changed.find((c) => c.path === path)?.before ?? input.unchangedText(path);
  const uses = new UsesByFile(files, changes, textOf);

  const walk = new Set(input.changed.map((c) => c.path));
  const shaped = new Set<string>();
  const queue = [...seeds];
  const add = (key: string) => {
    if (!shaped.has(key)) queue.push(key);
  };
  // A re-export touched: the barrels passing the name on (`export *` of this file included), and each
  // file that uses it and imports one of them: there the name may no longer resolve, and what the
  // file declares with it is shaped. (Its declaration is unchanged: its other users are not walked.)
  if (reexports.length > 0) {
    const keys = new Set(reexports.map((r) => r.record.key));
    const barrels = new Set(reexports.map((r) => r.path));
    for (const change of changes.values()) if (change.reexports.some((r) => keys.has(r.key))) barrels.add(change.path);
    const barrelModules = new Set([...barrels].map(moduleSymbolKey));
    for (const path of barrels) walk.add(path);
    for (const key of keys) {
      for (const path of usersOf.get(key) ?? []) {
        if (!files.get(path)!.syms.some((k) => barrelModules.has(k))) continue;
        walk.add(path);
        for (const holder of uses.holders(path, key)) add(holder);
      }
    }
  }
  // A module's top-level declarations are the members of its namespace object: where an importer
  // uses the namespace whole (`const api = NS`, `f(NS)`), not through one of them (`NS.a`, which
  // names `a`), what it declares with it is shaped.
  const topLevelIn = new Map<string, string>();
  for (const change of changes.values()) for (const decl of change.decls) if (decl.container < 0) topLevelIn.set(decl.key, change.path);
  const namespaces = new Set<string>();
  while (queue.length > 0) {
    const key = queue.pop()!;
    if (shaped.has(key)) continue;
    shaped.add(key);
    const container = containerOf.get(key);
    if (container) add(container);
    for (const path of usersOf.get(key) ?? []) {
      walk.add(path);
      // Too wide already: finding each further user's holders parses its file, which a full build does again.
      if (walk.size > (input.maxWalk ?? Infinity)) return { walk };
      for (const holder of uses.holders(path, key)) add(holder);
    }
    const module = topLevelIn.get(key);
    if (module !== undefined && !namespaces.has(module)) {
      namespaces.add(module);
      for (const path of usersOf.get(moduleSymbolKey(module)) ?? []) {
        const holders = uses.namespaceHolders(path, moduleSymbolKey(module));
        if (holders.length > 0) walk.add(path);
        for (const holder of holders) add(holder);
      }
    }
  }
  // A top-level name added (or newly exported) may make an `export *` that also re-exports another
  // module's declaration of it ambiguous: the users of every top-level declaration of that name are walked.
  if (added.size > 0) {
    for (const change of changes.values()) {
      for (const decl of change.decls) if (decl.container < 0 && added.has(decl.name)) for (const path of usersOf.get(decl.key) ?? []) walk.add(path);
    }
  }
  if (names.size > 0) {
    // What a barrel re-exports of a changed file (`export *` lists every name) changes with its names:
    // every file re-exporting one of the names it exports.
    const exported = new Set(input.changed.flatMap((c) => {
      const change = changes.get(c.path)!;
      return [...change.decls.filter((d) => d.container < 0).map((d) => d.key), ...change.reexports.map((r) => r.key)];
    }));
    for (const change of changes.values()) if (change.reexports.some((r) => exported.has(r.key))) walk.add(change.path);
    // An import that failed may resolve, a suggestion in a compiler's message change.
    for (const [path, file] of files) {
      if (file.problemsOmitted > 0 || file.problems.some((p) => p.source === 'compiler')) walk.add(path);
      else if (!walk.has(path) && mayResolve(changes.get(path), textOf(path), names)) walk.add(path);
    }
  }
  return { walk };
}

/** Whether a file's unresolved identifiers may be one of `names` (any may be one of a default export; a file whose text is unknown may). */
function mayResolve(change: ChangeRecord | undefined, text: string | undefined, names: ReadonlySet<string>): boolean {
  if (!change || !unresolvedCount(change)) return false;
  if (text === undefined || names.has('default')) return true;
  const starts = lineStarts(text);
  for (const u of unresolvedOf(change)) if (names.has(text.slice(offsetAt(text, starts, u.line, u.column), offsetAt(text, starts, u.endLine, u.endColumn)))) return true;
  return false;
}

interface Touched {
  /** Keys of the declarations whose shape the edit may change. */
  seeds: string[];
  /** Names the file no longer declares or exports (a re-export's too). */
  removed: string[];
  /** Names the file declares or exports that it did not. */
  added: string[];
  /** The previous index's re-exports in the statements the edit meets. */
  reexports: ReexportRecord[];
}

/** The declarations of the changed file that the edit touches, or why it cannot say. */
function touched(path: string, old: string, after: string, change: ChangeRecord): Touched | { undecided: string } {
  const { decls } = change;
  const was = parse(path, old);
  const now = parse(path, after);
  if (!was || !now) return { undecided: `${path} cannot be parsed` };
  const names = (source: ts.SourceFile) => {
    const out = new Map<string, boolean>();
    for (const statement of source.statements) for (const [name, exported] of topLevelNames(statement)) out.set(name, (out.get(name) ?? false) || exported);
    return out;
  };
  const oldNames = names(was);
  const newNames = names(now);
  const added = [...newNames].filter(([name, exported]) => !oldNames.has(name) || (exported && !oldNames.get(name))).map(([name]) => name);
  const removed = [...oldNames].filter(([name, exported]) => !newNames.has(name) || (exported && !newNames.get(name))).map(([name]) => name);

  // The edited span: the texts' common prefix and suffix stripped.
  const { start, oldEnd, newEnd } = editSpan(old, after);
  const oldSpan = rangeOf(was, start, oldEnd);
  const newSpan = rangeOf(now, start, newEnd);
  // Within a fully annotated body before and after: no declaration's shape changed, only this file's code.
  if (opaqueRanges(was).some((o) => within(o, oldSpan)) && opaqueRanges(now).some((o) => within(o, newSpan))) return { seeds: [], removed, added, reexports: [] };
  const seeds = decls.filter((d) => meets(d.range, oldSpan));
  // Every statement the edit meets is an import, a re-export, a declaration statement, or lies within
  // a touched declaration (before); declares names the touched statements declared, or new ones, or
  // re-exports names (after).
  const isImport = (s: ts.Statement) => ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s);
  const met = (source: ts.SourceFile, from: number, to: number) => source.statements.filter((s) => s.getStart(source) <= to && s.end >= from);
  // An import edited may change what a name means in every declaration of the file: all of them are touched.
  if ([...met(was, start, oldEnd), ...met(now, start, newEnd)].some(isImport)) {
    // What the file re-exports of its imports (`export { a }`, `export default a`, `export import`) would change for its importers.
    const reexportsOwn = (source: ts.SourceFile) => source.statements.some((s) => (ts.isExportDeclaration(s) && !s.moduleSpecifier) || ts.isExportAssignment(s)
      || (ts.isImportEqualsDeclaration(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)));
    if (reexportsOwn(was) || reexportsOwn(now)) return { undecided: `${path} had an import edited and exports names of its own scope` };
    return { seeds: decls.filter((d) => d.container < 0).map((d) => d.key), removed, added, reexports: [] };
  }
  const statementsMet = (source: ts.SourceFile, from: number, to: number) => met(source, from, to).filter((s) => !isImport(s));
  const oldMet = statementsMet(was, start, oldEnd);
  const newMet = statementsMet(now, start, newEnd);
  // A re-export met only at the edit's edge (the next line's, after a line removed) is the same on both sides.
  const reexportTexts = (source: ts.SourceFile, statements: ts.Statement[]) => new Set(statements.filter(ts.isExportDeclaration).map((s) => s.getText(source)));
  const oldTexts = reexportTexts(was, oldMet);
  const newTexts = reexportTexts(now, newMet);
  const reexports: ReexportRecord[] = [];
  for (const statement of oldMet) {
    const range = rangeOf(was, statement.getStart(was), statement.end);
    if (ts.isExportDeclaration(statement)) {
      if (newTexts.has(statement.getText(was))) continue;
      // A re-export: what the previous index recorded it exported; `export { a }` of a declaration of this file exports that declaration.
      const records = change.reexports.filter((r) => within(range, r.at));
      // Names it exported that resolved to nothing (a module gone) have no record: who imported them is unknown.
      if (statement.moduleSpecifier && (statement.exportClause && ts.isNamedExports(statement.exportClause) ? records.length < statement.exportClause.elements.length : records.length === 0)) {
        return { undecided: `the change to ${path} at line ${range[0]} removes a re-export the previous index did not resolve` };
      }
      reexports.push(...records);
      const local = new Set(exportedNames(statement, 'local'));
      seeds.push(...decls.filter((d) => d.container < 0 && local.has(d.name)));
      removed.push(...exportedNames(statement, 'exported'));
      continue;
    }
    // A declaration statement (its modifiers too: `export` taken off): the declarations of its names.
    const declared = new Set(topLevelNames(statement).map(([name]) => name));
    const named = decls.filter((d) => d.container < 0 && declared.has(d.name));
    if (named.length > 0) {
      seeds.push(...named);
      continue;
    }
    if (!seeds.some((d) => within(d.range, range))) {
      return { undecided: `the change to ${path} at line ${range[0]} is outside its declarations (${ts.SyntaxKind[statement.kind]})` };
    }
  }
  // After: every statement the edit meets declares names it touched before, or new ones, or re-exports names.
  const known = new Set([...oldMet.flatMap((s) => topLevelNames(s).map(([name]) => name)), ...added]);
  for (const statement of newMet) {
    if (ts.isExportDeclaration(statement)) {
      if (oldTexts.has(statement.getText(now))) continue;
      // Names an `export * from` adds are the other module's: the previous index does not list them.
      if (!statement.exportClause) return { undecided: `the change to ${path} adds an \`export *\`, whose names the previous index does not list` };
      const local = new Set(exportedNames(statement, 'local'));
      seeds.push(...decls.filter((d) => d.container < 0 && local.has(d.name)));
      added.push(...exportedNames(statement, 'exported'));
      continue;
    }
    const declared = topLevelNames(statement);
    if (declared.length === 0 || declared.some(([name]) => !known.has(name))) {
      return { undecided: `the change to ${path} adds a statement that declares none of the names it touched (${ts.SyntaxKind[statement.kind]})` };
    }
  }
  // A barrel's `export *` of this file is found by what it re-exported of it: nothing, when this file exported nothing.
  if (added.length > 0 && ![...oldNames.values()].some(Boolean) && change.reexports.length === 0) return { undecided: `${path} exports names for the first time` };
  return { seeds: [...new Set(seeds.map((d) => d.key))], removed, added, reexports };
}

/** The names an `export { … }` or `export * as ns` statement exports (`exported`), or the names of this module's scope it exports (`local`: without a module specifier). */
function exportedNames(statement: ts.ExportDeclaration, side: 'exported' | 'local'): string[] {
  const clause = statement.exportClause;
  if (!clause) return [];
  if (ts.isNamespaceExport(clause)) return side === 'exported' ? [clause.name.text] : [];
  if (side === 'local' && statement.moduleSpecifier) return [];
  return clause.elements.map((e) => (side === 'exported' ? e.name : e.propertyName ?? e.name)).map((n) => n.text);
}

function parse(path: string, text: string): ts.SourceFile | undefined {
  try {
    return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  } catch {
    return undefined;
  }
}

/** The names a top-level statement declares, each with whether it is exported. An `export …` statement that declares nothing exports names of others: none here. */
function topLevelNames(statement: ts.Statement): [string, boolean][] {
  const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) ?? [] : [];
  const exported = modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (ts.isVariableStatement(statement)) {
    const out: [string, boolean][] = [];
    const bind = (name: ts.BindingName) => {
      if (ts.isIdentifier(name)) out.push([name.text, exported]);
      else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
    };
    for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    return out;
  }
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)
    || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) {
    const isDefault = modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    return [[isDefault || !statement.name ? 'default' : statement.name.getText(), exported]];
  }
  return [];
}

/** An identifier that names a member or a declaration (`x.NS`, `A.NS`, `{ NS: 1 }`), not a value or type in scope. */
function isNameSlot(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isQualifiedName(parent) && parent.right === node)
    || ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent)
      || ts.isMethodSignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent)) && parent.name === node)
    || (ts.isBindingElement(parent) && parent.propertyName === node) || ts.isLabeledStatement(parent) || ts.isJsxAttribute(parent);
}

interface FileUses {
  /** Each symbol's uses (not its definitions, imports and exports), by index into the file's syms. */
  uses: Map<number, Position[]>;
  parsed?: { source: ts.SourceFile | undefined; opaque: Range[] };
}

/**
 * Per file, lazily: each symbol's uses and the declarations holding them. A use inside the body of
 * a fully annotated function or the initializer of an annotated variable shapes nothing; a use
 * outside every declaration may shape every declaration of the file (its top-level ones: members
 * follow their containers).
 */
class UsesByFile {
  private readonly byFile = new Map<string, FileUses>();

  constructor(
    private readonly files: ReadonlyMap<string, FileRecord>,
    private readonly changes: ReadonlyMap<string, ChangeRecord>,
    private readonly textOf: (path: string) => string | undefined,
  ) {}

  /** The declarations of a file whose shape its uses of `key` may change. */
  holders(path: string, key: string): string[] {
    const entry = this.entry(path);
    const positions = entry.uses.get(this.files.get(path)!.syms.indexOf(key));
    return positions ? this.holding(path, entry, positions) : [];
  }

  /**
   * The declarations of a file whose shape its uses of a module's namespace as a whole may change:
   * the uses of a name `import * as NS` or `import NS = require()` binds to the module (its specifier
   * an occurrence of the module's key) other than as a qualifier (`NS.a`).
   */
  namespaceHolders(path: string, moduleKey: string): string[] {
    const entry = this.entry(path);
    const source = this.parsed(path, entry).source;
    const file = this.files.get(path)!;
    const symbol = file.syms.indexOf(moduleKey);
    if (!source || symbol < 0) return source ? [] : this.holding(path, entry, [[1, 1]]);
    const specifiers: Position[] = [];
    for (const o of occurrencesOf(file)) if (o.symbolIndex === symbol) specifiers.push([o.line, o.column]);
    const names = new Set<string>();
    for (const statement of source.statements) {
      const binding = ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamespaceImport(statement.importClause.namedBindings)
        ? statement.importClause.namedBindings.name
        : ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference) ? statement.name : undefined;
      const range = rangeOf(source, statement.getStart(source), statement.end);
      if (binding && specifiers.some((at) => contains(range, at))) names.add(binding.text);
    }
    if (names.size === 0) return [];
    const wholes: Position[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) return;
      if (ts.isIdentifier(node) && names.has(node.text) && !isNameSlot(node)) {
        const parent = node.parent;
        const qualifier = (ts.isPropertyAccessExpression(parent) && parent.expression === node) || (ts.isQualifiedName(parent) && parent.left === node);
        if (!qualifier) {
          const at = source.getLineAndCharacterOfPosition(node.getStart(source));
          wholes.push([at.line + 1, at.character + 1]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return this.holding(path, entry, wholes);
  }

  private entry(path: string): FileUses {
    let entry = this.byFile.get(path);
    if (!entry) {
      const uses = new Map<number, Position[]>();
      for (const o of occurrencesOf(this.files.get(path)!)) {
        // A definition is the declaration itself (members reach their containers by containerOf); an import or export names a symbol without shaping anything.
        if (o.kind === 'definition' || o.kind === 'import' || o.kind === 'export') continue;
        (uses.get(o.symbolIndex) ?? uses.set(o.symbolIndex, []).get(o.symbolIndex)!).push([o.line, o.column]);
      }
      entry = { uses };
      this.byFile.set(path, entry);
    }
    return entry;
  }

  /** The file's syntax tree and opaque ranges, parsed once and only when asked for. */
  private parsed(path: string, entry: FileUses): { source: ts.SourceFile | undefined; opaque: Range[] } {
    if (!entry.parsed) {
      const text = this.textOf(path);
      const source = text === undefined ? undefined : parse(path, text);
      entry.parsed = { source, opaque: opaqueRanges(source) };
    }
    return entry.parsed;
  }

  /** The declarations holding these positions; a position outside every declaration may shape all the file's top-level ones. */
  private holding(path: string, entry: FileUses, positions: readonly Position[]): string[] {
    const decls = this.changes.get(path)?.decls ?? [];
    const { opaque } = this.parsed(path, entry);
    const out = new Set<string>();
    for (const at of positions) {
      if (opaque.some((r) => contains(r, at))) continue;
      const holding = decls.filter((d) => contains(d.range, at));
      if (holding.length === 0) for (const d of decls) if (d.container < 0) out.add(d.key);
      for (const d of holding) out.add(d.key);
    }
    return [...out];
  }
}

/** Bodies of fully annotated functions and initializers of annotated variables and properties: text a declaration's type does not depend on. */
function opaqueRanges(source: ts.SourceFile | undefined): Range[] {
  if (!source) return [];
  const out: Range[] = [];
  const add = (node: ts.Node) => out.push(rangeOf(source, node.getStart(source), node.end));
  const typed = (parameters: ts.NodeArray<ts.ParameterDeclaration>) => parameters.every((p) => p.type !== undefined);
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node))
      && node.body && node.type && typed(node.parameters)) add(node.body);
    else if ((ts.isSetAccessorDeclaration(node) || ts.isConstructorDeclaration(node)) && node.body && typed(node.parameters)) add(node.body);
    else if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && node.type && node.initializer) add(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
