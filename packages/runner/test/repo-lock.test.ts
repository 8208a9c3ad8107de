// The repository lock with several runners at once: real files and, for the other runners, real
// processes (test/support/lock-holder.ts). The runner under test is this process; the file system
// calls of its lock code are passed through unchanged, but let the test run the other runners at
// the exact point between two of them where the reviewer's race happens, so the interleaving is
// the same on every run.
import { execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PathJail } from '../src/apply/path-jail.ts';
import { lockRepository } from '../src/apply/repo-lock.ts';
import { ensureStateDir, openStateDir, type StateDir } from '../src/apply/state-dir.ts';

/** Called after each file system call of this process that names `path` first, with its name. */
const between = vi.hoisted(() => ({ call: undefined as undefined | ((op: string, path: string) => Promise<void>) }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const wrapped: Record<string, unknown> = { ...real };
  for (const op of ['readFile', 'rename', 'link', 'unlink', 'rm', 'rmdir', 'mkdir', 'readdir'] as const) {
    wrapped[op] = async (...args: unknown[]) => {
      const result = await (real[op] as (...a: unknown[]) => Promise<unknown>)(...args);
      await between.call?.(op, String(args[0]));
      return result;
    };
  }
  return { ...wrapped, default: wrapped };
});

const HOLDER = join(import.meta.dirname, 'support/lock-holder.ts');

let root: string;
let state: StateDir;
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  state = await openStateDir(await PathJail.open(root), () => undefined);
  await ensureStateDir(state);
});

afterEach(() => {
  between.call = undefined;
  for (const child of children.splice(0)) child.kill();
  rmSync(root, { recursive: true, force: true });
});

/** Another runner: a process of its own taking the lock when told `lock`; `said()` is its next line (`locked`, `released` or an error code). */
async function otherRunner(): Promise<{ pid: number; said(): Promise<string>; tell(line: string): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, root], { cwd: import.meta.dirname });
  children.push(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const runner = {
    pid: child.pid!,
    said: async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`the other runner exited: ${stderr}`);
      return line.value as string;
    },
    tell: (line: string) => { child.stdin.write(`${line}\n`); },
  };
  expect(await runner.said()).toBe('ready');
  return runner;
}

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function ownerText(pid: number, command = 'runner apply plan.json'): string {
  return `${JSON.stringify({ pid, hostname: hostname(), startedAt: new Date().toISOString(), command })}\n`;
}

/** Runs `step` once, after the first call of `op` on `path` (with `op` undefined: any call that changes it). */
function once(path: string, op: string | undefined, step: () => Promise<void>): { ran: boolean } {
  const seen = { ran: false };
  const previous = between.call;
  between.call = async (name, target) => {
    await previous?.(name, target);
    if (seen.ran || target !== path || (op ? name !== op : ['readFile', 'readdir'].includes(name))) return;
    seen.ran = true;
    await step();
  };
  return seen;
}

describe('breaking a stale lock', { timeout: 60_000 }, () => {
  it('never moves the live lock a second runner took meanwhile, so a third cannot take it too', async () => {
    const dead = ownerText(deadPid());
    writeFileSync(state.lockPath, dead);
    const a = await otherRunner();
    const c = await otherRunner();
    // This runner has read the dead runner's lock; before it breaks it, runner A breaks it and locks.
    once(state.lockPath, 'readFile', async () => {
      a.tell('lock');
      expect(await a.said()).toBe('locked');
    });
    // Were A's lock ever moved or removed by this runner, runner C would lock right then.
    const cTried = once(state.lockPath, undefined, async () => {
      c.tell('lock');
      expect(await c.said()).toBe('CONFLICT');
    });
    await expect(lockRepository(state, () => undefined)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(`pid ${a.pid} on`) });
    between.call = undefined;
    if (!cTried.ran) {
      c.tell('lock');
      expect(await c.said()).toBe('CONFLICT');
    }
    expect(JSON.parse(readFileSync(state.lockPath, 'utf8'))).toMatchObject({ pid: a.pid });
  });

  it('never strands the lock of a live runner that released it while another was breaking', async () => {
    writeFileSync(state.lockPath, ownerText(deadPid()));
    const a = await otherRunner();
    once(state.lockPath, 'readFile', async () => {
      a.tell('lock');
      expect(await a.said()).toBe('locked');
    });
    // Were A's lock moved aside by this runner, A would release it right then, and it would come back.
    const released = once(state.lockPath, undefined, async () => {
      a.tell('release');
      expect(await a.said()).toBe('released');
    });
    await expect(lockRepository(state, () => undefined)).rejects.toMatchObject({ code: 'CONFLICT' });
    between.call = undefined;
    if (!released.ran) {
      a.tell('release');
      expect(await a.said()).toBe('released');
    }
    // A lives on (a long-lived `runner mcp`), and the tree is free for the next apply.
    expect(existsSync(state.lockPath)).toBe(false);
    await (await lockRepository(state, () => undefined)).release();
  });
});

