// IndexReader: the only path from stored bytes to records. It must verify each shard against the
// manifest before decoding it (a wrong or missing shard is INDEX_CORRUPT naming that shard, never a
// wrong answer), read only the shards a question needs, and share decoded shards through the cache
// by content hash.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { encodeShard, FORMAT_VERSION, MANIFEST_DIGEST_FILE, MANIFEST_FILE, manifestDigestLine, NAMES_SHARD, SextantError, sha256Hex, type Manifest } from '@sextant/format';
import { IndexReader, searchSymbols, ShardCache, gotoDefinition } from '../src/index.ts';
import { DirShardSource } from '../src/node/index.ts';
import { buildMemoryIndex, MemoryShardSource, shopSpec } from './support/memory-index.ts';

const index = buildMemoryIndex(shopSpec());

function sourceWith(shards: Map<string, Uint8Array>, manifest: Manifest = index.manifest): MemoryShardSource {
  return new MemoryShardSource(JSON.stringify(manifest), shards, 'memory://tampered');
}

/** The same index written to a directory, as `indexer build` writes one, read by DirShardSource. */
function directoryWith(shards: Map<string, Uint8Array>, manifest: Manifest = index.manifest): DirShardSource {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-dir-source-'));
  const text = JSON.stringify(manifest);
  writeFileSync(join(dir, MANIFEST_FILE), text);
  writeFileSync(join(dir, MANIFEST_DIGEST_FILE), manifestDigestLine(text));
  for (const [name, bytes] of shards) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return new DirShardSource(dir);
}

async function failure(run: () => Promise<unknown>): Promise<SextantError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SextantError);
  return error as SextantError;
}

describe('IndexReader', () => {
  it('opens the manifest: repo, commit, layout', async () => {
    const reader = await IndexReader.open(MemoryShardSource.of(index), new ShardCache(1 << 20));
    expect(reader.repo).toBe('acme/shop');
    expect(reader.commit).toBe(index.manifest.commit);
    expect(reader.manifest.layout).toEqual({ symbolBucketBits: 2, fileBucketBits: 1, changeBucketBits: 2, unresolvedBucketBits: 1, graphBucketBits: 0, gramBucketBits: 1 });
  });

  it('passes manifest errors through: another format version is INDEX_VERSION_UNSUPPORTED', async () => {
    const source = sourceWith(index.shards, { ...index.manifest, formatVersion: FORMAT_VERSION + 1 });
    expect((await failure(() => IndexReader.open(source, new ShardCache(1 << 20)))).code).toBe('INDEX_VERSION_UNSUPPORTED');
  });

  it('reads only the shards a question needs', async () => {
    const source = MemoryShardSource.of(index);
    const reader = await IndexReader.open(source, new ShardCache(1 << 20));
    await searchSymbols(reader, { query: 'Order' });
    expect(source.reads).toEqual([NAMES_SHARD]);
    await gotoDefinition(reader, { symbolId: (await searchSymbols(reader, { query: 'ImageCache', matchMode: 'exact' })).results[0]!.symbolId });
    // One symbol shard of the four, and nothing else: the record carries its declaration's preview,
    // so a cold definition by symbolId is the manifest, then one shard.
    expect(source.reads.slice(1)).toEqual([reader.symbolShardNameOf(index.keys.get('ImageCache')!)]);
  });

  it('decodes each shard once per cache: a second reader over the same cache fetches nothing', async () => {
    const cache = new ShardCache(1 << 20);
    const first = MemoryShardSource.of(index);
    await searchSymbols(await IndexReader.open(first, cache), { query: 'Order' });
    const second = MemoryShardSource.of(index);
    const reader = await IndexReader.open(second, cache);
    await searchSymbols(reader, { query: 'Image' });
    expect(second.reads).toEqual([]);
    expect(reader.shardsRead).toEqual([NAMES_SHARD]);
    expect(cache.hits).toBeGreaterThanOrEqual(1);
  });

  it('returns undefined for a shard its layout does not imply and an unknown key', async () => {
    const reader = await IndexReader.open(MemoryShardSource.of(index), new ShardCache(1 << 20));
    expect(await reader.shard('symbols/ffff')).toBeUndefined();
    expect(await reader.symbol('zzzzzzzzzzzzzzzz')).toBeUndefined();
    expect(await reader.file('src/nowhere.ts')).toBeUndefined();
  });

  // One contract for every source: the portable path (hashed and inflated in JavaScript) and an index
  // directory's (Node's native SHA-256 and zlib).
  describe.each([
    ['in memory', sourceWith],
    ['in a directory', directoryWith],
  ] as const)('refuses shards that are not the ones the manifest lists (%s)', (_label, make) => {
    const name = Object.keys(index.manifest.shards).find((n) => n.startsWith('symbols/'))!;
    const original = index.shards.get(name)!;

    async function refusal(bytes: Uint8Array | undefined): Promise<SextantError> {
      const shards = new Map(index.shards);
      if (bytes) shards.set(name, bytes);
      else shards.delete(name);
      const reader = await IndexReader.open(make(shards), new ShardCache(1 << 20));
      return failure(() => reader.shard(name));
    }

    it('one byte flipped, same length: INDEX_CORRUPT naming the shard and both checksums', async () => {
      const flipped = original.slice();
      flipped[flipped.length >> 1] ^= 0x01;
      const error = await refusal(flipped);
      expect(error.code).toBe('INDEX_CORRUPT');
      expect(error.message).toContain(name);
      expect(error.message).toContain(index.manifest.shards[name]!.sha256);
      expect(error.message).toMatch(/fails its checksum/);
      expect(error.data).toEqual({ shard: name });
      expect(error.hint).toMatch(/indexer build|Publish/);
    });

    it('another valid shard in its place (a mix-up, not noise): INDEX_CORRUPT', async () => {
      const error = await refusal(index.shards.get(NAMES_SHARD)!);
      expect(error.code).toBe('INDEX_CORRUPT');
      expect(error.data).toEqual({ shard: name });
    });

    it('truncated: INDEX_CORRUPT reporting the sizes', async () => {
      const error = await refusal(original.slice(0, 10));
      expect(error.code).toBe('INDEX_CORRUPT');
      expect(error.message).toContain(`${index.manifest.shards[name]!.bytes} bytes`);
      expect(error.message).toContain('got 10 bytes');
    });

    it('missing from the store: INDEX_CORRUPT saying so', async () => {
      const error = await refusal(undefined);
      expect(error.code).toBe('INDEX_CORRUPT');
      expect(error.message).toContain(name);
      expect(error.message).toMatch(/missing/);
      expect(error.data).toEqual({ shard: name });
    });

    it('does not cache a refused shard: once the store is repaired, the same cache serves it', async () => {
      const cache = new ShardCache(1 << 20);
      const broken = new Map(index.shards);
      broken.set(name, original.slice(0, 10));
      await failure(async () => (await IndexReader.open(make(broken), cache)).shard(name));
      const repaired = await IndexReader.open(make(index.shards), cache);
      expect(await repaired.shard(name)).toBeDefined();
    });

    it('bytes matching their checksum but not decodable: INDEX_CORRUPT naming the shard', async () => {
      const garbage = new Uint8Array([0xff, 0xff, 0xff, 0xff]);
      const manifest: Manifest = { ...index.manifest, shards: { ...index.manifest.shards, [name]: { ...index.manifest.shards[name]!, sha256: sha256Hex(garbage), bytes: 4 } } };
      const shards = new Map(index.shards);
      shards.set(name, garbage);
      const reader = await IndexReader.open(make(shards, manifest), new ShardCache(1 << 20));
      const error = await failure(() => reader.shard(name));
      expect(error.code).toBe('INDEX_CORRUPT');
      expect(error.message).toContain(name);
      expect(error.message).toMatch(/cannot be (decoded|inflated)/);
    });

    it('a refused shard fails the question that needs it, not with a wrong answer', async () => {
      const nameShard = index.shards.get(NAMES_SHARD)!;
      const shards = new Map(index.shards);
      shards.set(NAMES_SHARD, encodeShard({ v: 1, name: ['Evil'] }));
      expect(shards.get(NAMES_SHARD)).not.toEqual(nameShard);
      const reader = await IndexReader.open(make(shards), new ShardCache(1 << 20));
      const error = await failure(() => searchSymbols(reader, { query: 'Order' }));
      expect(error.code).toBe('INDEX_CORRUPT');
      expect(error.data).toEqual({ shard: NAMES_SHARD });
    });
  });

  it('locates every symbol and file of the fixture through its bucket', async () => {
    const reader = await IndexReader.open(MemoryShardSource.of(index), new ShardCache(1 << 20));
    for (const [id, key] of index.keys) {
      const loaded = await reader.symbol(key);
      expect(loaded?.record.key, id).toBe(key);
    }
    for (const path of ['src/main.ts', 'src/orders/order-service.ts', 'test/order-service.test.ts']) {
      expect((await reader.file(path))?.path).toBe(path);
    }
  });
});

