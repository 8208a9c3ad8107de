// The file table: every file tracked at the commit (indexed, skipped or of no indexed language) with
// its git blob id and classification, sorted by path, in one small shard. Comparing two commits' tables names the
// changed files without reading any other shard, so diff_symbols never reads an unchanged file.
// Each indexed file also carries a digest of its problem list, so change_impact finds the files whose
// blob did not change but whose diagnostics did (an importer of a barrel that lost an export)
// without reading them either.
import { canonicalJson } from './canonical-json.ts';
import { encodeShard } from './codec.ts';
import { base32, sha256Bytes } from './hash.ts';
import { corrupt } from './packed-records.ts';
import { LANGUAGES, type Language, type ProblemRecord } from './records.ts';

/**
 * indexed: in the file shards; skipped: listed in the manifest's skipped files (with its reason);
 * unindexed: a text file no indexer reads (documentation, data, other languages). The texts of the
 * indexed and unindexed files are in the text shards, and search_text searches them.
 */
export const FILE_TABLE_STATUSES = ['indexed', 'skipped', 'unindexed'] as const;
export type FileTableStatus = (typeof FILE_TABLE_STATUSES)[number];

export interface FileTableEntry {
  path: string;
  /** Git blob id (40 hex) at the commit. */
  blob: string;
  status: FileTableStatus;
  /** The language of an indexed file. */
  lang?: Language;
  /** FILE_FLAGS of an indexed or unindexed file (test, generated, vendored); 0 for a skipped one. */
  flags: number;
  /** problemsDigest of an indexed file's problems; '' (or absent) when it has none. */
  problems?: string;
}

/** Characters of a problems digest: 40 bits of the SHA-256 of the list. */
const PROBLEMS_DIGEST_LENGTH = 8;

/**
 * A digest of a file's problem list (syntax errors and compiler diagnostics, in stored order); ''
 * for none. Of what a reader sees, not of their blame (keys or names): the same errors blamed on other keys (a
 * renamed file's) are the same problems.
 */
export function problemsDigest(problems: readonly ProblemRecord[]): string {
  return problems.length === 0 ? '' : base32(sha256Bytes(canonicalJson(problems.map(({ blame: _blame, blameNames: _names, ...seen }) => seen))), PROBLEMS_DIGEST_LENGTH);
}

/** Blob ids are stored back to back, BLOB_LENGTH characters each. */
const BLOB_LENGTH = 40;
/** langs entry of a file without one. */
const NO_LANGUAGE = 255;

interface StoredFileTable {
  v: 2;
  paths: string[];
  blobs: string;
  statuses: Uint8Array;
  langs: Uint8Array;
  flags: Uint8Array;
  /** problemsDigest per file, '' for none. */
  problems: string[];
}

/** Entries in any order; stored sorted by path. */
export function encodeFileTable(entries: readonly FileTableEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const stored: StoredFileTable = {
    v: 2,
    paths: sorted.map((e) => e.path),
    blobs: sorted.map((e) => e.blob).join(''),
    statuses: Uint8Array.from(sorted.map((e) => FILE_TABLE_STATUSES.indexOf(e.status))),
    langs: Uint8Array.from(sorted.map((e) => (e.lang ? LANGUAGES.indexOf(e.lang) : NO_LANGUAGE))),
    flags: Uint8Array.from(sorted.map((e) => e.flags)),
    problems: sorted.map((e) => e.problems ?? ''),
  };
  return encodeShard(stored);
}

export class FileTable {
  readonly paths: string[];
  private readonly stored: StoredFileTable;

  constructor(name: string, value: unknown) {
    const s = value as StoredFileTable;
    if (typeof s !== 'object' || s === null || s.v !== 2 || !Array.isArray(s.paths) || typeof s.blobs !== 'string'
      || !(s.statuses instanceof Uint8Array) || !(s.langs instanceof Uint8Array) || !(s.flags instanceof Uint8Array) || !Array.isArray(s.problems)) {
      throw corrupt(name, 'is not a version 2 file table');
    }
    const n = s.paths.length;
    if (s.blobs.length !== n * BLOB_LENGTH || s.statuses.length !== n || s.langs.length !== n || s.flags.length !== n || s.problems.length !== n) throw corrupt(name, 'has columns of different lengths');
    if (!s.problems.every((d) => typeof d === 'string' && (d === '' || d.length === PROBLEMS_DIGEST_LENGTH))) throw corrupt(name, 'has a malformed problems digest');
    for (let i = 1; i < n; i++) if (!(s.paths[i - 1]! < s.paths[i]!)) throw corrupt(name, 'is not sorted by path');
    this.paths = s.paths;
    this.stored = s;
  }

