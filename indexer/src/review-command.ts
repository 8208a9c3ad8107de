// `indexer review --base <ref> [--head <ref>]`: what a change between two commits does, at the
// symbol level. Both commits are indexed into <repo>/.sextant/indexes/<sha>/ (an index already
// there is reused when it opens and is of that commit), then the MCP tools diff_symbols and
// change_impact answer over the two, exactly as the hosted worker and `runner mcp` would.
//
// An index is built in a dot-directory beside the others and renamed into place whole, so a build
// killed half-way never leaves a directory that looks like an index (`runner mcp --index-root`
// never lists dot-directories). A repository that tracks a .sextant/ path could ship a ready-made
// "index" of any commit, so review refuses to read or build there unless --out-root is elsewhere.
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { sameCommit, SextantError, shortCommit } from '@sextant/format';
import { IndexReader, ShardCache } from '@sextant/query';
import { DirShardSource, SEXTANT_DIR, workingTreeIndexPath } from '@sextant/query/node';
import { IndexSetProvider, READ_TOOLS, type IndexCatalog, type ToolDefinition } from '@sextant/mcp';
import { buildIndex } from './build-command.ts';
import { ensureReplaceable } from './shards/shard-writer.ts';
import type { ReviewFormat } from './cli-actions.ts';
import { excludeSextantDir } from './git/git-exclude.ts';
import { resolveCommit } from './git/git-snapshot.ts';
import { Progress } from './progress.ts';

export interface ReviewOptions {
  base: string;
  head: string;
  /** Any directory inside the working tree. */
  repo: string;
  /** Where the indexes live, one directory per commit; default <repo>/.sextant/indexes. */
  outRoot?: string;
  maxFileBytes: number;
  progress: Progress;
}

/** The two commits of a review and their indexes, ready to be read. */
export interface PreparedReview {
  root: string;
  outRoot: string;
  base: { commit: string; dir: string; built: boolean };
  head: { commit: string; dir: string; built: boolean };
}

/** Resolves both refs, and finds or builds the index of each commit. */
export async function prepareReview(options: ReviewOptions): Promise<PreparedReview> {
  const base = await resolveCommit(resolve(options.repo), options.base);
  const head = await resolveCommit(resolve(options.repo), options.head);
  const root = base.root;
  // The default, and any --out-root inside .sextant/, is only a real directory git tracks nothing in.
  const outRoot = options.outRoot === undefined ? workingTreeIndexPath(root, 'indexes', '--out-root') : resolve(options.outRoot);
  if (isWithin(outRoot, join(root, SEXTANT_DIR))) {
    if (options.outRoot !== undefined) workingTreeIndexPath(root, 'indexes', '--out-root');
    await excludeSextantDir(root);
  }
  await mkdir(outRoot, { recursive: true });
  const cache = new ShardCache(64 * 1024 * 1024);
  const indexOf = async (commit: string, from?: string) => {
    const dir = join(outRoot, commit);
    if (await isIndexOf(dir, commit, cache)) return { commit, dir, built: false };
    await buildInto(dir, commit, root, options, from);
    return { commit, dir, built: true };
  };
  const baseIndex = await indexOf(base.commit);
  // The head is built from the base's index: at the cost of the change (incremental-plan.ts).
  const headIndex = sameCommit(head.commit, base.commit) ? { ...baseIndex } : await indexOf(head.commit, baseIndex.dir);
  return { root, outRoot, base: baseIndex, head: headIndex };
}

/** Whether `dir` holds a complete index of `commit`: it opens (manifest, its recorded sha256, its checks) and names that commit. */
export async function isIndexOf(dir: string, commit: string, cache: ShardCache): Promise<boolean> {
  try {
    return sameCommit((await IndexReader.open(new DirShardSource(dir), cache)).commit, commit);
  } catch (error) {
    if (error instanceof SextantError) return false;
    throw error;
  }
}

/** Builds the index of `commit` (from the index in `from`, when given) in a dot-directory of the out root, then renames it to `dir` whole. */
async function buildInto(dir: string, commit: string, root: string, options: ReviewOptions, from?: string): Promise<void> {
  const building = await mkdtemp(join(dirname(dir), `.building-${shortCommit(commit)}-`));
  try {
    const built = join(building, 'index');
    await buildIndex({ repo: root, commit, out: built, maxFileBytes: options.maxFileBytes, progress: options.progress, ...(from ? { from } : {}) });
    // What is at `dir` is no index of this commit (checked above): a corrupt or stale index goes,
    // anything else stays and the review stops.
    await ensureReplaceable(dir);
    await rm(dir, { recursive: true, force: true });
    try {
      await rename(built, dir);
    } catch (error) {
      // Another review built the same commit meanwhile: its index is as good as ours.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !(await isIndexOf(dir, commit, new ShardCache(1 << 20)))) throw error;
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/** The answers of diff_symbols and change_impact over the two indexes, in `format`. */
export async function reviewOutput(prepared: PreparedReview, format: ReviewFormat): Promise<string> {
  const sources = [new DirShardSource(prepared.base.dir), ...(prepared.head.dir === prepared.base.dir ? [] : [new DirShardSource(prepared.head.dir)])];
  const catalog: IndexCatalog = {
    list: async () => sources,
    chooseDefault: async (indexes) => ({ index: indexes.find((i) => sameCommit(i.commit, prepared.head.commit))!, reason: 'the head' }),
    buildHint: (commit) => `Run \`indexer review\` with that commit as --base or --head (${commit}).`,
  };
  const provider = new IndexSetProvider(catalog, new ShardCache(256 * 1024 * 1024));
  const args = { base: prepared.base.commit, head: prepared.head.commit, ...(format === 'markdown' ? { format: 'markdown' } : {}) };
  const context = { signPlan: async <P>(plan: P) => plan };
  const results: Record<string, unknown> = {};
  const parts: string[] = [];
  // The review comment is change_impact's alone: it lists the changed symbols itself, under its one heading.
  for (const name of format === 'markdown' ? ['change_impact'] : ['diff_symbols', 'change_impact']) {
    const tool = toolNamed(name);
    const parsed = tool.input.parse(args);
    const result = await tool.run(provider, parsed, context) as Record<string, unknown>;
    results[name] = result;
    if (format !== 'json') parts.push(tool.render(result, parsed).trimEnd());
  }
  return format === 'json' ? `${JSON.stringify(results, null, 2)}\n` : `${parts.join('\n\n')}\n`;
}

function toolNamed(name: string): ToolDefinition {
  const tool = READ_TOOLS.find((t) => t.name === name);
  if (!tool) throw new SextantError('INTERNAL', `This build of Sextant has no ${name} tool.`, 'Update the Sextant checkout the indexer runs from.');
  return tool;
}

function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

