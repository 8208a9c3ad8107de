// Exactly the files tracked at one commit, read from git's object store: uncommitted edits,
// untracked and ignored files never reach the index. Unindexable files are listed with a reason.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { SextantError, unaddressablePathReason, type SkippedFile } from '@sextant/format';

const run = promisify(execFile);

export interface TrackedFile {
  path: string;
  blob: string;
  bytes: number;
}

/** A path of the commit's tree with its object id. */
export interface TrackedEntry {
  path: string;
  blob: string;
}

export interface SnapshotFile extends TrackedFile {
  text: string;
}

export interface CommitInfo {
  root: string;
  commit: string;
  commitDate: string;
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 1 << 30, encoding: 'utf8' });
  return stdout;
}

export async function resolveCommit(repoDir: string, ref: string): Promise<CommitInfo> {
  let root: string;
  try {
    root = (await git(repoDir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new SextantError('NOT_A_GIT_REPOSITORY', `${repoDir} is not inside a git repository.`,
      'Pass --repo with the path of a git checkout (or run from inside one).');
  }
  let commit: string;
  try {
    commit = (await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
  } catch {
    throw new SextantError('UNKNOWN_COMMIT', `"${ref}" does not name a commit in ${root}.`,
      'Pass --commit with a sha, branch or tag that exists here (fetch it first if it is remote; `git log --oneline` lists commits).');
  }
  const commitDate = (await git(root, ['show', '-s', '--format=%cI', commit])).trim();
  return { root, commit, commitDate };
}

/**
 * Tracked regular files at the commit; symlinks, submodules and names no tool could address again
 * (`back\\slash.ts`: the query side reads a backslash as a separator) are reported as skipped.
 * `entries` is every path the tree lists, skipped ones too, with its object id (a submodule's is
 * its commit), for the file table.
 */
export async function listTrackedFiles(root: string, commit: string): Promise<{ files: TrackedFile[]; skipped: SkippedFile[]; entries: TrackedEntry[] }> {
  const out = await git(root, ['ls-tree', '-r', '-z', '--long', '--full-tree', commit]);
  const files: TrackedFile[] = [];
  const skipped: SkippedFile[] = [];
  const entries: TrackedEntry[] = [];
  for (const entry of out.split('\0')) {
    if (!entry) continue;
    const tab = entry.indexOf('\t');
    const [mode, type, blob, size] = entry.slice(0, tab).split(/\s+/);
    const path = entry.slice(tab + 1);
    entries.push({ path, blob: blob! });
    const unaddressable = unaddressablePathReason(path);
    if (unaddressable) skipped.push({ path, reason: 'unaddressable-path', detail: `its name cannot be addressed: ${unaddressable}` });
    else if (type === 'commit') skipped.push({ path, reason: 'submodule', detail: 'a git submodule (index it as its own repository)' });
    else if (mode === '120000') skipped.push({ path, reason: 'symlink', detail: 'a symbolic link (its target is indexed where it is tracked)' });
    else if (type === 'blob') files.push({ path, blob: blob!, bytes: Number(size) });
  }
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  files.sort(byPath);
  entries.sort(byPath);
  return { files, skipped, entries };
}

/**
 * Reads blobs through one `git cat-file --batch` process. Binary (a NUL byte) and non-UTF-8 blobs
 * come back as skipped with the reason.
 */
export async function readBlobs(
  root: string, files: TrackedFile[],
): Promise<{ files: SnapshotFile[]; skipped: SkippedFile[] }> {
  const result: SnapshotFile[] = [];
  const skipped: SkippedFile[] = [];
  if (files.length === 0) return { files: result, skipped };
  const child = spawn('git', ['cat-file', '--batch'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  child.stdin.end(files.map((f) => f.blob).join('\n') + '\n');

  let buffer: Buffer = Buffer.alloc(0);
  let index = 0;
  for await (const chunk of child.stdout) {
    buffer = buffer.length ? Buffer.concat([buffer, chunk as Buffer]) : (chunk as Buffer);
    for (;;) {
      const newline = buffer.indexOf(10);
      if (newline < 0) break;
      const header = buffer.subarray(0, newline).toString('utf8');
      const size = Number(header.split(' ')[2]);
      if (header.endsWith(' missing') || Number.isNaN(size)) {
        throw new SextantError('UNKNOWN_COMMIT', `git cat-file could not read ${files[index]?.path}: ${header}`,
          'The repository may be a shallow or partial clone; fetch the commit fully and try again.');
      }
      if (buffer.length < newline + 1 + size + 1) break;
      const bytes = buffer.subarray(newline + 1, newline + 1 + size);
      buffer = buffer.subarray(newline + 1 + size + 1);
      const file = files[index++]!;
      if (bytes.includes(0)) {
        skipped.push({ path: file.path, reason: 'binary', detail: 'binary content (a NUL byte)' });
        continue;
      }
      try {
        let text = decoder.decode(bytes);
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        result.push({ ...file, text });
      } catch {
        skipped.push({ path: file.path, reason: 'not-utf8', detail: 'not valid UTF-8' });
      }
    }
  }
  const code = await exited;
  if (code !== 0 || index !== files.length) {
    throw new SextantError('INTERNAL', `git cat-file failed (exit ${code}, ${index}/${files.length} blobs): ${stderr.trim()}`,
      'Check that git works in this repository (`git fsck`).');
  }
  return { files: result, skipped };
}
