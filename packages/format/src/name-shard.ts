// The name shard: every searchable symbol (locals and parameters are not), sorted by lowercased name
// then key. Stored as a few long strings and byte columns rather than a string per entry, so a cold
// reader decodes it in a handful of allocations, and name lookups run as native indexOf scans over
// the joined text instead of a comparison per symbol. Locations are fixed-width (five little-endian
// uint32 per entry) so one entry is read in place: a cold isolate never decodes the whole column to
// answer about one symbol.
import { encodeShard } from './codec.ts';
import { LANGUAGES, NAME_FLAG_EXTERNAL, SYMBOL_KINDS, type Language, type SymbolKind } from './records.ts';
import { corrupt } from './packed-records.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { lastAtOrBefore } from './sorted-search.ts';
import { packInts, unpackInts } from './varint.ts';

/** What a writer builds: one entry per searchable symbol, in the shard's order. */
export interface NameShardData {
  paths: string[];
  entries: NameEntryData[];
}

export interface NameEntryData {
  key: string;
  name: string;
  qname: string;
  kind: SymbolKind;
  lang: Language;
  /** Index into paths of the first declaration's file ('' for external symbols). */
  path: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** FILE_FLAGS of the declaring file, plus NAME_FLAG_EXTERNAL. */
  flags: number;
  /** Package of an external symbol ('' for the repository's own). */
  pkg: string;
}

/** Separates the entries of a joined text column; no identifier contains it. */
export const NAME_SEPARATOR = '\0';
/** Bytes of one entry's location: path index, line, column, endLine, endColumn as uint32. */
const LOC_BYTES = 20;

interface StoredNameShard {
  v: 2;
  paths: string[];
  /** Names, each followed by NAME_SEPARATOR. */
  names: string;
  qnames: string;
  keys: string;
  kinds: Uint8Array;
  langs: Uint8Array;
  flags: Uint8Array;
  loc: Uint8Array;
  pkgs: string[];
  /** Index into pkgs of each entry, as varints. */
  pkg: Uint8Array;
}

export function encodeNameShard(data: NameShardData): Uint8Array {
  const clean = (text: string) => text.replaceAll(NAME_SEPARATOR, '\uFFFD');
  const pkgs = ['', ...new Set(data.entries.map((e) => e.pkg).filter((p) => p !== ''))];
  const stored: StoredNameShard = {
    v: 2,
    paths: data.paths,
    names: data.entries.map((e) => clean(e.name) + NAME_SEPARATOR).join(''),
    qnames: data.entries.map((e) => clean(e.qname) + NAME_SEPARATOR).join(''),
    keys: data.entries.map((e) => e.key).join(''),
    kinds: Uint8Array.from(data.entries.map((e) => SYMBOL_KINDS.indexOf(e.kind))),
    langs: Uint8Array.from(data.entries.map((e) => LANGUAGES.indexOf(e.lang))),
    flags: Uint8Array.from(data.entries.map((e) => e.flags)),
    loc: locColumn(data.entries),
    pkgs,
    pkg: packInts(data.entries.map((e) => pkgs.indexOf(e.pkg)), ['none']),
  };
  return encodeShard(stored);
}

/** A joined text column: entry i is text.slice(starts[i], starts[i + 1] - 1). */
export interface JoinedColumn {
  text: string;
  starts: Int32Array;
}

export class NameShard {
  readonly paths: string[];
  readonly size: number;
  readonly names: JoinedColumn;
  readonly qnames: JoinedColumn;
  private readonly shardName: string;
  private readonly stored: StoredNameShard;
  private readonly locView: DataView;
  private pkgColumn: Int32Array | undefined;

  constructor(shardName: string, value: unknown) {
    const s = value as StoredNameShard;
    if (typeof s !== 'object' || s === null || s.v !== 2 || !Array.isArray(s.paths) || typeof s.names !== 'string'
      || typeof s.qnames !== 'string' || typeof s.keys !== 'string' || !(s.kinds instanceof Uint8Array) || !(s.langs instanceof Uint8Array)
      || !(s.flags instanceof Uint8Array) || !(s.loc instanceof Uint8Array) || !Array.isArray(s.pkgs) || !(s.pkg instanceof Uint8Array)) {
      throw corrupt(shardName, 'is not a version 2 name shard');
    }
    this.shardName = shardName;
    this.stored = s;
    this.paths = s.paths;
    this.size = s.kinds.length;
    this.names = joined(s.names);
    this.qnames = joined(s.qnames);
    if (this.names.starts.length !== this.size + 1 || this.qnames.starts.length !== this.size + 1 || s.keys.length !== this.size * KEY_LENGTH
      || s.langs.length !== this.size || s.flags.length !== this.size || s.loc.byteLength !== this.size * LOC_BYTES) {
      throw corrupt(shardName, 'has columns of different lengths');
    }
    this.locView = new DataView(s.loc.buffer, s.loc.byteOffset, s.loc.byteLength);
  }

