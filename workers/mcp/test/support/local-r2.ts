// A real local R2 bucket for tests, in memory: Miniflare's R2 (workerd's implementation) behind the
// bridge worker `indexer publish --local` uses (@sextant/format's r2-http-bridge.ts), plus helpers
// that lay indexes out the way `indexer publish` does.
import { Miniflare } from 'miniflare';
import {
  BRIDGE_SCRIPT, httpBucket, manifestKey, manifestSha256, refKey, repoRecordKey, serializeRecord, shardKey, type BridgeFetch, type Manifest, type R2BucketLike, type RefRecord,
} from '@sextant/format';
import { buildTinyIndex, type TinyIndexOptions } from '../../../../test/e2e/support/tiny-index.ts';

export interface LocalR2 {
  bucket: R2BucketLike;
  dispose(): Promise<void>;
}

export async function startLocalR2(): Promise<LocalR2> {
  const mf = new Miniflare({ modules: true, script: BRIDGE_SCRIPT, r2Buckets: { INDEX: 'sextant-index' }, r2Persist: false });
  await mf.ready;
  return { bucket: httpBucket(mf.dispatchFetch as unknown as BridgeFetch), dispose: () => mf.dispose() };
}

/** Publishes a tiny index for `repo`@`commit` (shards, then manifest), without refs. */
export async function putCommit(bucket: R2BucketLike, repo: string, commit: string, options: TinyIndexOptions = {}): Promise<Manifest> {
  const { manifest, shards } = buildTinyIndex({ ...options, repo, commit });
  for (const [name, bytes] of shards) await bucket.put(shardKey(manifest.shards[name]!.sha256), bytes);
  await bucket.put(manifestKey(repo, commit), JSON.stringify(manifest));
  return manifest;
}

/**
 * A ref record as the publisher writes it: the sha256 of the manifest's text (as putCommit stores
 * it) and, unless `embedded` is false, the text itself (older publishers wrote none: a reader then
 * reads commits/<sha>/manifest.json). Without `manifest`, a record that names only a commit.
 */
export function refRecord(commit: string, manifest?: Manifest, embedded = true): RefRecord {
  const text = manifest && JSON.stringify(manifest);
  return { commit, updatedAt: '2025-01-01T00:00:00Z', ...(text ? { ...(embedded ? { manifest: text } : {}), manifestSha256: manifestSha256(text) } : {}) };
}

export async function putRef(bucket: R2BucketLike, repo: string, ref: string, commit: string, manifest?: Manifest, embedded = true): Promise<void> {
  await bucket.put(refKey(repo, ref), serializeRecord(refRecord(commit, manifest, embedded)));
}

/** repo.json naming the default ref; with `head`, a copy of that ref's record, as the publisher writes it. */
export async function putDefaultRef(bucket: R2BucketLike, repo: string, ref: string, head?: RefRecord): Promise<void> {
  await bucket.put(repoRecordKey(repo), serializeRecord({ defaultRef: ref, ...(head ? { head } : {}) }));
}
