// IndexProvider for one repository stored in R2 (layout: @sextant/format object-layout). Resolves
// what a call asks for to exactly one indexed commit, or fails saying what exists and how to fix
// it; never answers from another commit. Decoded shards go to one ShardCache per isolate.
import {
  commitFromKey, commitsPrefix, isCommitPrefix, isFullCommit, manifestKey, normalizeRefName,
  parseRefRecord, parseRepoName, parseRepoRecord, refKey, refNameFromKey, refsPrefix, repoRecordKey,
  SextantError,
} from '@sextant/format';
import type { IndexProvider } from '@sextant/mcp';
import { IndexReader, ShardCache } from '@sextant/query';
import type { R2BucketLike } from './r2-bucket.ts';
import { R2ShardSource } from './r2-shard-source.ts';

/**
 * Module globals live as long as the isolate, across requests: decoded shards are reused by every
 * request to any repository (they are keyed by content hash). 32 MB leaves most of the isolate's
 * 128 MB to the request in flight.
 */
export const SHARED_SHARD_CACHE = new ShardCache(32 * 1024 * 1024);

/** How many commits or refs an error lists; listing is one cheap R2 call each. */
const LISTED = 20;

export interface R2IndexProviderOptions {
  cache?: ShardCache;
  /** Bucket name, for messages only. */
  bucketName?: string;
  /** Called with every reader opened, e.g. to log which commit answered. */
  onOpen?: (reader: IndexReader) => void;
}

interface Resolved {
  commit: string;
  manifestText: string;
}

export class R2IndexProvider implements IndexProvider {
  readonly repo: string;
  private readonly bucket: R2BucketLike;
  private readonly options: R2IndexProviderOptions;

  constructor(bucket: R2BucketLike, repo: string, options: R2IndexProviderOptions = {}) {
    parseRepoName(repo);
    this.bucket = bucket;
    this.repo = repo;
    this.options = options;
  }

  async open(commit?: string): Promise<IndexReader> {
    const resolved = await this.resolve(commit);
    const source = new R2ShardSource(this.bucket, this.repo, resolved.commit, {
      manifestText: resolved.manifestText, bucketName: this.options.bucketName,
    });
    const reader = await IndexReader.open(source, this.options.cache ?? SHARED_SHARD_CACHE);
    if (reader.commit !== resolved.commit) {
      throw new SextantError('INDEX_CORRUPT',
        `The manifest at ${source.where} is for commit ${reader.commit}, not ${resolved.commit}.`,
        'Publish the index for this commit again with `indexer publish`.');
    }
    this.options.onOpen?.(reader);
    return reader;
  }

  /**
   * absent -> repo.json's defaultRef -> that ref; 40 hex -> that commit; 7..39 hex -> the unique
   * indexed commit with that prefix (else a ref of that name); anything else -> a ref name.
   */
  async resolve(requested?: string): Promise<Resolved> {
    const asked = requested?.trim() ?? '';
    if (asked === '') {
      const record = await this.bucket.get(repoRecordKey(this.repo));
      if (!record) throw await this.notIndexed(undefined);
      const { defaultRef } = parseRepoRecord(await record.text(), this.where(repoRecordKey(this.repo)));
      return this.fromRef(defaultRef, undefined);
    }
    if (isFullCommit(asked)) return this.fromCommit(asked.toLowerCase(), asked);
    if (isCommitPrefix(asked)) {
      const matches = await this.commitsWithPrefix(asked.toLowerCase());
      if (matches.length === 1) return this.fromCommit(matches[0]!, asked);
      if (matches.length > 1) {
        throw new SextantError('INVALID_ARGUMENT',
          `"${asked}" is ambiguous in ${this.repo}: it abbreviates ${matches.length} indexed commits (${matches.join(', ')}).`,
          'Pass more digits of the sha, or the full sha.', { requested: asked, candidates: matches });
      }
      // No indexed commit starts with it; a branch may still have a hex-looking name.
      const ref = await this.bucket.get(refKey(this.repo, asked));
      if (ref) return this.fromRefRecord(asked, await ref.text(), asked);
      throw await this.notIndexed(asked);
    }
    return this.fromRef(normalizeRefName(asked), asked);
  }

