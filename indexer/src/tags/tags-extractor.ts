// The extraction behind the tags indexer: runs a language's tags query (queries/<language>/tags.scm)
// over a syntax tree and turns its captures into a file's declarations and the names it refers to.
// Nothing is resolved here: a reference is a name at a place, with what the syntax says of its use.
//
// Capture vocabulary (GitHub's code-navigation tags, with Sextant's kinds):
//   @definition.<SymbolKind>  a declaration node, with @name; a function whose container is a type
//                             is a method. With @receiver: the type it is declared for outside
//                             the type's body (a Go method's receiver, a Rust `impl`'s type),
//                             which qualifies its name.
//   @reference.<ReferenceKind> a use of the name captured as @name (read, write, call, new, type,
//                             inherit, import, decorator); without @name, of the node it captures
//                             (`(identifier) @reference.read`: one capture to marshal, not two).
//                             With @qualifier: the expression the name is looked up on (`os.path`
//                             in `os.path.join`), which a language's scoping rule may read; a
//                             pattern without one keeps another's for the same name (a call
//                             pattern need not capture again what the selector's pattern did).
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
import { problemsOf, wellFormed } from '../syntax/syntax-errors.ts';

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
  /** At the top: the type it is declared for (@receiver), its name's qualifier. */
  receiver?: string;
}

/** A name used at a place (its range inline: a file has hundreds of thousands of them). */
export interface TagRef extends TagRange {
  name: string;
  kind: ReferenceKind;
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
const AUX_CAPTURES: ReadonlySet<string> = new Set(['name', 'qualifier', 'receiver', 'ignore', 'local.scope', 'local.definition', 'import', 'import.module', 'import.name', 'import.alias']);
/** A qualifier longer than this says nothing a scoping rule reads (it is a call chain, not a module). */
const MAX_QUALIFIER = 200;
const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'type']);
const CALLABLE_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method', 'constructor']);
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

/** A node as the extraction keeps it: its span (UTF-16 offsets) and id, read from the tree once. */
interface Span {
  id: number;
  start: number;
  end: number;
}

interface RawDef {
  node: Span;
  name: Span;
  text: string;
  kind: SymbolKind;
  pattern: number;
  receiver: string | undefined;
}

/** A name a reference pattern captured: its own span, flat (a file has hundreds of thousands). */
interface RawRef extends Span {
  text: string;
  kind: ReferenceKind;
  pattern: number;
  qualifier: string | undefined;
}

interface Captured {
  defs: Map<number, RawDef>;
  refs: Map<number, RawRef>;
  imports: TagImport[];
  ignored: Span[];
  scopes: Span[];
  locals: (Span & { text: string })[];
}

/** The text, with a lone surrogate (never in an identifier, but a file may hold one) replaced: most texts have none to look for. */
const clean = (text: string): string => (/[\uD800-\uDFFF]/.test(text) ? wellFormed(text) : text);
const spanOf = (node: Node): Span => ({ id: node.id, start: node.startIndex, end: node.endIndex });
/** Document order, an enclosing span before the spans it encloses. */
const outerFirst = (a: Span, b: Span) => a.start - b.start || b.end - a.end;

/**
 * Walks `spans` (nested, as syntax nodes are) alongside `items` in document order, calling `visit`
 * with each item and the spans open around it, innermost last: every containment question of a
 * file answered in one pass, not by walking up the tree from each name. Sorts both in place.
 */
function sweep<S extends Span, T extends Span>(spans: S[], items: T[], visit: (item: T, open: readonly S[]) => void): void {
  spans.sort(outerFirst);
  items.sort(outerFirst);
  const open: S[] = [];
  let next = 0;
  for (const item of items) {
    while (next < spans.length && spans[next]!.start <= item.start) {
      const span = spans[next++]!;
      while (open.length && open[open.length - 1]!.end <= span.start) open.pop();
      open.push(span);
    }
    while (open.length && open[open.length - 1]!.end <= item.start) open.pop();
    visit(item, open);
  }
}

