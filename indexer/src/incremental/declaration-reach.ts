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
// of the file is touched (a re-export of the imported name is an edit outside declarations, below).
// A top-level name added or newly exported may make an `export *` ambiguous: the users of every
// top-level declaration of that name are walked. A name added, removed or no longer exported may make
// an import that failed resolve, or an `export *` unambiguous: the files with problems or unresolved
// identifiers are walked too. It answers only where that reasoning holds, and leaves the file-level
// closure to decide otherwise: a file added or removed; an edit outside every declaration other than
// to imports and declaration statements (an `export … from`, a top-level expression: what a module
// exports may change).
import { ts } from 'ts-morph';
import { occurrencesOf, unresolvedCount, type ChangeRecord, type DeclRecord, type FileRecord } from '@sextant/format';

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
  let removesName = false;
  const added = new Set<string>();
  for (const { path, before: old, after } of input.changed) {
    if (old === undefined || after === undefined) return { undecided: `${path} was ${old === undefined ? 'added' : 'removed'}` };
    const change = changes.get(path);
    if (!change) return { undecided: `${path} has no declarations in the previous index` };
    const edit = touched(path, old, after, change.decls);
    if ('undecided' in edit) return edit;
    for (const key of edit.seeds) seeds.add(key);
    removesName ||= edit.removesName;
    for (const name of edit.added) added.add(name);
  }

  // Who uses each key, and each declaration's container, from the file and change records.
  const usersOf = new Map<string, string[]>();
  for (const [path, file] of files) for (const key of file.syms) (usersOf.get(key) ?? usersOf.set(key, []).get(key)!).push(path);
  const containerOf = new Map<string, string>();
  for (const change of changes.values()) for (const decl of change.decls) if (decl.container >= 0) containerOf.set(decl.key, change.decls[decl.container]!.key);
  const uses = new UsesByFile(files, changes, (path) => input.changed.find((c) => c.path === path)?.before ?? input.unchangedText(path));

  const walk = new Set(input.changed.map((c) => c.path));
  const shaped = new Set<string>();
  const queue = [...seeds];
  const add = (key: string) => {
    if (!shaped.has(key)) queue.push(key);
  };
  while (queue.length > 0) {
    const key = queue.pop()!;
    if (shaped.has(key)) continue;
    shaped.add(key);
    const container = containerOf.get(key);
    if (container) add(container);
    for (const path of usersOf.get(key) ?? []) {
      walk.add(path);
      for (const holder of uses.holders(path, key)) add(holder);
    }
  }
  // A top-level name added (or newly exported) may make an `export *` that also re-exports another
  // module's declaration of it ambiguous: the users of every top-level declaration of that name are walked.
  if (added.size > 0) {
    for (const change of changes.values()) {
      for (const decl of change.decls) if (decl.container < 0 && added.has(decl.name)) for (const path of usersOf.get(decl.key) ?? []) walk.add(path);
    }
  }
  // A name removed or added may make an import that failed resolve, or an ambiguous `export *` not.
  if (removesName || added.size > 0) {
    // What a barrel re-exports of a changed file (`export *` lists every name) changes with its names: every file re-exporting one of its declarations.
    const declared = new Set(input.changed.flatMap((c) => changes.get(c.path)!.decls.filter((d) => d.container < 0).map((d) => d.key)));
    for (const change of changes.values()) if (change.reexports.some((r) => declared.has(r.key))) walk.add(change.path);
    for (const [path, file] of files) {
      const change = changes.get(path);
      if (file.problems.length > 0 || (change && (unresolvedCount(change) ?? 0) > 0)) walk.add(path);
    }
  }
  return { walk };
}

