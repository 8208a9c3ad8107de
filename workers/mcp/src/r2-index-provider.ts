// IndexProvider over the R2 bucket for any repository in it (layout: @sextant/format
// object-layout). Resolves what a call asks for to exactly one indexed commit, or fails saying what
// exists and how to fix it; never answers from another commit.
//
// Sequential reads from a cold isolate (each round is one R2 request; shards are then read in
// parallel, through the edge cache):
//   no commit (default ref)   repo.json, which carries the default ref's commit and manifest
//   a ref                     refs/<ref>.json, which carries its commit's manifest
//   a full sha                commits/<sha>/manifest.json
//   a short sha               a list of commits/<prefix>, then the manifest
// Warm, parsed manifests are kept per isolate (immutable per commit) and ref resolutions for
// REF_TTL_MS, so a warm call reads only the shards it has not decoded yet.
//
// Every manifest is checked before it answers (parseManifest): against the sha256 its ref record
// (or repo.json's copy of one) records, against the repo and commit its key or record names, and
// field by field; any difference is INDEX_CORRUPT.
import {
  commitFromKey, commitsPrefix, digestSha256Hex, isCommitPrefix, isFullCommit, MANIFEST_FILE, manifestKey, normalizeRefName, parseManifest, sameCommit,
  parseRefRecord, parseRepoName, parseRepoRecord, refKey, refNameFromKey, refsPrefix, repoRecordKey,
  SextantError, type Manifest, type RefRecord,
} from '@sextant/format';
import type { IndexProvider, IndexRequest } from '@sextant/mcp';
import { IndexReader, type ShardCache } from '@sextant/query';
import type { R2BucketLike } from '@sextant/format';
import { R2ShardSource, type EdgeCacheLike } from './r2-shard-source.ts';
import { IoMeter } from './io-meter.ts';
import { REF_TTL_MS, SHARED_REF_CACHE, SHARED_SHARD_CACHE, type RefCache } from './isolate-caches.ts';

/** How many commits or refs an error lists; listing is one cheap R2 call each. */
const LISTED = 20;
/** A prefix this long names one commit for good (48 bits), so its resolution is kept like a sha. */
const STABLE_PREFIX = 12;
/** The RefCache name of "the default ref"; no ref can be named so (refs cannot be empty). */
const DEFAULT = '';

interface R2IndexProviderOptions {
  /** The repository answered when a call names none (the endpoint /mcp/<owner>/<repo>). */
  repo?: string;
  /** Whether the caller may read a repository; checked before anything is read for it. */
  canRead?: (repo: string) => boolean;
  /** Decoded shards and parsed manifests; default the isolate's. */
  cache?: ShardCache;
  /** Ref resolutions; default the isolate's. */
  refs?: RefCache;
  bucketName?: string;
  edgeCache?: EdgeCacheLike;
  waitUntil?: (promise: Promise<unknown>) => void;
  meter?: IoMeter;
}

interface Resolved {
  commit: string;
  manifest: Manifest;
}

/** What the isolate keeps of a checked manifest: it, and the sha256 of the text it was parsed from. */
interface CheckedManifest {
  manifest: Manifest;
  sha256: string;
}

export class R2IndexProvider implements IndexProvider {
  private readonly bucket: R2BucketLike;
  private readonly options: R2IndexProviderOptions;
  private readonly cache: ShardCache;
  private readonly refs: RefCache;
  private readonly meter: IoMeter;

  constructor(bucket: R2BucketLike, options: R2IndexProviderOptions = {}) {
    if (options.repo !== undefined) parseRepoName(options.repo);
    this.bucket = bucket;
    this.options = options;
    this.cache = options.cache ?? SHARED_SHARD_CACHE;
    this.refs = options.refs ?? SHARED_REF_CACHE;
    this.meter = options.meter ?? new IoMeter();
  }

  async open({ repo: requestedRepo, commit }: IndexRequest = {}): Promise<IndexReader> {
    const repo = requestedRepo ?? this.options.repo;
    if (repo === undefined) {
      throw new SextantError('INVALID_ARGUMENT', 'This endpoint, /mcp, serves several repositories, and the call names none.',
        'Pass `repo` (owner/name) with the call, or connect to the endpoint of one repository: /r/<owner>/<repo>/mcp, or /mcp/<owner>/<repo>. A client that was given /mcp/<owner>/<repo> and called /mcp dropped the rest of the path (MCP Inspector 0.15 does): give it the /r/<owner>/<repo>/mcp form, which ends in /mcp.');
    }
    parseRepoName(repo);
    if (this.options.canRead && !this.options.canRead(repo)) {
      // The worker refuses such requests with 403 before they get here; reaching this is a bug.
      throw new Error(`the request was not checked for access to ${repo}`);
    }
    const resolved = await this.resolve(repo, commit);
    const source = new R2ShardSource(this.bucket, repo, resolved.commit, {
      bucketName: this.options.bucketName, edgeCache: this.options.edgeCache, waitUntil: this.options.waitUntil, meter: this.meter,
    });
    return IndexReader.fromManifest(source, resolved.manifest, this.cache);
  }

