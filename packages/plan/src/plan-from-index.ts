// Plans made from the index alone: what the hosted worker offers (it never sees a working tree)
// and what the runner uses for languages it has no compiler for. Pure over an IndexReader. Each
// file's expected hash is the BLAKE3 of its content at the indexed commit, so applying the plan to
// a working tree that differs from that commit is a CONFLICT, never a guess.
import {
  CONFIDENCES, defsOf, encodeText, FILE_FLAGS, lineStarts, offsetAt, refsOf, SextantError,
  type FileRecord, type OutlineNode,
} from '@sextant/format';
import {
  fileText, MEMBER_KINDS, RELATED_BOUND, RESERVED_WORDS, nodeOf, nodeSummary, relatedMembers, resolveTarget, summarize, undecidedMembers, unresolvedUsesOf, walk, type IndexReader, type LoadedSymbol, type SymbolOrNode, type Target,
} from '@sextant/query';
import {
  contentHash, sealPlan, textHash, type Plan, type PlanArgument, type PlanConflict, type PlanEdit, type PlanFile, type PlanOperation, type PlanSymbol,
} from './plan-document.ts';
import { applyEdits, editAt, wholeLines, withCommentsAbove, withoutDoubleBlank } from './plan-edits.ts';
import { textualMentions } from './textual-mentions.ts';


function checkNewName(name: string, oldName: string): void {
  if (!/^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_$]*$/u.test(name) || RESERVED_WORDS.has(name)) {
    throw new SextantError('INVALID_ARGUMENT', `"${name}" is not a valid name for a declaration.`,
      'Pass an identifier: a letter, _ or $ followed by letters, digits, _ or $, and not a reserved word.');
  }
  if (name === oldName) {
    throw new SextantError('INVALID_ARGUMENT', `The symbol is already named "${name}".`, 'Pass a different name.');
  }
}

/** One file of the commit, loaded once per plan. */
interface IndexedFile {
  record: FileRecord;
  text: string;
  starts: number[];
  expectedHash: string;
}

class IndexedTexts {
  private readonly files = new Map<string, Promise<IndexedFile>>();

  constructor(private readonly reader: IndexReader) {}

  get(path: string): Promise<IndexedFile> {
    let file = this.files.get(path);
    if (!file) this.files.set(path, (file = this.load(path)));
    return file;
  }

  private async load(path: string): Promise<IndexedFile> {
    const record = await this.reader.file(path);
    if (!record) {
      throw new SextantError('INDEX_CORRUPT', `${path} is referenced by a symbol but has no file record.`, 'Rebuild the index with `indexer build`.');
    }
    const text = await fileText(this.reader, path);
    // The index stores text without a byte-order mark; its byte count tells whether the file had one.
    const bom = record.bytes === new TextEncoder().encode(text).byteLength + 3;
    return { record, text, starts: lineStarts(text), expectedHash: contentHash(encodeText({ text, bom })) };
  }
}

function targetArguments(target: Target): Record<string, PlanArgument> {
  const args: Record<string, PlanArgument> = {};
  for (const [key, value] of Object.entries(target)) if (value !== undefined) args[key] = value as PlanArgument;
  return args;
}

export function planSymbol(reader: IndexReader, loaded: LoadedSymbol): PlanSymbol {
  const s = summarize(reader, loaded.record, loaded.shard.paths);
  return {
    symbolId: s.symbolId, name: s.name, kind: s.kind, qualifiedName: s.qualifiedName, language: s.language,
    ...(s.path !== undefined ? { path: s.path, line: s.line, column: s.column } : {}),
  };
}

/** The target, refused when it is declared outside the repository (nothing there can be edited). */
export async function resolveOwnSymbol(reader: IndexReader, target: Target, what: string): Promise<LoadedSymbol> {
  const loaded = await resolveTarget(reader, target);
  if (loaded.record.external || loaded.record.path === undefined) {
    throw new SextantError('INVALID_ARGUMENT', `${loaded.record.qname} is declared outside the repository (${loaded.record.external?.package ?? 'external'}); it cannot be ${what}.`,
      'Target a symbol declared in this repository.');
  }
  return loaded;
}

