// Where the runner keeps its recovery state, the apply journals and the lock: in the git directory
// (<git-dir>/sextant, per worktree, as `git rev-parse --absolute-git-dir` names it), where no
// clone, checkout or pull can put a file, so a repository cannot ship a journal that recovery would
// obey. A tree that is not a git repository keeps its state outside itself, in the user's state
// directory ($XDG_STATE_HOME, default ~/.local/state, then sextant/trees/<hash of the tree's path>).
// The state directory is refused when any part of it below the git directory (or the state home)
// is a symbolic link, when git tracks it, and, without git, when it lies inside the tree. A journal
// in the tree's own .sextant directory, where earlier runners kept it, is never read: it is
// reported and left alone.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { SextantError } from '@sextant/format';
import { isWithin, type PathJail } from './path-jail.ts';

const run = promisify(execFile);

/** Where journals lived before they moved out of the tree; only ever reported, never obeyed. */
const LEGACY_JOURNAL_DIR = '.sextant/journal';

/** Messages for the user that are not failures (a lock taken over, a journal ignored). */
export type Notify = (message: string) => void;

export const notifyOnStderr: Notify = (message) => {
  process.stderr.write(`sextant runner: ${message}\n`);
};

export interface StateDir {
  /** The real path of the tree the state belongs to. */
  root: string;
  /** The state directory: `journal/` and `lock` are in it. */
  dir: string;
  journalDir: string;
  lockPath: string;
  /** The directory the state directory was placed in (the git directory or the state home); links below it are refused. */
  base: string;
  /** The parts of `dir` and `journalDir` below `base`, outermost first. */
  parts: string[];
}

/** Finds the state directory of a tree and checks it; nothing is created (see ensureStateDir). */
export async function openStateDir(jail: PathJail, notify: Notify = notifyOnStderr): Promise<StateDir> {
  const gitDir = await gitDirOf(jail.root);
  const state = gitDir ? inGitDir(jail.root, gitDir) : await inStateHome(jail.root);
  await refuseLinks(state);
  if (gitDir && isWithin(jail.root, state.dir) && (await tracked(jail.root, state.dir)).length > 0) {
    throw new SextantError('CONFLICT', `The runner's state directory ${state.dir} is tracked by git: the repository ships it, and recovery will not obey it.`,
      `Remove it from the repository (git rm -r --cached ${relative(jail.root, state.dir)}) and from the tree, then run the command again.`, { path: state.dir });
  }
  await reportLegacyJournal(jail.root, state, gitDir !== undefined, notify);
  return state;
}

/** Creates the state directory (not through a symbolic link). */
export async function ensureStateDir(state: StateDir): Promise<void> {
  await mkdir(state.journalDir, { recursive: true, mode: 0o700 });
  await refuseLinks(state);
}

async function gitDirOf(root: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--absolute-git-dir'], { cwd: root });
    return await realpath(stdout.trim());
  } catch (error) {
    const e = error as { code?: unknown; stderr?: string };
    if (e.code === 'ENOENT' || /not a git repository/i.test(e.stderr ?? '')) return undefined;
    throw new SextantError('NOT_A_GIT_REPOSITORY', `git cannot open the repository at ${root}: ${(e.stderr ?? String(error)).trim().split('\n')[0]}`,
      'Fix what git reports (for a repository owned by another user: git config --global --add safe.directory <dir>), then run the command again.', { root });
  }
}

function inGitDir(root: string, gitDir: string): StateDir {
  const dir = join(gitDir, 'sextant');
  return { root, dir, journalDir: join(dir, 'journal'), lockPath: join(dir, 'lock'), base: gitDir, parts: ['sextant', 'journal'] };
}

async function inStateHome(root: string): Promise<StateDir> {
  const configured = process.env.XDG_STATE_HOME;
  const home = configured && isAbsolute(configured) ? configured : join(homedir(), '.local', 'state');
  const base = await realpath(home).catch(() => home);
  const key = createHash('sha256').update(root).digest('hex').slice(0, 32);
  const dir = join(base, 'sextant', 'trees', key);
  if (isWithin(root, dir)) {
    throw new SextantError('INVALID_ARGUMENT', `${root} is not a git repository, and the runner's state directory for it (${dir}) would be inside it, where the tree's own files could pose as recovery state.`,
      'Set XDG_STATE_HOME to a directory outside the tree, or make the tree a git repository (git init).', { root, path: dir });
  }
  return { root, dir, journalDir: join(dir, 'journal'), lockPath: join(dir, 'lock'), base, parts: ['sextant', 'trees', key, 'journal'] };
}

async function refuseLinks(state: StateDir): Promise<void> {
  let path = state.base;
  for (const part of state.parts) {
    path = join(path, part);
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!info) return;
    if (info.isSymbolicLink()) {
      const target = await readlink(path).catch(() => '?');
      throw new SextantError('PATH_OUTSIDE_ROOT', `Refusing the runner's state directory ${path}: it is a symbolic link (to ${target}), and the apply journal and lock are never written through one.`,
        `Remove the link (rm ${path}); the runner makes the directory itself.`, { path, target });
    }
    if (!info.isDirectory()) {
      throw new SextantError('INVALID_ARGUMENT', `The runner's state directory ${path} is not a directory.`,
        `Remove it (rm ${path}); the runner makes the directory itself.`, { path });
    }
  }
}

async function reportLegacyJournal(root: string, state: StateDir, git: boolean, notify: Notify): Promise<void> {
  const legacy = join(root, LEGACY_JOURNAL_DIR);
  const names = await readdir(legacy).catch(() => [] as string[]);
  if (names.length === 0) return;
  const shipped = git ? await tracked(root, legacy) : [];
  const files = `${names.length} ${names.length === 1 ? 'entry' : 'entries'}`;
  const ships = shipped.length ? `, ${shipped.length} tracked by git: the repository ships ${shipped.length === 1 ? 'it' : 'them'}` : '';
  notify(`ignoring ${LEGACY_JOURNAL_DIR} in ${root} (${files}${ships}): `
    + `recovery state lives in ${state.dir}, and a journal inside the working tree is never obeyed. `
    + `Check the files it names, then remove it (${shipped.length ? `git rm -r ${LEGACY_JOURNAL_DIR}` : `rm -r ${LEGACY_JOURNAL_DIR}`}).`);
}

/** The files under `path` (inside the tree) that git tracks. */
async function tracked(root: string, path: string): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--', relative(root, path) || '.'], { cwd: root });
  return stdout.split('\0').filter(Boolean);
}

