// Commit and ref resolution of the R2 index provider, against a real local R2 (wrangler's
// getPlatformProxy), laid out as `indexer publish` lays it out: how many sequential reads each kind
// of request costs, how long a ref resolution is trusted, and every way of not finding an index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestKey, refKey, serializeRecord, SextantError, shardKey, type Manifest } from '@sextant/format';
import { SERVER_INSTRUCTIONS } from '@sextant/mcp';
import { ShardCache } from '@sextant/query';
import { IoMeter } from '../src/io-meter.ts';
import { RefCache, REF_TTL_MS } from '../src/isolate-caches.ts';
import { R2IndexProvider } from '../src/r2-index-provider.ts';
import { putCommit, putDefaultRef, putRef, refRecord, startLocalR2, type LocalR2 } from './support/local-r2.ts';

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
  let manifestC: Manifest;
  /** A provider with caches of its own, as a fresh isolate has. */
  const provider = (repo = REPO, cache = new ShardCache(1 << 20), meter = new IoMeter()) =>
    new R2IndexProvider(r2.bucket, { repo, cache, refs: new RefCache(), meter });
  const open = (commit?: string, repo = REPO) => provider(repo).open(commit === undefined ? {} : { commit });

  beforeAll(async () => {
    r2 = await startLocalR2();
    manifestA = await putCommit(r2.bucket, REPO, A);
    await putCommit(r2.bucket, REPO, B);
    manifestC = await putCommit(r2.bucket, REPO, C, { variant: 'C' });
    await putRef(r2.bucket, REPO, 'main', A, manifestA);
    await putRef(r2.bucket, REPO, 'release/1.0', C, manifestC);
    await putRef(r2.bucket, REPO, 'deadbeef', C, manifestC, false); // a branch with a hex-looking name, its record without the manifest's text
    await putDefaultRef(r2.bucket, REPO, 'main', refRecord(A, manifestA));
    // Published by sha only: no refs, no repo.json.
    await putCommit(r2.bucket, 'acme/no-default', C);
    // A ref whose commit's manifest is gone.
    await putRef(r2.bucket, 'acme/dangling', 'main', MISSING);
    await putDefaultRef(r2.bucket, 'acme/dangling', 'main');
    // Written by an older publisher: repo.json without head, refs without manifests.
    const legacy = await putCommit(r2.bucket, 'acme/legacy', A);
    await putRef(r2.bucket, 'acme/legacy', 'main', A, legacy, false);
    await putDefaultRef(r2.bucket, 'acme/legacy', 'main');
  });

  afterAll(async () => {
    await r2?.dispose();
  });

  it('answers from the default ref when no commit is named', async () => {
    const reader = await open();
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
    expect((await open(asked)).commit).toBe(expected);
  });

  it.each([
    ['the default ref (repo.json carries its commit and manifest)', undefined, 1],
    ['a ref (its record carries the manifest)', 'main', 1],
    ['a full sha', A, 1],
    ['a short sha (a list, then the manifest)', C.slice(0, 7), 2],
    ['a ref of an older publisher (then its manifest)', 'deadbeef', 3],
  ])('reads %s in %i sequential request(s) before the shards', async (_what, asked, reads) => {
    const meter = new IoMeter();
    const reader = await provider(REPO, new ShardCache(1 << 20), meter).open(asked === undefined ? {} : { commit: asked });
    expect(meter.r2Reads).toBe(reads);
    await reader.names();
    expect(meter.r2Reads).toBe(reads + 1);
  });

  it('follows an older publisher\'s repo.json and refs (one read more each)', async () => {
    const meter = new IoMeter();
    expect((await provider('acme/legacy', new ShardCache(1 << 20), meter).open()).commit).toBe(A);
    expect(meter.r2Reads).toBe(3);
  });

  it('answers a warm call from the isolate\'s caches without reading R2', async () => {
    const cache = new ShardCache(1 << 20);
    const refs = new RefCache();
    const warm = (meter: IoMeter) => new R2IndexProvider(r2.bucket, { repo: REPO, cache, refs, meter });
    await (await warm(new IoMeter()).open()).names();
    const meter = new IoMeter();
    const reader = await warm(meter).open();
    await reader.names();
    expect(reader.commit).toBe(A);
    expect(meter.r2Reads).toBe(0);
    expect(reader.shardsFetched).toEqual([]);
  });

  it(`trusts a ref resolution for ${REF_TTL_MS / 1000} s, then reads the ref again`, async () => {
    const repo = 'acme/moving';
    const first = await putCommit(r2.bucket, repo, A);
    const second = await putCommit(r2.bucket, repo, B);
    await putRef(r2.bucket, repo, 'main', A, first);
    let now = 1_000_000;
    const refs = new RefCache(100, () => now);
    const at = () => new R2IndexProvider(r2.bucket, { repo, cache: new ShardCache(1 << 20), refs });
    expect((await at().open({ commit: 'main' })).commit).toBe(A);
    await putRef(r2.bucket, repo, 'main', B, second);
    now += REF_TTL_MS - 1;
    expect((await at().open({ commit: 'main' })).commit).toBe(A);
    now += 1;
    expect((await at().open({ commit: 'main' })).commit).toBe(B);
    // The tools tell their callers how stale a ref can be.
    expect(SERVER_INSTRUCTIONS).toContain(`at most every ${REF_TTL_MS / 1000} s`);
  });

  it('refuses an ambiguous prefix, listing the candidates', async () => {
    const error = await failure(open('abcdef1'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(A);
    expect(error.message).toContain(B);
    expect(error.data?.candidates).toEqual([A, B]);
  });

  it('says COMMIT_NOT_INDEXED for an unknown sha, naming what is indexed and how to fix it', async () => {
    const error = await failure(open(MISSING));
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain(MISSING);
    for (const known of [A, B, C, 'main', 'release/1.0']) expect(error.message).toContain(known);
    expect(error.hint).toContain('indexer build');
    expect(error.hint).toContain('indexer publish');
    expect(error.data).toMatchObject({ repo: REPO, requested: MISSING, indexedCommits: [A, B, C] });
  });

  it('says COMMIT_NOT_INDEXED for an unknown ref or unmatched prefix', async () => {
    const byRef = await failure(open('develop'));
    expect(byRef.code).toBe('COMMIT_NOT_INDEXED');
    expect(byRef.message).toContain('ref "develop"');
    const byPrefix = await failure(open('1234567'));
    expect(byPrefix.code).toBe('COMMIT_NOT_INDEXED');
    expect(byPrefix.message).toContain('"1234567"');
  });

  it('refuses what is neither a sha nor a valid ref name', async () => {
    const error = await failure(open('main~1'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.hint).toContain('commit sha');
  });

  it('says REPO_NOT_FOUND for a repository with nothing published', async () => {
    const error = await failure(open(undefined, 'acme/unknown'));
    expect(error.code).toBe('REPO_NOT_FOUND');
    expect(error.hint).toContain('indexer publish --repo-name acme/unknown');
    expect((await failure(open(A, 'acme/unknown'))).code).toBe('REPO_NOT_FOUND');
  });

  it('explains a repository without a default ref', async () => {
    const error = await failure(open(undefined, 'acme/no-default'));
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain('no default ref');
    expect(error.message).toContain(C);
    expect(error.hint).toContain('--default');
    expect((await open(C.slice(0, 10), 'acme/no-default')).commit).toBe(C);
  });

  it('explains a ref whose commit index is missing', async () => {
    const error = await failure(open(undefined, 'acme/dangling'));
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain(MISSING);
    expect(error.message).toContain('"main"');
  });

  it('finds a repository whatever the case of its name', async () => {
    expect((await open('main', 'Acme/Widgets')).commit).toBe(A);
  });

  it('serves any repository when it has no default one, and asks for one when the call names none', async () => {
    const multi = new R2IndexProvider(r2.bucket, { cache: new ShardCache(1 << 20), refs: new RefCache() });
    expect((await multi.open({ repo: REPO, commit: 'main' })).commit).toBe(A);
    expect((await multi.open({ repo: 'acme/no-default', commit: C })).repo).toBe('acme/no-default');
    const error = await failure(multi.open({}));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.hint).toContain('/mcp/<owner>/<repo>');
    // MCP Inspector 0.15 calls /mcp when given /mcp/<owner>/<repo>: the hint names the form that survives it.
    expect(error.hint).toContain('/r/<owner>/<repo>/mcp');
    expect(error.hint).toContain('dropped the rest of the path');
    expect((await failure(multi.open({ repo: '../etc' }))).code).toBe('INVALID_ARGUMENT');
  });

  it('never opens a repository its caller may not read', async () => {
    const scoped = new R2IndexProvider(r2.bucket, { cache: new ShardCache(1 << 20), refs: new RefCache(), canRead: (repo) => repo === REPO });
    await expect(scoped.open({ repo: 'acme/no-default', commit: C })).rejects.toThrow('not checked for access to acme/no-default');
    expect((await scoped.open({ repo: REPO })).commit).toBe(A);
  });

  it('reads shards from R2 and shares decoded ones through the cache', async () => {
    const cache = new ShardCache(1 << 20);
    const first = await provider(REPO, cache).open({ commit: 'main' });
    const names = await first.names();
    expect(names.exactly(names.names, 'greet')).toHaveLength(1);
    expect(first.shardsFetched).toEqual(['names']);
    // B has the same content as A: its shards are the same objects and the same cache entries.
    const second = await provider(REPO, cache).open({ commit: B });
    await second.names();
    expect(second.shardsFetched).toEqual([]);
  });

  it('calls a shard that fails its checksum INDEX_CORRUPT, naming the shard and the object', async () => {
    const repo = 'acme/corrupt';
    const manifest = await putCommit(r2.bucket, repo, A, { variant: 'corrupt' });
    await r2.bucket.put(shardKey(manifest.shards.names!.sha256), new Uint8Array([1, 2, 3]));
    const reader = await open(A, repo);
    const error = await failure(reader.names());
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('names');
    expect(error.data).toEqual({ shard: 'names', object: `r2://sextant-index/shards/${manifest.shards.names!.sha256}` });
  });

  it('calls a missing shard INDEX_CORRUPT', async () => {
    const repo = 'acme/incomplete';
    const manifest = await putCommit(r2.bucket, repo, A, { variant: 'incomplete' });
    await r2.bucket.delete(shardKey(manifest.shards['symbols/0000']!.sha256));
    const error = await failure((await open(A, repo)).symbol('0'.repeat(16)));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('missing');
  });

  it('refuses a manifest stored under another commit', async () => {
    const repo = 'acme/misplaced';
    await putCommit(r2.bucket, repo, A);
    await r2.bucket.put(manifestKey(repo, C), JSON.stringify({ ...manifestA, repo }));
    expect((await failure(open(C, repo))).code).toBe('INDEX_CORRUPT');
  });

  it('answers a commit published again from the manifest its ref record names, not the one the isolate parsed before', async () => {
    const repo = 'acme/republished';
    const first = await putCommit(r2.bucket, repo, A);
    await putRef(r2.bucket, repo, 'main', A, first);
    const cache = new ShardCache(1 << 20);
    const at = () => new R2IndexProvider(r2.bucket, { repo, cache, refs: new RefCache() });
    expect((await at().open({ commit: 'main' })).manifest.builtAt).toBe(first.builtAt);
    const again = { ...first, builtAt: '2025-02-02T00:00:00Z' };
    await putRef(r2.bucket, repo, 'main', A, again);
    expect((await at().open({ commit: 'main' })).manifest.builtAt).toBe(again.builtAt);
  });

  it('refuses a ref record whose manifestSha256 is not the sha256 of the manifest it carries, or that records none', async () => {
    const repo = 'acme/mismatched';
    const manifest = await putCommit(r2.bucket, repo, A);
    const record = refRecord(A, manifest);
    await r2.bucket.put(refKey(repo, 'main'), serializeRecord({ ...record, manifestSha256: 'f'.repeat(64) }));
    const mismatch = await failure(provider(repo).open({ commit: 'main' }));
    expect(mismatch).toMatchObject({ code: 'INDEX_CORRUPT', data: { field: 'manifestSha256', expected: 'f'.repeat(64) } });
    expect(mismatch.message).toContain(`but r2://sextant-index/${refKey(repo, 'main')} records ${'f'.repeat(64)}`);
    const { manifestSha256: _dropped, ...unrecorded } = record;
    await r2.bucket.put(refKey(repo, 'main'), serializeRecord(unrecorded));
    expect((await failure(provider(repo).open({ commit: 'main' }))).message).toContain('records no sha256 of the manifest');
  });
});
