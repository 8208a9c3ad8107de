// Which index a runner command uses when it is given none: `.sextant/index` of the working tree
// (what `indexer build` writes), else the index of HEAD in `.sextant/indexes/` (what `indexer
// review` leaves), said on stderr. With neither, INDEX_NOT_FOUND names the indexes that are there
// and the command that builds the missing one, rather than a generic hint.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { MANIFEST_FILE, SextantError, shortCommit } from '@sextant/format';
import { SEXTANT_DIR } from '@sextant/query/node';
import { indexDirsIn } from './local-index-provider.ts';

const run = promisify(execFile);

/** The default index of the working tree at `repo`, and a line saying why when it is not `.sextant/index`. */
export async function defaultIndexOf(repo: string): Promise<{ dir: string; note?: string }> {
  const built = join(repo, SEXTANT_DIR, 'index');
  if (await isIndexDir(built)) return { dir: built };
  const root = join(repo, SEXTANT_DIR, 'indexes');
  // An index root that is not there holds nothing: that is the case worth a hint, not an error of its own.
  const reviewed = (await indexDirsIn(root).catch(() => [])).map((dir) => basename(dir));
  const head = await headOf(repo);
  const atHead = head === undefined ? undefined : reviewed.find((name) => name === head);
  if (atHead !== undefined) {
    const dir = join(root, atHead);
    return { dir, note: `sextant runner: no index at ${relative(repo, built) || built}; using ${relative(repo, dir)}, the index of HEAD (${shortCommit(atHead)}) that indexer review built.` };
  }
  const listed = reviewed.slice(0, 5).map((name) => join(relative(repo, root), name));
  throw new SextantError('INDEX_NOT_FOUND',
    `No index at ${built}${reviewed.length > 0 ? `, and none of HEAD${head ? ` (${shortCommit(head)})` : ''} in ${root}, which holds ${reviewed.length}: ${listed.join(', ')}${reviewed.length > 5 ? ', …' : ''}` : ''}.`,
    reviewed.length > 0
      ? `Run \`indexer build\` in ${repo} to index HEAD into ${relative(repo, built)}, or pass --index with one of those to plan against its commit.`
      : `Run \`indexer build\` in ${repo} (it writes ${relative(repo, built)}), or pass --index with the directory of an index you built elsewhere.`);
}

async function isIndexDir(dir: string): Promise<boolean> {
  return stat(join(dir, MANIFEST_FILE)).then((s) => s.isFile(), () => false);
}

async function headOf(repo: string): Promise<string | undefined> {
  try {
    return (await run('git', ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: repo, encoding: 'utf8' })).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}
