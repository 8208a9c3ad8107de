// `indexer gc` end to end over wrangler's local R2: commits no ref points to and shards no manifest
// uses are deleted; what refs point to, what is shared with them and what is too young stays;
// old refs go only when asked, never a default ref. Read back the way the worker reads.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestKey, shardKey, type Manifest } from '@sextant/format';
import { ShardCache } from '@sextant/query';
import { gcCommand } from '../../indexer/src/publish/gc-command.ts';
import type { ObjectStore } from '../../indexer/src/publish/object-store.ts';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { publishIndex } from '../../indexer/src/publish/publish-index.ts';
import { readIndexDirectory } from '../../indexer/src/publish/read-index.ts';
import { RefCache } from '../../workers/mcp/src/isolate-caches.ts';
import { R2IndexProvider } from '../../workers/mcp/src/r2-index-provider.ts';
import { writeTinyIndex } from './support/tiny-index.ts';
import { withLocalBucket, withLocalStore } from './support/wrangler-dev.ts';

const REPO = 'acme/retained';
const MAIN = 'a'.repeat(40);
const PULL = 'b'.repeat(40);
const LOOSE = 'c'.repeat(40);
const STALE = 'd'.repeat(40);
const TAGGED = 'e'.repeat(40);

describe('indexer gc', () => {
  let scratch: string;
  let persistDir: string;
  const manifests: Record<string, Manifest> = {};

  async function cli(run: typeof gcCommand, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run([...argv, '--local', '--persist-to', persistDir], { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const withStore = <T>(use: (store: ObjectStore) => Promise<T>) => withLocalStore(persistDir, use);

  async function keys(): Promise<Set<string>> {
    return withStore(async (store) => {
      const found = new Set<string>();
      for await (const object of store.list('')) found.add(object.key);
      return found;
    });
  }

  const shardsOf = (commit: string) => Object.values(manifests[commit]!.shards).map((entry) => shardKey(entry.sha256));
  /** The shards of `commit` that none of `others` has (the empty unresolved shard, for one, all of them share). */
  const onlyOf = (commit: string, others: string[]) => {
    const kept = new Set(others.flatMap(shardsOf));
    return shardsOf(commit).filter((key) => !kept.has(key));
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-gc-'));
    persistDir = join(scratch, 'state');
    // main and the pull request share their shards (same code); the loose and stale commits have their own.
    for (const [commit, variant] of [[MAIN, ''], [PULL, ''], [LOOSE, 'Loose'], [STALE, 'Stale'], [TAGGED, 'Tagged']] as const) {
      manifests[commit] = await writeTinyIndex(join(scratch, commit), { repo: REPO, commit, variant });
    }
    const publish = (...argv: string[]) => cli(publishCommand, ...argv);
    expect((await publish('--out', join(scratch, MAIN), '--ref', 'main')).code).toBe(0);
    expect((await publish('--out', join(scratch, PULL), '--ref', 'pull/7/head')).code).toBe(0);
    expect((await publish('--out', join(scratch, LOOSE))).code).toBe(0); // by sha only: no ref
    // Refs last published long ago: a merged pull request's, and a release tag's.
    await withStore(async (store) => {
      for (const [commit, ref] of [[STALE, 'pull/3/head'], [TAGGED, 'v0.1']] as const) {
        await publishIndex(store, await readIndexDirectory(join(scratch, commit)), { repo: REPO, ref, now: () => new Date('2020-01-01T00:00:00Z') });
      }
    });
  });

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('keeps everything uploaded within --min-age-hours (default 24), so a publish in progress is safe', async () => {
    const before = await keys();
    const result = await cli(gcCommand);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('deleted 0 refs, 0 commits and 0 shards');
    expect(await keys()).toEqual(before);
  });

  it('reports what it would delete with --dry-run, and deletes nothing', async () => {
    const before = await keys();
    const result = await cli(gcCommand, '--dry-run', '--min-age-hours', '0');
    expect(result.code).toBe(0);
    expect(result.out).toContain(`commit ${REPO}@${LOOSE}`);
    expect(result.out).toMatch(/would delete 0 refs, 1 commits and 7 shards/);
    expect(await keys()).toEqual(before);
  });

  it('deletes commits no ref points to and the shards only they used', async () => {
    const result = await cli(gcCommand, '--min-age-hours', '0');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/deleted 0 refs, 1 commits and 7 shards/);
    const left = await keys();
    expect(left.has(manifestKey(REPO, LOOSE))).toBe(false);
    expect(onlyOf(LOOSE, [MAIN, PULL, STALE, TAGGED])).toHaveLength(7);
    for (const key of onlyOf(LOOSE, [MAIN, PULL, STALE, TAGGED])) expect(left.has(key)).toBe(false);
    for (const commit of [MAIN, PULL, STALE]) {
      expect(left.has(manifestKey(REPO, commit))).toBe(true);
      for (const key of shardsOf(commit)) expect(left.has(key)).toBe(true);
    }
  });

  it('drops pull requests\' refs older than --drop-refs-older-than-days, then what only they kept; other refs only when named', async () => {
    const result = await cli(gcCommand, '--min-age-hours', '0', '--drop-refs-older-than-days', '30');
    expect(result.code).toBe(0);
    expect(result.out).toContain(`ref ${REPO}@pull/3/head`);
    expect(result.out).toMatch(/deleted 1 refs, 1 commits and 7 shards/);
    const left = await keys();
    for (const key of onlyOf(STALE, [MAIN, PULL, TAGGED])) expect(left.has(key)).toBe(false);
    for (const key of shardsOf(TAGGED)) expect(left.has(key)).toBe(true);
    const tags = await cli(gcCommand, '--dry-run', '--min-age-hours', '0', '--drop-refs-older-than-days', '30', '--refs', 'v*');
    expect(tags.out).toContain(`ref ${REPO}@v0.1`);
    expect(tags.out).toMatch(/would delete 1 refs, 1 commits and 7 shards/);

    // What is left reads as before; what was deleted is not indexed any more.
    await withLocalBucket(persistDir, async (bucket) => {
      const provider = new R2IndexProvider(bucket, { repo: REPO, cache: new ShardCache(1 << 20), refs: new RefCache() });
      for (const commit of [undefined, 'pull/7/head']) {
        const names = await (await provider.open({ commit })).names();
        expect(names.exactly(names.names, 'greet')).toHaveLength(1);
      }
      for (const gone of [LOOSE, STALE]) await expect(provider.open({ commit: gone })).rejects.toMatchObject({ code: 'COMMIT_NOT_INDEXED' });
      await expect(provider.open({ commit: 'pull/3/head' })).rejects.toMatchObject({ code: 'COMMIT_NOT_INDEXED' });
    });
  });

  it('explains bad options with exit code 2', async () => {
    const bad = await cli(gcCommand, '--min-age-hours', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('To fix this, pass e.g. --min-age-hours 24');
    expect((await cli(gcCommand, '--drop-refs-older-than-days', '0')).code).toBe(2);
    expect((await cli(gcCommand, '--refs', 'pull/**')).err).toContain('add --drop-refs-older-than-days');
  });
});
