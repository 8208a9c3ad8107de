// Retention over any ObjectStore: deletes the commits no ref points to and the shards no manifest
// uses, in the order that keeps readers consistent (refs, then manifests, then shards). What a
// publish in progress has written but not yet made reachable (shards, a manifest without its ref)
// is younger than `minAgeMs` and kept; before deleting shards the manifests are listed again, and a
// publish checks its shards once more before it moves a ref, so the two can run at the same time.
import {
  objectOfKey, parseManifest, pathFilter, parseRefRecord, parseRepoRecord, REPOS_PREFIX, SHARDS_PREFIX,
  type RefRecord,
} from '@sextant/format';
import type { ObjectStore, StoredObject } from './object-store.ts';
import { formatBytes } from './publish-index.ts';

export interface GcOptions {
  /** Objects uploaded more recently than this are kept, whatever refers to them. */
  minAgeMs: number;
  /** Also delete refs last published longer ago than this (never a repository's default ref)... */
  refMaxAgeMs?: number;
  /** ...among the refs matching these globs (default: pull requests' refs, `pull/**`). */
  refGlobs?: string[];
  /** Report what would be deleted, delete nothing. */
  dryRun?: boolean;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface GcSummary {
  refsDeleted: string[];
  commitsDeleted: string[];
  shardsDeleted: number;
  bytesFreed: number;
  commitsKept: number;
  shardsKept: number;
}

interface RepoState {
  defaultRef?: string;
  head?: RefRecord;
  refs: Map<string, { key: string; record: RefRecord }>;
  manifests: Map<string, StoredObject>;
}

export async function collectGarbage(store: ObjectStore, options: GcOptions): Promise<GcSummary> {
  const log = options.log ?? (() => {});
  const now = (options.now ?? (() => new Date()))().getTime();
  const young = (object: StoredObject) => now - object.uploaded.getTime() < options.minAgeMs;
  const summary: GcSummary = { refsDeleted: [], commitsDeleted: [], shardsDeleted: 0, bytesFreed: 0, commitsKept: 0, shardsKept: 0 };
  const remove = async (keys: string[]) => {
    if (!options.dryRun && keys.length > 0) await store.delete(keys);
  };

  log(`listing ${REPOS_PREFIX} in ${store.description}`);
  const repos = await listRepos(store);

  if (options.refMaxAgeMs !== undefined) {
    const stale = staleRefs(repos, options.refMaxAgeMs, options.refGlobs, now, summary);
    log(`${options.dryRun ? 'would delete' : 'deleting'} ${stale.length} refs matching ${(options.refGlobs ?? ['pull/**']).join(', ')} older than ${Math.round(options.refMaxAgeMs / 86_400_000)} days`);
    await remove(stale);
  }

  const liveShards = new Set<string>();
  const deadManifests = await deadCommits(store, repos, young, liveShards, summary);
  log(`${options.dryRun ? 'would delete' : 'deleting'} ${deadManifests.length} commits no ref points to; keeping ${summary.commitsKept}`);
  await remove(deadManifests);

  await addShardsOfNewManifests(store, repos, liveShards);
  const deadShards = await deadShardsOf(store, liveShards, young, summary);
  summary.shardsDeleted = deadShards.length;
  log(`${options.dryRun ? 'would delete' : 'deleting'} ${deadShards.length} shards no manifest uses (${formatBytes(summary.bytesFreed)}); keeping ${summary.shardsKept}`);
  await remove(deadShards);
  return summary;
}

/** Every repository's records (repo.json, refs) and manifests, as one listing of the bucket finds them. */
async function listRepos(store: ObjectStore): Promise<Map<string, RepoState>> {
  const repos = new Map<string, RepoState>();
  const state = (repo: string) => {
    let found = repos.get(repo);
    if (!found) repos.set(repo, found = { refs: new Map(), manifests: new Map() });
    return found;
  };
  for await (const object of store.list(REPOS_PREFIX)) {
    const what = objectOfKey(object.key);
    if (what?.kind === 'repo') {
      const text = await store.getText(object.key);
      if (text !== null) Object.assign(state(what.repo), parseRepoRecord(text, object.key));
    } else if (what?.kind === 'ref') {
      const text = await store.getText(object.key);
      if (text !== null) state(what.repo).refs.set(what.ref, { key: object.key, record: parseRefRecord(text, object.key) });
    } else if (what?.kind === 'manifest') {
      state(what.repo).manifests.set(what.commit, object);
    }
  }
  return repos;
}

/**
 * The keys of the refs past their age among those `globs` match, except a default ref: it is what
 * a call without a commit answers. They leave `repos` and are counted in the summary.
 */
function staleRefs(repos: Map<string, RepoState>, maxAgeMs: number, globs: string[] | undefined, now: number, summary: GcSummary): string[] {
  const stale: string[] = [];
  const expires = pathFilter(globs ?? ['pull/**']);
  for (const [repo, { defaultRef, refs }] of repos) {
    for (const [ref, { key, record }] of refs) {
      const age = now - Date.parse(record.updatedAt);
      if (ref !== defaultRef && expires(ref) && Number.isFinite(age) && age > maxAgeMs) {
        stale.push(key);
        refs.delete(ref);
        summary.refsDeleted.push(`${repo}@${ref}`);
      }
    }
  }
  return stale;
}

/**
 * The manifests of the commits no ref or default head points at and old enough to judge; the
 * shards of the others (and of the records' manifest copies, which a reader can answer from) are
 * added to `liveShards`.
 */
async function deadCommits(store: ObjectStore, repos: Map<string, RepoState>, young: (object: StoredObject) => boolean, liveShards: Set<string>, summary: GcSummary): Promise<string[]> {
  const deadManifests: string[] = [];
  for (const [repo, { head, refs, manifests }] of repos) {
    const records = [...refs.values()].map((r) => r.record).concat(head ? [head] : []);
    const pointed = new Set(records.map((record) => record.commit));
    for (const record of records) if (record.manifest !== undefined) addShards(liveShards, record.manifest, `a ref record of ${repo}`);
    for (const [commit, object] of manifests) {
      if (pointed.has(commit) || young(object)) {
        summary.commitsKept++;
        const text = await store.getText(object.key);
        if (text !== null) addShards(liveShards, text, object.key);
      } else {
        deadManifests.push(object.key);
        summary.commitsDeleted.push(`${repo}@${commit}`);
      }
    }
  }
  return deadManifests;
}

/** Manifests written since the first listing belong to publishes in progress: their shards stay. */
async function addShardsOfNewManifests(store: ObjectStore, repos: Map<string, RepoState>, liveShards: Set<string>): Promise<void> {
  const seen = new Set([...repos.values()].flatMap((repo) => [...repo.manifests.values()].map((m) => m.key)));
  for await (const object of store.list(REPOS_PREFIX)) {
    if (objectOfKey(object.key)?.kind !== 'manifest' || seen.has(object.key)) continue;
    const text = await store.getText(object.key);
    if (text !== null) addShards(liveShards, text, object.key);
  }
}

/** The shard objects neither live nor too young to judge; kept and freed counted in the summary. */
async function deadShardsOf(store: ObjectStore, liveShards: Set<string>, young: (object: StoredObject) => boolean, summary: GcSummary): Promise<string[]> {
  const deadShards: string[] = [];
  for await (const object of store.list(SHARDS_PREFIX)) {
    const what = objectOfKey(object.key);
    if (what?.kind !== 'shard') continue;
    if (liveShards.has(what.sha256) || young(object)) {
      summary.shardsKept++;
    } else {
      deadShards.push(object.key);
      summary.bytesFreed += object.size;
    }
  }
  return deadShards;
}

function addShards(liveShards: Set<string>, text: string, where: string): void {
  for (const entry of Object.values(parseManifest(text, where).shards)) liveShards.add(entry.sha256);
}
