// The publish protocol over any ObjectStore, in the order that keeps readers consistent: shards
// first (content-addressed, so existing ones are skipped), then the commit's manifest, and only
// then the ref and repo.json that make the commit reachable. A reader that follows a ref therefore
// never finds a manifest whose shards are not all there, even if a publish dies halfway: it keeps
// answering from the commit the ref pointed at before. The ref record carries a copy of the
// manifest, and repo.json a copy of the default ref's record, so that a reader resolves a ref and
// learns which shards to read in one request.
//
// Every upload carries its sha256, which R2 checks (a damaged upload is refused) and reports back
// on HEAD; an existing shard is skipped only when that checksum is its name, so an object damaged
// by anything else is uploaded again. With `verify` every shard is read back and hashed instead.
//
// Refs and repo.json move by compare-and-swap on the etag read before the upload started: when
// another publish moved the ref in between, this one moves it only if its own commit is newer (by
// commit date) or it is forced, so two publishes racing on a ref cannot leave the older commit.
import {
  digestSha256Hex, manifestKey, manifestSha256, normalizeRefName, parseManifest, parseRefRecord, parseRepoName, parseRepoRecord, refKey, repoRecordKey, sameCommit,
  serializeRecord, SextantError, shardKey, type RefRecord, type RepoRecord,
} from '@sextant/format';
import type { ObjectInfo, ObjectStore, PutOptions } from './object-store.ts';
import { verifyShardFile, type IndexDirectory, type IndexShard } from './read-index.ts';
import { forEachLimited } from '../for-each-limited.ts';

export interface PublishOptions {
  /** owner/name the index is published under; the manifest's `repo` is rewritten to it when it differs. */
  repo: string;
  ref?: string;
  /** Make `ref` the repository's default even when repo.json already names another. */
  makeDefault?: boolean;
  /** Read every shard back and upload again what does not hash to its name, rather than trust R2's checksums. */
  verify?: boolean;
  /** Move the ref even when another publish moved it to a newer commit while this one ran. */
  force?: boolean;
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
  /** Shards that were in the store without a checksum equal to their name, uploaded again over. */
  replacedObjects: number;
  /** With `verify`: shards read back, and of those the ones uploaded again because they failed their hash or were missing. */
  verified?: { checked: number; repaired: number; missing: number };
  ref?: string;
  /**
   * Where the ref points after publishing: this commit, or (when another publish moved it to a
   * newer commit meanwhile, and not forced) that publish's commit, which this one left in place.
   */
  refCommit?: string;
  /** The repository's default ref after publishing, when it has one. */
  defaultRef?: string;
  defaultChanged: boolean;
  ms: number;
}

/** Compare-and-swap rounds lost in a row before giving up: each one is another publish winning. */
const CAS_ROUNDS = 10;

