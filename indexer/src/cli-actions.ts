// What the `indexer` commands do once their arguments are read. The command line takes these as a
// parameter (as scip-typescript's mainCommand(indexAction)), so its argument parsing is tested
// with recording actions and no index is built; INDEXER_ACTIONS are the real ones. Each loads its
// module only when run: `publish` and `gc` start without the compiler, `build` without the MCP tools.
import { resolve } from 'node:path';
import { Progress } from './progress.ts';

export const REVIEW_FORMATS = ['markdown', 'text', 'json'] as const;
export type ReviewFormat = (typeof REVIEW_FORMATS)[number];

/** `indexer build`, its defaults applied. */
export interface BuildRequest {
  repo: string;
  commit: string;
  /** Absent: <repo>/.sextant/index, checked by workingTreeIndexPath. */
  out?: string;
  repoName?: string;
  maxFileBytes: number;
  quiet: boolean;
  verbose: boolean;
  /** An index directory of another commit to build from (incremental). */
  from?: string;
  /** Or a published index to build from: of a ref or a commit, in the store of `indexer publish`. */
  fromPublished?: { ref: string } | { commit: string };
  /** With fromPublished: publish's store options (--local, --persist-to, --config). */
  store?: { local: boolean; 'persist-to'?: string; config?: string };
  /** With from: the share of changed sources above which the build is in full. */
  maxChangedShare?: number;
  /** SCIP index files to import (--scip, repeatable). */
  scip?: string[];
  /** false: run no SCIP indexer by itself (--no-auto-scip). */
  autoScip?: boolean;
}

/** `indexer review`, its defaults applied. */
export interface ReviewRequest {
  base: string;
  head: string;
  repo: string;
  outRoot?: string;
  maxFileBytes: number;
  quiet: boolean;
  format: ReviewFormat;
}

export interface IndexerActions {
  build(request: BuildRequest): Promise<void>;
  review(request: ReviewRequest): Promise<void>;
  /** `publish` and `gc` read their own arguments (and print their own usage). */
  publish(argv: string[]): Promise<number>;
  gc(argv: string[]): Promise<number>;
}

export const INDEXER_ACTIONS: IndexerActions = {
  async build(request) {
    const { buildIndex, repoNameOf } = await import('./build-command.ts');
    if (request.fromPublished) {
      // The published index is brought into a temporary directory and built from.
      const { withPublishedIndex } = await import('./incremental/published-index.ts');
      const { openWranglerStore } = await import('./publish/object-store.ts');
      const { storeOptionsFrom } = await import('./publish/store-options.ts');
      const { resolveCommit } = await import('./git/git-snapshot.ts');
      const { root } = await resolveCommit(resolve(request.repo), request.commit);
      const published = request.fromPublished;
      const from = 'commit' in published ? { commit: (await resolveCommit(root, published.commit)).commit } : published;
      const store = await openWranglerStore(storeOptionsFrom(request.store ?? { local: false }));
      await withPublishedIndex(store, request.repoName ?? repoNameOf(root), from, (dir) => INDEXER_ACTIONS.build({ ...request, fromPublished: undefined, from: dir }));
      return;
    }
    await buildIndex({
      repo: resolve(request.repo),
      commit: request.commit,
      out: request.out === undefined ? undefined : resolve(request.out),
      repoName: request.repoName,
      maxFileBytes: request.maxFileBytes,
      progress: new Progress(process.stderr, request.quiet),
      verbose: request.verbose,
      ...(request.from !== undefined ? { from: resolve(request.from) } : {}),
      ...(request.maxChangedShare !== undefined ? { maxChangedShare: request.maxChangedShare } : {}),
      ...(request.scip !== undefined ? { scip: request.scip.map((file) => resolve(file)) } : {}),
      ...(request.autoScip === false ? { autoScip: false } : {}),
    });
  },
  async review(request) {
    const { prepareReview, reviewOutput } = await import('./review-command.ts');
    const prepared = await prepareReview({
      base: request.base, head: request.head, repo: request.repo, outRoot: request.outRoot, maxFileBytes: request.maxFileBytes,
      progress: new Progress(process.stderr, request.quiet),
    });
    process.stdout.write(await reviewOutput(prepared, request.format));
  },
  async publish(argv) {
    const { publishCommand } = await import('./publish/publish-command.ts');
    return await publishCommand(argv);
  },
  async gc(argv) {
    const { gcCommand } = await import('./publish/gc-command.ts');
    return await gcCommand(argv);
  },
};
