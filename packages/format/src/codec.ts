// Shard bytes: MessagePack, then raw DEFLATE. Deterministic for equal input (msgpack writes keys in
// insertion order, fflate has no timestamps), so equal indexes are byte-identical.
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

/**
 * Compresses a shard's MessagePack bytes (a view to read at once, not to keep). Equal bytes must give
 * equal output: a writer may supply one that returns the bytes it already has for them (an
 * incremental build's previous shards), which are what deflateShard gives.
 */
export type ShardCompressor = (raw: Uint8Array) => Uint8Array;

export const deflateShard: ShardCompressor = (raw) => deflateSync(raw, { level: 6 });

let compress: ShardCompressor = deflateShard;

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

export function encodeShard(value: unknown): Uint8Array {
  return compress(ENCODER.encodeSharedRef(value));
}

/** Decodes a shard; `rawBytes` (its inflated size) is what a cache should charge for it. */
export function decodeShard<T>(name: string, bytes: Uint8Array): { value: T; rawBytes: number } {
  let raw: Uint8Array;
  try {
    raw = inflateSync(bytes);
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