/** Lines a position search steps through before it searches instead. */
const NEAR_LINES = 8;

/**
 * 1-based positions of offsets asked for mostly in ascending order: the line search starts from
 * the last answer's line, so a file's references cost a step each, not a binary search each.
 */
class Positions {
  private lineIndex = 0;

  constructor(private readonly starts: readonly number[]) {}

  range(start: number, end: number): TagRange {
    return this.into({ line: 0, column: 0, endLine: 0, endColumn: 0 }, start, end);
  }

  /** Sets `target`'s range to the span's, and returns it. */
  into<T extends TagRange>(target: T, start: number, end: number): T {
    const line = this.lineOf(start);
    target.line = line + 1;
    target.column = start - this.starts[line]! + 1;
    const endLine = this.lineOf(end);
    target.endLine = endLine + 1;
    target.endColumn = end - this.starts[endLine]! + 1;
    return target;
  }

  /** A few steps forward from the last line; a binary search for a jump back or far ahead (a declaration's end, the next one's name). */
  private lineOf(offset: number): number {
    const { starts } = this;
    let i = this.lineIndex;
    const near = i + NEAR_LINES;
    if (offset < starts[i]! || (near < starts.length && starts[near]! <= offset)) {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (starts[middle]! <= offset) low = middle;
        else high = middle - 1;
      }
      i = low;
    } else {
      while (i + 1 < starts.length && starts[i + 1]! <= offset) i++;
    }
    this.lineIndex = i;
    return i;
  }
}

/** The file's declarations and references; throws when the query runs past `timeLimitMs` (a pathological file). */
export function extractTags(tree: Tree, query: Query, text: string, timeLimitMs: number): TagFile {
  const root = tree.rootNode;
  const captured = capture(query, root, text, timeLimitMs);
  const lines = lineStarts(text);
  const positions = new Positions(lines);
  const rangeOf = (span: Span): TagRange => positions.range(span.start, span.end);

  // Names local to a scope: the innermost scope around each local definition declares it. A
  // declaration the query also captures as such a local is the scope's own (Python's assignments).
  const localNames = new Map<number, Set<string>>();
  const scoped = new Set<number>();
  sweep(captured.scopes, captured.locals, (local, open) => {
    const scope = open.findLast((s) => s.end >= local.end);
    if (!scope) return;
    (localNames.get(scope.id) ?? localNames.set(scope.id, new Set()).get(scope.id)!).add(local.text);
    scoped.add(local.id);
  });

  // Declarations in document order, each under the innermost declaration containing it.
  const rawDefs = [...captured.defs.values()].filter((d) => !scoped.has(d.name.id)).sort((a, b) => outerFirst(a.node, b.node));
  const defs: TagDef[] = [];
  type Open = Span & { sort: 'def' | 'ignore' | 'scope'; index: number };
  const spans: Open[] = [];
  const members = new Set<string>();
  const defNames = new Set<number>();
  const open: { node: number; end: number; index: number }[] = [];
  for (const raw of rawDefs) {
    while (open.length && open[open.length - 1]!.end <= raw.node.start) open.pop();
    // Names declared by one node (`case a, b`) are siblings, not each other's members.
    const top = open.findLastIndex((o) => o.node !== raw.node.id);
    let parent = top >= 0 ? open[top]!.index : -1;
    // A field a method assigns (`self.x = …` in Python) is its type's, declared where first assigned.
    if ((raw.kind === 'field' || raw.kind === 'property') && parent >= 0 && CALLABLE_KINDS.has(defs[parent]!.kind)) {
      const holder = defs[parent]!.parent;
      if (holder < 0 || !TYPE_KINDS.has(defs[holder]!.kind) || members.has(`${holder}|${raw.text}`)) continue;
      parent = holder;
    }
    if (parent >= 0 && (raw.kind === 'field' || raw.kind === 'property')) members.add(`${parent}|${raw.text}`);
    const kind = raw.kind === 'function' && parent >= 0 && TYPE_KINDS.has(defs[parent]!.kind) ? 'method' : raw.kind;
    open.push({ node: raw.node.id, end: raw.node.end, index: defs.length });
    spans.push({ ...raw.node, sort: 'def', index: defs.length });
    defNames.add(raw.name.id);
    const def: TagDef = { name: raw.text, kind, at: rangeOf(raw.name), range: rangeOf(raw.node), parent, signature: signatureOf(text.slice(raw.node.start, Math.min(raw.node.end, raw.node.start + 2 * MAX_SIGNATURE))) };
    if (raw.receiver !== undefined && parent < 0) def.receiver = raw.receiver;
    defs.push(def);
  }

  // References in document order: not a declaration's name, not ignored, not a scope's local.
  for (const span of captured.ignored) spans.push({ ...span, sort: 'ignore', index: -1 });
  for (const span of captured.scopes) if (localNames.has(span.id)) spans.push({ ...span, sort: 'scope', index: -1 });
  const refs: TagRef[] = [];
  const named: RawRef[] = [];
  for (const ref of captured.refs.values()) if (!defNames.has(ref.id)) named.push(ref);
  sweep(spans, named, (ref, around) => {
    let owner = -1;
    for (let i = around.length - 1; i >= 0; i--) {
      const span = around[i]!;
      if (span.end < ref.end) continue;
      if (span.sort === 'ignore' || (span.sort === 'scope' && localNames.get(span.id)!.has(ref.text))) return;
      if (span.sort === 'def' && owner < 0) owner = span.index;
    }
    const entry: TagRef = positions.into({ name: ref.text, kind: ref.kind, line: 0, column: 0, endLine: 0, endColumn: 0, owner }, ref.start, ref.end);
    if (ref.qualifier !== undefined) entry.qualifier = ref.qualifier;
    refs.push(entry);
  });
  return { defs, refs, imports: captured.imports, problems: root.hasError ? problemsOf(root, text, lines) : [] };
}

