// One apply (or recovery) at a time per tree: <state>/lock (see state-dir.ts) names the runner
// working on it (pid, host, start, command). The lock is written whole to a file of its own and
// then hard-linked into place, so it is never seen empty or half-written while its owner lives.
// A lock whose owner is gone (killed mid-apply, or the machine restarted since), or one that is
// empty or unreadable (left by a runner killed while writing it), is taken over with a message
// saying whose it was; its journal is then recovered by whoever takes it. A lock of a runner on
// another host cannot be checked, and is reported with the way to break it.
import { randomBytes } from 'node:crypto';
import { link, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { SextantError } from '@sextant/format';
import { writeNewFile } from './durable-fs.ts';
import { thisWriter, type JournalWriter } from './journal.ts';
import { ensureStateDir, notifyOnStderr, type Notify, type StateDir } from './state-dir.ts';

export interface RepoLock {
  release(): Promise<void>;
}

export interface LockOwner extends JournalWriter {
  /** The command line it was running. */
  command: string;
}

const TEMP = /^lock\.(\d+)\.[0-9a-f]+\.tmp$/;

export async function lockRepository(state: StateDir, notify: Notify = notifyOnStderr): Promise<RepoLock> {
  await ensureStateDir(state);
  const owner: LockOwner = { ...thisWriter(), command: commandLine() };
  const text = `${JSON.stringify(owner)}\n`;
  const temp = join(state.dir, `lock.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
  await writeNewFile(temp, new TextEncoder().encode(text), 0o600);
  try {
    await removeStrayTemps(state);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(temp, state.lockPath);
        return { release: () => releaseIfOurs(state.lockPath, text) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const found = await readFile(state.lockPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (found === undefined) continue; // released meanwhile
      const holder = parseOwner(found);
      const stale = staleness(holder);
      if (!stale) {
        throw new SextantError('CONFLICT', `Another runner is applying a plan in ${state.root}: ${describeOwner(holder!)}.`,
          holder!.hostname === hostname() ? 'Wait for it to finish, then try again.'
            : `Wait for it to finish; if it is no longer running on ${holder!.hostname}, remove ${state.lockPath} and run \`runner recover\`.`,
          { lock: state.lockPath, owner: holder });
      }
      if (await breakLock(state.lockPath, found)) {
        notify(`took over the lock ${state.lockPath}: ${stale}`);
      }
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  throw new SextantError('CONFLICT', `Could not lock ${state.root} for an apply.`, 'Another runner keeps taking the lock; try again.', { lock: state.lockPath });
}

export function describeOwner(owner: LockOwner): string {
  return `pid ${owner.pid} on ${owner.hostname}, started ${owner.startedAt}, running \`${owner.command}\``;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(o.pid) && typeof o.hostname === 'string' && typeof o.startedAt === 'string' && typeof o.command === 'string') return o as LockOwner;
  } catch {
    // fall through: not a lock this runner wrote
  }
  return undefined;
}

/** Why a lock no longer protects anything (so it may be broken), or undefined while its owner may still be working. */
function staleness(owner: LockOwner | undefined): string | undefined {
  if (!owner) return 'it was empty or unreadable, so whose it was is unknown (a runner killed while it was taking the lock leaves one)';
  if (owner.hostname !== hostname()) return undefined;
  const started = Date.parse(owner.startedAt);
  const whose = `it was held by ${describeOwner(owner)}`;
  if (Number.isFinite(started) && started < Date.now() - uptime() * 1000 - 60_000) return `${whose}, which started before this machine did`;
  if (owner.pid === process.pid) {
    // This process, or an earlier one that had the same pid (common in containers).
    const mine = Date.now() - process.uptime() * 1000;
    return Number.isFinite(started) && Math.abs(started - mine) < 1000 ? undefined : `${whose}, which is no longer running`;
  }
  return alive(owner.pid) ? undefined : `${whose}, which is no longer running`;
}

/**
 * Removes the lock if it still holds `found`: it is moved aside first, so that two runners breaking
 * the same stale lock cannot remove the fresh lock one of them has just taken.
 */
async function breakLock(path: string, found: string): Promise<boolean> {
  const aside = `${path}.${randomBytes(8).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== found) {
    // Someone took the lock between our read and the move: put theirs back.
    await link(aside, path).catch(() => undefined);
    await rm(aside, { force: true });
    return false;
  }
  await rm(aside, { force: true });
  return true;
}

async function releaseIfOurs(path: string, text: string): Promise<void> {
  if (await readFile(path, 'utf8').catch(() => undefined) === text) await rm(path, { force: true });
}

/** Lock files being written by runners that died before they could put them in place. */
async function removeStrayTemps(state: StateDir): Promise<void> {
  for (const name of await readdir(state.dir)) {
    const pid = Number(TEMP.exec(name)?.[1] ?? Number.NaN);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) await rm(join(state.dir, name), { force: true });
  }
}

function commandLine(): string {
  return ['runner', ...process.argv.slice(2)].join(' ').slice(0, 500);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
