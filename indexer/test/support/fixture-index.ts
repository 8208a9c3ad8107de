// A fixture directory indexed the way `indexer build` indexes a repository (committed to git first,
// then built at HEAD) and opened for queries: what tests of query answers over real indexes need.
import { IndexReader, ShardCache } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { buildIndex } from '../../src/build-command.ts';
import { Progress } from '../../src/progress.ts';
import { fixtureRepo } from './fixture-repo.ts';

/** Indexes the files of `source` into `out` and opens the index. */
export async function openFixtureIndex(source: string, out: string): Promise<IndexReader> {
  const repo = fixtureRepo(source);
  try {
    await buildIndex({ repo: repo.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
    return await IndexReader.open(new DirShardSource(out), new ShardCache(16 << 20));
  } finally {
    repo.cleanup();
  }
}
