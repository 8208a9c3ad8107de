// The working tree as plans see it: files by repository-relative path, decoded as UTF-8 without a
// byte-order mark (the coordinates the index and the TypeScript compiler use), hashed as bytes.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeText, dominantEol } from '@sextant/format';
import { contentHash } from '@sextant/plan';
import type { PathJail } from '../apply/path-jail.ts';

const run = promisify(execFile);

export interface WorkingFile {
  path: string;
  absolute: string;
  text: string;
  bom: boolean;
  /** BLAKE3 of the bytes on disk. */
  hash: string;
  eol: '\n' | '\r\n';
}

/** The file at `path`, or undefined when there is none; the path is jailed first. */
export async function readWorkingFile(jail: PathJail, path: string): Promise<WorkingFile | undefined> {
  const absolute = await jail.resolve(path);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(absolute));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const { text, bom } = decodeText(bytes, path);
  return { path, absolute, text, bom, hash: contentHash(bytes), eol: dominantEol(text) };
}

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.sextant']);

/** Files of the working tree: tracked and untracked-but-not-ignored (git), or every file outside node_modules without git. */
export async function listWorkingTree(root: string): Promise<string[]> {
  try {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 256 * 1024 * 1024 });
    return [...new Set(stdout.split('\0').filter(Boolean))].sort();
  } catch {
    const files: string[] = [];
    const walk = async (dir: string, prefix: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) await walk(join(dir, entry.name), `${prefix}${entry.name}/`);
        else if (entry.isFile()) files.push(`${prefix}${entry.name}`);
      }
    };
    await walk(root, '');
    return files.sort();
  }
}
