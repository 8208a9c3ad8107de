// The shard codec: MessagePack then raw DEFLATE. What readers rely on: a value comes back equal,
// equal values give identical bytes (content addressing and shard sharing between commits depend on
// it), `rawBytes` is the inflated size a cache charges, and bytes that are not a shard are
// INDEX_CORRUPT naming the shard, never a raw decoder exception.
import { describe, expect, it } from 'vitest';
import { encode } from '@msgpack/msgpack';
import { deflateSync, inflateSync } from 'fflate';
import { inflateRawSync } from 'node:zlib';
import { decodeShard, encodeShard, packShard, SextantError, sha256Hex, storedPayload, type FileShardData, type SymbolShardData } from '../src/index.ts';
import { thrown } from './support/thrown.ts';

function symbolShard(): SymbolShardData {
  return {
    paths: ['src/a.ts', 'src/ünïcødé/😀.ts'],
    pathFlags: [0, 1],
    peers: [{ key: '0123456789abcdef', name: 'caller', kind: 'function' }],
    symbols: [{
      key: '0123456789abcdeg', name: 'OrderService', kind: 'class', qname: 'OrderService', lang: 'typescript',
      path: 'src/a.ts', mods: 1 | 256, signature: 'class OrderService', doc: 'Line one.\nLine two — with a dash.',
      defs: [0, 1, 14, 1, 26],
      // -1 (module scope) and large positions must survive: msgpack has distinct int encodings for them.
      refs: [1, 70000, 3, 70000, 15, 1, -1, 0],
      graph: -1,
    }],
  };
}

function fileShard(): FileShardData {
  return {
    files: [{
      path: 'src/a.ts', lang: 'typescript', blob: 'f'.repeat(40), bytes: 120, lineLengths: [0, 40, 2 ** 20],
      flags: 0, syms: ['0123456789abcdeg'], occ: [1, 14, 1, 26, 0, 0],
      outline: [{ name: 'OrderService', kind: 'class', sym: 0, range: [1, 1, 9, 2], at: [1, 14], children: [] }],
      problems: [{ source: 'syntax', severity: 'error', message: "';' expected.", line: 2, column: 1, endLine: 2, endColumn: 2 }],
      problemsOmitted: 0,
    }],
  };
}

describe('encodeShard / decodeShard', () => {
  it('round-trips shard records, including unicode, negative and large numbers', () => {
    for (const value of [symbolShard(), fileShard(), { v: 1, empty: [], nested: { deep: [[1.5, -(2 ** 40)]] } }]) {
      expect(decodeShard('symbols/0000', encodeShard(value)).value).toEqual(value);
    }
  });

  it('gives identical bytes for the same value, and for an equal value built separately', () => {
    const once = encodeShard(symbolShard());
    expect(encodeShard(symbolShard())).toEqual(once);
    expect(sha256Hex(encodeShard(symbolShard()))).toBe(sha256Hex(once));
  });

  it('drops undefined fields, so an absent optional and an undefined one encode alike', () => {
    // The indexer spreads optional fields conditionally, but a reader-built value may carry
    // `doc: undefined`; both must address the same content.
    const base = fileShard();
    const withUndefined = { ...base, files: [{ ...base.files[0]!, extra: undefined }] };
    expect(encodeShard(withUndefined)).toEqual(encodeShard(base));
  });

  it('is deterministic per key order: writers must build records in one fixed order', () => {
    // msgpack keeps insertion order (no canonical sort), so reordered keys decode equal but are
    // different bytes. Pinned here so nobody assumes the codec canonicalizes objects.
    const a = { v: 1, x: 1, y: 2 };
    const b = { y: 2, x: 1, v: 1 };
    expect(decodeShard('names', encodeShard(b)).value).toEqual(decodeShard('names', encodeShard(a)).value);
    expect(encodeShard(b)).not.toEqual(encodeShard(a));
  });

  it('reports rawBytes as the inflated (MessagePack) size, which is what caches charge', () => {
    const value = symbolShard();
    const { rawBytes } = decodeShard('symbols/0000', encodeShard(value));
    expect(rawBytes).toBe(encode(value, { ignoreUndefined: true }).byteLength);
  });

  it('compresses: repetitive shards are much smaller than their MessagePack form', () => {
    const big = { v: 1, occ: Array.from({ length: 10_000 }, (_, i) => i % 7) };
    expect(encodeShard(big).byteLength).toBeLessThan(encode(big).byteLength / 4);
  });
});

