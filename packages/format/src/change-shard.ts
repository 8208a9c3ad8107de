// Change shards: for the files of one path bucket, what comparing them across two commits needs
// (ChangeRecord: declarations with their fingerprints, unresolved identifiers), apart from the file
// records and texts. A file record carries every occurrence and the outline; a change record is a
// small fraction of it, so diff_symbols reads only the file table, these and the texts of the changed
// files (their line diff). Each file is its own record, decoded when asked for.
import { encodeRecord, encodeShard } from './codec.ts';
import { corrupt, PackedRecords, packEncoded, type EncodedRecord, type PackedRecordColumns } from './packed-records.ts';
import { SYMBOL_KINDS, type ChangeRecord, type DeclRecord, type ReexportRecord } from './records.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { packInts, unpackInts, type DeltaBase } from './varint.ts';

const UNRESOLVED_BASES: DeltaBase[] = ['prev', 'none', 0, 1, 'none'];

/** A DeclRecord as stored: a tuple, the kind as an index into SYMBOL_KINDS. */
type StoredDecl = [
  key: string, name: string, kind: number, qname: string, mods: number, signature: string | null, container: number,
  at: DeclRecord['at'], range: DeclRecord['range'], body: string, doc: string, sig?: string,
];

/** A ReexportRecord as stored, the kind as an index into SYMBOL_KINDS. */
type StoredReexport = [name: string, key: string, kind: number, qname: string, at: ReexportRecord['at']];

/** decls, unresolved (null: not recorded), re-exports. */
type StoredChange = [decls: StoredDecl[], unresolved: Uint8Array | null, reexports: StoredReexport[]];

interface StoredChangeShard extends PackedRecordColumns {
  v: 2;
  paths: string[];
}

/** What a writer builds: the bucket's files in path order. */
export interface ChangeShardData {
  files: ChangeRecord[];
}

export function encodeChangeShard(data: ChangeShardData): Uint8Array {
  return encodeChangeShardOf(data.files.map((f) => ({ path: f.path, record: encodeChangeRecord(f) })));
}

/** A file's change record as its shard stores it. */
export function encodeChangeRecord(f: ChangeRecord): Uint8Array {
  const stored: StoredChange = [
    f.decls.map((d): StoredDecl => {
      const decl: StoredDecl = [d.key, d.name, SYMBOL_KINDS.indexOf(d.kind), d.qname, d.mods, d.signature ?? null, d.container, d.at, d.range, d.body, d.doc];
      if (d.sig !== undefined) decl.push(d.sig);
      return decl;
    }),
    f.unresolved === null ? null : packInts(f.unresolved, UNRESOLVED_BASES),
    f.reexports.map((r): StoredReexport => [r.name, r.key, SYMBOL_KINDS.indexOf(r.kind), r.qname, r.at]),
  ];
  return encodeRecord(stored);
}

/** The change shard of records encoded by encodeChangeRecord, sorted by path: encodeChangeShard's bytes for the same files. */
export function encodeChangeShardOf(files: readonly EncodedRecord[]): Uint8Array {
  const stored: StoredChangeShard = { v: 2, ...packEncoded(files) };
  return encodeShard(stored);
}

export class ChangeShard {
  readonly paths: string[];
  private readonly name: string;
  private readonly packed: PackedRecords;

  constructor(name: string, value: unknown) {
    const stored = value as StoredChangeShard;
    if (typeof stored !== 'object' || stored === null || stored.v !== 2 || !Array.isArray(stored.paths)
      || !(stored.lengths instanceof Uint8Array) || !(stored.records instanceof Uint8Array)) {
      throw corrupt(name, 'is not a version 2 change shard');
    }
    this.name = name;
    this.paths = stored.paths;
    this.packed = new PackedRecords(name, stored, stored.paths.length);
  }

  file(path: string): ChangeRecord | undefined {
    const index = this.paths.indexOf(path);
    return index < 0 ? undefined : this.record(index);
  }

  *files(): Generator<ChangeRecord> {
    for (let i = 0; i < this.paths.length; i++) yield this.record(i);
  }

  private record(index: number): ChangeRecord {
    const [decls, unresolved, reexports] = this.packed.get(index, 3) as StoredChange;
    if (!Array.isArray(decls) || (unresolved !== null && !(unresolved instanceof Uint8Array)) || !Array.isArray(reexports)) throw corrupt(this.name, 'has a malformed record');
    const name = this.name;
    let declList: DeclRecord[] | undefined;
    let unresolvedList: Int32Array | null | undefined;
    let reexportList: ReexportRecord[] | undefined;
    return {
      path: this.paths[index]!,
      get decls() {
        return (declList ??= decls.map((d) => declOf(d, name)));
      },
      get unresolved() {
        if (unresolvedList === undefined) unresolvedList = unresolved === null ? null : unpackInts(unresolved, UNRESOLVED_BASES, name);
        return unresolvedList;
      },
      get reexports() {
        return (reexportList ??= reexports.map((r) => reexportOf(r, name)));
      },
    };
  }
}

function declOf(d: StoredDecl, shard: string): DeclRecord {
  const kind = Array.isArray(d) && (d.length === 11 || (d.length === 12 && typeof d[11] === 'string')) ? SYMBOL_KINDS[d[2]] : undefined;
  if (!kind || typeof d[0] !== 'string' || d[0].length !== KEY_LENGTH) throw corrupt(shard, 'has a malformed declaration');
  return {
    key: d[0], name: d[1], kind, qname: d[3], mods: d[4], ...(d[5] !== null ? { signature: d[5] } : {}), container: d[6],
    at: d[7], range: d[8], body: d[9], doc: d[10], ...(d[11] !== undefined ? { sig: d[11] } : {}),
  };
}

function reexportOf(r: StoredReexport, shard: string): ReexportRecord {
  const kind = Array.isArray(r) && r.length === 5 ? SYMBOL_KINDS[r[2]] : undefined;
  if (!kind || typeof r[0] !== 'string' || typeof r[1] !== 'string' || r[1].length !== KEY_LENGTH) throw corrupt(shard, 'has a malformed re-export');
  return { name: r[0], key: r[1], kind, qname: r[3], at: r[4] };
}
