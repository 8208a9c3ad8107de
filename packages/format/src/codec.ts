// Shard bytes: MessagePack, then raw DEFLATE. Deterministic for equal input (msgpack writes keys in
// insertion order, fflate has no timestamps), so equal indexes are byte-identical. Text shards are
// DEFLATE's stored blocks (no compression): a broad search reads every text of the commit, and
// inflating effect's 16 MB was the largest single cost of a cold worker call (37 ms of 184); a
// reader copies stored blocks out without inflating (storedPayload), and any DEFLATE reader still
// reads them.
import { Decoder, Encoder } from '@msgpack/msgpack';
import { deflateSync, inflateSync } from 'fflate';
import { SextantError } from './errors.ts';

// One encoder and one decoder per isolate: msgpack's encode() and decode() build a new one (and a
// 2 KB buffer) per call, which for records encoded and decoded one at a time is most of the cost.
const ENCODER = new Encoder({ ignoreUndefined: true });
const DECODER = new Decoder();

/** MessagePack bytes of one record (a copy, safe to keep). */
export function encodeRecord(value: unknown): Uint8Array {
  return ENCODER.encode(value);
}

/** A record from its MessagePack bytes; throws the decoder's own error on bad bytes. */
export function decodeRecord(bytes: Uint8Array): unknown {
  return DECODER.decode(bytes);
}

/** How a shard's MessagePack bytes are packed in DEFLATE: compressed, or stored as they are. */
export type ShardPacking = 'deflated' | 'stored';

/**
 * Packs a shard's MessagePack bytes (a view to read at once, not to keep). Equal bytes and packing
 * must give equal output: a writer may supply one that returns the bytes it already has for them (an
 * incremental build's previous shards), which are what packShard gives.
 */
export type ShardCompressor = (raw: Uint8Array, packing: ShardPacking) => Uint8Array;

export const packShard: ShardCompressor = (raw, packing) => (packing === 'stored' ? storeBlocks(raw) : deflateSync(raw, { level: 6 }));

/** The largest stored block DEFLATE has (its LEN is 16 bits). */
const STORED_BLOCK = 0xffff;

/** Raw DEFLATE of stored blocks only: each a header byte (BFINAL, BTYPE 00), LEN and its complement, then LEN bytes. */
function storeBlocks(raw: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(raw.length / STORED_BLOCK));
  const out = new Uint8Array(raw.length + 5 * blocks);
  let at = 0;
  for (let block = 0; block < blocks; block++) {
    const from = block * STORED_BLOCK;
    const length = Math.min(STORED_BLOCK, raw.length - from);
    out[at] = block === blocks - 1 ? 1 : 0;
    out[at + 1] = length & 0xff;
    out[at + 2] = length >>> 8;
    out[at + 3] = ~length & 0xff;
    out[at + 4] = (~length >>> 8) & 0xff;
    out.set(raw.subarray(from, from + length), at + 5);
    at += 5 + length;
  }
  return out;
}

/**
 * How DEFLATE bytes are packed: 'stored' when they are exactly stored blocks up to a final one
 * (what storedPayload copies out), else 'deflated' (for an inflater to read, or refuse).
 */
export function packingOf(bytes: Uint8Array): ShardPacking {
  return storedLength(bytes) === undefined ? 'deflated' : 'stored';
}

/**
 * The bytes of raw DEFLATE made of stored blocks only, copied out without inflating; undefined when
 * the stream holds a compressed block or is not exactly such blocks up to its final one (an
 * inflater decides then).
 */
export function storedPayload(bytes: Uint8Array): Uint8Array | undefined {
  const length = storedLength(bytes);
  if (length === undefined) return undefined;
  const out = new Uint8Array(length);
  for (let from = 0, to = 0; from < bytes.length;) {
    const size = bytes[from + 1]! | (bytes[from + 2]! << 8);
    out.set(bytes.subarray(from + 5, from + 5 + size), to);
    to += size;
    from += 5 + size;
  }
  return out;
}

/** The payload's length when the bytes are stored blocks only, each LEN with its complement, the last final and ending them. */
function storedLength(bytes: Uint8Array): number | undefined {
  let length = 0;
  let at = 0;
  for (let final = false; !final;) {
    if (at + 5 > bytes.length || bytes[at]! > 1) return undefined; // BTYPE 00, no padding bits set
    final = bytes[at] === 1;
    const size = bytes[at + 1]! | (bytes[at + 2]! << 8);
    if ((size ^ 0xffff) !== (bytes[at + 3]! | (bytes[at + 4]! << 8)) || at + 5 + size > bytes.length) return undefined;
    length += size;
    at += 5 + size;
  }
  return at === bytes.length ? length : undefined;
}

let compress: ShardCompressor = packShard;

/** Runs `encode` (synchronous: the shard writer's layout) with `compressor` compressing every shard it encodes. */
export function withShardCompressor<T>(compressor: ShardCompressor, encode: () => T): T {
  const before = compress;
  compress = compressor;
  try {
    return encode();
  } finally {
    compress = before;
  }
}

export function encodeShard(value: unknown, packing: ShardPacking = 'deflated'): Uint8Array {
  return compress(ENCODER.encodeSharedRef(value), packing);
}

/** Decodes a shard; `rawBytes` (its inflated size) is what a cache should charge for it. */
export function decodeShard<T>(name: string, bytes: Uint8Array): { value: T; rawBytes: number } {
  let raw: Uint8Array;
  try {
    raw = storedPayload(bytes) ?? inflateSync(bytes);
  } catch (error) {
    throw undecodable(name, error);
  }
  return { value: decodeInflatedShard<T>(name, raw), rawBytes: raw.byteLength };
}

/** Decodes a shard's inflated bytes, for readers that inflate with platform code (the worker). */
export function decodeInflatedShard<T>(name: string, raw: Uint8Array): T {
  try {
    return DECODER.decode(raw) as T;
  } catch (error) {
    throw undecodable(name, error);
  }
}

function undecodable(name: string, error: unknown): SextantError {
  return new SextantError(
    'INDEX_CORRUPT',
    `Shard ${name} cannot be decoded: ${(error as Error).message}`,
    'Rebuild the index for this commit with `indexer build` and publish it again.',
    { shard: name },
  );
}