describe('the break mutex (lock.break) of a runner that was breaking a stale lock', { timeout: 60_000 }, () => {
  /** The mutex as a breaker leaves it: a directory with one file, named at random, saying whose it is. */
  function breakMutex(text: string, name = 'owner.0123456789abcdef'): string {
    mkdirSync(`${state.lockPath}.break`);
    writeFileSync(join(`${state.lockPath}.break`, name), text);
    return join(`${state.lockPath}.break`, name);
  }

  it('is broken when its holder is gone (or it is empty), and the stale lock is then taken over, saying whose it was', async () => {
    const dead = deadPid();
    writeFileSync(state.lockPath, ownerText(dead));
    breakMutex(ownerText(deadPid(), 'runner recover'));
    mkdirSync(join(state.dir, `lock.${deadPid()}.00ff.tmp`)); // a mutex its breaker was killed writing
    const notices: string[] = [];
    await (await lockRepository(state, (m) => notices.push(m))).release();
    expect(notices).toEqual([expect.stringMatching(new RegExp(`^took over the lock .*: it was held by pid ${dead} on .*, which is no longer running$`))]);
    expect(readdirSync(state.dir)).toEqual(['journal']);
    // Empty: its holder was killed between the two steps of letting it go.
    writeFileSync(state.lockPath, '');
    mkdirSync(`${state.lockPath}.break`);
    await (await lockRepository(state, (m) => notices.push(m))).release();
    expect(notices[1]).toMatch(/^took over the lock .*: it was empty or unreadable/);
    expect(readdirSync(state.dir)).toEqual(['journal']);
  });

  it('held by a live runner is never removed, and the lock is not broken without it', async () => {
    const live = await otherRunner();
    const lock = ownerText(deadPid());
    writeFileSync(state.lockPath, lock);
    const breaker = ownerText(live.pid, 'runner mcp');
    const holder = breakMutex(breaker);
    await expect(lockRepository(state, () => undefined)).rejects.toMatchObject({
      code: 'CONFLICT', message: expect.stringContaining(`pid ${live.pid} on ${hostname()}, started `), hint: 'Wait for it to finish, then try again.',
    });
    expect(readFileSync(holder, 'utf8')).toBe(breaker);
    expect(readFileSync(state.lockPath, 'utf8')).toBe(lock);
  });

  it('found dead by two runners at once: the one that breaks it second cannot remove the mutex the first then took', async () => {
    const live = await otherRunner();
    const lock = ownerText(deadPid());
    writeFileSync(state.lockPath, lock);
    const deadHolder = breakMutex(ownerText(deadPid()));
    const taken = ownerText(live.pid, 'runner apply other.json');
    // This runner has read the dead holder's file; meanwhile another runner breaks that mutex and takes it.
    once(deadHolder, 'readFile', async () => {
      rmSync(`${state.lockPath}.break`, { recursive: true });
      breakMutex(taken, 'owner.fedcba9876543210');
    });
    await expect(lockRepository(state, () => undefined)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(readFileSync(join(`${state.lockPath}.break`, 'owner.fedcba9876543210'), 'utf8')).toBe(taken);
    expect(readFileSync(state.lockPath, 'utf8')).toBe(lock);
  });
});
