// Integer lists as bytes: LEB128 varints of zigzag-encoded values, with chosen columns stored as the
// difference to the previous entry or to another column of the same entry. Sorted positions become
// runs of one-byte deltas, which is what makes reference lists small after DEFLATE and cheap to
// decode one symbol at a time.
import { SextantError } from './errors.ts';

/**
 * Per column of a strided list, what its stored value is relative to: 'prev' (the same column of the
 * previous entry), a column index of the same entry (lower than this one), or 'none' (absolute).
 */
export type DeltaBase = 'prev' | 'none' | number;

export function packInts(values: readonly number[], bases: readonly DeltaBase[]): Uint8Array {
  const stride = bases.length;
  if (values.length % stride !== 0) throw new Error(`packInts: ${values.length} values are not a multiple of stride ${stride}`);
  const out = new ByteSink(values.length + 8);
  for (let at = 0; at < values.length; at += stride) {
    for (let c = 0; c < stride; c++) {
      const base = bases[c]!;
      const value = values[at + c]!;
      const relative = base === 'none' ? value : base === 'prev' ? value - (at === 0 ? 0 : values[at - stride + c]!) : value - values[at + base]!;
      out.varint(relative >= 0 ? relative * 2 : -relative * 2 - 1);
    }
  }
  return out.bytes();
}

/** The inverse of packInts; `where` names the shard for the INDEX_CORRUPT a truncated list raises. */
export function unpackInts(bytes: Uint8Array, bases: readonly DeltaBase[], where: string): number[] {
  const stride = bases.length;
  const values: number[] = [];
  let pos = 0;
  let column = 0;
  while (pos < bytes.length) {
    let result = 0;
    let scale = 1;
    let byte: number;
    do {
      if (pos >= bytes.length || scale > 2 ** 49) throw corrupt(where);
      byte = bytes[pos++]!;
      result += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    const relative = result % 2 === 0 ? result / 2 : -(result + 1) / 2;
    const base = bases[column]!;
    const at = values.length;
    values.push(base === 'none' ? relative : base === 'prev' ? relative + (at < stride ? 0 : values[at - stride]!) : relative + values[at - column + base]!);
    column = column + 1 === stride ? 0 : column + 1;
  }
  if (column !== 0) throw corrupt(where);
  return values;
}

function corrupt(where: string): SextantError {
  return new SextantError('INDEX_CORRUPT', `Shard ${where} holds a truncated integer list.`,
    'Rebuild the index for this commit with `indexer build` and publish it again.', { shard: where });
}

/** A growable byte buffer for varints. */
class ByteSink {
  private buffer: Uint8Array;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = new Uint8Array(capacity);
  }

  varint(value: number): void {
    if (this.length + 8 > this.buffer.length) {
      const bigger = new Uint8Array(this.buffer.length * 2 + 16);
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
    }
    // Division, not bit shifts: values may exceed 2^31 (zigzag of large positions).
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    this.buffer[this.length++] = value;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