  get size(): number {
    return this.paths.length;
  }

  blob(index: number): string {
    return this.stored.blobs.slice(index * BLOB_LENGTH, (index + 1) * BLOB_LENGTH);
  }

  entry(index: number): FileTableEntry {
    const lang = this.stored.langs[index]!;
    return {
      path: this.paths[index]!,
      blob: this.blob(index),
      status: FILE_TABLE_STATUSES[this.stored.statuses[index]!] ?? 'unindexed',
      ...(lang !== NO_LANGUAGE && LANGUAGES[lang] ? { lang: LANGUAGES[lang] } : {}),
      flags: this.stored.flags[index]!,
      ...(this.stored.problems[index] ? { problems: this.stored.problems[index] } : {}),
    };
  }

  /** Whether any indexed file has every FILE_FLAGS bit of `flag` (is there a test file at all?). */
  anyIndexedWith(flag: number): boolean {
    const indexed = FILE_TABLE_STATUSES.indexOf('indexed');
    for (let i = 0; i < this.paths.length; i++) if (this.stored.statuses[i] === indexed && (this.stored.flags[i]! & flag) === flag) return true;
    return false;
  }

  /** The problemsDigest of the file at `index`; '' when it has none. */
  problems(index: number): string {
    return this.stored.problems[index]!;
  }

  /** Index of `path`, or -1 (binary search: the paths are sorted). */
  indexOf(path: string): number {
    let low = 0;
    let high = this.paths.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = this.paths[mid]!;
      if (at === path) return mid;
      if (at < path) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  static empty(): FileTable {
    return new FileTable('filetable', { v: 2, paths: [], blobs: '', statuses: new Uint8Array(), langs: new Uint8Array(), flags: new Uint8Array(), problems: [] });
  }
}

export interface FileTableChange {
  path: string;
  /** added / removed / modified; renamed when a removed file's blob is an added file's (an exact rename), `from` naming it. */
  change: 'added' | 'removed' | 'modified' | 'renamed';
  from?: string;
  base?: FileTableEntry;
  head?: FileTableEntry;
}

/**
 * The files whose blob (and status) two tables agree on but whose problems differ: diagnosed
 * otherwise because of a change elsewhere (an importer of a module that lost an export). Linear in
 * the tables' sizes.
 */
export function problemsChangedPaths(base: FileTable, head: FileTable): string[] {
  const paths: string[] = [];
  for (let i = 0, j = 0; i < base.size && j < head.size;) {
    const a = base.paths[i]!;
    const b = head.paths[j]!;
    if (a < b) i++;
    else if (b < a) j++;
    else {
      if (base.blob(i) === head.blob(j) && base.problems(i) !== head.problems(j)) paths.push(a);
      i++;
      j++;
    }
  }
  return paths;
}

/**
 * The files that differ between two tables, by path, with exact renames (the same blob removed at
 * one path and added at another, paired when the blob names one file on each side) folded into
 * one change. Linear in the tables' sizes.
 */
export function diffFileTables(base: FileTable, head: FileTable): FileTableChange[] {
  const changes: FileTableChange[] = [];
  let i = 0;
  let j = 0;
  while (i < base.size || j < head.size) {
    const a = i < base.size ? base.paths[i]! : undefined;
    const b = j < head.size ? head.paths[j]! : undefined;
    if (a !== undefined && (b === undefined || a < b)) changes.push({ path: a, change: 'removed', base: base.entry(i++) });
    else if (b !== undefined && (a === undefined || b < a)) changes.push({ path: b, change: 'added', head: head.entry(j++) });
    else {
      if (base.blob(i) !== head.blob(j) || base.entry(i).status !== head.entry(j).status) {
        changes.push({ path: a!, change: 'modified', base: base.entry(i), head: head.entry(j) });
      }
      i++;
      j++;
    }
  }
  const once = (list: FileTableChange[]) => {
    const byBlob = new Map<string, FileTableChange | null>();
    for (const c of list) {
      const blob = (c.base ?? c.head)!.blob;
      byBlob.set(blob, byBlob.has(blob) ? null : c);
    }
    return byBlob;
  };
  const removed = once(changes.filter((c) => c.change === 'removed'));
  const added = once(changes.filter((c) => c.change === 'added'));
  const folded = new Set<FileTableChange>();
  for (const [blob, gone] of removed) {
    const arrived = added.get(blob);
    if (!gone || !arrived) continue;
    arrived.change = 'renamed';
    arrived.from = gone.path;
    arrived.base = gone.base;
    folded.add(gone);
  }
  return changes.filter((c) => !folded.has(c));
}
