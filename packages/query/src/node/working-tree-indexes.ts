// Where a working tree keeps the indexes Sextant builds of it: `.sextant/index` (`indexer build`)
// and `.sextant/indexes/<sha>` (`indexer review`). A clone can contain any file, a `.sextant` that
// is a symbolic link (to `..`, to /tmp/anything) or a committed "index" included, so the default
// place is only ever a real directory of the tree that git tracks nothing in, reached through no
// symbolic link. The writers (the indexer) refuse anything else; the reader (the runner) serves an
// index reached through a link but does not vouch for plans made from it.
import { execFileSync } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import { SextantError } from '@sextant/format';

/** The directory of a working tree that holds Sextant's indexes of it. */
export const SEXTANT_DIR = '.sextant';

/** What lives under `.sextant/`: one index (`indexer build`), or one per commit (`indexer review`). */
type WorkingTreeIndexPlace = 'index' | 'indexes';

/**
 * Every component of `path` (made absolute; `..` folded as written) that is a symbolic link, from
 * the file system's root down, in order. Links are read with lstat, so a link is reported where it
 * stands, not where it leads.
 */
function symlinksOnPath(path: string): string[] {
  const absolute = resolve(path);
  const { root } = parse(absolute);
  const prefixes: string[] = [];
  for (const segment of absolute.slice(root.length).split(sep).filter(Boolean)) prefixes.push(join(prefixes.at(-1) ?? root, segment));
  return prefixes.filter(isSymlink);
}

/** The working tree `dir` is inside (as git reports it, links resolved), or undefined outside any. */
function workTreeOf(dir: string): string | undefined {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The default place of `place` in the working tree at `root` (git's top level), checked before
 * anything is written there: `.sextant` and `.sextant/<place>` are refused when either is a
 * symbolic link (PATH_OUTSIDE_ROOT naming it: a clone could commit `.sextant -> ..` and have the
 * build replace `../index`), and when git tracks anything under `.sextant/` (INVALID_ARGUMENT: a
 * repository could ship a ready-made "index" of any commit there). `option` is the flag that
 * names another place (`--out`, `--out-root`), for the hint.
 */
export function workingTreeIndexPath(root: string, place: WorkingTreeIndexPlace, option: string): string {
  const path = join(root, SEXTANT_DIR, place);
  const link = [join(root, SEXTANT_DIR), path].find(isSymlink);
  if (link !== undefined) {
    let target = '';
    try {
      target = ` to ${readlinkSync(link)}`;
    } catch {
      // gone meanwhile: the refusal stands without it
    }
    throw new SextantError('PATH_OUTSIDE_ROOT',
      `${relative(root, link)} in ${root} is a symbolic link${target}: Sextant writes its indexes only into a real ${SEXTANT_DIR} directory of the working tree, and never follows a link there, since a clone can commit one that leads anywhere.`,
      `Remove the link (rm ${link}) to have Sextant create the directory, or pass ${option} with a directory of your choice.`,
      { path: relative(root, link), link, target: target.slice(4) || null });
  }
  const tracked = trackedUnder(root, SEXTANT_DIR);
  if (tracked.length > 0) {
    throw new SextantError('INVALID_ARGUMENT',
      `${root} tracks ${tracked.length} file${tracked.length === 1 ? '' : 's'} under ${SEXTANT_DIR}/ (${tracked.slice(0, 3).join(', ')}${tracked.length > 3 ? ', …' : ''}): an index there could have come with the repository instead of being built here.`,
      `Pass ${option} with a directory outside ${SEXTANT_DIR}/ (for example one in your home directory), or remove ${SEXTANT_DIR}/ from the repository.`,
      { tracked: tracked.slice(0, 20) });
  }
  return path;
}

/** Whether `path` itself is a symbolic link (false when nothing is there). */
function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The paths git tracks at or under `path` of the working tree at `root` (in the index, so staged ones count). */
function trackedUnder(root: string, path: string): string[] {
  const listed = execFileSync('git', ['-C', root, 'ls-files', '-z', '--', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return listed.split('\0').filter(Boolean);
}

/**
 * The symbolic links on `path` that stand inside a git working tree, each with its tree: a
 * repository can commit such a link (or a script of it create one), so what is reached through it
 * is the repository's word. Links outside every tree (a system's /tmp -> /private/tmp) are not listed.
 */
export function linksInWorkTrees(path: string): { link: string; tree: string }[] {
  const found: { link: string; tree: string }[] = [];
  for (const link of symlinksOnPath(path)) {
    const tree = workTreeOf(dirname(link));
    if (tree !== undefined) found.push({ link, tree });
  }
  return found;
}
