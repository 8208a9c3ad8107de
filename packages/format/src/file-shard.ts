// File shards: the files of one path bucket with their occurrences (position to symbol), outline,
// problems and line lengths. Each file is its own record, decoded only when that file is asked for.
import { encodeRecord, encodeShard } from './codec.ts';
import { corrupt, PackedRecords, packEncoded, type EncodedRecord, type PackedRecordColumns } from './packed-records.ts';
import { LANGUAGES, type FileRecord } from './records.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { packInts, unpackInts, type DeltaBase } from './varint.ts';

/** What a writer builds: files sorted by path. */
export interface FileShardData {
  files: FileRecord[];
}

const OCC_BASES: DeltaBase[] = ['prev', 'none', 0, 1, 'none', 'none'];

type StoredFile = [
  lang: number, blob: string, bytes: number, lineLengths: Uint8Array, flags: number, syms: string, occ: Uint8Array,
  outline: FileRecord['outline'], problems: FileRecord['problems'], problemsOmitted: number,
];

interface StoredFileShard extends PackedRecordColumns {
  v: 2;
  paths: string[];
}

export function encodeFileShard(data: FileShardData): Uint8Array {
  return encodeFileShardOf(data.files.map((f) => ({ path: f.path, record: encodeFileRecord(f) })));
}

/** A file's record as its shard stores it. */
export function encodeFileRecord(f: FileRecord): Uint8Array {
  const stored: StoredFile = [
    LANGUAGES.indexOf(f.lang), f.blob, f.bytes, packInts(f.lineLengths, ['none']), f.flags, f.syms.join(''),
    packInts(f.occ, OCC_BASES), f.outline, f.problems, f.problemsOmitted,
  ];
  return encodeRecord(stored);
}

/** The file shard of records encoded by encodeFileRecord, sorted by path: encodeFileShard's bytes for the same files. */
export function encodeFileShardOf(files: readonly EncodedRecord[]): Uint8Array {
  const stored: StoredFileShard = { v: 2, ...packEncoded(files) };
  return encodeShard(stored);
}

export class FileShard {
  readonly paths: string[];
  private readonly name: string;
  private readonly packed: PackedRecords;

  constructor(name: string, value: unknown) {
    const stored = value as StoredFileShard;
    if (typeof stored !== 'object' || stored === null || stored.v !== 2 || !Array.isArray(stored.paths)
      || !(stored.lengths instanceof Uint8Array) || !(stored.records instanceof Uint8Array)) {
      throw corrupt(name, 'is not a version 2 file shard');
    }
    this.name = name;
    this.paths = stored.paths;
    this.packed = new PackedRecords(name, stored, stored.paths.length);
  }

  file(path: string): FileRecord | undefined {
    const index = this.paths.indexOf(path);
    return index < 0 ? undefined : this.record(index);
  }

  *files(): Generator<FileRecord> {
    for (let i = 0; i < this.paths.length; i++) yield this.record(i);
  }

  private record(index: number): FileRecord {
    const r = this.packed.get(index, 10) as StoredFile;
    if (typeof r[5] !== 'string' || r[5].length % KEY_LENGTH !== 0) throw corrupt(this.name, 'has a malformed record');
    // The columns are unpacked when first read: a preview needs the file's path only, and unpacking
    // the occurrences of a large file costs milliseconds on every call.
    const name = this.name;
    let lineLengths: Int32Array | undefined;
    let syms: string[] | undefined;
    let occ: Int32Array | undefined;
    return {
      path: this.paths[index]!,
      lang: LANGUAGES[r[0]]!,
      blob: r[1],
      bytes: r[2],
      get lineLengths() {
        return (lineLengths ??= unpackInts(r[3], ['none'], name));
      },
      flags: r[4],
      get syms() {
        return (syms ??= splitKeys(r[5]));
      },
      get occ() {
        return (occ ??= unpackInts(r[6], OCC_BASES, name));
      },
      outline: r[7],
      problems: r[8],
      problemsOmitted: r[9],
    };
  }
}

function splitKeys(joined: string): string[] {
  const keys: string[] = [];
  for (let at = 0; at < joined.length; at += KEY_LENGTH) keys.push(joined.slice(at, at + KEY_LENGTH));
  return keys;
}
