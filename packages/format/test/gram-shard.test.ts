// The text index's grams and gram shards: case-folded byte trigrams (and those with a capital as they
// are), posting lists with the follow masks of their files that survive encoding, buckets by gram,
// and the manifest check that tells one bucket's shard from another's.
import { describe, expect, it } from 'vitest';
import { decodeShard } from '../src/codec.ts';
import { caseGramOf, collectGrams, encodeGramShard, EXACT_GRAM, followBit, gramBucketOf, gramOf, GramShard, gramShardsOf, gramsOfBytes, postingOf, postingOrdinal, regrammed } from '../src/gram-shard.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const gram = (text: string) => gramOf(...([...bytes(text)] as [number, number, number]));
const exact = (text: string) => caseGramOf(...([...bytes(text)] as [number, number, number]));
const open = (data: Parameters<typeof encodeGramShard>[0]) => new GramShard('grams/0000', decodeShard('grams/0000', encodeGramShard(data)).value);

describe('grams', () => {
  it('are the distinct byte trigrams of a text with ASCII letters folded, and those with a capital as they are, ascending', () => {
    expect([...gramsOfBytes(bytes('AbCabc')).keys()].sort((a, b) => a - b)).toEqual([gram('abc'), gram('bca'), gram('cab'), exact('AbC'), exact('bCa'), exact('Cab')].sort((a, b) => a - b));
    expect(gram('ABC')).toBe(gram('abc'));
    // A case-sensitive lookup: exact with a capital, folded without one (whose files hold the bytes or capitalised forms).
    expect(exact('ABC')).toBe(EXACT_GRAM | (0x41 << 16) | (0x42 << 8) | 0x43);
    expect(exact('abc')).toBe(gram('abc'));
    expect(exact('a.c')).toBe(gram('a.c'));
    // Only ASCII folds: É and é differ in their UTF-8 bytes, and so do their grams.
    expect([...gramsOfBytes(bytes('Éa'))]).not.toEqual([...gramsOfBytes(bytes('éa'))]);
  });

  it('carry the bytes that follow them in the text, letters folded, as a follow mask (none after the last)', () => {
    const follows = gramsOfBytes(bytes('abcd abcX abc'));
    expect(follows.get(gram('abc'))).toBe(followBit(0x64) | followBit(0x78) | 0);
    expect(followBit(0x58)).toBe(followBit(0x78));
    expect(follows.get(gram('bcX'))).toBe(followBit(0x20));
    // The exact gram of bytes with a capital carries its follower too.
    expect(gramsOfBytes(bytes('ABCd')).get(exact('ABC'))).toBe(followBit(0x64));
    expect(gramsOfBytes(bytes('abc')).get(gram('abc'))).toBe(0);
    // Eight bits, each taken by some byte.
    expect(new Set(Array.from({ length: 256 }, (_, byte) => followBit(byte))).size).toBe(8);
  });

  it('are none for a text shorter than a gram', () => {
    expect(gramsOfBytes(bytes('ab')).size).toBe(0);
  });
});

