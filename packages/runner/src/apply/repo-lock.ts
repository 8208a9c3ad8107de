// One apply (or recovery) at a time per tree: <state>/lock (see state-dir.ts) names the runner
// working on it (pid, host, start, command). The lock is written whole to a file of its own and
// then hard-linked into place, so it is never seen empty or half-written while its owner lives.
// A lock whose owner is gone (killed mid-apply, or the machine restarted since), or one that is
// empty or unreadable (left by a runner killed while writing it), is taken over with a message
// saying whose it was; its journal is then recovered by whoever takes it. A lock of a runner on
// another host cannot be checked, and is reported with the way to break it.
//
// A live lock is never moved or removed by anyone but its owner. Breaking one is serialised by the
// break mutex <state>/lock.break, a directory holding one file named at random that says whose it
// is (written whole, then the directory renamed into place, which fails while another is there).
// Under it the lock is re-read and unlinked only if it is still the bytes that were found stale.
// A mutex whose holder is gone is broken by unlinking that holder's file by its name, which can be
// no other holder's, and then removing the directory only if it is empty, which a held one never
// is: so two runners breaking the same dead mutex at once cannot remove a live one either.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SextantError } from '@sextant/format';
import { writeNewFile } from './durable-fs.ts';
import { thisWriter, type JournalWriter } from './journal.ts';
import { ensureStateDir, notifyOnStderr, type Notify, type StateDir } from './state-dir.ts';

interface RepoLock {
  release(): Promise<void>;
}

interface LockOwner extends JournalWriter {
  /** The command line it was running. */
  command: string;
}

/** A lock file, or a break mutex directory, being written; its name says whose. */
const TEMP = /^lock\.(\d+)\.[0-9a-f]+\.tmp$/;
const ATTEMPTS = 5;

export async function lockRepository(state: StateDir, notify: Notify = notifyOnStderr): Promise<RepoLock> {
  await ensureStateDir(state);
  const owner: LockOwner = { ...thisWriter(), command: commandLine() };
  const text = `${JSON.stringify(owner)}\n`;
  const temp = tempPath(state);
  await writeNewFile(temp, new TextEncoder().encode(text), 0o600);
  let breaker: LockOwner | undefined;
  try {
    await removeStrayTemps(state);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
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
      const broken = await breakLock(state, found, text);
      if (broken === true) notify(`took over the lock ${state.lockPath}: ${stale}`);
      else if (broken !== false) {
        // Another runner is breaking it: it takes the lock or finds it taken, in a moment.
        breaker = broken.holder;
        await sleep(20 * (attempt + 1));
      }
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  if (breaker) {
    throw new SextantError('CONFLICT', `Could not lock ${state.root} for an apply: ${describeOwner(breaker)} is breaking its stale lock (it holds ${breakPath(state)}).`,
      breaker.hostname === hostname() ? 'Wait for it to finish, then try again.'
        : `Wait for it to finish; if it is no longer running on ${breaker.hostname}, remove ${breakPath(state)} and try again.`,
      { lock: state.lockPath, breaking: breaker });
  }
  throw new SextantError('CONFLICT', `Could not lock ${state.root} for an apply.`, 'Another runner keeps taking the lock; try again.', { lock: state.lockPath });
}

function describeOwner(owner: LockOwner): string {
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
 * Removes the lock if it still holds `found` (judged stale), under the break mutex: true if it did,
 * false if the lock changed meanwhile, or who holds the mutex if another runner is breaking it.
 */
async function breakLock(state: StateDir, found: string, text: string): Promise<boolean | { holder: LockOwner | undefined }> {
  const mutex = await takeBreakMutex(state, text);
  if ('holder' in mutex) return mutex;
  try {
    // Only a holder of the mutex removes a lock it did not take, and the owner of `found` is gone:
    // while it reads the same, nobody else can remove or replace it before the unlink.
    if (await readFile(state.lockPath, 'utf8').catch(() => undefined) !== found) return false;
    await unlink(state.lockPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return true;
  } finally {
    await mutex.release();
  }
}

function breakPath(state: StateDir): string {
  return `${state.lockPath}.break`;
}

function tempPath(state: StateDir): string {
  return join(state.dir, `lock.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
}

async function takeBreakMutex(state: StateDir, text: string): Promise<RepoLock | { holder: LockOwner | undefined }> {
  const path = breakPath(state);
  const temp = tempPath(state);
  const name = `owner.${randomBytes(8).toString('hex')}`;
  await mkdir(temp, { mode: 0o700 });
  try {
    await writeNewFile(join(temp, name), new TextEncoder().encode(text), 0o600);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        // Replaces only an empty directory (a holder gone between its two release steps).
        await rename(temp, path);
        return { release: () => releaseBreakMutex(path, name) };
      } catch (error) {
        if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
      const held = await readdir(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
        throw error;
      });
      for (const holderFile of held) {
        const holder = parseOwner(await readFile(join(path, holderFile), 'utf8').catch(() => ''));
        if (!staleness(holder)) return { holder };
        // Its holder is gone: only that holder's file has this name.
        await unlink(join(path, holderFile)).catch(ignore('ENOENT'));
      }
      await rmdir(path).catch(ignore('ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'));
    }
    return { holder: undefined };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function releaseBreakMutex(path: string, name: string): Promise<void> {
  await unlink(join(path, name)).catch(ignore('ENOENT'));
  // Empty now unless another runner has taken the mutex since, and then this fails.
  await rmdir(path).catch(ignore('ENOENT', 'ENOTEMPTY', 'EEXIST'));
}

function ignore(...codes: string[]): (error: NodeJS.ErrnoException) => void {
  return (error) => {
    if (!codes.includes(error.code ?? '')) throw error;
  };
}

async function releaseIfOurs(path: string, text: string): Promise<void> {
  if (await readFile(path, 'utf8').catch(() => undefined) === text) await rm(path, { force: true });
}

/** Lock files and break mutexes being written by runners that died before they could put them in place. */
async function removeStrayTemps(state: StateDir): Promise<void> {
  for (const name of await readdir(state.dir)) {
    const pid = Number(TEMP.exec(name)?.[1] ?? Number.NaN);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) await rm(join(state.dir, name), { recursive: true, force: true });
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