  /**
   * absent -> the default ref; 40 hex -> that commit; 7..39 hex -> the unique indexed commit with
   * that prefix (else a ref of that name); anything else -> a ref name.
   */
  async resolve(repo: string, requested?: string): Promise<Resolved> {
    const asked = requested?.trim() ?? '';
    if (asked === '') return this.fromDefaultRef(repo);
    if (isFullCommit(asked)) return this.fromCommit(repo, asked.toLowerCase(), asked);
    if (isCommitPrefix(asked)) return this.fromPrefix(repo, asked.toLowerCase());
    return this.fromRef(repo, normalizeRefName(asked), asked);
  }

  private async fromDefaultRef(repo: string): Promise<Resolved> {
    const cached = this.refs.get(repo, DEFAULT);
    if (cached) return this.fromCommit(repo, cached, undefined);
    const key = repoRecordKey(repo);
    const text = await this.readText(key);
    if (text === undefined) throw await this.notIndexed(repo, undefined);
    const record = parseRepoRecord(text, this.where(key));
    // Records from older publishers carry no head: follow the ref (one read more).
    const resolved = record.head
      ? await this.fromRecord(repo, record.defaultRef, record.head, undefined, `${this.where(key)} (head)`)
      : await this.fromRef(repo, normalizeRefName(record.defaultRef), undefined);
    this.refs.set(repo, DEFAULT, resolved.commit, REF_TTL_MS);
    return resolved;
  }

  private async fromRef(repo: string, ref: string, asked: string | undefined): Promise<Resolved> {
    const cached = this.refs.get(repo, ref);
    if (cached) return this.fromCommit(repo, cached, asked);
    const key = refKey(repo, ref);
    const text = await this.readText(key);
    if (text === undefined) throw await this.notIndexed(repo, asked, ref);
    const resolved = await this.fromRecord(repo, ref, parseRefRecord(text, this.where(key)), asked, this.where(key));
    this.refs.set(repo, ref, resolved.commit, REF_TTL_MS);
    return resolved;
  }

  /** `recordedIn`: where the record is (a ref's key, or repo.json's head), for messages. */
  private async fromRecord(repo: string, ref: string, record: RefRecord, asked: string | undefined, recordedIn: string): Promise<Resolved> {
    const cached = this.cachedManifest(repo, record.commit);
    // A commit published again has another manifest: the one the record names answers.
    if (cached && cached.sha256 === record.manifestSha256) return { commit: record.commit, manifest: cached.manifest };
    const recorded = { expected: record.manifestSha256, recordedIn };
    if (record.manifest !== undefined) {
      const manifest = await this.remember(repo, record.commit, record.manifest, `${recordedIn} (manifest of ${record.commit})`, recorded);
      return { commit: record.commit, manifest };
    }
    const text = await this.readText(manifestKey(repo, record.commit));
    if (text === undefined) {
      throw new SextantError('COMMIT_NOT_INDEXED',
        `Ref "${ref}" of ${repo} points at ${record.commit}, but that commit's index is missing from the store.`,
        `Publish the index for that commit again (\`indexer build\` at that commit, then \`indexer publish --ref ${ref}\`).`,
        { repo, requested: asked ?? null, ref, commit: record.commit });
    }
    return { commit: record.commit, manifest: await this.remember(repo, record.commit, text, this.where(manifestKey(repo, record.commit)), recorded) };
  }

  private async fromCommit(repo: string, commit: string, asked: string | undefined): Promise<Resolved> {
    const cached = this.cachedManifest(repo, commit);
    if (cached) return { commit, manifest: cached.manifest };
    const key = manifestKey(repo, commit);
    const text = await this.readText(key);
    if (text === undefined) throw await this.notIndexed(repo, asked ?? commit);
    // No record points at a commit's manifest but its key, which names the repo and commit checked.
    return { commit, manifest: await this.remember(repo, commit, text, this.where(key)) };
  }

  private async fromPrefix(repo: string, prefix: string): Promise<Resolved> {
    const known = this.refs.get(repo, `#${prefix}`);
    if (known) return this.fromCommit(repo, known, prefix);
    this.meter.r2Reads++;
    const listing = await this.meter.wait(this.bucket.list({ prefix: commitsPrefix(repo) + prefix, delimiter: '/', limit: 100 }));
    const matches = commitsOf(repo, listing.delimitedPrefixes, listing.objects.map((o) => o.key));
    if (matches.length === 1) {
      if (prefix.length >= STABLE_PREFIX) this.refs.set(repo, `#${prefix}`, matches[0]!, Infinity);
      return this.fromCommit(repo, matches[0]!, prefix);
    }
    if (matches.length > 1) {
      throw new SextantError('INVALID_ARGUMENT',
        `"${prefix}" is ambiguous in ${repo}: it abbreviates ${matches.length} indexed commits (${matches.join(', ')}).`,
        'Pass more digits of the sha, or the full sha.', { requested: prefix, candidates: matches });
    }
    // No indexed commit starts with it; a branch may still have a hex-looking name.
    return this.fromRef(repo, prefix, prefix);
  }

