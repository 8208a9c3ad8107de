// The review benches' IndexProvider: the indexes of a few commits of one corpus, each an index
// directory, opened through DirShardSource with one ShardCache (new for a cold call, kept for a
// warm one). It counts what a call costs: the readers the tools opened (their shardsRead and
// shardsFetched) and the bytes the directories handed out.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { abbreviatesCommit, MANIFEST_FILE, SextantError, shortCommit, type ShardEntry } from '@sextant/format';
import type { IndexProvider, IndexRequest } from '@sextant/mcp';
import { IndexReader, ShardCache, type ShardSource } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';

/** The bytes a source handed out, counted. */
class CountingSource implements ShardSource {
  readonly where: string;
  bytes = 0;
  private readonly inner: DirShardSource;

  constructor(dir: string) {
    this.inner = new DirShardSource(dir);
    this.where = this.inner.where;
  }

  async readManifest(): Promise<string> {
    const text = await this.inner.readManifest();
    this.bytes += Buffer.byteLength(text);
    return text;
  }

  recordedManifestSha256(): Promise<{ expected: string | undefined; recordedIn: string }> {
    return this.inner.recordedManifestSha256();
  }

  async readShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    const bytes = await this.inner.readShard(name, entry);
    this.bytes += bytes?.byteLength ?? 0;
    return bytes;
  }
}

export interface CallCost {
  /** Shards the readers asked for (cached or not), and those they had to read from the directory. */
  shardsRead: number;
  shardsFetched: number;
  /** Bytes read from the index directories: manifests and shards. */
  bytes: number;
}

export class BenchIndexSet implements IndexProvider {
  cache: ShardCache;
  private readonly sources: { commit: string; source: CountingSource }[];
  private opened: IndexReader[] = [];

  private constructor(sources: { commit: string; source: CountingSource }[], cache: ShardCache) {
    this.sources = sources;
    this.cache = cache;
  }

  /** Over index directories written by `indexer build`, each of a different commit. */
  static async of(dirs: string[], cacheBytes = 256 << 20): Promise<BenchIndexSet> {
    const sources = await Promise.all(dirs.map(async (dir) => {
      const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as { commit: string };
      return { commit: manifest.commit, source: new CountingSource(dir) };
    }));
    return new BenchIndexSet(sources, new ShardCache(cacheBytes));
  }

  /** Forgets the counts (and, for a cold call, the cache). */
  reset({ cold }: { cold: boolean }): void {
    if (cold) this.cache = new ShardCache(this.cache.maxBytes);
    this.opened = [];
    for (const { source } of this.sources) source.bytes = 0;
  }

  cost(): CallCost {
    return {
      shardsRead: this.opened.reduce((n, r) => n + r.shardsRead.length, 0),
      shardsFetched: this.opened.reduce((n, r) => n + r.shardsFetched.length, 0),
      bytes: this.sources.reduce((n, s) => n + s.source.bytes, 0),
    };
  }

  async open({ commit }: IndexRequest = {}): Promise<IndexReader> {
    const found = commit === undefined ? this.sources.at(-1) : this.sources.find((s) => abbreviatesCommit(commit, s.commit));
    if (!found) {
      throw new SextantError('COMMIT_NOT_INDEXED', `${commit} is not one of the bench's indexes (${this.sources.map((s) => shortCommit(s.commit)).join(', ')}).`,
        'Name one of the commits the bench indexed.');
    }
    const reader = await IndexReader.open(found.source, this.cache);
    this.opened.push(reader);
    return reader;
  }
}
