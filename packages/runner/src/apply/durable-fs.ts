// File operations that survive a crash: data is fsynced before anything depends on it, and a
// directory is fsynced after entries in it were created, renamed or removed.
import { constants } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';

/**
 * Creates `path` (it must not exist) with `bytes`, fsynced; `mode` is set exactly, whatever the
 * umask. When writing fails (no space, a file size limit) the partial file is removed and the error
 * names the path, which errors of file handles do not.
 */
export async function writeNewFile(path: string, bytes: Uint8Array, mode?: number): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode ?? 0o666);
  try {
    await handle.writeFile(bytes);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw withPath(error, path);
  }
  await handle.close();
}

/** The error with `path` set when the operation that failed did not say which file it was on. */
function withPath(error: unknown, path: string): unknown {
  if (error instanceof Error && 'code' in error && !('path' in error)) Object.assign(error, { path });
  return error;
}

export async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, constants.O_RDONLY);
  } catch (error) {
    // Windows cannot open a directory; its renames are durable without it.
    if (['EISDIR', 'EPERM', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'EPERM', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