describe('IndexReader checks every shard it hands out against its manifest entry', () => {
  // Two symbol buckets that hold symbols, and a manifest that lists each one's entry under the other's name.
  const held = Object.keys(index.manifest.shards).filter((name) => name.startsWith('symbols/') && index.manifest.shards[name]!.records > 0);
  const [a, b] = [held[0]!, held[1]!];
  const swapped: Manifest = { ...index.manifest, shards: { ...index.manifest.shards, [a]: index.manifest.shards[b]!, [b]: index.manifest.shards[a]! } };
  const swappedBytes = new Map(index.shards);
  swappedBytes.set(a, index.shards.get(b)!);
  swappedBytes.set(b, index.shards.get(a)!);

  it('refuses bytes listed under another bucket\'s name, even when they are decoded and cached already', async () => {
    expect(held.length).toBeGreaterThanOrEqual(2);
    const cache = new ShardCache(1 << 24);
    const honest = await IndexReader.open(MemoryShardSource.of(index), cache);
    await honest.prefetch([a, b]);
    const reader = await IndexReader.open(sourceWith(swappedBytes, swapped), cache);
    const error = await failure(() => reader.shard(a));
    expect(error).toMatchObject({ code: 'INDEX_CORRUPT', data: { shard: a } });
    expect(error.message).toMatch(/holds (records of another bucket|\d+ records, but the manifest says \d+)/);
    expect(reader.shardsFetched).toEqual([]); // the cached view was checked, not trusted
  });

  it('refuses a shard holding another number of records than its entry says', async () => {
    const entry = { ...index.manifest.shards[a]!, records: index.manifest.shards[a]!.records + 1 };
    // Counts moved between two entries, so the manifest's sums still agree.
    const other = { ...index.manifest.shards[b]!, records: index.manifest.shards[b]!.records - 1 };
    const reader = await IndexReader.open(sourceWith(index.shards, { ...index.manifest, shards: { ...index.manifest.shards, [a]: entry, [b]: other } }), new ShardCache(1 << 24));
    const error = await failure(() => reader.shard(a));
    expect(error.message).toContain(`Shard ${a} of memory://tampered holds ${entry.records - 1} records, but the manifest says ${entry.records}`);
  });
});
