// The extraction behind the tags indexer: runs a language's tags query (queries/<language>/tags.scm)
// over a syntax tree and turns its captures into a file's declarations and the names it refers to.
// Nothing is resolved here: a reference is a name at a place, with what the syntax says of its use.
//
// Capture vocabulary (GitHub's code-navigation tags, with Sextant's kinds):
//   @definition.<SymbolKind>  a declaration node, with @name; a function whose container is a type
//                             is a method.
//   @reference.<ReferenceKind> a use of the name captured as @name (read, write, call, new, type,
//                             inherit, import, decorator).
//                             With @qualifier: the expression the name is looked up on (`os.path`
//                             in `os.path.join`), which a language's scoping rule may read.
//   @import                   an import binding: @import.module (the module or package path as
//                             written), @import.name (a name it imports), @import.alias (the name
//                             it is bound to instead).
//   @ignore                   no references to names inside this node (an import's module path).
//   @local.scope              a function-like node whose own names (@local.definition inside it,
//                             nearest scope first) are no references to declarations elsewhere.
// Precedence: a name node yields one entry. A definition beats a reference, and among patterns of
// the same sort the one that comes last in the query wins, so queries list the generic patterns
// (every identifier) first and the precise ones after.
import { lineStarts, REFERENCE_KINDS, SYMBOL_KINDS, type ProblemRecord, type ReferenceKind, type SymbolKind } from '@sextant/format';
import type { Node, Query, QueryOptions, Tree } from 'web-tree-sitter';
import { positionOf, problemsOf, wellFormed } from '../syntax/syntax-parser.ts';

/** 1-based line and UTF-16 column of the start and the end. */
export interface TagRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface TagDef {
  name: string;
  kind: SymbolKind;
  /** The name's range. */
  at: TagRange;
  /** The whole declaration's range. */
  range: TagRange;
  /** Index of the enclosing declaration, -1 at the top. */
  parent: number;
  /** The declaration's first line, trimmed (its header). */
  signature: string;
}

export interface TagRef {
  name: string;
  kind: ReferenceKind;
  at: TagRange;
  /** Index of the innermost declaration it is in, -1 at the top. */
  owner: number;
  /** The expression the name is looked up on, whitespace squashed (`os.path`, `self`, `cart`). */
  qualifier?: string;
}

/** An import binding, as written: `from m import n as a` is { module: 'm', name: 'n', alias: 'a' }. */
export interface TagImport {
  module: string;
  name?: string;
  alias?: string;
}

export interface TagFile {
  defs: TagDef[];
  refs: TagRef[];
  imports: TagImport[];
  problems: ProblemRecord[];
}

const KIND_SET: ReadonlySet<string> = new Set(SYMBOL_KINDS);
const REFERENCE_SET: ReadonlySet<string> = new Set(REFERENCE_KINDS);
const AUX_CAPTURES: ReadonlySet<string> = new Set(['name', 'qualifier', 'ignore', 'local.scope', 'local.definition', 'import', 'import.module', 'import.name', 'import.alias']);
/** A qualifier longer than this says nothing a scoping rule reads (it is a call chain, not a module). */
const MAX_QUALIFIER = 200;
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'type']);
const MAX_SIGNATURE = 200;

/** Refuses a query that captures what the extractor would not read: a typo there is a silent loss. */
export function checkTagCaptures(query: Query, label: string): void {
  for (const name of query.captureNames) {
    if (name.startsWith('_') || AUX_CAPTURES.has(name)) continue;
    if (name.startsWith('definition.') && KIND_SET.has(name.slice('definition.'.length))) continue;
    if (name.startsWith('reference.') && REFERENCE_SET.has(name.slice('reference.'.length))) continue;
    throw new Error(`Tags query for ${label} uses @${name}; see the capture vocabulary in indexer/src/tags/tags-extractor.ts.`);
  }
}

interface Captured {
  defs: Map<number, { node: Node; name: Node; kind: SymbolKind; pattern: number }>;
  refs: Map<number, { name: Node; kind: ReferenceKind; pattern: number; qualifier?: Node }>;
  imports: TagImport[];
  ignored: Node[];
  scopes: Set<number>;
  locals: Node[];
}

