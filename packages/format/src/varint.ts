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

export function packInts(values: ArrayLike<number>, bases: readonly DeltaBase[]): Uint8Array {
  const stride = bases.length;
  if (values.length % stride !== 0) throw new Error(`packInts: ${values.length} values are not a multiple of stride ${stride}`);
  const out = new ByteSink(values.length + 8);
  for (let at = 0; at < values.length; at += stride) {
    for (let c = 0; c < stride; c++) {
      const base = bases[c]!;
      const value = values[at + c]!;
      if (!(value >= -0x80000000 && value <= 0x7fffffff) || value % 1 !== 0) throw new Error(`packInts: ${value} is not a 32-bit integer`);
      const relative = base === 'none' ? value : base === 'prev' ? value - (at === 0 ? 0 : values[at - stride + c]!) : value - values[at + base]!;
      out.varint(relative >= 0 ? relative * 2 : -relative * 2 - 1);
    }
  }
  return out.bytes();
}

/**
 * The inverse of packInts, as an Int32Array (every column Sextant stores fits 32 bits); `where`
 * names the shard for the INDEX_CORRUPT a truncated or out-of-range list raises.
 */
export function unpackInts(bytes: Uint8Array, bases: readonly DeltaBase[], where: string): Int32Array {
  const stride = bases.length;
  // -1: absolute, -2: relative to the previous entry, else the column it is relative to.
  const modes = new Int32Array(stride);
  for (let c = 0; c < stride; c++) modes[c] = bases[c] === 'none' ? -1 : bases[c] === 'prev' ? -2 : (bases[c] as number);
  // Every value takes at least one byte, so bytes.length bounds the count.
  const values = new Int32Array(bytes.length);
  const end = bytes.length;
  let pos = 0;
  let count = 0;
  let column = 0;
  while (pos < end) {
    let byte = bytes[pos++]!;
    let result = byte;
    if (byte >= 0x80) {
      result = byte & 0x7f;
      let scale = 128;
      do {
        if (pos >= end || scale > 2 ** 35) throw corrupt(where);
        byte = bytes[pos++]!;
        result += (byte & 0x7f) * scale;
        scale *= 128;
      } while (byte >= 0x80);
    }
    const relative = result % 2 === 0 ? result / 2 : -(result + 1) / 2;
    const mode = modes[column]!;
    const value = mode === -1 ? relative : mode === -2 ? (count < stride ? relative : relative + values[count - stride]!) : relative + values[count - column + mode]!;
    if (value > 0x7fffffff || value < -0x80000000) throw corrupt(where);
    values[count++] = value;
    column = column + 1 === stride ? 0 : column + 1;
  }
  if (column !== 0) throw corrupt(where);
  return values.subarray(0, count);
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
