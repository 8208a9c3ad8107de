// End-to-end harness: runs the real worker under `wrangler dev` (workerd) on 127.0.0.1 with a free
// port and a given persistence directory, waits for /health, and stops the whole process group
// (wrangler plus the workerd it spawns). Tests publish into the same directory first with
// `publishCommand([..., '--local', '--persist-to', persistDir])`. The worker's variables and
// secrets go in a private .env file (as `wrangler dev --env-file` reads them); by default
// authentication is off, which the worker honours on loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWranglerStore, type ObjectStore } from '../../../indexer/src/publish/object-store.ts';
import { publishCommand } from '../../../indexer/src/publish/publish-command.ts';
import { startBridge } from '../../../indexer/src/publish/local-bucket.ts';
import type { R2BucketLike } from '@sextant/format';

export const WORKER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../workers/mcp');

export interface StartWorkerOptions {
  /** Directory passed to `wrangler dev --persist-to`: the local R2 the worker reads. */
  persistDir: string;
  /** Default: workers/mcp/wrangler.jsonc. */
  configPath?: string;
  /** How long to wait for /health, default 60 s (bundling plus workerd start take ~5 s on 2 cores). */
  timeoutMs?: number;
  /** The worker's vars and secrets (SEXTANT_TOKENS, SEXTANT_AUTH, ...); default { SEXTANT_AUTH: 'off' }. */
  env?: Record<string, string>;
}

export interface RunningWorker {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** wrangler's and the worker's output so far (the worker's structured log lines among it). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts wrangler dev on ports the OS just handed out. Another process (a workerd of another
 * wrangler, binding port 0) can take one before wrangler binds it; that start fails with "Address
 * already in use" and is tried again on new ports, a few times.
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWorkerOnce(options);
    } catch (error) {
      if (attempt === 3 || !/Address already in use/.test((error as Error).message)) throw error;
    }
  }
}

async function startWorkerOnce(options: StartWorkerOptions): Promise<RunningWorker> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const wranglerBin = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
  const envDir = mkdtempSync(join(tmpdir(), 'sextant-worker-env-'));
  const envFile = join(envDir, '.env');
  writeFileSync(envFile, Object.entries(options.env ?? { SEXTANT_AUTH: 'off' }).map(([k, v]) => `${k}=${dotenvValue(v)}\n`).join(''), { mode: 0o600 });
  const child = spawn(process.execPath, [
    wranglerBin, 'dev',
    '--config', options.configPath ?? join(WORKER_DIR, 'wrangler.jsonc'),
    '--ip', '127.0.0.1', '--port', String(port),
    // Every wrangler dev would otherwise claim the default inspector port 9229.
    '--inspector-port', String(inspectorPort),
    '--persist-to', options.persistDir,
    '--env-file', envFile,
    '--local', '--show-interactive-dev-session=false', '--log-level', 'log',
  ], {
    cwd: WORKER_DIR,
    // Its own process group, so stop() reaches workerd too.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopGroup(child);
    rmSync(envDir, { recursive: true, force: true });
  };
  const worker: RunningWorker = { url, output: () => output, stop };
  try {
    await waitForHealth(url, child, options.timeoutMs ?? 60_000, () => output);
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return worker;
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`wrangler dev exited (${child.exitCode ?? child.signalCode}) before ${url}/health answered. Its output:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer ${url}/health within ${timeoutMs} ms. Its output:\n${output()}`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  // workerd may outlive wrangler by a moment; make sure nothing of the group is left.
  signal('SIGKILL');
}

/** A port that was free a moment ago (the OS picks it); wrangler binds it right after. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Single quotes keep a value literal in a .env file (JSON's double quotes and backslashes included). */
function dotenvValue(value: string): string {
  if (/['\n]/.test(value)) throw new Error(`a .env value cannot hold a single quote or a newline: ${value.slice(0, 40)}…`);
  return `'${value}'`;
}

/** Runs `use` on the local R2 persisted at `persistDir`, opened the way `indexer publish --local` opens it, then closes it. */
export async function withLocalStore<T>(persistDir: string, use: (store: ObjectStore) => Promise<T>): Promise<T> {
  const store = await openWranglerStore({ configPath: join(WORKER_DIR, 'wrangler.jsonc'), local: true, persistTo: persistDir });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** Runs `use` on the R2 binding over the local R2 persisted at `persistDir` (what wrangler dev serves from it), then closes it. */
export async function withLocalBucket<T>(persistDir: string, use: (bucket: R2BucketLike) => Promise<T>): Promise<T> {
  const local = await startBridge('sextant-index', join(persistDir, 'v3'));
  try {
    return await use(local.bucket);
  } finally {
    await local.dispose();
  }
}

/** `indexer publish … --local --persist-to <persistDir>`, run in process; its exit code and what it printed. */
export async function publishLocal(persistDir: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await publishCommand([...argv, '--local', '--persist-to', persistDir], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
