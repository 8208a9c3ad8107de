// How a server finds the index a call is about. The worker opens it from R2 (by repo and commit or
// ref), the runner from a local directory; tools never know which.
import { cursorCommit, type IndexReader } from '@sextant/query';

export interface IndexRequest {
  /** owner/name; absent: the provider's own (the runner's index, the worker endpoint's repository). */
  repo?: string;
  /** A full or abbreviated sha, or a ref; absent: the default (the runner's index, the default ref). */
  commit?: string;
}

export interface IndexProvider {
  /**
   * The index of `repo` at `commit`. Throws REPO_NOT_FOUND or COMMIT_NOT_INDEXED when there is no
   * such index, never another repository's or commit's index.
   */
  open(request?: IndexRequest): Promise<IndexReader>;
}

/**
 * Opens the index a tool call names. A call that continues a cursor and names no commit answers
 * from the cursor's commit rather than from wherever the default ref points now, so paging through
 * a list survives a ref moving underneath it (cursors stay stateless: the commit is in the cursor).
 */
export function openIndex(provider: IndexProvider, args: { repo?: string; commit?: string; cursor?: string }): Promise<IndexReader> {
  const commit = args.commit ?? (args.cursor === undefined ? undefined : cursorCommit(args.cursor));
  return provider.open({ ...(args.repo !== undefined ? { repo: args.repo } : {}), ...(commit !== undefined ? { commit } : {}) });
}