/**
 * The query's matches sorted into declarations, references, imports and scopes. Texts are sliced
 * from `text` at offsets read once: `Node.text` and `Node.endIndex` are each a call into the wasm
 * runtime, and a file has a match or more per name.
 */
function capture(query: Query, root: Node, text: string, timeLimitMs: number): Captured {
  const captured: Captured = { defs: new Map(), refs: new Map(), imports: [], ignored: [], scopes: [], locals: [] };
  const roles = rolesOf(query);
  // A lone surrogate is looked for once in the file, not in each of its names.
  const cut = /[\uD800-\uDFFF]/.test(text) ? (start: number, end: number) => wellFormed(text.slice(start, end)) : (start: number, end: number) => text.slice(start, end);
  const deadline = performance.now() + timeLimitMs;
  let late = false;
  // Returning true from the progress callback cancels the query (web-tree-sitter's typings say void).
  const matches = query.matches(root, { progressCallback: () => (late ||= performance.now() > deadline) } as QueryOptions);
  if (late) throw new Error(`the tags query gave up after ${timeLimitMs} ms`);
  for (const match of matches) {
    let name: Node | undefined;
    let qualifier: Node | undefined;
    let receiver: Node | undefined;
    let primary: Node | undefined;
    let role: Role | undefined;
    let binding: Partial<Record<'module' | 'name' | 'alias', string>> | undefined;
    for (const { name: capture, node } of match.captures) {
      const captureRole = roles.get(capture)!;
      switch (captureRole.sort) {
        case 'name': name = node; break;
        case 'qualifier': qualifier = node; break;
        case 'receiver': receiver = node; break;
        case 'import': binding ??= {}; break;
        case 'import.part': (binding ??= {})[captureRole.part!] = wellFormed(node.text); break;
        case 'ignore': captured.ignored.push(spanOf(node)); break;
        case 'local.scope': captured.scopes.push(spanOf(node)); break;
        case 'local.definition': captured.locals.push({ ...spanOf(node), text: node.text }); break;
        case 'definition': case 'reference': primary = node; role = captureRole; break;
        default: break;
      }
    }
    if (binding?.module !== undefined) captured.imports.push({ module: binding.module, ...(binding.name ? { name: binding.name } : {}), ...(binding.alias ? { alias: binding.alias } : {}) });
    // A reference pattern that names its own node (`(identifier) @reference.read`) has no @name:
    // one capture, so one node marshalled out of the runtime, for the commonest match there is.
    if (!name && role?.sort === 'reference') name = primary;
    if (!primary || !name || !role) continue;
    // Matches come in document order; of those naming one node, the later pattern wins.
    const pattern = match.patternIndex;
    if (role.sort === 'definition') {
      if ((captured.defs.get(name.id)?.pattern ?? -1) <= pattern) {
        const nameSpan = spanOf(name);
        captured.defs.set(name.id, { node: spanOf(primary), name: nameSpan, text: cut(nameSpan.start, nameSpan.end), kind: role.kind as SymbolKind, pattern, receiver: receiver && clean(receiver.text) });
      }
      continue;
    }
    const known = captured.refs.get(name.id);
    // A name's qualifier comes from the pattern that captures one, in whichever order the matches
    // come (a call's match, on the outer node, comes before its selector's).
    let q: string | undefined;
    if (qualifier) {
      const start = qualifier.startIndex;
      const end = qualifier.endIndex;
      if (end - start <= MAX_QUALIFIER) q = cut(start, end).replace(/\s+/g, '');
    }
    if (known && known.pattern > pattern) {
      if (qualifier) known.qualifier = q;
      continue;
    }
    const kind = role.kind as ReferenceKind;
    if (!known) {
      const start = name.startIndex;
      const end = name.endIndex;
      captured.refs.set(name.id, { id: name.id, start, end, text: cut(start, end), kind, pattern, qualifier: q });
    } else {
      known.kind = kind;
      known.pattern = pattern;
      if (qualifier) known.qualifier = q;
    }
  }
  return captured;
}