/** The declarations of the changed file that the edit touches, or why it cannot say. */
function touched(path: string, old: string, after: string, decls: readonly DeclRecord[]): { seeds: string[]; removesName: boolean; added: string[] } | { undecided: string } {
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
  // A barrel's `export *` of this file is found by what it re-exported of it: nothing, when this file exported nothing.
  if (added.length > 0 && ![...oldNames.values()].some(Boolean)) return { undecided: `${path} exports names for the first time` };
  const removesName = [...oldNames].some(([name, exported]) => !newNames.has(name) || (exported && !newNames.get(name)));

  // The edited span: the texts' common prefix and suffix stripped.
  let start = 0;
  const shorter = Math.min(old.length, after.length);
  while (start < shorter && old.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < shorter - start && old.charCodeAt(old.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  const oldSpan = rangeOf(was, start, old.length - tail);
  const newSpan = rangeOf(now, start, after.length - tail);
  // Within a fully annotated body before and after: no declaration's shape changed, only this file's code.
  if (opaqueRanges(was).some((o) => within(o, oldSpan)) && opaqueRanges(now).some((o) => within(o, newSpan))) return { seeds: [], removesName, added };
  const seeds = decls.filter((d) => meets(d.range, oldSpan));
  // Every statement the edit meets is an import, a declaration statement, or lies within a touched
  // declaration (before); declares names the touched statements declared, or new ones (after).
  const isImport = (s: ts.Statement) => ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s);
  const met = (source: ts.SourceFile, from: number, to: number) => source.statements.filter((s) => s.getStart(source) <= to && s.end >= from);
  // An import edited may change what a name means in every declaration of the file: all of them are touched.
  if ([...met(was, start, old.length - tail), ...met(now, start, after.length - tail)].some(isImport)) {
    // What the file re-exports of its imports (`export { a }`, `export default a`, `export import`) would change for its importers.
    const reexports = (source: ts.SourceFile) => source.statements.some((s) => (ts.isExportDeclaration(s) && !s.moduleSpecifier) || ts.isExportAssignment(s)
      || (ts.isImportEqualsDeclaration(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)));
    if (reexports(was) || reexports(now)) return { undecided: `${path} had an import edited and exports names of its own scope` };
    return { seeds: decls.filter((d) => d.container < 0).map((d) => d.key), removesName, added };
  }
  const statementsMet = (source: ts.SourceFile, from: number, to: number) => met(source, from, to).filter((s) => !isImport(s));
  const oldMet = statementsMet(was, start, old.length - tail);
  for (const statement of oldMet) {
    // A declaration statement (its modifiers too: `export` taken off): the declarations of its names.
    const declared = new Set(topLevelNames(statement).map(([name]) => name));
    const named = decls.filter((d) => d.container < 0 && declared.has(d.name));
    if (named.length > 0) {
      seeds.push(...named);
      continue;
    }
    const range = rangeOf(was, statement.getStart(was), statement.end);
    if (!seeds.some((d) => within(d.range, range))) {
      return { undecided: `the change to ${path} at line ${range[0]} is outside its declarations (${ts.SyntaxKind[statement.kind]})` };
    }
  }
  // After: every statement the edit meets declares names it touched before, or new ones.
  const known = new Set([...oldMet.flatMap((s) => topLevelNames(s).map(([name]) => name)), ...added]);
  for (const statement of statementsMet(now, start, after.length - tail)) {
    const declared = topLevelNames(statement);
    if (declared.length === 0 || declared.some(([name]) => !known.has(name))) {
      return { undecided: `the change to ${path} adds a statement that declares none of the names it touched (${ts.SyntaxKind[statement.kind]})` };
    }
  }
  return { seeds: seeds.map((d) => d.key), removesName, added };
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

/**
 * Per file, lazily: each symbol's uses and the declarations holding them. A use inside the body of
 * a fully annotated function or the initializer of an annotated variable shapes nothing; a use
 * outside every declaration may shape every declaration of the file (its top-level ones: members
 * follow their containers).
 */
class UsesByFile {
  private readonly byFile = new Map<string, { uses: Map<number, Position[]>; opaque: Range[] | undefined }>();

  constructor(
    private readonly files: ReadonlyMap<string, FileRecord>,
    private readonly changes: ReadonlyMap<string, ChangeRecord>,
    private readonly textOf: (path: string) => string | undefined,
  ) {}

  holders(path: string, key: string): string[] {
    const file = this.files.get(path)!;
    const symbol = file.syms.indexOf(key);
    let entry = this.byFile.get(path);
    if (!entry) {
      const uses = new Map<number, Position[]>();
      for (const o of occurrencesOf(file)) {
        // A definition is the declaration itself (members reach their containers by containerOf); an import or export names a symbol without shaping anything.
        if (o.kind === 'definition' || o.kind === 'import' || o.kind === 'export') continue;
        (uses.get(o.symbolIndex) ?? uses.set(o.symbolIndex, []).get(o.symbolIndex)!).push([o.line, o.column]);
      }
      entry = { uses, opaque: undefined };
      this.byFile.set(path, entry);
    }
    const positions = entry.uses.get(symbol);
    if (!positions) return [];
    const text = this.textOf(path);
    const opaque = (entry.opaque ??= opaqueRanges(text === undefined ? undefined : parse(path, text)));
    const decls = this.changes.get(path)?.decls ?? [];
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