  /** An empty index, for a commit with nothing searchable. */
  static empty(): NameShard {
    return new NameShard('names', { v: 2, paths: [], names: '', qnames: '', keys: '', kinds: new Uint8Array(), langs: new Uint8Array(), flags: new Uint8Array(), loc: new Uint8Array(), pkgs: [''], pkg: new Uint8Array() });
  }

  name(i: number): string {
    return entryOf(this.names, i);
  }

  qname(i: number): string {
    return entryOf(this.qnames, i);
  }

  key(i: number): string {
    return this.stored.keys.slice(i * KEY_LENGTH, (i + 1) * KEY_LENGTH);
  }

  kind(i: number): SymbolKind {
    return SYMBOL_KINDS[this.stored.kinds[i]!]!;
  }

  lang(i: number): Language {
    return LANGUAGES[this.stored.langs[i]!]!;
  }

  flags(i: number): number {
    return this.stored.flags[i]!;
  }

  isExternal(i: number): boolean {
    return (this.stored.flags[i]! & NAME_FLAG_EXTERNAL) !== 0;
  }

  pkg(i: number): string {
    if (!this.pkgColumn) {
      this.pkgColumn = unpackInts(this.stored.pkg, ['none'], this.shardName);
      if (this.pkgColumn.length !== this.size) throw corrupt(this.shardName, 'has columns of different lengths');
    }
    return this.stored.pkgs[this.pkgColumn[i]!] ?? '';
  }

  /** The first declaration: path, line, column, endLine, endColumn. */
  loc(i: number): { path: string; line: number; column: number; endLine: number; endColumn: number } {
    const v = this.locView;
    const at = i * LOC_BYTES;
    return {
      path: this.paths[v.getUint32(at, true)] ?? '', line: v.getUint32(at + 4, true), column: v.getUint32(at + 8, true),
      endLine: v.getUint32(at + 12, true), endColumn: v.getUint32(at + 16, true),
    };
  }

  /** Indexes (ascending) of the entries whose name (or qualified name) is exactly `text`. */
  exactly(column: JoinedColumn, text: string): number[] {
    const found: number[] = [];
    if (text.includes(NAME_SEPARATOR)) return found;
    const needle = text + NAME_SEPARATOR;
    for (let from = 0; ;) {
      const at = column.text.indexOf(needle, from);
      if (at < 0) return found;
      const entry = entryAt(column.starts, at);
      if (column.starts[entry] === at) found.push(entry);
      from = column.starts[entry + 1]!;
    }
  }
}

function locColumn(entries: NameEntryData[]): Uint8Array {
  const bytes = new Uint8Array(entries.length * LOC_BYTES);
  const view = new DataView(bytes.buffer);
  entries.forEach((e, i) => [e.path, e.line, e.column, e.endLine, e.endColumn].forEach((n, k) => view.setUint32(i * LOC_BYTES + k * 4, n, true)));
  return bytes;
}

export function joined(text: string): JoinedColumn {
  const starts: number[] = [0];
  for (let at = text.indexOf(NAME_SEPARATOR); at >= 0; at = text.indexOf(NAME_SEPARATOR, at + 1)) starts.push(at + 1);
  if (starts[starts.length - 1] !== text.length) starts.push(text.length + 1); // a text not ending in the separator is malformed
  return { text, starts: Int32Array.from(starts) };
}

function entryOf(column: JoinedColumn, i: number): string {
  return column.text.slice(column.starts[i]!, column.starts[i + 1]! - 1);
}

/** The entry whose span holds `position` (the last start is the end, not an entry). */
export function entryAt(starts: Int32Array, position: number): number {
  return lastAtOrBefore(starts, position, starts.length - 1);
}
