// Records stored back to back in one byte array, their byte lengths packed beside them: how symbol
// and file shards keep each symbol or file apart, so a reader decodes only the one it is asked for.
// Also the INDEX_CORRUPT every shard view raises when its layout does not hold.
import { decodeRecord, encodeRecord } from './codec.ts';
import { SextantError } from './errors.ts';
import { packInts, unpackInts } from './varint.ts';

/** The stored form: `lengths` as varints, `records` one MessagePack record after another. */
export interface PackedRecordColumns {
  lengths: Uint8Array;
  records: Uint8Array;
}

export function packRecords(records: readonly unknown[]): PackedRecordColumns {
  const encoded = records.map((r) => encodeRecord(r));
  const bytes = new Uint8Array(encoded.reduce((n, r) => n + r.byteLength, 0));
  let at = 0;
  for (const record of encoded) {
    bytes.set(record, at);
    at += record.byteLength;
  }
  return { lengths: packInts(encoded.map((r) => r.byteLength), ['none']), records: bytes };
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

export function corrupt(name: string, what: string): SextantError {
  return new SextantError('INDEX_CORRUPT', `Shard ${name} ${what}.`,
    'Rebuild the index for this commit with `indexer build` and publish it again.', { shard: name });
}