describe('stored packing (text shards)', () => {
  const bytesOf = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
  // Buffer's comparison: toEqual walks large arrays element by element, seconds for these.
  const same = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.from(a).equals(Buffer.from(b));

  it.each([0, 1, 65_535, 65_536, 200_000])('%i bytes are stored blocks any DEFLATE reader reads, copied out without inflating', (length) => {
    const raw = bytesOf(length);
    const packed = packShard(raw, 'stored');
    expect(packed.byteLength).toBe(length + 5 * Math.max(1, Math.ceil(length / 65_535)));
    expect(same(storedPayload(packed), raw)).toBe(true);
    expect(same(inflateRawSync(packed), raw)).toBe(true);
    expect(same(inflateSync(packed), raw)).toBe(true);
  });

  it('round-trips a shard through decodeShard, which charges its MessagePack size', () => {
    const value = symbolShard();
    const { value: back, rawBytes } = decodeShard('texts/0001', encodeShard(value, 'stored'));
    expect(back).toEqual(value);
    expect(rawBytes).toBe(encode(value, { ignoreUndefined: true }).byteLength);
  });

  it('leaves compressed DEFLATE, and stored blocks that are not exactly a stream, to an inflater', () => {
    const raw = bytesOf(70_000);
    const stored = packShard(raw, 'stored');
    expect(storedPayload(packShard(raw, 'deflated'))).toBeUndefined();
    const badLength = stored.slice();
    badLength[3] ^= 1; // NLEN no longer LEN's complement
    const trailing = new Uint8Array([...stored, 0]);
    const truncated = stored.slice(0, stored.length - 1);
    const noFinal = stored.slice(0, 5 + 65_535); // the first block, not final
    for (const bytes of [badLength, trailing, truncated, noFinal]) expect(storedPayload(bytes)).toBeUndefined();
  });
});

describe('decodeShard on bytes that are not a shard', () => {
  const valid = encodeShard(symbolShard());
  const cases: [string, Uint8Array][] = [
    ['a reserved DEFLATE block type', new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])],
    ['no bytes at all', new Uint8Array(0)],
    ['a truncated shard', valid.slice(0, Math.floor(valid.byteLength / 2))],
    ['valid DEFLATE of text that is not MessagePack', deflateSync(new TextEncoder().encode('not msgpack at all'))],
    ['valid DEFLATE of MessagePack with trailing bytes', deflateSync(new Uint8Array([...encode({ v: 1 }), 0xc1]))],
    ['MessagePack that was never deflated', encode(symbolShard())],
  ];

  it.each(cases)('%s is INDEX_CORRUPT naming the shard, with a rebuild hint', (_label, bytes) => {
    const error = thrown(() => decodeShard('symbols/00a3', bytes));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('symbols/00a3');
    expect(error.data).toEqual({ shard: 'symbols/00a3' });
    expect(error.hint).toMatch(/indexer build/);
  });

  it('never throws anything but a SextantError, whatever the bytes (seeded fuzz)', () => {
    // Random bytes occasionally inflate and decode to *some* value: the codec only promises
    // "decodes or INDEX_CORRUPT"; shape checks are the checksum's job (IndexReader verifies it first).
    let seed = 0x5eed;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    for (let round = 0; round < 300; round++) {
      const bytes = Uint8Array.from({ length: 1 + (round % 64) }, next);
      try {
        decodeShard('files/0001', bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(SextantError);
        expect((error as SextantError).code).toBe('INDEX_CORRUPT');
      }
    }
  });
});