export function classificationConflicts(path: string, flags: number): PlanConflict[] {
  const conflicts: PlanConflict[] = [];
  if (flags & FILE_FLAGS.generated) conflicts.push({ kind: 'generated-file', path, message: `${path} is generated; an edit there is lost when it is generated again.` });
  if (flags & FILE_FLAGS.vendored) conflicts.push({ kind: 'vendored-file', path, message: `${path} is vendored (third-party code kept in the repository).` });
  return conflicts;
}

interface Occurrence {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  kind: string;
  confidence: (typeof CONFIDENCES)[number];
}

function occurrencesOf(symbol: LoadedSymbol, withDefinitions: boolean): Occurrence[] {
  const { record, shard } = symbol;
  const out: Occurrence[] = [];
  if (withDefinitions) {
    for (const d of defsOf(record)) {
      out.push({ path: shard.paths[d.pathIndex]!, line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, kind: 'definition', confidence: 'exact' });
    }
  }
  for (const r of refsOf(record)) {
    out.push({
      path: shard.paths[r.pathIndex]!, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn,
      kind: r.kind, confidence: r.confidence,
    });
  }
  return out;
}

/** The symbol and its whole related group (member-group.ts, 'group'): they share one name. */
async function overrideGroup(reader: IndexReader, start: LoadedSymbol): Promise<LoadedSymbol[]> {
  const group = await relatedMembers(reader, start, 'group');
  if (group.truncatedBy) {
    throw new SextantError('INVALID_ARGUMENT', `${start.record.qname} has more than ${RELATED_BOUND.maxNodes} related members (overriding, overridden, or one property of a union).`,
      'Rename it with the TypeScript planner in the runner, or split the change.');
  }
  return group.members;
}

/** The outline nodes from a root down to the declaration whose name is at the position. */
export function outlinePath(nodes: OutlineNode[], line: number, column: number): OutlineNode[] | undefined {
  for (const node of nodes) {
    if (node.at[0] === line && node.at[1] === column) return [node];
    const below = outlinePath(node.children, line, column);
    if (below) return [node, ...below];
  }
  return undefined;
}

function fileEntry(file: IndexedFile, path: string, edits: PlanEdit[]): PlanFile {
  return { path, change: 'modify', expectedHash: file.expectedHash, resultHash: textHash(applyEdits(file.text, edits)), edits: sortEdits(edits) };
}