/** What a capture is to the extraction, by its name (the vocabulary at the top). */
interface Role {
  sort: 'name' | 'qualifier' | 'receiver' | 'import' | 'import.part' | 'ignore' | 'local.scope' | 'local.definition' | 'definition' | 'reference' | 'other';
  /** A definition's symbol kind or a reference's kind. */
  kind?: string;
  part?: 'module' | 'name' | 'alias';
}

const ROLES = new WeakMap<Query, Map<string, Role>>();

/** Each capture name's role, worked out once per query rather than per capture of every match. */
function rolesOf(query: Query): Map<string, Role> {
  let roles = ROLES.get(query);
  if (!roles) {
    roles = new Map(query.captureNames.map((capture): [string, Role] => {
      if (capture === 'name' || capture === 'qualifier' || capture === 'receiver' || capture === 'import' || capture === 'ignore' || capture === 'local.scope' || capture === 'local.definition') return [capture, { sort: capture }];
      if (capture.startsWith('import.')) return [capture, { sort: 'import.part', part: capture.slice('import.'.length) as Role['part'] }];
      if (capture.startsWith('definition.')) return [capture, { sort: 'definition', kind: capture.slice('definition.'.length) }];
      if (capture.startsWith('reference.')) return [capture, { sort: 'reference', kind: capture.slice('reference.'.length) }];
      return [capture, { sort: 'other' }];
    }));
    ROLES.set(query, roles);
  }
  return roles;
}

/** The declaration's header: its first line up to a body's `{`, whitespace squashed, a trailing `:` dropped. */
function signatureOf(text: string): string {
  const end = Math.min(text.indexOf('\n') >>> 0, text.indexOf('{') >>> 0);
  const first = text.slice(0, end).replace(/\s+/g, ' ').trim().replace(/\s*:$/, '');
  return wellFormed(first.length > MAX_SIGNATURE ? `${first.slice(0, MAX_SIGNATURE)}...` : first);
}