describe('gram shards', () => {
  it('give back each gram\'s posting list, those of files with every bit of a follow mask, and nothing for a gram they do not hold', () => {
    const f = (...files: number[]) => ({ postings: files.map((ordinal) => postingOf(ordinal, 0)) });
    const shard = open({ grams: [{ gram: gram('abc'), postings: [postingOf(0, 0b1), postingOf(4, 0b11), postingOf(9, 0b10)] }, { gram: gram('xyz'), ...f(2) }, { gram: gram('zzz'), ...f(1, 300000) }] });
    expect(shard.size).toBe(3);
    expect([...shard.files(gram('abc'))]).toEqual([0, 4, 9]);
    expect([...shard.files(gram('abc'), 0b1)]).toEqual([0, 4]);
    expect([...shard.files(gram('abc'), 0b11)]).toEqual([4]);
    expect([...shard.files(gram('abc'), 0b100)]).toEqual([]);
    expect([...shard.files(gram('xyz'))]).toEqual([2]);
    expect([...shard.files(gram('zzz'))]).toEqual([1, 300000]);
    expect([...shard.files(gram('qqq'))]).toEqual([]);
    expect([...shard.entries()].map(([g, postings]) => [g, [...postings]])).toEqual([
      [gram('abc'), [postingOf(0, 1), postingOf(4, 3), postingOf(9, 2)]], [gram('xyz'), [postingOf(2, 0)]], [gram('zzz'), [postingOf(1, 0), postingOf(300000, 0)]],
    ]);
    const mixed = open({ grams: [{ gram: gram('abc'), ...f(1) }, { gram: exact('ABC'), ...f(2, 5) }] });
    expect([...mixed.files(exact('ABC'))]).toEqual([2, 5]);
    expect(mixed.gramAt(1)).toBe(exact('ABC'));
    expect([...open({ grams: [] }).files(gram('abc'))]).toEqual([]);
  });

  it('bucket every gram of a commit by its hash, each posting list ascending', () => {
    const postings = collectGrams([{ ordinal: 0, text: 'const order = 1;' }, { ordinal: 3, text: 'order again' }, { ordinal: 7, text: 'ORDER' }]);
    const shards = gramShardsOf(postings, 2);
    expect(shards).toHaveLength(4);
    shards.forEach((data, bucket) => {
      for (const { gram: g, postings: list } of data.grams) {
        expect(gramBucketOf(g, 2)).toBe(bucket);
        expect(list).toEqual([...list].sort((a, b) => a - b));
      }
    });
    const all = new Map(shards.flatMap((s) => s.grams.map((g) => [g.gram, g] as const)));
    expect(all.get(gram('ord'))!.postings).toEqual([postingOf(0, followBit(0x65)), postingOf(3, followBit(0x65)), postingOf(7, followBit(0x45))]);
    expect(all.get(gram('ain'))!.postings.map(postingOrdinal)).toEqual([3]);
    expect(postings.postings).toBe(shards.reduce((n, s) => n + s.grams.reduce((m, g) => m + g.postings.length, 0), 0));
  });

  it('of a later commit, from an earlier one\'s moved and the changed files\' collected, equal collecting every text', () => {
    const before = ['a.ts:const order = 1;', 'b.md:Order ORDER', 'c.ts:order again', 'd.txt:gone soon', 'e.ts:unchanged Order'];
    const after = ['0.md:new file, order', 'a.ts:const order = 1;', 'b.md:Order ORDER', 'c.ts:edited: disorder', 'e.ts:unchanged Order'];
    const files = (list: string[]) => list.map((entry, ordinal) => ({ ordinal, path: entry.split(':')[0]!, text: entry.slice(entry.indexOf(':') + 1) }));
    const earlier = files(before);
    const now = files(after);
    const changed = new Set(['0.md', 'c.ts', 'd.txt']);
    const ordinalNow = (ordinal: number) => {
      const path = earlier[ordinal]!.path;
      return changed.has(path) ? -1 : now.findIndex((f) => f.path === path);
    };
    const shards = gramShardsOf(collectGrams(earlier), 2).map((data) => open(data));
    const moved = regrammed(shards.flatMap((shard) => [...shard.entries()]), ordinalNow, now.filter((f) => changed.has(f.path)));
    const whole = collectGrams(now);
    expect(moved.postings).toBe(whole.postings);
    expect(new Map([...moved.byGram].sort((x, y) => x[0] - y[0]))).toEqual(new Map([...whole.byGram].sort((x, y) => x[0] - y[0])));
    expect(gramShardsOf(moved, 2)).toEqual(gramShardsOf(whole, 2));
  });

  it('refuse bytes that are not a gram shard as INDEX_CORRUPT naming the shard', () => {
    const corrupt = expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining('grams/0001') });
    expect(() => new GramShard('grams/0001', { v: 2, grams: 'x' })).toThrow(corrupt);
    const u32 = (...values: number[]) => new Uint8Array(Uint32Array.from(values).buffer);
    // A version 3 shard (format 18) has no follow masks.
    expect(() => new GramShard('grams/0001', { v: 3, grams: u32(1), ends: u32(1), postings: new Uint8Array(1) })).toThrow(corrupt);
    expect(() => new GramShard('grams/0001', { v: 4, grams: u32(1, 2), ends: u32(1), postings: new Uint8Array(1) })).toThrow(corrupt);
    expect(() => new GramShard('grams/0001', { v: 4, grams: u32(1, 2), ends: u32(1, 3), postings: new Uint8Array(2) })).toThrow(corrupt);
    // Nothing is decoded when a shard is opened: a list that ends before it starts, or a posting
    // without its mask or with a varint running off its list, is found when looked up.
    const misplaced = new GramShard('grams/0001', { v: 4, grams: u32(1, 2), ends: u32(2, 1), postings: new Uint8Array(1) });
    expect(() => misplaced.files(2)).toThrow(corrupt);
    expect(() => new GramShard('grams/0001', { v: 4, grams: u32(1), ends: u32(1), postings: Uint8Array.of(5) }).files(1)).toThrow(corrupt);
    expect(() => new GramShard('grams/0001', { v: 4, grams: u32(1), ends: u32(2), postings: Uint8Array.of(0x85, 0x85) }).files(1)).toThrow(corrupt);
  });
});
