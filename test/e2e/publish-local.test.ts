// `indexer publish --local` end to end: into a wrangler persistence directory, read back through
// the worker's R2 provider over a real local R2 binding (the bridge `indexer publish --local` uses, on the same directory).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '@sextant/format';
import { ShardCache } from '@sextant/query';
import { IoMeter } from '../../workers/mcp/src/io-meter.ts';
import { RefCache } from '../../workers/mcp/src/isolate-caches.ts';
import { R2IndexProvider } from '../../workers/mcp/src/r2-index-provider.ts';
import { buildIndexOf } from './support/servers.ts';
import { TINY_COMMIT, TINY_REPO, writeTinyIndex } from './support/tiny-index.ts';
import { publishLocal, withLocalBucket } from './support/wrangler-dev.ts';

const SECOND = '3333333333333333333333333333333333333333';

describe('indexer publish --local', () => {
  let scratch: string;
  let persistDir: string;

  const publish = (...argv: string[]) => publishLocal(persistDir, ...argv);

  /** Reads the published state the way the worker does. */
  async function withProvider<T>(repo: string, run: (provider: R2IndexProvider, meter: IoMeter) => Promise<T>): Promise<T> {
    return withLocalBucket(persistDir, async (bucket) => {
      const meter = new IoMeter();
      return await run(new R2IndexProvider(bucket, { repo, cache: new ShardCache(1 << 20), refs: new RefCache(), meter }), meter);
    });
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-publish-'));
    persistDir = join(scratch, 'state');
    await writeTinyIndex(join(scratch, 'first'));
    await writeTinyIndex(join(scratch, 'second'), { commit: SECOND });
  });

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('publishes shards, manifest, ref and default ref, then skips shards already present', async () => {
    const first = await publish('--out', join(scratch, 'first'), '--ref', 'main');
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/uploading 9 shards/);
    expect(first.out).toMatch(/12 objects uploaded .*, 0 skipped/);
    expect(first.out).toContain('default ref main (set now)');

    // Same code at another commit: its shards are the same objects.
    const second = await publish('--out', join(scratch, 'second'), '--ref', 'next');
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/2 objects uploaded .*, 9 skipped/);
    expect(second.out).toContain('default ref main');

    await withProvider(TINY_REPO, async (provider) => {
      expect((await provider.open()).commit).toBe(TINY_COMMIT);
      expect((await provider.open({ commit: 'next' })).commit).toBe(SECOND);
      const names = await (await provider.open({ commit: SECOND })).names();
      expect(names.exactly(names.names, 'greet')).toHaveLength(1);
    });
  });

  it('moves the default ref only with --default', async () => {
    const result = await publish('--out', join(scratch, 'second'), '--ref', 'next', '--default');
    expect(result.code).toBe(0);
    expect(result.out).toContain('default ref next (set now)');
    await withProvider(TINY_REPO, async (provider) => expect((await provider.open()).commit).toBe(SECOND));
  });

  it('publishes under another name with --repo-name, rewriting the manifest\'s repo', async () => {
    const result = await publish('--out', join(scratch, 'first'), '--repo-name', 'other/name', '--ref', 'main');
    expect(result.code).toBe(0);
    await withProvider('other/name', async (provider) => expect((await provider.open()).repo).toBe('other/name'));
  });

  it('keeps repo.json on its default ref, so a call naming no commit is one read before the shards', async () => {
    await publish('--out', join(scratch, 'first'), '--repo-name', 'acme/moving', '--ref', 'main');
    const moved = await publish('--out', join(scratch, 'second'), '--repo-name', 'acme/moving', '--ref', 'main');
    expect(moved.code).toBe(0);
    expect(moved.out).toContain(`moving the default ref main of acme/moving to ${SECOND}`);
    await withProvider('acme/moving', async (provider, meter) => {
      const reader = await provider.open();
      expect(reader.commit).toBe(SECOND);
      expect(meter.r2Reads).toBe(1);
    });
  });

  it('uploads, for a commit that changes one file, only the shards whose bytes changed', async () => {
    // A repository large enough to spread over many shards (40 files, 640 symbols), indexed as
    // written and again with one function added to one file.
    const source = join(scratch, 'many-files');
    mkdirSync(join(source, 'src'), { recursive: true });
    for (let i = 0; i < 40; i++) {
      const uses = i > 0 ? `import { f${i - 1}_0 } from './m${i - 1}';\nexport const used${i} = f${i - 1}_0();\n` : '';
      const functions = Array.from({ length: 15 }, (_, j) => `export function f${i}_${j}(): number {\n  return ${j};\n}\n`).join('');
      writeFileSync(join(source, `src/m${i}.ts`), uses + functions);
    }
    const before = buildIndexOf(source, 'acme/many', join(scratch, 'before'));
    writeFileSync(join(source, 'src/m7.ts'), `${readFileSync(join(source, 'src/m7.ts'), 'utf8')}export function added(): number {\n  return 7;\n}\n`);
    const after = buildIndexOf(source, 'acme/many', join(scratch, 'after'));
    const shas = (index: string) => Object.values((JSON.parse(readFileSync(join(index, 'manifest.json'), 'utf8')) as Manifest).shards).map((s) => s.sha256);
    const old = new Set(shas(before.index));
    // Distinct objects: empty buckets are equal bytes, stored once.
    const changed = [...new Set(shas(after.index))].filter((sha) => !old.has(sha));
    // The file's text, file and change shards, the new symbol's shard, the names shard, the file table,
    // and the gram shard holding the grams the file gained (one here): a handful of many.
    expect(shas(after.index).length).toBeGreaterThan(10);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(7);

    expect((await publish('--out', before.index, '--ref', 'main')).code).toBe(0);
    const second = await publish('--out', after.index, '--ref', 'main');
    expect(second.code).toBe(0);
    expect(second.out).toContain(`uploading ${changed.length} shards`);
    expect(second.out).toContain(`${new Set(shas(after.index)).size - changed.length} already present`);
    await withProvider('acme/many', async (provider) => {
      const names = await (await provider.open()).names();
      expect(names.exactly(names.names, 'added')).toHaveLength(1);
    });
  });

  it('refuses an index whose shard disagrees with its manifest, naming the shard, before uploading anything', async () => {
    const dir = join(scratch, 'corrupt');
    await writeTinyIndex(dir, { repo: 'acme/corrupt' });
    await writeFile(join(dir, 'symbols/0000'), 'not the shard');
    const result = await publish('--out', dir, '--ref', 'main');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: Shard symbols\/0000 .* does not match the manifest.* To fix this, rebuild the index/);
    await withProvider('acme/corrupt', async (provider) => {
      await expect(provider.open()).rejects.toMatchObject({ code: 'REPO_NOT_FOUND' });
    });
  });

  it('refuses an index whose manifest differs from its manifest.sha256 (edited after the build), before uploading anything', async () => {
    const dir = join(scratch, 'edited');
    await writeTinyIndex(dir, { repo: 'acme/edited' });
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify({ ...manifest, commit: SECOND }, null, 2)}\n`);
    const result = await publish('--out', dir, '--ref', 'main');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^error: The manifest at .*manifest\.json has sha256 [0-9a-f]{64}, but .*manifest\.sha256 records [0-9a-f]{64}: it was changed after it was written\. To fix this, rebuild the index/);
    await withProvider('acme/edited', async (provider) => {
      await expect(provider.open()).rejects.toMatchObject({ code: 'REPO_NOT_FOUND' });
    });
  });

  it('explains usage mistakes with exit code 2', async () => {
    const noRef = await publish('--out', join(scratch, 'first'), '--default');
    expect(noRef.code).toBe(2);
    expect(noRef.err).toContain('To fix this, pass --ref');
    const badName = await publish('--out', join(scratch, 'first'), '--repo-name', '../etc');
    expect(badName.code).toBe(1);
    expect(badName.err).toMatch(/^error: .* To fix this, name the repository as owner\/name/);
    const missing = await publish('--out', join(scratch, 'nothing-here'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('To fix this, build one with `indexer build');
  });
});
