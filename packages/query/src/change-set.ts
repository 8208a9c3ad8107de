// What changed between two indexed commits, at the symbol level: the one computation behind
// diff_symbols and change_impact. It reads the two file tables, then the file (and text) shards of
// the changed files only: every fact it compares is in the files' DeclRecords, so no symbol shard
// and no unchanged file is read.
//
// Matching a base declaration to a head one, in this order (each step only among the ones still
// unmatched):
//   1. the same identity (symbol key). Then a different file is `moved`.
//   2. the same qualified name and kind in the same file (or in the file an exact rename made of
//      it): `modified`. This pairs a Java or Kotlin method whose parameters changed (their identity
//      includes the parameter types) and a TypeScript symbol of a renamed file (its identity
//      includes the path; then `moved`). Several overloads of one name pair in declaration order.
//   3. the same qualified name and kind anywhere, when exactly one is left on each side: `moved`
//      (TypeScript declarations moved to another file).
//   4. the same body fingerprint and kind, when exactly one is left on each side with it (and, for
//      types, the same member names): `renamed` when the name differs, else `moved`. A body that
//      is empty never matches.
//   5. in place: the same kind in the same file, when most lines of each (more than half) are
//      lines of the other the line diff kept, and exactly one is left on each side so: `renamed`
//      (a recursive function renamed alone still calls itself by its old name, so its body
//      fingerprint differs; its lines are where they were, and when only its name's line was
//      edited its body did not change).
// What is left is `removed` and `added`. A name a module re-exports (ReexportRecord) that it no
// longer exports, or newly does, is a change of its own: `modified` with the aspect `exports`, on
// the re-exported symbol, at the barrel, with only the side that exports it. Locals and parameters are never changes of their own (the
// indexer records no DeclRecord for them): they are their container's `body` or `signature`.
import {
  diffFileTables, FILE_FLAGS, formatSymbolId, LEADING_MODIFIERS, MODIFIERS, SextantError, shortCommit, type ChangeRecord, type DeclRecord, type FileTableChange, type FileTableEntry, type ReexportRecord,
  type Language, type SkippedFile,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { LineDiff, lineHash, lineHashesOf } from './line-diff.ts';
import type { SymbolSummary } from './results.ts';

export const CHANGE_KINDS = ['added', 'removed', 'modified', 'renamed', 'moved'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const CHANGE_ASPECTS = ['signature', 'body', 'modifiers', 'type', 'members', 'doc', 'location', 'exports'] as const;
export type ChangeAspect = (typeof CHANGE_ASPECTS)[number];

/** Kinds whose members are declarations of their own: their changes are the members'. */
const CONTAINER_KINDS = new Set(['class', 'interface', 'enum', 'namespace', 'module', 'component']);
/** Kinds whose signature is a declared type: a signature change is a `type` change. */
const TYPED_KINDS = new Set(['property', 'field', 'variable', 'constant', 'enumMember']);
/** Modifier bits a reviewer cares about (visibility, static, abstract, async, readonly, exported, default, optional). */
const COMPARED_MODIFIERS = MODIFIERS.exported | MODIFIERS.default | MODIFIERS.static | MODIFIERS.abstract | MODIFIERS.async
  | MODIFIERS.readonly | MODIFIERS.private | MODIFIERS.protected | MODIFIERS.public | MODIFIERS.optional;

/** One side of a change: a declaration in the file record it came from. */
export interface DeclSide {
  key: string;
  decl: DeclRecord;
  file: DeclFile;
  /** Its index in file.decls; -1 for a re-export (the file does not declare it). */
  index: number;
  /** The declarations it contains directly. */
  children: DeclSide[];
  /** For a type: its members' kinds and names, sorted and joined (the `members` aspect compares them); else ''. */
  members: string;
}

export interface SymbolChange {
  change: ChangeKind;
  aspects: ChangeAspect[];
  base?: DeclSide;
  head?: DeclSide;
}

/** A changed file, as diff_symbols lists it. */
export interface ChangedFile {
  path: string;
  change: FileTableChange['change'];
  /** The path at base of a renamed file. */
  from?: string;
  language?: Language;
  /** indexed / skipped / unindexed at head (at base for a removed file). */
  status: 'indexed' | 'skipped' | 'unindexed';
  /** Line counts of the text diff, for indexed files. */
  linesAdded?: number;
  linesRemoved?: number;
  flags: number;
}

export interface ChangeSet extends ComparedIndexes {
  base: IndexReader;
  head: IndexReader;
}

/** What comparing two builds finds, independent of the readers that read it (so it is kept between calls). */
interface ComparedIndexes {
  files: ChangedFile[];
  changes: SymbolChange[];
  /** Changed files by head path (base path for removed ones), with both records and their line diff. */
  byPath: Map<string, FileDelta>;
  /** Changed files that were skipped or not indexed on either side (their symbols are not known). */
  unanalysed: (SkippedFile | { path: string; reason: 'not-indexed'; detail: string })[];
}

/**
 * One side of a changed file: its change record, with its language and classification from the file
 * table and the lineHash of each of its lines (from its text: the line diff needs no more).
 */
export interface DeclFile extends ChangeRecord {
  lang: Language;
  flags: number;
  lineHashes: Uint32Array;
}

export interface FileDelta {
  change: FileTableChange;
  base?: DeclFile;
  head?: DeclFile;
  /** Base lines to head lines; absent for an added or removed file. */
  lines?: LineDiff;
}

/**
 * The change set of two indexes, computed once per pair of builds and kept in the shard cache (a
 * review asks diff_symbols, then change_impact, then pages: each after the first reads no shard for it).
 */
export async function computeChangeSet(base: IndexReader, head: IndexReader): Promise<ChangeSet> {
  if (base.repo.toLowerCase() !== head.repo.toLowerCase()) {
    throw new Error(`computeChangeSet was given indexes of two repositories (${base.repo}, ${head.repo})`);
  }
  const compared = await head.derived(`changes:${base.buildKey}>${head.buildKey}`, async () => {
    const value = await compare(base, head);
    // Roughly what it holds: the changed files' line hashes and declarations.
    let bytes = 4096;
    for (const delta of value.byPath.values()) {
      for (const side of [delta.base, delta.head]) if (side) bytes += 4 * side.lineHashes.length + 256 * side.decls.length;
    }
    return { value, bytes };
  });
  return { ...compared, base, head };
}

async function compare(base: IndexReader, head: IndexReader): Promise<ComparedIndexes> {
  const [baseTable, headTable] = await Promise.all([base.fileTable(), head.fileTable()]);
  const fileChanges = diffFileTables(baseTable, headTable);
  const indexed = (reader: IndexReader, entries: (FileTableEntry | undefined)[]) => {
    const paths = entries.filter((e) => e?.status === 'indexed').map((e) => e!.path);
    return reader.prefetch([...new Set(paths.flatMap((path) => [reader.changeShardNameOf(path), reader.textShardNameOf(path)]))]);
  };
  await Promise.all([indexed(base, fileChanges.map((c) => c.base)), indexed(head, fileChanges.map((c) => c.head))]);
  const sideOf = async (reader: IndexReader, entry: FileTableEntry | undefined): Promise<DeclFile | undefined> => {
    if (entry?.status !== 'indexed' || !entry.lang) return undefined;
    const [record, text] = await Promise.all([reader.change(entry.path), reader.text(entry.path)]);
    const missing = !record ? reader.changeShardNameOf(entry.path) : text === undefined ? reader.textShardNameOf(entry.path) : undefined;
    if (missing) {
      throw new SextantError('INDEX_CORRUPT', `The file table of ${reader.repo}@${shortCommit(reader.commit)} lists ${entry.path} as indexed, but shard ${missing} does not hold it.`,
        'Rebuild the index with `indexer build` (and publish it again).', { shard: missing });
    }
    return { ...record!, lang: entry.lang, flags: entry.flags, lineHashes: lineHashesOf(text!) };
  };
  const byPath = new Map<string, FileDelta>();
  const files: ChangedFile[] = [];
  const unanalysed: ChangeSet['unanalysed'] = [];
  for (const change of fileChanges) {
    const delta: FileDelta = { change, base: await sideOf(base, change.base), head: await sideOf(head, change.head) };
    if (delta.base && delta.head) delta.lines = LineDiff.ofLines(delta.base.lineHashes, delta.head.lineHashes);
    byPath.set(change.path, delta);
    const side = change.head ?? change.base!;
    files.push({
      path: change.path, change: change.change, ...(change.from ? { from: change.from } : {}),
      ...(side.lang ? { language: side.lang } : {}), status: side.status,
      ...linesOf(delta),
      flags: side.flags,
    });
    for (const [reader, entry] of [[base, change.base], [head, change.head]] as const) {
      if (!entry || entry.status === 'indexed') continue;
      const skipped = reader.manifest.skipped.find((s) => s.path === entry.path);
      const item = skipped ?? { path: entry.path, reason: 'not-indexed' as const, detail: 'no indexer reads this language' };
      if (!unanalysed.some((u) => u.path === item.path && u.reason === item.reason)) unanalysed.push(item);
    }
  }
  return { files, changes: [...matchDeclarations(byPath), ...reexportChanges(byPath)].sort(byPlace), byPath, unanalysed };
}

function linesOf(delta: FileDelta): { linesAdded?: number; linesRemoved?: number } {
  if (delta.lines) return { linesAdded: delta.lines.linesAdded, linesRemoved: delta.lines.linesRemoved };
  if (delta.head) return { linesAdded: lineCount(delta.head), linesRemoved: 0 };
  if (delta.base) return { linesAdded: 0, linesRemoved: lineCount(delta.base) };
  return {};
}

/** Lines of a file; an empty file (one empty line as splitLines sees it) has none. */
function lineCount(file: DeclFile): number {
  return file.lineHashes.length === 1 && file.lineHashes[0] === EMPTY_LINE ? 0 : file.lineHashes.length;
}

const EMPTY_LINE = lineHash('');

function sidesOf(file: DeclFile | undefined): DeclSide[] {
  if (!file) return [];
  const sides = file.decls.map((decl, index): DeclSide => ({ key: decl.key, decl, file, index, children: [], members: '' }));
  for (const side of sides) if (side.decl.container >= 0) sides[side.decl.container]?.children.push(side);
  for (const side of sides) {
    if (CONTAINER_KINDS.has(side.decl.kind)) side.members = side.children.map((c) => `${c.decl.kind}:${c.decl.name}`).sort().join(',');
  }
  return sides;
}

function matchDeclarations(byPath: Map<string, FileDelta>): SymbolChange[] {
  const baseSides: DeclSide[] = [];
  const headSides: DeclSide[] = [];
  // The head path each base path continues as (itself, or an exact rename's new path).
  const continues = new Map<string, string>();
  for (const delta of byPath.values()) {
    baseSides.push(...sidesOf(delta.base));
    headSides.push(...sidesOf(delta.head));
    if (delta.base && delta.head) continues.set(delta.base.path, delta.head.path);
  }
  const changes: SymbolChange[] = [];
  const leftBase = new Set(baseSides);
  const leftHead = new Set(headSides);
  const containers: [DeclSide, DeclSide][] = [];
  const pair = (b: DeclSide, h: DeclSide, change: ChangeKind, sameBody = false) => {
    leftBase.delete(b);
    leftHead.delete(h);
    const aspects = aspectsOf(b, h).filter((a) => !(sameBody && a === 'body'));
    if (change !== 'modified' || aspects.length > 0) changes.push({ change, aspects, base: b, head: h });
    if (CONTAINER_KINDS.has(h.decl.kind)) containers.push([b, h]);
  };
  // The members of a type matched under another name or path: by kind and name, in order. They are
  // listed only when they changed themselves (their new qualified name comes from the type's).
  const pairMembers = () => {
    while (containers.length > 0) {
      const [b, h] = containers.pop()!;
      const children = (side: DeclSide, left: Set<DeclSide>) => side.children.filter((c) => left.has(c));
      const heads = children(h, leftHead);
      for (const child of children(b, leftBase)) {
        const at = heads.findIndex((c) => c.decl.kind === child.decl.kind && c.decl.name === child.decl.name);
        if (at < 0) continue;
        const [match] = heads.splice(at, 1);
        leftBase.delete(child);
        leftHead.delete(match!);
        const aspects = aspectsOf(child, match!).filter((a) => a !== 'location');
        if (aspects.length > 0) changes.push({ change: 'modified', aspects, base: child, head: match! });
        if (CONTAINER_KINDS.has(match!.decl.kind)) containers.push([child, match!]);
      }
    }
  };
  // 1. identity
  const headByKey = new Map<string, DeclSide>();
  for (const h of headSides) if (!headByKey.has(h.key)) headByKey.set(h.key, h);
  for (const b of baseSides) {
    const h = headByKey.get(b.key);
    if (h && leftHead.has(h)) pair(b, h, b.file.path === h.file.path ? 'modified' : 'moved');
  }
  // 2. qualified name and kind in the same (or renamed) file, overloads in declaration order
  const group = (sides: Iterable<DeclSide>, by: (s: DeclSide) => string) => {
    const groups = new Map<string, DeclSide[]>();
    for (const s of sides) {
      const key = by(s);
      const list = groups.get(key);
      if (list) list.push(s);
      else groups.set(key, [s]);
    }
    return groups;
  };
  pairMembers();
  // Members of types are paired under their types (pairMembers), not by name across the file.
  const topLevel = (left: Set<DeclSide>) => [...left].filter((s) => s.decl.container < 0 || !CONTAINER_KINDS.has(s.file.decls[s.decl.container]!.kind));
  const inFile = (path: string) => (s: DeclSide) => `${path}\0${s.decl.kind}\0${s.decl.qname}`;
  const headInFile = group(topLevel(leftHead), (s) => inFile(s.file.path)(s));
  for (const [key, bases] of group(topLevel(leftBase), (s) => inFile(continues.get(s.file.path) ?? s.file.path)(s))) {
    const heads = headInFile.get(key) ?? [];
    for (let i = 0; i < Math.min(bases.length, heads.length); i++) {
      pair(bases[i]!, heads[i]!, bases[i]!.file.path === heads[i]!.file.path ? 'modified' : 'moved');
    }
  }
  pairMembers();
  // 3. qualified name and kind anywhere, one on each side
  const anywhere = (s: DeclSide) => `${s.decl.kind}\0${s.decl.qname}`;
  const headAnywhere = group(topLevel(leftHead), anywhere);
  for (const [key, bases] of group(topLevel(leftBase), anywhere)) {
    const heads = headAnywhere.get(key);
    if (bases.length === 1 && heads?.length === 1) pair(bases[0]!, heads[0]!, 'moved');
  }
  pairMembers();
  // 4. the same body, one on each side
  const byBody = (s: DeclSide) => (s.decl.body ? `${s.decl.kind}\0${s.decl.body}\0${s.members}` : '');
  const headBodies = group(leftHead, byBody);
  for (const [key, bases] of group(leftBase, byBody)) {
    const heads = headBodies.get(key);
    if (key === '' || bases.length !== 1 || heads?.length !== 1) continue;
    pair(bases[0]!, heads[0]!, bases[0]!.decl.name !== heads[0]!.decl.name ? 'renamed' : 'moved');
  }
  pairMembers();
  // 5. in place, one on each side
  const kept = (b: DeclSide, h: DeclSide, lines: LineDiff): number => {
    let n = 0;
    for (let line = b.decl.range[0]; line <= b.decl.range[2]; line++) {
      const at = lines.headLine(line);
      if (at !== undefined && at >= h.decl.range[0] && at <= h.decl.range[2]) n++;
    }
    return n;
  };
  const span = (side: DeclSide) => side.decl.range[2] - side.decl.range[0] + 1;
  // Each base's in-place heads with the lines they keep, and each head's in-place bases.
  const inPlace = new Map<DeclSide, { h: DeclSide; n: number }[]>();
  const headsInPlace = new Map<DeclSide, number>();
  const headsOf = group(leftHead, (h) => `${h.file.path}\0${h.decl.kind}`);
  for (const b of leftBase) {
    const path = continues.get(b.file.path) ?? b.file.path;
    const lines = byPath.get(path)?.lines;
    if (!lines) continue;
    for (const h of headsOf.get(`${path}\0${b.decl.kind}`) ?? []) {
      if (h.decl.name === b.decl.name) continue;
      const n = kept(b, h, lines);
      if (2 * n <= span(b) || 2 * n <= span(h)) continue;
      inPlace.set(b, [...inPlace.get(b) ?? [], { h, n }]);
      headsInPlace.set(h, (headsInPlace.get(h) ?? 0) + 1);
    }
  }
  for (const [b, heads] of inPlace) {
    const { h, n } = heads[0]!;
    if (heads.length !== 1 || headsInPlace.get(h) !== 1) continue;
    // Only the name's line edited: the body's text is the same, though a call of its old name in it now differs from its own.
    pair(b, h, 'renamed', span(b) === span(h) && n === span(b) - 1 && byPath.get(h.file.path)!.lines!.headLine(b.decl.at[0]) === undefined);
  }
  pairMembers();
  for (const b of leftBase) changes.push({ change: 'removed', aspects: [], base: b });
  for (const h of leftHead) changes.push({ change: 'added', aspects: [], head: h });
  return changes;
}

/** The names each changed module stopped or started re-exporting (by name and the symbol it names). */
function reexportChanges(byPath: Map<string, FileDelta>): SymbolChange[] {
  const changes: SymbolChange[] = [];
  const named = (file: DeclFile | undefined) => new Map((file?.reexports ?? []).map((r) => [`${r.name}\0${r.key}`, r]));
  for (const delta of byPath.values()) {
    const [base, head] = [named(delta.base), named(delta.head)];
    for (const [id, r] of base) if (!head.has(id)) changes.push({ change: 'modified', aspects: ['exports'], base: reexportSide(delta.base!, r) });
    for (const [id, r] of head) if (!base.has(id)) changes.push({ change: 'modified', aspects: ['exports'], head: reexportSide(delta.head!, r) });
  }
  return changes;
}

function reexportSide(file: DeclFile, r: ReexportRecord): DeclSide {
  const decl: DeclRecord = { key: r.key, name: r.name, kind: r.kind, qname: r.qname, mods: MODIFIERS.exported, container: -1, at: r.at, range: r.at, body: '', doc: '' };
  return { key: r.key, decl, file, index: -1, children: [], members: '' };
}

/** In head order (path, then line), removed symbols at their base place. */
function byPlace(a: SymbolChange, b: SymbolChange): number {
  const pa = (a.head ?? a.base)!;
  const pb = (b.head ?? b.base)!;
  return (pa.file.path < pb.file.path ? -1 : pa.file.path > pb.file.path ? 1 : 0) || pa.decl.at[0] - pb.decl.at[0] || pa.decl.at[1] - pb.decl.at[1]
    || (a.head ? 1 : 0) - (b.head ? 1 : 0);
}

/**
 * A signature without its leading modifiers and with the symbol's own name masked, so that neither
 * a rename nor a modifier alone is a signature change: its every whole-word occurrence (`class Node
 * extends Base<Node>`, renamed with its uses), or only its first, the declared name, when the rest
 * name another symbol spelled alike that the rename left alone (`const toCodec: { (s: S): toCodec<S> }`,
 * the interface `toCodec`).
 */
function maskedSignatures(side: DeclSide): [string, string] {
  const signature = (side.decl.signature ?? '').replace(LEADING_MODIFIERS, '');
  const name = side.decl.name;
  if (!name) return [signature, signature];
  const word = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'g');
  const first = signature.search(word);
  return [signature.replace(word, '\u0000'), first < 0 ? signature : `${signature.slice(0, first)}\u0000${signature.slice(first + name.length)}`];
}

function sameSignature(b: DeclSide, h: DeclSide): boolean {
  // The whole signatures' fingerprints, where both sides have them (a shown signature may be cut, or one of several declarations').
  if (b.decl.sig !== undefined && h.decl.sig !== undefined) return b.decl.sig === h.decl.sig;
  if (b.decl.signature === h.decl.signature && b.decl.name === h.decl.name) return true;
  const [allB, firstB] = maskedSignatures(b);
  const [allH, firstH] = maskedSignatures(h);
  return allB === allH || firstB === firstH;
}

function containerQname(side: DeclSide): string {
  const c = side.decl.container;
  return c >= 0 ? side.file.decls[c]?.qname ?? '' : '';
}

function aspectsOf(b: DeclSide, h: DeclSide): ChangeAspect[] {
  const aspects: ChangeAspect[] = [];
  if (!sameSignature(b, h)) aspects.push(TYPED_KINDS.has(h.decl.kind) ? 'type' : 'signature');
  if (b.decl.body !== h.decl.body) aspects.push('body');
  if ((b.decl.mods & COMPARED_MODIFIERS) !== (h.decl.mods & COMPARED_MODIFIERS)) aspects.push('modifiers');
  if (b.members !== h.members) aspects.push('members');
  if (b.decl.doc !== h.decl.doc) aspects.push('doc');
  if (b.file.path !== h.file.path || containerQname(b) !== containerQname(h)) aspects.push('location');
  return aspects;
}

/** The summary of one side of a change, as every other tool gives symbols (plus its signature). */
const headPaths = new WeakMap<ChangeSet, Map<string, string | undefined>>();

/** Where a base path is at head: itself, a renamed file's new path, or undefined when the file is gone (one map per set). */
export function headPathOf(set: ChangeSet, basePath: string): string | undefined {
  let paths = headPaths.get(set);
  if (!paths) {
    paths = new Map();
    for (const [path, delta] of set.byPath) {
      const from = delta.change.base?.path;
      if (from !== undefined && !paths.has(from)) paths.set(from, delta.change.change === 'removed' ? undefined : path);
    }
    headPaths.set(set, paths);
  }
  return paths.has(basePath) ? paths.get(basePath) : basePath;
}

/** The head line of a base line of a file, by its head path: the same line when the file is unchanged; undefined where the change edited it. */
export function headLineOf(set: ChangeSet, headPath: string, line: number): number | undefined {
  const delta = set.byPath.get(headPath);
  return delta ? delta.lines?.headLine(line) : line;
}

export function sideSummary(reader: IndexReader, side: DeclSide): SymbolSummary & { signature?: string } {
  const [line, column, endLine, endColumn] = side.decl.at;
  return {
    symbolId: formatSymbolId(side.key, reader.commit),
    name: side.decl.name,
    kind: side.decl.kind,
    qualifiedName: side.decl.qname,
    language: side.file.lang,
    path: side.file.path,
    line, column, endLine, endColumn,
    ...(side.decl.signature !== undefined ? { signature: side.decl.signature } : {}),
  };
}

/** Whether a change is in a test file (by the index's classification) on either side. */
export function inTestFile(change: SymbolChange): boolean {
  return (((change.base?.file.flags ?? 0) | (change.head?.file.flags ?? 0)) & FILE_FLAGS.test) !== 0;
}
