// A damaged shard object in R2 is repaired by publishing its commit again: `indexer publish` skips
// an object only when the sha256 R2 reports for it is its name, and `indexer publish --verify`
// reads every object back. Damage is a flipped byte, so the size still matches (the check that
// publish used to trust); the reader is the worker's R2 provider over the same local R2.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardKey, type Manifest, type R2BucketLike } from '@sextant/format';
import { ShardCache } from '@sextant/query';
import { RefCache } from '../../workers/mcp/src/isolate-caches.ts';
import { R2IndexProvider } from '../../workers/mcp/src/r2-index-provider.ts';
import { buildTinyIndex, writeTinyIndex } from './support/tiny-index.ts';
import { publishLocal, withLocalBucket } from './support/wrangler-dev.ts';

describe('repairing a corrupt shard object by publishing again', () => {
  let scratch: string;
  let persistDir: string;

  const publish = (...argv: string[]) => publishLocal(persistDir, ...argv);

  const withBucket = <T>(use: (bucket: R2BucketLike) => Promise<T>): Promise<T> => withLocalBucket(persistDir, use);

  /** What the worker answers for the repository's names shard: the error code, or 'ok'. */
  const readNames = (repo: string, variant: string) => withBucket(async (bucket) => {
    const provider = new R2IndexProvider(bucket, { repo, cache: new ShardCache(1 << 20), refs: new RefCache() });
    try {
      const names = await (await provider.open()).names();
      return names.exactly(names.names, `greet${variant}`).length === 1 ? 'ok' : 'no greet';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  });

  const flip = (bytes: Uint8Array) => {
    const copy = new Uint8Array(bytes);
    copy[copy.length >> 1]! ^= 0x01;
    return copy;
  };

  async function published(repo: string, variant: string): Promise<{ dir: string; manifest: Manifest }> {
    const dir = join(scratch, variant);
    const manifest = await writeTinyIndex(dir, { repo, variant });
    const first = await publish('--out', dir, '--ref', 'main');
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(await readNames(repo, variant)).toBe('ok');
    return { dir, manifest };
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-repair-'));
    persistDir = join(scratch, 'state');
  });

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('uploads again an object whose bytes were replaced with a byte flipped, as a put without a checksum leaves it', async () => {
    const repo = 'acme/flipped';
    const { dir, manifest } = await published(repo, 'Flipped');
    const key = shardKey(manifest.shards.names!.sha256);
    await withBucket(async (bucket) => {
      const stored = new Uint8Array(await (await bucket.get(key))!.arrayBuffer());
      await bucket.put(key, flip(stored));
    });
    expect(await readNames(repo, 'Flipped')).toBe('INDEX_CORRUPT');

    const again = await publish('--out', dir, '--ref', 'main');
    expect(again.err).toBe('');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/uploading 1 shards .*; 8 already present/);
    expect(await readNames(repo, 'Flipped')).toBe('ok');
  });

  it('re-reads every object with --verify and uploads again the ones that do not hash to their name, even when R2\'s checksum says they do', async () => {
    const repo = 'acme/rotten';
    const { dir } = await published(repo, 'Rotten');
    // A byte flipped in the local R2's blob file, behind R2's back: its recorded sha256 still
    // matches the name, so only reading the bytes tells.
    const names = buildTinyIndex({ repo, variant: 'Rotten' }).shards.get('names')!;
    const blobs = join(persistDir, 'v3', 'r2', 'sextant-index', 'blobs');
    const blob = readdirSync(blobs).map((name) => join(blobs, name)).find((file) => Buffer.from(names).equals(readFileSync(file)));
    expect(blob).toBeDefined();
    writeFileSync(blob!, flip(names));
    expect(await readNames(repo, 'Rotten')).toBe('INDEX_CORRUPT');

    const verified = await publish('--out', dir, '--ref', 'main', '--verify');
    expect(verified.err).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.out).toContain('verified 9 shards: 1 repaired, 0 missing');
    expect(await readNames(repo, 'Rotten')).toBe('ok');
    // Nothing left to repair.
    expect((await publish('--out', dir, '--ref', 'main', '--verify')).out).toContain('verified 9 shards: 0 repaired, 0 missing');
  });
});