  private async fromRef(ref: string, asked: string | undefined): Promise<Resolved> {
    const object = await this.bucket.get(refKey(this.repo, ref));
    if (!object) throw await this.notIndexed(asked, ref);
    return this.fromRefRecord(ref, await object.text(), asked);
  }

  private async fromRefRecord(ref: string, text: string, asked: string | undefined): Promise<Resolved> {
    const { commit } = parseRefRecord(text, this.where(refKey(this.repo, ref)));
    const manifest = await this.bucket.get(manifestKey(this.repo, commit));
    if (!manifest) {
      throw new SextantError('COMMIT_NOT_INDEXED',
        `Ref "${ref}" of ${this.repo} points at ${commit}, but that commit's index is missing from the store.`,
        'Publish the index for that commit again (`indexer build` at that commit, then `indexer publish --ref ' + ref + '`).',
        { repo: this.repo, requested: asked ?? null, ref, commit });
    }
    return { commit, manifestText: await manifest.text() };
  }

  private async fromCommit(commit: string, asked: string): Promise<Resolved> {
    const manifest = await this.bucket.get(manifestKey(this.repo, commit));
    if (!manifest) throw await this.notIndexed(asked);
    return { commit, manifestText: await manifest.text() };
  }

  private async commitsWithPrefix(prefix: string): Promise<string[]> {
    const listing = await this.bucket.list({ prefix: commitsPrefix(this.repo) + prefix, delimiter: '/', limit: 100 });
    return commitsOf(this.repo, listing.delimitedPrefixes, listing.objects.map((o) => o.key));
  }

  /**
   * The error for "nothing indexed answers this": REPO_NOT_FOUND when the store has nothing of the
   * repository, else COMMIT_NOT_INDEXED naming the indexed commits and refs (one list call each).
   */
  private async notIndexed(asked: string | undefined, ref?: string): Promise<SextantError> {
    const [commitListing, refListing] = await Promise.all([
      this.bucket.list({ prefix: commitsPrefix(this.repo), delimiter: '/', limit: LISTED }),
      this.bucket.list({ prefix: refsPrefix(this.repo), limit: LISTED }),
    ]);
    const commits = commitsOf(this.repo, commitListing.delimitedPrefixes, commitListing.objects.map((o) => o.key));
    const refs = refListing.objects.map((o) => refNameFromKey(this.repo, o.key)).filter((r): r is string => r !== undefined);
    if (commits.length === 0 && refs.length === 0 && !(await this.bucket.head(repoRecordKey(this.repo)))) {
      return new SextantError('REPO_NOT_FOUND', `No index of repository ${this.repo} is published here.`,
        `Check the owner/name in the URL (/mcp/<owner>/<repo>), or index and publish it: \`indexer build --repo <checkout>\`, then \`indexer publish --repo-name ${this.repo} --ref <branch> --default\`.`,
        { repo: this.repo });
    }
    const what = asked === undefined
      ? (ref === undefined ? `${this.repo} has no default ref` : `The default ref "${ref}" of ${this.repo} is not published`)
      : `${this.repo} has no index for ${ref !== undefined ? `ref "${ref}"` : `commit "${asked}"`}`;
    const known = [
      commits.length ? `Indexed commits: ${commits.join(', ')}${commitListing.truncated ? ', …' : ''}.` : 'No commits are indexed.',
      refs.length ? `Refs: ${refs.join(', ')}${refListing.truncated ? ', …' : ''}.` : 'No refs are published.',
    ].join(' ');
    return new SextantError('COMMIT_NOT_INDEXED', `${what}. ${known}`,
      asked === undefined && ref === undefined
        ? `Pass \`commit\` (one of the indexed commits or refs), or publish a default ref: \`indexer publish --repo-name ${this.repo} --ref <branch> --default\`.`
        : 'Pass one of the indexed commits or refs as `commit`, or index that commit: run `indexer build` on a checkout of it, then `indexer publish --ref <name>`.',
      { repo: this.repo, requested: asked ?? null, ...(ref !== undefined ? { ref } : {}), indexedCommits: commits, refs });
  }

  private where(key: string): string {
    return `r2://${this.options.bucketName ?? 'sextant-index'}/${key}`;
  }
}

function commitsOf(repo: string, prefixes: string[], keys: string[]): string[] {
  const commits = [...prefixes, ...keys].map((key) => commitFromKey(repo, key)).filter((c): c is string => c !== undefined);
  return [...new Set(commits)].sort();
}
