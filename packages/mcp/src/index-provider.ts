// How a server finds the index a call is about. The worker opens it from R2 (by repo and commit or
// ref), the runner from a local directory; tools never know which.
import type { IndexReader } from '@sextant/query';

export interface IndexProvider {
  /**
   * The index for `commit` (a full or abbreviated sha, or a ref), or the default one when absent.
   * Throws COMMIT_NOT_INDEXED when there is no index for it, never another commit's index.
   */
  open(commit?: string): Promise<IndexReader>;
}
