// The runner's indexes on disk: the --index directories, and every immediate subdirectory of an
// --index-root that holds a manifest.json (one commit's index each, as `indexer review` leaves them
// in .sextant/indexes/), all of one repository. Resolving a call's commit is IndexSetProvider's
// (@sextant/mcp); this is the Node edge: listing directories, and refs resolved with git in --repo.
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ioErrorOf, MANIFEST_FILE, sameCommit, SextantError, shortCommit } from '@sextant/format';
import { ShardCache, type ShardSource } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { IndexSetProvider, type DefaultChoice, type IndexCatalog, type IndexedCommit } from '@sextant/mcp';

const run = promisify(execFile);

interface LocalIndexOptions {
  /** Index directories (--index), in the order given; the first answers a call naming no commit. */
  indexes?: readonly string[];
  /** A directory of index directories (--index-root), listed again when a call names a commit not yet known. */
  indexRoot?: string;
  /** The git repository refs are resolved in (--repo); with only an index root, its HEAD is the default. */
  repoDir?: string;
  /** Why the first index is the default, for the startup line (default: it is the first --index). */
  firstReason?: string;
}

export class LocalIndexProvider extends IndexSetProvider {
  /** `indexes`: one index directory, or the options of a set. */
  constructor(indexes: string | LocalIndexOptions, repoDir?: string) {
    const options = typeof indexes === 'string' ? { indexes: [indexes], repoDir } : indexes;
    // One cache for every index: a shard two commits share (same sha256) is decoded once.
    super(new DirIndexCatalog(options), new ShardCache(256 * 1024 * 1024));
  }

  /** The directory of the index that answers a call naming no commit. */
  async defaultIndexDir(): Promise<string> {
    return (await this.start()).index.source.where;
  }

  /** The directory of the index of `commit` (a full sha), listing again when it is not known; undefined when none is. */
  async indexDirOf(commit: string): Promise<string | undefined> {
    return (await this.locate(commit))?.source.where;
  }
}

class DirIndexCatalog implements IndexCatalog {
  private readonly indexes: readonly string[];
  private readonly indexRoot?: string;
  private readonly repoDir?: string;
  private readonly firstReason: string;

  constructor(options: LocalIndexOptions) {
    this.firstReason = options.firstReason ?? 'the first --index';
    this.indexes = (options.indexes ?? []).map((dir) => resolve(dir));
    this.indexRoot = options.indexRoot === undefined ? undefined : resolve(options.indexRoot);
    this.repoDir = options.repoDir === undefined ? undefined : resolve(options.repoDir);
    if (this.repoDir === undefined) this.resolveRef = undefined;
  }

  async list(): Promise<readonly ShardSource[]> {
    const dirs = [...this.indexes];
    if (this.indexRoot !== undefined) {
      for (const dir of await indexDirsIn(this.indexRoot)) if (!dirs.includes(dir)) dirs.push(dir);
    }
    return dirs.map((dir) => new DirShardSource(dir));
  }

  resolveRef? = async (ref: string): Promise<string | undefined> => {
    // A ref never starts with '-' (git check-ref-format); refusing one keeps it from being read as an option.
    if (ref.startsWith('-')) return undefined;
    try {
      const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: this.repoDir });
      return stdout.trim().toLowerCase() || undefined;
    } catch {
      return undefined;
    }
  };

  async chooseDefault(indexes: readonly IndexedCommit[]): Promise<DefaultChoice> {
    if (this.indexes.length > 0) {
      const first = indexes.find((index) => index.source.where === this.indexes[0]);
      if (first) return { index: first, reason: this.firstReason };
    }
    let headNote = '';
    if (this.repoDir !== undefined) {
      const head = await this.resolveRef!('HEAD');
      const atHead = head === undefined ? undefined : indexes.find((index) => sameCommit(index.commit, head));
      if (atHead) return { index: atHead, reason: `HEAD of ${this.repoDir}` };
      headNote = head === undefined ? `; ${this.repoDir} has no HEAD` : `; HEAD of ${this.repoDir}, ${shortCommit(head)}, is not indexed`;
    }
    const newest = [...indexes].sort((a, b) => Date.parse(b.commitDate) - Date.parse(a.commitDate))[0]!;
    return { index: newest, reason: `the newest commit by commit date${headNote}` };
  }

  buildHint(commit: string): string {
    const repo = this.repoDir === undefined ? '' : ` --repo ${this.repoDir}`;
    return this.indexRoot !== undefined
      ? `Build one into the index root (picked up at the next call): \`indexer build${repo} --commit ${commit} --out ${join(this.indexRoot, '<sha>')}\`, or run \`indexer review\`.`
      : `Build one with \`indexer build${repo} --commit ${commit} --out <dir>\` and serve it with another --index <dir> (or serve a directory of indexes with --index-root).`;
  }
}

/** The immediate subdirectories of `root` that hold a manifest.json, by name; dot-directories (builds in progress) left out. */
export async function indexDirsIn(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SextantError('INDEX_NOT_FOUND', `The index root ${root} does not exist.`,
        'Pass a directory of index directories with --index-root, such as <repo>/.sextant/indexes (`indexer review` fills it).');
    }
    throw ioErrorOf(error) ?? error;
  }
  const dirs: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const dir = join(root, entry.name);
    try {
      if ((await stat(join(dir, MANIFEST_FILE))).isFile()) dirs.push(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioErrorOf(error) ?? error;
    }
  }
  return dirs;
}
