// Every path a plan names is checked against the repository root before anything is read or
// written: no absolute paths, no `..`, nothing inside .git or .sextant, no symbolic link that leads out, no
// directory reached through a different letter case (a case-insensitive file system would
// otherwise let `SRC/x.ts` and `src/x.ts` pass as different paths). A refusal is PATH_OUTSIDE_ROOT
// and happens before the first byte is touched.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { SextantError, unaddressablePathReason } from '@sextant/format';

const FORBIDDEN_SEGMENTS = new Set(['.git']);

export class PathJail {
  /** The real path of the repository root. */
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  static async open(root: string): Promise<PathJail> {
    try {
      return new PathJail(await realpath(root));
    } catch {
      throw new SextantError('INVALID_ARGUMENT', `The repository root ${root} does not exist.`, 'Pass an existing directory with --repo.');
    }
  }

  /**
   * The absolute path of a repository-relative path. The file need not exist (a plan may create it)
   * but its directory must, inside the root.
   */
  async resolve(path: string): Promise<string> {
    const segments = this.syntax(path);
    const name = segments.pop()!;
    const requestedDir = join(this.root, ...segments);
    let realDir: string;
    try {
      realDir = await realpath(requestedDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SextantError('FILE_NOT_FOUND', `The directory of ${path} does not exist in ${this.root}.`,
          'Create the directory first, or make the plan again against the current tree.');
      }
      throw error;
    }
    if (!this.contains(realDir)) throw outside(path, `its directory leads to ${realDir} through a symbolic link`);
    const requested = segments.join(sep);
    const actual = relative(this.root, realDir);
    if (requested !== actual && requested.toLowerCase() === actual.toLowerCase()) {
      throw outside(path, `its directory is ${actual.split(sep).join('/')} on disk (another letter case)`);
    }
    const entries = await readdir(realDir);
    if (!entries.includes(name) && entries.some((e) => e.toLowerCase() === name.toLowerCase())) {
      throw outside(path, `the file is ${entries.find((e) => e.toLowerCase() === name.toLowerCase())} on disk (another letter case)`);
    }
    const absolute = join(realDir, name);
    const info = await lstat(absolute).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      const target = await realpath(absolute).catch(() => undefined);
      if (!target || !this.contains(target)) throw outside(path, `it is a symbolic link to ${target ?? 'a missing file'}`);
      throw new SextantError('INVALID_ARGUMENT', `${path} is a symbolic link; replacing it would replace the link, not the file.`,
        `Edit the file it points to (${relative(this.root, target).split(sep).join('/')}).`);
    }
    if (info && !info.isFile()) {
      throw new SextantError('INVALID_ARGUMENT', `${path} is not a regular file.`, 'Plans edit regular files only.');
    }
    return absolute;
  }

  /** The repository-relative form of an absolute path inside the root, or undefined. */
  relativeOf(absolute: string): string | undefined {
    if (!this.contains(absolute)) return undefined;
    return relative(this.root, absolute).split(sep).join('/');
  }

  private contains(absolute: string): boolean {
    return isWithin(this.root, absolute);
  }

  private syntax(path: string): string[] {
    // The same rule the indexer skips unaddressable tracked names by (@sextant/format repo-path.ts).
    const unaddressable = unaddressablePathReason(path);
    if (unaddressable) throw outside(String(path), unaddressable);
    const segments = path.split('/');
    for (const segment of segments) {
      if (FORBIDDEN_SEGMENTS.has(segment.toLowerCase())) throw outside(path, 'it is inside the .git directory');
    }
    if (segments[0]!.toLowerCase() === '.sextant') throw outside(path, 'it is inside .sextant (the index)');
    return segments;
  }
}

function outside(path: string, why: string): SextantError {
  return new SextantError('PATH_OUTSIDE_ROOT', `Refusing ${JSON.stringify(path)}: ${why}.`,
    'Plans may only name repository-relative files inside the repository; nothing was changed.');
}

/** Whether the absolute `path` is `dir` or below it. */
export function isWithin(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
