// The runner answers from one local index: a call for any other commit is refused, never answered
// from this one. Refs are resolved with git when the repository is at hand.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SextantError, sameCommit } from '@sextant/format';
import { IndexReader, ShardCache } from '@sextant/query';
import type { IndexProvider, IndexRequest } from '@sextant/mcp';
import { DirShardSource } from './dir-shard-source.ts';

const run = promisify(execFile);

export class LocalIndexProvider implements IndexProvider {
  private readonly source: DirShardSource;
  private readonly cache = new ShardCache(256 * 1024 * 1024);
  private readonly repoDir?: string;

  constructor(indexDir: string, repoDir?: string) {
    this.source = new DirShardSource(indexDir);
    this.repoDir = repoDir;
  }

  async open({ repo, commit }: IndexRequest = {}): Promise<IndexReader> {
    // Re-read the manifest on every call: an index rebuilt in place is picked up, never mixed.
    const reader = await IndexReader.open(this.source, this.cache);
    if (repo !== undefined && repo.toLowerCase() !== reader.repo.toLowerCase()) {
      throw new SextantError('REPO_NOT_FOUND', `This runner serves ${reader.repo} only, not ${repo}.`,
        `Omit repo, or start a runner on an index of ${repo} (\`runner mcp --index <dir>\`).`, { repo, indexedRepo: reader.repo });
    }
    if (commit === undefined || sameCommit(reader.commit, commit)) return reader;
    const resolved = await this.resolveRef(commit);
    if (resolved && resolved === reader.commit) return reader;
    throw new SextantError('COMMIT_NOT_INDEXED',
      `${commit}${resolved ? ` (${resolved.slice(0, 12)})` : ''} is not the indexed commit; this index is ${reader.repo}@${reader.commit.slice(0, 12)}.`,
      `Omit commit to use ${reader.commit.slice(0, 12)}, or build an index of that commit with \`indexer build --commit ${commit}\`.`,
      { indexedCommit: reader.commit });
  }

  private async resolveRef(ref: string): Promise<string | undefined> {
    if (!this.repoDir) return undefined;
    try {
      const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: this.repoDir });
      return stdout.trim() || undefined;
    } catch {
      return undefined;
    }
  }
}
