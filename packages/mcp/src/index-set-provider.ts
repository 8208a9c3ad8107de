// An IndexProvider over a set of indexes of one repository, one per commit, each behind its own
// ShardSource: the runner's --index directories and --index-root, the indexer's review of a base
// and a head. Pure: where the sources come from (a directory listing) and how a ref becomes a sha
// (git) is the catalog's business, at the Node edge.
//
// A call names a commit as a full sha, an abbreviated one (at least 7 hex digits, unambiguous
// among the indexed commits) or a ref the catalog resolves; a commit the set does not know is
// looked for once more in a fresh listing (an index added since is found), then COMMIT_NOT_INDEXED
// listing what is indexed. Every call reads its manifest again, so an index rebuilt in place
// answers from the rebuilt one, never from a mix.
import { abbreviatesCommit, isCommitPrefix, isFullCommit, sameCommit, SextantError } from '@sextant/format';
import { IndexReader, type ShardCache, type ShardSource } from '@sextant/query';
import type { IndexProvider, IndexRequest } from './index-provider.ts';

/** How many indexed commits an error lists. */
const LISTED = 20;

export interface IndexCatalog {
  /** The indexes there are now. Called once at first, then again whenever a call names a commit none of them is. */
  list(): Promise<readonly ShardSource[]>;
  /** A ref (branch, tag, `HEAD~1`) as a full sha, or undefined when it names no commit or the catalog cannot resolve refs. */
  resolveRef?(ref: string): Promise<string | undefined>;
  /**
   * Which index answers a call naming no commit, chosen once from the first listing (absent: the
   * first source listed), and why, for the server's startup line.
   */
  chooseDefault?(indexes: readonly IndexedCommit[]): Promise<DefaultChoice>;
  /** How to build an index of a commit, the hint of COMMIT_NOT_INDEXED; `commit` as the call named it. */
  buildHint(commit: string): string;
}

/** One index of the set, as its manifest described it when it was listed. */
export interface IndexedCommit {
  source: ShardSource;
  repo: string;
  commit: string;
  commitDate: string;
}

export interface DefaultChoice {
  index: IndexedCommit;
  /** Why this one, e.g. "the first --index", "HEAD of /src/app". */
  reason: string;
}

export class IndexSetProvider implements IndexProvider {
  private readonly catalog: IndexCatalog;
  private readonly cache: ShardCache;
  private indexes: readonly IndexedCommit[] = [];
  private chosen?: Promise<DefaultChoice>;

  constructor(catalog: IndexCatalog, cache: ShardCache) {
    this.catalog = catalog;
    this.cache = cache;
  }

  /** The set as first listed, and the default index with the reason it was chosen. Refuses a set of several repositories or with one commit twice. */
  start(): Promise<DefaultChoice> {
    this.chosen ??= (async () => {
      this.indexes = await this.listed();
      const first = this.indexes[0];
      if (first === undefined) {
        throw new SextantError('INDEX_NOT_FOUND', 'There is no index to serve.', this.catalog.buildHint('HEAD'));
      }
      return this.catalog.chooseDefault ? this.catalog.chooseDefault(this.indexes) : { index: first, reason: 'the first index' };
    })();
    // A failed start is not kept: the next call tries again (the index may have been built since).
    this.chosen.catch(() => { this.chosen = undefined; });
    return this.chosen;
  }

  /** The indexes known now (as of the last listing). */
  known(): readonly IndexedCommit[] {
    return this.indexes;
  }

  /** The index of `commit` (a full sha), listing again when it is not known; undefined when none is. */
  async locate(commit: string): Promise<IndexedCommit | undefined> {
    await this.start();
    const wanted = commit.toLowerCase();
    const known = this.indexes.find((index) => sameCommit(index.commit, wanted));
    if (known) return known;
    this.indexes = await this.listed();
    return this.indexes.find((index) => sameCommit(index.commit, wanted));
  }

  async open({ repo, commit }: IndexRequest = {}): Promise<IndexReader> {
    const { index: fallback } = await this.start();
    const asked = commit?.trim() ?? '';
    if (repo !== undefined && repo.toLowerCase() !== fallback.repo.toLowerCase()) {
      throw new SextantError('REPO_NOT_FOUND', `This server has indexes of ${fallback.repo} only, not ${repo}.`,
        `Omit repo, or serve an index of ${repo}.`, { repo, indexedRepo: fallback.repo });
    }
    // The default is a place (the first --index, say), not a commit: rebuilt at another commit, it answers from that.
    if (asked === '') return IndexReader.open(fallback.source, this.cache);
    const { index, resolved } = await this.find(asked);
    const reader = await IndexReader.open(index.source, this.cache);
    if (sameCommit(reader.commit, index.commit)) return reader;
    // Rebuilt in place at another commit since it was listed: look again.
    this.indexes = await this.listed();
    const again = this.match(resolved ?? asked);
    if (again.length === 1) {
      const retried = await IndexReader.open(again[0]!.source, this.cache);
      if (sameCommit(retried.commit, again[0]!.commit)) return retried;
    }
    throw this.notIndexed(asked, resolved);
  }