export async function publishIndex(store: ObjectStore, index: IndexDirectory, options: PublishOptions): Promise<PublishSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const concurrency = options.concurrency ?? 16;
  parseRepoName(options.repo);
  const ref = options.ref === undefined ? undefined : normalizeRefName(options.ref);
  const { commit } = index.manifest;
  const summary: PublishSummary = {
    repo: options.repo, commit, uploadedObjects: 0, uploadedBytes: 0, skippedObjects: 0, skippedBytes: 0, replacedObjects: 0,
    ref, defaultChanged: false, ms: 0,
  };
  const put = async (key: string, body: Uint8Array | string, onlyIf?: PutOptions['onlyIf']) => {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const written = await store.put(key, body, {
      sha256: await digestSha256Hex(bytes), contentType: typeof body === 'string' ? 'application/json' : 'application/octet-stream', onlyIf,
    });
    if (written) {
      summary.uploadedObjects++;
      summary.uploadedBytes += bytes.byteLength;
    }
    return written;
  };

  // The ref as it is before anything is uploaded: the state its compare-and-swap expects.
  const refAtStart = ref === undefined ? undefined : await readRecord(store, refKey(options.repo, ref));

  // Equal shards within one index are stored once.
  const unique = [...new Map(index.shards.map((s) => [s.sha256, s])).values()];
  const missing: IndexShard[] = [];
  const skip = (shard: IndexShard) => {
    summary.skippedObjects++;
    summary.skippedBytes += shard.bytes;
  };
  if (options.verify) {
    log(`reading back ${unique.length} shards from ${store.description}`);
    const verified = { checked: unique.length, repaired: 0, missing: 0 };
    await forEachLimited(unique, concurrency, async (shard) => {
      const stored = await store.get(shardKey(shard.sha256));
      if (stored && stored.bytes.byteLength === shard.bytes && (await digestSha256Hex(stored.bytes)) === shard.sha256) {
        if (stored.info.sha256 === shard.sha256) return skip(shard);
        // The right bytes, uploaded without their checksum: once more with it, so a publish without --verify can trust it.
        summary.replacedObjects++;
      } else {
        verified[stored ? 'repaired' : 'missing']++;
      }
      missing.push(shard);
    });
    summary.verified = verified;
    log(`verified ${verified.checked} shards: ${verified.repaired} repaired, ${verified.missing} missing`);
  } else {
    log(`checking ${unique.length} shards against ${store.description}`);
    await forEachLimited(unique, concurrency, async (shard) => {
      const existing = await store.head(shardKey(shard.sha256));
      if (isIntact(existing, shard)) return skip(shard);
      // Present, but not known to be these bytes (an upload without a checksum, or other bytes): upload over it.
      if (existing) summary.replacedObjects++;
      missing.push(shard);
    });
  }

  const missingBytes = missing.reduce((sum, s) => sum + s.bytes, 0);
  const replaced = summary.replacedObjects > 0 ? ` (${summary.replacedObjects} present without their checksum, uploaded over)` : '';
  log(`uploading ${missing.length} shards (${formatBytes(missingBytes)})${replaced}; ${summary.skippedObjects} already present`);
  const upload = async (shard: IndexShard) => {
    // Read again and re-verified: the directory may have been rebuilt since it was checked.
    const bytes = await verifyShardFile(shard.name, shard.sha256, shard.bytes, shard.file);
    await put(shardKey(shard.sha256), bytes);
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
    if (!isIntact(await store.head(shardKey(shard.sha256)), shard)) vanished.push(shard);
  });
  if (vanished.length > 0) {
    log(`uploading ${vanished.length} shards again: they were deleted while this publish ran`);
    await forEachLimited(vanished, concurrency, upload);
  }

  // Readers compare the manifest they get by a ref (or repo.json's copy of it) with this sha256.
  const refRecord: RefRecord = { commit, updatedAt: now().toISOString(), manifest: manifestText, manifestSha256: manifestSha256(manifestText) };
  if (ref !== undefined) {
    log(`pointing ref ${ref} at ${commit}`);
    summary.refCommit = await moveRef(store, options.repo, ref, refAtStart!, refRecord, index.manifest.commitDate, options.force === true, put, log);
  }

  const repoKey = repoRecordKey(options.repo);
  for (let round = 1; ; round++) {
    const stored = await readText(store, repoKey);
    const existing = stored === null ? undefined : readRepoRecord(stored.text, repoKey, options.makeDefault === true);
    const becomesDefault = ref !== undefined && (existing === undefined || (options.makeDefault === true && existing.defaultRef !== ref));
    if (ref === undefined || !(becomesDefault || existing?.defaultRef === ref)) {
      summary.defaultRef = existing?.defaultRef;
      break;
    }
    // repo.json follows its default ref, so a call naming no commit needs one read to find it. It
    // copies the ref as it is now, read after repo.json: a publish that moves the ref later also
    // rewrites repo.json later, and its compare-and-swap then fails this one's or sees its write.
    const current = await readRecord(store, refKey(options.repo, ref));
    const head = current.record ?? refRecord;
    if (round === 1) log(becomesDefault ? `setting the default ref of ${options.repo} to ${ref}` : `moving the default ref ${ref} of ${options.repo} to ${head.commit}`);
    const record: RepoRecord = { defaultRef: ref, head };
    if (await put(repoKey, serializeRecord(record), stored ? { etag: stored.etag } : { absent: true })) {
      summary.defaultRef = ref;
      summary.defaultChanged = becomesDefault;
      break;
    }
    if (round === CAS_ROUNDS) throw lostRace(repoKey, round);
  }
  summary.ms = Math.round(performance.now() - started);
  return summary;
}