/** The file's declarations and references; throws when the query runs past `timeLimitMs` (a pathological file). */
export function extractTags(tree: Tree, query: Query, text: string, timeLimitMs: number): TagFile {
  const root = tree.rootNode;
  const captured = capture(query, root, timeLimitMs);
  const lines = lineStarts(text);
  const rangeOf = (node: Node): TagRange => {
    const [line, column] = positionOf(lines, node.startIndex);
    const [endLine, endColumn] = positionOf(lines, node.endIndex);
    return { line, column, endLine, endColumn };
  };

  // Declarations in document order, each under the innermost declaration containing it.
  const rawDefs = [...captured.defs.values()].sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const defIndex = new Map<number, number>();
  const defs: TagDef[] = [];
  const open: { node: number; end: number; index: number }[] = [];
  for (const raw of rawDefs) {
    while (open.length && open[open.length - 1]!.end <= raw.node.startIndex) open.pop();
    // Names declared by one node (`case a, b`) are siblings, not each other's members.
    const top = open.findLastIndex((o) => o.node !== raw.node.id);
    const parent = top >= 0 ? open[top]!.index : -1;
    const kind = raw.kind === 'function' && parent >= 0 && TYPE_KINDS.has(defs[parent]!.kind) ? 'method' : raw.kind;
    defIndex.set(raw.node.id, defs.length);
    open.push({ node: raw.node.id, end: raw.node.endIndex, index: defs.length });
    defs.push({ name: wellFormed(raw.name.text), kind, at: rangeOf(raw.name), range: rangeOf(raw.node), parent, signature: signatureOf(text.slice(raw.node.startIndex, Math.min(raw.node.endIndex, raw.node.startIndex + 2 * MAX_SIGNATURE))) });
  }
  const defNames = new Set([...captured.defs.values()].map((d) => d.name.id));

  // Names local to a scope: the innermost scope around each local definition declares it.
  const localNames = new Map<number, Set<string>>();
  for (const local of captured.locals) {
    const scope = ancestor(local, (n) => captured.scopes.has(n.id));
    if (scope) (localNames.get(scope.id) ?? localNames.set(scope.id, new Set()).get(scope.id)!).add(local.text);
  }
  const isLocal = (name: Node): boolean => {
    if (localNames.size === 0) return false;
    for (let n = name.parent; n; n = n.parent) if (localNames.get(n.id)?.has(name.text)) return true;
    return false;
  };
  const ignored = captured.ignored.map((n) => [n.startIndex, n.endIndex] as const);
  const isIgnored = (name: Node) => ignored.some(([start, end]) => name.startIndex >= start && name.endIndex <= end);

  const refs: TagRef[] = [];
  for (const { name, kind, qualifier } of [...captured.refs.values()].sort((a, b) => a.name.startIndex - b.name.startIndex)) {
    if (defNames.has(name.id) || isIgnored(name) || isLocal(name)) continue;
    const holder = ancestor(name, (n) => defIndex.has(n.id));
    const ref: TagRef = { name: wellFormed(name.text), kind, at: rangeOf(name), owner: holder ? defIndex.get(holder.id)! : -1 };
    if (qualifier && qualifier.endIndex - qualifier.startIndex <= MAX_QUALIFIER) ref.qualifier = wellFormed(qualifier.text.replace(/\s+/g, ''));
    refs.push(ref);
  }
  return { defs, refs, imports: captured.imports, problems: root.hasError ? problemsOf(root, text, lines) : [] };
}

function capture(query: Query, root: Node, timeLimitMs: number): Captured {
  const captured: Captured = { defs: new Map(), refs: new Map(), imports: [], ignored: [], scopes: new Set(), locals: [] };
  const deadline = performance.now() + timeLimitMs;
  let late = false;
  // Returning true from the progress callback cancels the query (web-tree-sitter's typings say void).
  const matches = query.matches(root, { progressCallback: () => (late ||= performance.now() > deadline) } as QueryOptions);
  if (late) throw new Error(`the tags query gave up after ${timeLimitMs} ms`);
  for (const match of matches) {
    let name: Node | undefined;
    let qualifier: Node | undefined;
    let primary: { node: Node; capture: string } | undefined;
    const binding: Partial<Record<'module' | 'name' | 'alias', string>> = {};
    let isImport = false;
    for (const { name: capture, node } of match.captures) {
      if (capture === 'name') name = node;
      else if (capture === 'qualifier') qualifier = node;
      else if (capture === 'import') isImport = true;
      else if (capture.startsWith('import.')) binding[capture.slice('import.'.length) as 'module' | 'name' | 'alias'] = wellFormed(node.text);
      else if (capture === 'ignore') captured.ignored.push(node);
      else if (capture === 'local.scope') captured.scopes.add(node.id);
      else if (capture === 'local.definition') captured.locals.push(node);
      else if (capture.startsWith('definition.') || capture.startsWith('reference.')) primary = { node, capture };
    }
    if (isImport && binding.module !== undefined) captured.imports.push({ module: binding.module, ...(binding.name ? { name: binding.name } : {}), ...(binding.alias ? { alias: binding.alias } : {}) });
    if (!primary || !name) continue;
    const [sort, kind] = [primary.capture.slice(0, primary.capture.indexOf('.')), primary.capture.slice(primary.capture.indexOf('.') + 1)];
    // Matches come in document order; of those naming one node, the later pattern wins.
    const pattern = match.patternIndex;
    if (sort === 'definition') {
      if ((captured.defs.get(name.id)?.pattern ?? -1) <= pattern) captured.defs.set(name.id, { node: primary.node, name, kind: kind as SymbolKind, pattern });
    } else if ((captured.refs.get(name.id)?.pattern ?? -1) <= pattern) {
      captured.refs.set(name.id, { name, kind: kind as ReferenceKind, pattern, ...(qualifier ? { qualifier } : {}) });
    }
  }
  return captured;
}

function ancestor(node: Node, test: (n: Node) => boolean): Node | null {
  for (let n = node.parent; n; n = n.parent) if (test(n)) return n;
  return null;
}

/** The declaration's header: its first line up to a body's `{`, whitespace squashed, a trailing `:` dropped. */
function signatureOf(text: string): string {
  const end = Math.min(text.indexOf('\n') >>> 0, text.indexOf('{') >>> 0);
  const first = text.slice(0, end).replace(/\s+/g, ' ').trim().replace(/\s*:$/, '');
  return wellFormed(first.length > MAX_SIGNATURE ? `${first.slice(0, MAX_SIGNATURE)}...` : first);
}
