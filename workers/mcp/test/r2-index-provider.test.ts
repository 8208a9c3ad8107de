// Commit and ref resolution of the R2 index provider, against a real local R2 (wrangler's
// getPlatformProxy), laid out as `indexer publish` lays it out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestKey, SextantError, shardKey, type Manifest } from '@sextant/format';
import { ShardCache } from '@sextant/query';
import { R2IndexProvider } from '../src/r2-index-provider.ts';
import { putCommit, putDefaultRef, putRef, startLocalR2, type LocalR2 } from './support/local-r2.ts';

const REPO = 'acme/widgets';
// A and B share the 7-digit prefix abcdef1; C is unique.
const A = 'abcdef1200000000000000000000000000000000';
const B = 'abcdef1900000000000000000000000000000000';
const C = 'c0ffee0000000000000000000000000000000000';
const MISSING = 'f'.repeat(40);

async function failure(promise: Promise<unknown>): Promise<SextantError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SextantError);
    return error as SextantError;
  }
  throw new Error('expected the call to fail');
}

describe('R2IndexProvider', () => {
  let r2: LocalR2;
  let manifestA: Manifest;
  const provider = (repo = REPO, cache = new ShardCache(1 << 20)) => new R2IndexProvider(r2.bucket, repo, { cache });

  beforeAll(async () => {
    r2 = await startLocalR2();
    manifestA = await putCommit(r2.bucket, REPO, A);
    await putCommit(r2.bucket, REPO, B);
    await putCommit(r2.bucket, REPO, C, { variant: 'C' });
    await putRef(r2.bucket, REPO, 'main', A);
    await putRef(r2.bucket, REPO, 'release/1.0', C);
    await putRef(r2.bucket, REPO, 'deadbeef', C); // a branch with a hex-looking name
    await putDefaultRef(r2.bucket, REPO, 'main');
    // Published by sha only: no refs, no repo.json.
    await putCommit(r2.bucket, 'acme/no-default', C);
    // A ref whose commit's manifest is gone.
    await putRef(r2.bucket, 'acme/dangling', 'main', MISSING);
    await putDefaultRef(r2.bucket, 'acme/dangling', 'main');
  });

  afterAll(async () => {
    await r2?.dispose();
  });

  it('answers from the default ref when no commit is named', async () => {
    const reader = await provider().open();
    expect(reader.commit).toBe(A);
    expect(reader.repo).toBe(REPO);
    expect(reader.manifest.shards).toEqual(manifestA.shards);
  });

  it.each([
    ['a ref', 'main', A],
    ['a fully qualified branch ref', 'refs/heads/main', A],
    ['a nested ref', 'release/1.0', C],
    ['a full sha', C, C],
    ['an uppercase full sha', C.toUpperCase(), C],
    ['a unique 7-digit prefix', C.slice(0, 7), C],
    ['a longer prefix that disambiguates', A.slice(0, 8), A],
    ['a hex-looking ref that abbreviates no commit', 'deadbeef', C],
  ])('resolves %s', async (_what, asked, expected) => {
    expect((await provider().open(asked)).commit).toBe(expected);
  });

  it('refuses an ambiguous prefix, listing the candidates', async () => {
    const error = await failure(provider().open('abcdef1'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(A);
    expect(error.message).toContain(B);
    expect(error.data?.candidates).toEqual([A, B]);
  });

  it('says COMMIT_NOT_INDEXED for an unknown sha, naming what is indexed and how to fix it', async () => {
    const error = await failure(provider().open(MISSING));
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain(MISSING);
    for (const known of [A, B, C, 'main', 'release/1.0']) expect(error.message).toContain(known);
    expect(error.hint).toContain('indexer build');
    expect(error.hint).toContain('indexer publish');
    expect(error.data).toMatchObject({ repo: REPO, requested: MISSING, indexedCommits: [A, B, C] });
  });

  it('says COMMIT_NOT_INDEXED for an unknown ref or unmatched prefix', async () => {
    const byRef = await failure(provider().open('develop'));
    expect(byRef.code).toBe('COMMIT_NOT_INDEXED');
    expect(byRef.message).toContain('ref "develop"');
    const byPrefix = await failure(provider().open('1234567'));
    expect(byPrefix.code).toBe('COMMIT_NOT_INDEXED');
    expect(byPrefix.message).toContain('"1234567"');
  });

  it('refuses what is neither a sha nor a valid ref name', async () => {
    const error = await failure(provider().open('main~1'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.hint).toContain('commit sha');
  });

  it('says REPO_NOT_FOUND for a repository with nothing published', async () => {
    const error = await failure(provider('acme/unknown').open());
    expect(error.code).toBe('REPO_NOT_FOUND');
    expect(error.hint).toContain('indexer publish --repo-name acme/unknown');
    expect((await failure(provider('acme/unknown').open(A))).code).toBe('REPO_NOT_FOUND');
  });

  it('explains a repository without a default ref', async () => {
    const error = await failure(provider('acme/no-default').open());
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain('no default ref');
    expect(error.message).toContain(C);
    expect(error.hint).toContain('--default');
    expect((await provider('acme/no-default').open(C.slice(0, 10))).commit).toBe(C);
  });

  it('explains a ref whose commit index is missing', async () => {
    const error = await failure(provider('acme/dangling').open());
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain(MISSING);
    expect(error.message).toContain('"main"');
  });

  it('finds a repository whatever the case of its name', async () => {
    expect((await provider('Acme/Widgets').open('main')).commit).toBe(A);
  });

  it('reads shards from R2 and shares decoded ones through the cache', async () => {
    const cache = new ShardCache(1 << 20);
    const names = await (await provider(REPO, cache).open('main')).names();
    expect(names.name).toContain('greet');
    expect(cache.misses).toBe(1);
    // B has the same content as A: its shards are the same objects and the same cache entries.
    await (await provider(REPO, cache).open(B)).names();
    expect(cache.hits).toBe(1);
  });

  it('calls a shard that fails its checksum INDEX_CORRUPT', async () => {
    const repo = 'acme/corrupt';
    const manifest = await putCommit(r2.bucket, repo, A, { variant: 'corrupt' });
    await r2.bucket.put(shardKey(manifest.shards.names!.sha256), new Uint8Array([1, 2, 3]));
    const reader = await provider(repo).open(A);
    const error = await failure(reader.names());
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('names');
  });

  it('refuses a manifest stored under another commit', async () => {
    const repo = 'acme/misplaced';
    await putCommit(r2.bucket, repo, A);
    await r2.bucket.put(manifestKey(repo, C), JSON.stringify({ ...manifestA, repo }));
    expect((await failure(provider(repo).open(C))).code).toBe('INDEX_CORRUPT');
  });
});
