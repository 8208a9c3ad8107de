// Keeps the indexes Sextant writes inside a working tree (.sextant/index of `indexer build`,
// .sextant/indexes/ of `indexer review`) out of `git status`: the first write adds `.sextant/` to
// the repository's exclude file, which is local to the clone and never committed, unlike
// .gitignore (that one is the user's). One implementation for every command that writes there.
import { execFile } from 'node:child_process';
import { appendFile, mkdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { SEXTANT_DIR } from '@sextant/query/node';

const run = promisify(execFile);

/** No leading slash: like the default `<--repo>/.sextant/index`, it matches a .sextant/ at any depth. */
const EXCLUDE_LINE = `${SEXTANT_DIR}/`;

/**
 * Whether writing `path` writes into the working tree at `root` under a `.sextant` directory (the
 * paths the exclude line covers). Both sides are compared as real paths: git reports `root`
 * with symbolic links resolved, and `path` need not exist yet.
 */
export async function isUnderSextantDir(path: string, root: string): Promise<boolean> {
  const rel = relative(await realpathOfExisting(root), await realpathOfExisting(path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  return rel.split(sep).includes(SEXTANT_DIR);
}

/**
 * Adds `.sextant/` to the exclude file of the repository whose working tree is `root`, unless git
 * ignores it already or the line is there. The file is found with `git rev-parse --git-path`, so
 * a linked worktree (where .git is a file) uses the exclude file its repository reads; info/ is
 * created when absent. Idempotent.
 */
export async function excludeSextantDir(root: string): Promise<void> {
  const ignored = await run('git', ['check-ignore', '-q', '--no-index', EXCLUDE_LINE], { cwd: root }).then(() => true, () => false);
  if (ignored) return;
  const { stdout } = await run('git', ['rev-parse', '--git-path', 'info/exclude'], { cwd: root, encoding: 'utf8' });
  const exclude = resolve(root, stdout.trim());
  const text = await readFile(exclude, 'utf8').catch(() => '');
  // A negation elsewhere (`!.sextant/` in a .gitignore) defeats check-ignore; the line is still added only once.
  if (text.split(/\r?\n/).some((line) => line.trim() === EXCLUDE_LINE)) return;
  await mkdir(dirname(exclude), { recursive: true });
  await appendFile(exclude, `${text === '' || text.endsWith('\n') ? '' : '\n'}# indexes written by Sextant (indexer build, indexer review)\n${EXCLUDE_LINE}\n`);
}

/** The real path of the deepest existing ancestor of `path`, with the rest of `path` after it. */
async function realpathOfExisting(path: string): Promise<string> {
  const rest: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return join(await realpath(at), ...rest);
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(path);
      rest.unshift(basename(at));
      at = parent;
    }
  }
}