function sortEdits(edits: PlanEdit[]): PlanEdit[] {
  return [...edits].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** What a caller of the index planner may add to a plan before it is sealed. */
export interface PlanFromIndexOptions {
  /**
   * Conflicts about the plan's files that only the caller can see (the runner: a working-tree file
   * that differs from the commit), listed after the planner's own. The plan is sealed once, with them.
   */
  moreConflicts?: (files: readonly PlanFile[]) => Promise<PlanConflict[]>;
}

async function seal(
  reader: IndexReader, operation: PlanOperation, args: Record<string, PlanArgument>, symbol: PlanSymbol, files: PlanFile[], conflicts: PlanConflict[],
  options: PlanFromIndexOptions,
): Promise<Plan> {
  const sorted = files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const more = options.moreConflicts ? await options.moreConflicts(sorted) : [];
  return sealPlan({
    format: 1, operation, arguments: args, repo: reader.repo, commit: reader.commit, planner: 'index', symbol,
    files: sorted, conflicts: [...conflicts, ...more],
  });
}

/**
 * Renames a symbol at every declaration and reference the index holds, together with the members
 * it overrides and that override it. A reference whose text is another identifier goes through an
 * alias (`export { A as B }`) and keeps that alias; a quoted name (a string-literal property) is
 * renamed inside its quotes. Candidate references (name matches only) are conflicts.
 */
export async function planRenameFromIndex(reader: IndexReader, target: Target, newName: string, options: PlanFromIndexOptions = {}): Promise<Plan> {
  const start = await resolveOwnSymbol(reader, target, 'renamed');
  const oldName = start.record.name;
  checkNewName(newName, oldName);
  const texts = new IndexedTexts(reader);
  const group = await overrideGroup(reader, start);
  const conflicts: PlanConflict[] = [];
  const edits = new Map<string, Map<string, PlanEdit>>();
  for (const symbol of group) {
    for (const o of occurrencesOf(symbol, true)) {
      const file = await texts.get(o.path);
      const from = offsetAt(file.text, file.starts, o.line, o.column);
      const to = offsetAt(file.text, file.starts, o.endLine, o.endColumn);
      const found = file.text.slice(from, to);
      let edit: PlanEdit | undefined;
      if (found === oldName) edit = editAt(file.starts, from, to, newName);
      else if (found.length === oldName.length + 2 && /^(["'`]).*\1$/s.test(found) && found.slice(1, -1) === oldName) edit = editAt(file.starts, from + 1, to - 1, newName);
      else if (/^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_$]*$/u.test(found)) continue; // an alias of the symbol keeps its own name
      else {
        conflicts.push({ kind: 'unexpected-text', path: o.path, line: o.line, column: o.column, message: `The index places a ${o.kind} of ${oldName} at ${o.path}:${o.line}:${o.column}, where the text is "${found.slice(0, 80)}".` });
        continue;
      }
      if (o.confidence === 'candidate') {
        conflicts.push({ kind: 'candidate-usage', path: o.path, line: o.line, column: o.column, message: `${o.path}:${o.line}:${o.column} (${o.kind}) matches ${oldName} by name only; it may be another symbol.` });
      }
      let byPosition = edits.get(o.path);
      if (!byPosition) edits.set(o.path, (byPosition = new Map()));
      byPosition.set(`${edit.line}:${edit.column}`, edit);
    }
  }
  await collisions(reader, texts, group, newName, [...edits.keys()], conflicts);
  conflicts.push(...await undecidedConflicts(reader, start, group, 'renamed'));
  const files: PlanFile[] = [];
  for (const [path, byPosition] of edits) {
    const file = await texts.get(path);
    conflicts.push(...classificationConflicts(path, file.record.flags));
    files.push(fileEntry(file, path, [...byPosition.values()]));
  }
  conflicts.push(...await textualMentions(reader, oldName, files, conflicts));
  return seal(reader, 'rename', { ...targetArguments(target), newName }, planSymbol(reader, start), files, conflicts, options);
}

/**
 * What the index could not decide about the symbol, as conflicts, so that a plan never says 0
 * conflicts while a same-named site is undecided: identifiers named like a member of the group that
 * resolved to nothing, and same-named members of the types above and below that no override links.
 */
async function undecidedConflicts(reader: IndexReader, start: LoadedSymbol, group: readonly SymbolOrNode[], done: 'renamed' | 'deleted'): Promise<PlanConflict[]> {
  const conflicts: PlanConflict[] = [];
  const name = start.record.name;
  for (const site of await unresolvedUsesOf(reader, group)) {
    conflicts.push({
      kind: 'unresolved-usage', path: site.path, line: site.line, column: site.column,
      message: `${site.path}:${site.line}:${site.column} (${site.kind}) is named ${name} but resolved to nothing; it may use ${start.record.qname} and would not be ${done}.`,
    });
  }
  const linked = new Set(group.map((s) => ('record' in s ? s.record.key : s.key)));
  for (const direction of done === 'renamed' ? (['supers', 'subs'] as const) : (['subs'] as const)) {
    for (const member of await undecidedMembers(reader, start, direction, linked)) {
      linked.add(member.key);
      conflicts.push({
        kind: 'unmatched-override', path: member.path, line: member.line, column: member.column,
        message: `${member.path}:${member.line}:${member.column} declares ${name} in a ${direction === 'subs' ? 'subtype' : 'supertype'} with a signature the index could not match; it may ${direction === 'subs' ? 'override' : 'be overridden by'} ${start.record.qname} and would not be ${done}.`,
      });
    }
  }
  return conflicts;
}

/** Declarations the new name would collide with or shadow, as far as the index can tell. */
async function collisions(
  reader: IndexReader, texts: IndexedTexts, group: LoadedSymbol[], newName: string, editedPaths: string[], conflicts: PlanConflict[],
): Promise<void> {
  const member = MEMBER_KINDS.has(group[0]!.record.kind);
  for (const symbol of group) {
    for (const def of occurrencesOf(symbol, true).filter((o) => o.kind === 'definition')) {
      const file = await texts.get(def.path);
      const path = outlinePath(file.record.outline, def.line, def.column);
      const siblings = path && path.length > 1 ? path[path.length - 2]!.children : file.record.outline;
      const clash = siblings.find((n) => n.name === newName);
      if (clash) {
        conflicts.push({ kind: 'name-collision', path: def.path, line: clash.at[0], column: clash.at[1], message: `${newName} is already declared next to ${symbol.record.qname} (${def.path}:${clash.at[0]}:${clash.at[1]}).` });
      }
    }
  }
  if (member) return; // members live in their type; other declarations of the name elsewhere do not clash
  const names = await reader.names();
  const edited = new Set(editedPaths);
  for (const i of names.exactly(names.names, newName)) {
    const { path, line, column } = names.loc(i);
    if (!edited.has(path)) continue;
    if (conflicts.some((c) => c.kind === 'name-collision' && c.path === path && c.line === line && c.column === column)) continue;
    conflicts.push({ kind: 'shadowing', path, line, column, message: `${path} already declares ${newName} (${path}:${line}:${column}); the renamed symbol would shadow it or be shadowed by it.` });
  }
}

/**
 * Deletes a symbol's declarations (with the comments directly above them). Every reference to it,
 * and every member that overrides it, is a usage conflict: the plan is blocked unless forced.
 */
export async function planSafeDeleteFromIndex(reader: IndexReader, target: Target, options: PlanFromIndexOptions = {}): Promise<Plan> {
  const symbol = await resolveOwnSymbol(reader, target, 'deleted');
  const texts = new IndexedTexts(reader);
  const conflicts: PlanConflict[] = [];
  const deletions = new Map<string, { start: number; end: number }[]>();
  for (const def of occurrencesOf(symbol, true).filter((o) => o.kind === 'definition')) {
    const file = await texts.get(def.path);
    const node = outlinePath(file.record.outline, def.line, def.column)?.at(-1);
    if (!node || node.at[0] !== def.line || node.at[1] !== def.column) {
      throw new SextantError('INVALID_ARGUMENT', `The index has no extent for the declaration of ${symbol.record.qname} at ${def.path}:${def.line}:${def.column}.`,
        'Delete it with the runner\'s TypeScript planner, or by hand.');
    }
    const start = withCommentsAbove(file.text, file.starts, offsetAt(file.text, file.starts, node.range[0], node.range[1]));
    const span = withoutDoubleBlank(file.text, wholeLines(file.text, start, offsetAt(file.text, file.starts, node.range[2], node.range[3])));
    deletions.set(def.path, [...(deletions.get(def.path) ?? []), span]);
  }
  const insideDeleted = (o: Occurrence, file: IndexedFile) => {
    const at = offsetAt(file.text, file.starts, o.line, o.column);
    return (deletions.get(o.path) ?? []).some((d) => at >= d.start && at < d.end);
  };
  for (const o of occurrencesOf(symbol, false)) {
    if (insideDeleted(o, await texts.get(o.path))) continue; // recursion inside the declaration itself
    conflicts.push({
      kind: o.confidence === 'candidate' ? 'candidate-usage' : 'usage', path: o.path, line: o.line, column: o.column,
      message: `${o.kind} of ${symbol.record.qname} at ${o.path}:${o.line}:${o.column}${o.confidence === 'candidate' ? ' (a name match only)' : ''}`,
    });
  }
  const node = await nodeOf(reader, symbol);
  const overriders = node ? await walk(reader, [node], (e) => !e.out && e.kind === 'overrides', { depth: 1, maxNodes: RELATED_BOUND.maxNodes }) : { steps: [] };
  for (const step of overriders.steps) {
    const s = nodeSummary(reader, step.node);
    conflicts.push({ kind: 'usage', path: s.path, line: s.line, column: s.column, message: `${s.qualifiedName} overrides ${symbol.record.qname} (${s.path}:${s.line}:${s.column})` });
  }
  conflicts.push(...await undecidedConflicts(reader, symbol, [symbol, ...overriders.steps.map((s) => s.node)], 'deleted'));
  const files: PlanFile[] = [];
  for (const [path, spans] of deletions) {
    const file = await texts.get(path);
    conflicts.push(...classificationConflicts(path, file.record.flags));
    files.push(fileEntry(file, path, spans.map((s) => editAt(file.starts, s.start, s.end, ''))));
  }
  return seal(reader, 'safe_delete', targetArguments(target), planSymbol(reader, symbol), files, conflicts, options);
}
