// Records stored back to back in one byte array, their byte lengths packed beside them: how file and
// change shards keep each file apart, so a reader decodes only the one it is asked for. Columns of
// byte strings, one per record, stored the same way: how a symbol shard keeps each field of its
// symbols together (like fields compress together) and still reads one symbol's without decoding
// the others'. Also the INDEX_CORRUPT every shard view raises when its layout does not hold.
import { decodeRecord } from './codec.ts';
import { SextantError } from './errors.ts';
import { packInts, unpackInts } from './varint.ts';

/** The stored form: `lengths` as varints, `records` one MessagePack record after another. */
export interface PackedRecordColumns {
  lengths: Uint8Array;
  records: Uint8Array;
}

/**
 * One file's record of a file or change shard, encoded (a writer may encode each file as it is
 * done, keeping bytes rather than objects, and lay the shard out later).
 */
export interface EncodedRecord {
  path: string;
  record: Uint8Array;
}

/** A file or change shard's paths and columns, from its files' records (each encoded by encodeRecord), in order. */
export function packEncoded(files: readonly EncodedRecord[]): PackedRecordColumns & { paths: string[] } {
  const encoded = files.map((f) => f.record);
  const bytes = new Uint8Array(encoded.reduce((n, r) => n + r.byteLength, 0));
  let at = 0;
  for (const record of encoded) {
    bytes.set(record, at);
    at += record.byteLength;
  }
  return { paths: files.map((f) => f.path), lengths: packInts(encoded.map((r) => r.byteLength), ['none']), records: bytes };
}

export class PackedRecords {
  readonly count: number;
  private readonly starts: Uint32Array;
  private readonly bytes: Uint8Array;

  /** Checks the columns against each other and against `count`; `shard` names the shard in errors. */
  constructor(private readonly shard: string, columns: PackedRecordColumns, count: number) {
    const lengths = unpackInts(columns.lengths, ['none'], shard);
    if (lengths.length !== count) throw corrupt(shard, 'has columns of different lengths');
    this.count = count;
    this.starts = new Uint32Array(count + 1);
    for (let i = 0; i < count; i++) this.starts[i + 1] = this.starts[i]! + lengths[i]!;
    if (this.starts[count] !== columns.records.byteLength) throw corrupt(shard, 'has records of the wrong total length');
    this.bytes = columns.records;
  }

  /** Record `index`, decoded; an array of `fields` entries, or INDEX_CORRUPT. */
  get(index: number, fields: number): unknown[] {
    let record: unknown;
    try {
      record = decodeRecord(this.bytes.subarray(this.starts[index]!, this.starts[index + 1]!));
    } catch (error) {
      throw corrupt(this.shard, `has an undecodable record: ${(error as Error).message}`);
    }
    if (!Array.isArray(record) || record.length !== fields) throw corrupt(this.shard, 'has a malformed record');
    return record;
  }
}

/**
 * A column of optional byte strings or texts, one per record: `lengths` as varints of length + 1 (0:
 * absent), `bytes` the values back to back (texts as UTF-8).
 */
export interface StoredColumn {
  lengths: Uint8Array;
  bytes: Uint8Array;
}

const UTF8 = new TextEncoder();
// Fatal: bytes that are no UTF-8 are a corrupt shard, not text with replacement characters in it.
const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function packColumn(values: readonly (Uint8Array | string | null | undefined)[]): StoredColumn {
  const encoded = values.map((v) => (typeof v === 'string' ? UTF8.encode(v) : v ?? null));
  const bytes = new Uint8Array(encoded.reduce((n, v) => n + (v?.byteLength ?? 0), 0));
  let at = 0;
  for (const value of encoded) {
    if (!value) continue;
    bytes.set(value, at);
    at += value.byteLength;
  }
  return { lengths: packInts(encoded.map((v) => (v ? v.byteLength + 1 : 0)), ['none']), bytes };
}

/** A stored column read in place: one value's bytes are a view, one value's text decoded when asked. */
export class Column {
  private readonly starts: Uint32Array;
  private readonly present: Uint8Array;

  constructor(private readonly shard: string, private readonly stored: StoredColumn, count: number) {
    if (typeof stored !== 'object' || stored === null || !(stored.lengths instanceof Uint8Array) || !(stored.bytes instanceof Uint8Array)) {
      throw corrupt(shard, 'has a malformed column');
    }
    const lengths = unpackInts(stored.lengths, ['none'], shard);
    if (lengths.length !== count) throw corrupt(shard, 'has columns of different lengths');
    this.starts = new Uint32Array(count + 1);
    this.present = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const length = lengths[i]!;
      if (length < 0) throw corrupt(shard, 'has a malformed column');
      this.present[i] = length > 0 ? 1 : 0;
      this.starts[i + 1] = this.starts[i]! + Math.max(0, length - 1);
    }
    if (this.starts[count] !== stored.bytes.byteLength) throw corrupt(shard, 'has a column of the wrong total length');
  }

  bytes(index: number): Uint8Array | null {
    return this.present[index] ? this.stored.bytes.subarray(this.starts[index]!, this.starts[index + 1]!) : null;
  }

  text(index: number): string | null {
    const bytes = this.bytes(index);
    if (!bytes) return null;
    try {
      return UTF8_STRICT.decode(bytes);
    } catch {
      throw corrupt(this.shard, 'has a text that is not UTF-8');
    }
  }
}

export function corrupt(name: string, what: string): SextantError {
  return new SextantError('INDEX_CORRUPT', `Shard ${name} ${what}.`,
    'Rebuild the index for this commit with `indexer build` and publish it again.', { shard: name });
}