  /** The index `asked` names: a sha or prefix of one indexed, else a ref the catalog resolves. */
  private async find(asked: string): Promise<{ index: IndexedCommit; resolved?: string }> {
    const hex = isFullCommit(asked) || isCommitPrefix(asked);
    if (hex) {
      let matches = this.match(asked);
      if (matches.length === 0) {
        this.indexes = await this.listed();
        matches = this.match(asked);
      }
      if (matches.length > 1) {
        const candidates = matches.map((m) => m.commit).sort();
        throw new SextantError('INVALID_ARGUMENT',
          `"${asked}" is ambiguous: it abbreviates ${candidates.length} indexed commits (${candidates.join(', ')}).`,
          'Pass more digits of the sha, or the full sha.', { requested: asked, candidates });
      }
      if (matches.length === 1) return { index: matches[0]! };
      if (isFullCommit(asked)) throw this.notIndexed(asked, undefined);
      // No indexed commit starts with it; a branch may still have a hex-looking name.
    }
    const resolved = await this.catalog.resolveRef?.(asked);
    if (resolved === undefined) throw this.notIndexed(asked, undefined);
    let matches = this.match(resolved);
    if (matches.length === 0 && !hex) {
      this.indexes = await this.listed();
      matches = this.match(resolved);
    }
    if (matches.length === 1) return { index: matches[0]!, resolved };
    throw this.notIndexed(asked, resolved);
  }

  private match(commit: string): IndexedCommit[] {
    return this.indexes.filter((index) => abbreviatesCommit(commit, index.commit));
  }

  /** A fresh listing, every manifest read and checked; several repositories or one commit twice are refused. */
  private async listed(): Promise<IndexedCommit[]> {
    const sources = await this.catalog.list();
    const indexes = await Promise.all(sources.map(async (source) => {
      const reader = await IndexReader.open(source, this.cache);
      return { source, repo: reader.repo, commit: reader.commit, commitDate: reader.manifest.commitDate };
    }));
    const repos = [...new Set(indexes.map((i) => i.repo.toLowerCase()))];
    if (repos.length > 1) {
      throw new SextantError('INVALID_ARGUMENT',
        `The indexes are of ${repos.length} repositories (${indexes.map((i) => `${i.repo} at ${i.source.where}`).join('; ')}); one server answers for one repository.`,
        'Serve the indexes of each repository from a runner of its own.', { repos: indexes.map((i) => ({ repo: i.repo, where: i.source.where })) });
    }
    const seen = new Map<string, IndexedCommit>();
    for (const index of indexes) {
      const twin = seen.get(index.commit);
      if (twin) {
        throw new SextantError('INVALID_ARGUMENT',
          `Two indexes are of commit ${index.commit}: ${twin.source.where} and ${index.source.where}.`,
          'Serve one of them: remove the other, or leave it out of --index.', { commit: index.commit, where: [twin.source.where, index.source.where] });
      }
      seen.set(index.commit, index);
    }
    return indexes;
  }

  private notIndexed(asked: string, resolved: string | undefined): SextantError {
    const commits = this.indexes.map((i) => i.commit).sort();
    const listed = commits.slice(0, LISTED);
    const known = commits.length === 0 ? 'No commits are indexed.'
      : `Indexed commits: ${listed.join(', ')}${commits.length > LISTED ? `, … (${commits.length} in all)` : ''}.`;
    const what = resolved !== undefined && resolved !== asked ? `"${asked}" (${resolved})` : `"${asked}"`;
    const unresolvable = resolved === undefined && !isFullCommit(asked) && this.catalog.resolveRef === undefined
      ? ' Refs cannot be resolved here (no repository is at hand), only shas.' : '';
    return new SextantError('COMMIT_NOT_INDEXED', `${what} is not an indexed commit.${unresolvable} ${known}`,
      `Pass one of the indexed commits as \`commit\`, or ${lowerFirst(this.catalog.buildHint(resolved ?? asked))}`,
      { requested: asked, ...(resolved !== undefined ? { resolved } : {}), indexedCommits: listed });
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