  private cachedManifest(repo: string, commit: string): CheckedManifest | undefined {
    return this.cache.get<CheckedManifest>(manifestCacheKey(repo, commit));
  }

  /**
   * Parses and checks a manifest (against the sha256 a record holds, when one points at it), checks
   * that it is the repository's and the commit's it was read for, and keeps it for the isolate.
   */
  private async remember(
    repo: string, commit: string, text: string, where: string, recorded?: { expected: string | undefined; recordedIn: string },
  ): Promise<Manifest> {
    // manifestSha256, with the platform's digest.
    const sha256 = await digestSha256Hex(new TextEncoder().encode(text));
    const manifest = parseManifest(text, where, recorded && { ...recorded, actual: sha256 });
    const mismatch = !sameCommit(manifest.commit, commit) ? `commit ${manifest.commit}, not ${commit}`
      : manifest.repo.toLowerCase() !== repo.toLowerCase() ? `repository ${manifest.repo}, not ${repo}` : undefined;
    if (mismatch) {
      throw new SextantError('INDEX_CORRUPT', `The manifest at ${where} is for ${mismatch}.`,
        'Publish the index for this commit again with `indexer publish`.', { shard: MANIFEST_FILE, field: !sameCommit(manifest.commit, commit) ? 'commit' : 'repo' });
    }
    // Charged at two bytes a character: about what the parsed object costs.
    this.cache.set(manifestCacheKey(repo, commit), { manifest, sha256 } satisfies CheckedManifest, text.length * 2);
    return manifest;
  }

  private async readText(key: string): Promise<string | undefined> {
    this.meter.r2Reads++;
    const object = await this.meter.wait(this.bucket.get(key));
    return object ? this.meter.wait(object.text()) : undefined;
  }

  /**
   * The error for "nothing indexed answers this": REPO_NOT_FOUND when the store has nothing of the
   * repository, else COMMIT_NOT_INDEXED naming the indexed commits and refs (one list call each).
   */
  private async notIndexed(repo: string, asked: string | undefined, ref?: string): Promise<SextantError> {
    this.meter.r2Reads += 2;
    const [commitListing, refListing] = await this.meter.wait(Promise.all([
      this.bucket.list({ prefix: commitsPrefix(repo), delimiter: '/', limit: LISTED }),
      this.bucket.list({ prefix: refsPrefix(repo), limit: LISTED }),
    ]));
    const commits = commitsOf(repo, commitListing.delimitedPrefixes, commitListing.objects.map((o) => o.key));
    const refs = refListing.objects.map((o) => refNameFromKey(repo, o.key)).filter((r): r is string => r !== undefined);
    if (commits.length === 0 && refs.length === 0 && !(await this.meter.wait(this.bucket.head(repoRecordKey(repo))))) {
      return new SextantError('REPO_NOT_FOUND', `No index of repository ${repo} is published here.`,
        `Check the repository name (\`repo\`, or the URL /mcp/<owner>/<repo>), or index and publish it: \`indexer build --repo <checkout>\`, then \`indexer publish --repo-name ${repo} --ref <branch> --default\`.`,
        { repo });
    }
    const what = asked === undefined
      ? (ref === undefined ? `${repo} has no default ref` : `The default ref "${ref}" of ${repo} is not published`)
      : `${repo} has no index for ${ref !== undefined ? `ref "${ref}"` : `commit "${asked}"`}`;
    const known = [
      commits.length ? `Indexed commits: ${commits.join(', ')}${commitListing.truncated ? ', …' : ''}.` : 'No commits are indexed.',
      refs.length ? `Refs: ${refs.join(', ')}${refListing.truncated ? ', …' : ''}.` : 'No refs are published.',
    ].join(' ');
    return new SextantError('COMMIT_NOT_INDEXED', `${what}. ${known}`,
      asked === undefined && ref === undefined
        ? `Pass \`commit\` (one of the indexed commits or refs), or publish a default ref: \`indexer publish --repo-name ${repo} --ref <branch> --default\`.`
        : 'Pass one of the indexed commits or refs as `commit`, or index that commit: run `indexer build` on a checkout of it, then `indexer publish --ref <name>`.',
      { repo, requested: asked ?? null, ...(ref !== undefined ? { ref } : {}), indexedCommits: commits, refs });
  }

  private where(key: string): string {
    return `r2://${this.options.bucketName ?? 'sextant-index'}/${key}`;
  }
}

function manifestCacheKey(repo: string, commit: string): string {
  return `manifest:${repo.toLowerCase()}@${commit}`;
}

function commitsOf(repo: string, prefixes: string[], keys: string[]): string[] {
  const commits = [...prefixes, ...keys].map((key) => commitFromKey(repo, key)).filter((c): c is string => c !== undefined);
  return [...new Set(commits)].sort();
}
