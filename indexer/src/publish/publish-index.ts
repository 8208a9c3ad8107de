// The publish protocol over any ObjectStore, in the order that keeps readers consistent: shards
// first (content-addressed, so existing ones are skipped), then the commit's manifest, and only
// then the ref and repo.json that make the commit reachable. A reader that follows a ref therefore
// never finds a manifest whose shards are not all there, even if a publish dies halfway: it keeps
// answering from the commit the ref pointed at before. The ref record carries a copy of the
// manifest, and repo.json a copy of the default ref's record, so that a reader resolves a ref and
// learns which shards to read in one request.
import {
  manifestKey, normalizeRefName, parseRepoName, parseRepoRecord, refKey, repoRecordKey, serializeRecord, shardKey,
  type RefRecord, type RepoRecord,
} from '@sextant/format';
import type { ObjectStore } from './object-store.ts';
import { verifyShardFile, type IndexDirectory, type IndexShard } from './read-index.ts';

export interface PublishOptions {
  /** owner/name the index is published under; the manifest's `repo` is rewritten to it when it differs. */
  repo: string;
  ref?: string;
  /** Make `ref` the repository's default even when repo.json already names another. */
  makeDefault?: boolean;
  /** Parallel requests to the store. */
  concurrency?: number;
  /** One plain line per phase. */
  log?: (line: string) => void;
  now?: () => Date;
}

export interface PublishSummary {
  repo: string;
  commit: string;
  uploadedObjects: number;
  uploadedBytes: number;
  skippedObjects: number;
  skippedBytes: number;
  ref?: string;
  /** The repository's default ref after publishing, when it has one. */
  defaultRef?: string;
  defaultChanged: boolean;
  ms: number;
}

export async function publishIndex(store: ObjectStore, index: IndexDirectory, options: PublishOptions): Promise<PublishSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const concurrency = options.concurrency ?? 16;
  parseRepoName(options.repo);
  const ref = options.ref === undefined ? undefined : normalizeRefName(options.ref);
  const { commit } = index.manifest;
  const summary: PublishSummary = {
    repo: options.repo, commit, uploadedObjects: 0, uploadedBytes: 0, skippedObjects: 0, skippedBytes: 0,
    ref, defaultChanged: false, ms: 0,
  };
  const put = async (key: string, body: Uint8Array | string, sha256?: string) => {
    await store.put(key, body, { sha256, contentType: typeof body === 'string' ? 'application/json' : 'application/octet-stream' });
    summary.uploadedObjects++;
    summary.uploadedBytes += typeof body === 'string' ? new TextEncoder().encode(body).byteLength : body.byteLength;
  };

  // Equal shards within one index are stored once.
  const unique = [...new Map(index.shards.map((s) => [s.sha256, s])).values()];
  log(`checking ${unique.length} shards against ${store.description}`);
  const missing: IndexShard[] = [];
  await forEachLimited(unique, concurrency, async (shard) => {
    const existing = await store.head(shardKey(shard.sha256));
    // A size mismatch can only be an earlier broken upload: upload again over it.
    if (existing && existing.size === shard.bytes) {
      summary.skippedObjects++;
      summary.skippedBytes += shard.bytes;
    } else {
      missing.push(shard);
    }
  });

  const missingBytes = missing.reduce((sum, s) => sum + s.bytes, 0);
  log(`uploading ${missing.length} shards (${formatBytes(missingBytes)}); ${summary.skippedObjects} already present`);
  const upload = async (shard: IndexShard) => {
    // Read again and re-verified: the directory may have been rebuilt since it was checked.
    const bytes = await verifyShardFile(shard.name, shard.sha256, shard.bytes, shard.file);
    await put(shardKey(shard.sha256), bytes, shard.sha256);
  };
  await forEachLimited(missing, concurrency, upload);

  const manifestText = index.manifest.repo === options.repo
    ? index.manifestText
    : `${JSON.stringify({ ...index.manifest, repo: options.repo }, null, 2)}\n`;
  log(`writing manifest ${manifestKey(options.repo, commit)}`);
  await put(manifestKey(options.repo, commit), manifestText);

  // A shard skipped as present may have been deleted since (by `indexer gc`, which keeps only what
  // some manifest uses): the ref moves only when every shard of the commit is in place.
  const uploaded = new Set(missing.map((shard) => shard.sha256));
  const vanished: IndexShard[] = [];
  await forEachLimited(unique.filter((shard) => !uploaded.has(shard.sha256)), concurrency, async (shard) => {
    const existing = await store.head(shardKey(shard.sha256));
    if (!existing || existing.size !== shard.bytes) vanished.push(shard);
  });
  if (vanished.length > 0) {
    log(`uploading ${vanished.length} shards again: they were deleted while this publish ran`);
    await forEachLimited(vanished, concurrency, upload);
  }

  const refRecord: RefRecord = { commit, updatedAt: now().toISOString(), manifest: manifestText };
  if (ref !== undefined) {
    log(`pointing ref ${ref} at ${commit}`);
    await put(refKey(options.repo, ref), serializeRecord(refRecord));
  }

  const repoKey = repoRecordKey(options.repo);
  const existingText = await store.getText(repoKey);
  const existing = existingText === null ? undefined : readRepoRecord(existingText, repoKey, options.makeDefault === true);
  const becomesDefault = ref !== undefined && (existing === undefined || (options.makeDefault === true && existing.defaultRef !== ref));
  if (ref !== undefined && (becomesDefault || existing?.defaultRef === ref)) {
    // repo.json follows its default ref, so a call naming no commit needs one read to find it.
    log(becomesDefault ? `setting the default ref of ${options.repo} to ${ref}` : `moving the default ref ${ref} of ${options.repo} to ${commit}`);
    const record: RepoRecord = { defaultRef: ref, head: refRecord };
    await put(repoKey, serializeRecord(record));
    summary.defaultRef = ref;
    summary.defaultChanged = becomesDefault;
  } else {
    summary.defaultRef = existing?.defaultRef;
  }
  summary.ms = Math.round(performance.now() - started);
  return summary;
}

/** An unreadable repo.json is an error, unless this publish replaces it anyway (--default). */
function readRepoRecord(text: string, key: string, replacing: boolean): RepoRecord | undefined {
  try {
    return parseRepoRecord(text, key);
  } catch (error) {
    if (replacing) return undefined;
    throw error;
  }
}

async function forEachLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