/** A ref or repo record with the etag of the read it came from; `record` undefined when there is none. */
interface ReadRecord {
  expect: NonNullable<PutOptions['onlyIf']>;
  record?: RefRecord;
}

async function readText(store: ObjectStore, key: string): Promise<{ text: string; etag: string } | null> {
  const stored = await store.get(key);
  return stored ? { text: new TextDecoder().decode(stored.bytes), etag: stored.info.etag } : null;
}

/** An unreadable ref counts as none: publishing replaces it. */
async function readRecord(store: ObjectStore, key: string): Promise<ReadRecord> {
  const stored = await readText(store, key);
  if (!stored) return { expect: { absent: true } };
  try {
    return { expect: { etag: stored.etag }, record: parseRefRecord(stored.text, key) };
  } catch {
    return { expect: { etag: stored.etag } };
  }
}

/**
 * Writes the ref if it is still as read at the start; when another publish moved it since, moves
 * it only if this commit is newer than that publish's (or `force`). Returns where the ref points.
 */
async function moveRef(
  store: ObjectStore, repo: string, ref: string, atStart: ReadRecord, record: RefRecord, commitDate: string, force: boolean,
  put: (key: string, body: string, onlyIf: PutOptions['onlyIf']) => Promise<ObjectInfo | null>, log: (line: string) => void,
): Promise<string> {
  const key = refKey(repo, ref);
  let expected = atStart.expect;
  for (let round = 1; round <= CAS_ROUNDS; round++) {
    if (await put(key, serializeRecord(record), expected)) return record.commit;
    const current = await readRecord(store, key);
    if (current.record && sameCommit(current.record.commit, record.commit)) return record.commit;
    if (current.record && !force) {
      const theirs = await commitDateOf(store, repo, current.record);
      if (!(Date.parse(commitDate) > Date.parse(theirs ?? ''))) {
        log(`leaving ref ${ref} at ${current.record.commit}: another publish moved it there while this one ran, and that commit `
          + `(${theirs ?? 'date unknown'}) is not older than ${record.commit} (${commitDate}); --force moves it anyway`);
        return current.record.commit;
      }
    }
    log(current.record
      ? `ref ${ref} was moved to ${current.record.commit} while this publish ran; ${force ? 'forced' : 'this commit is newer'}, moving it`
      : `ref ${ref} was deleted or damaged while this publish ran; writing it again`);
    expected = current.expect;
  }
  throw lostRace(key, CAS_ROUNDS);
}

/** The commit date of what a ref record points at, from its manifest copy or the stored manifest; undefined when unreadable. */
async function commitDateOf(store: ObjectStore, repo: string, record: RefRecord): Promise<string | undefined> {
  const where = manifestKey(repo, record.commit);
  const text = record.manifest ?? await store.getText(where);
  try {
    return text === null ? undefined : parseManifest(text, where).commitDate;
  } catch {
    // Another publisher's manifest this one cannot read: its date is unknown, and the ref stays unless forced.
    return undefined;
  }
}

function lostRace(key: string, rounds: number): SextantError {
  return new SextantError('CONFLICT', `${key} changed ${rounds} times in a row while this publish tried to write it: other publishes kept winning.`,
    'Publish again once the other publishes of this repository have finished (one publish per ref at a time, e.g. a CI concurrency group).',
    { key });
}

/** The stored object is this shard's bytes as far as R2 knows: the sha256 it verified on upload is the shard's name. */
function isIntact(existing: ObjectInfo | null, shard: IndexShard): boolean {
  return existing !== null && existing.size === shard.bytes && existing.sha256 === shard.sha256;
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

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
