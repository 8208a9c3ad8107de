// A real local R2 bucket for tests: wrangler's getPlatformProxy over this worker's wrangler.jsonc,
// in memory (persist: false), plus helpers that lay indexes out the way `indexer publish` does.
import { fileURLToPath } from 'node:url';
import { getPlatformProxy } from 'wrangler';
import { manifestKey, manifestSha256, refKey, repoRecordKey, serializeRecord, shardKey, type Manifest, type R2BucketLike, type RefRecord } from '@sextant/format';
import { buildTinyIndex, type TinyIndexOptions } from '../../../../test/e2e/support/tiny-index.ts';

export interface LocalR2 {
  bucket: R2BucketLike;
  dispose(): Promise<void>;
}

const CONFIG = fileURLToPath(new URL('../../wrangler.jsonc', import.meta.url));

export async function startLocalR2(): Promise<LocalR2> {
  const proxy = await getPlatformProxy<{ INDEX: R2BucketLike }>({ configPath: CONFIG, persist: false, remoteBindings: false });
  return { bucket: proxy.env.INDEX, dispose: () => proxy.dispose() };
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
