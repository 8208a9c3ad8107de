// The worker under `wrangler dev` for the bench: the bundle `wrangler deploy --dry-run` writes,
// served with --no-bundle (so edits elsewhere in the monorepo never reload it mid-run), with local
// R2 and bearer tokens from a private .env file, on 127.0.0.1. Measures CPU from outside: the
// on-CPU time the kernel accounts to the workerd process that runs the worker
// (/proc/<pid>/task/*/schedstat, nanoseconds), which a busy machine does not inflate the way it
// inflates clocks read inside the isolate. A fresh isolate is a reload (the bundle touched), which
// wrangler serves from a new workerd process; the bench checks that the process did change.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const INSPECTOR_TIMEOUT_MS = 60_000;

export interface WorkerProcessOptions {
  /** workers/mcp/.bench: holds bundle/worker.js, the persisted state and the generated config. */
  benchDir: string;
  wranglerBin: string;
  port: number;
  inspectorPort: number;
  /** Vars and secrets (SEXTANT_TOKENS). */
  env: Record<string, string>;
}

export class BenchWorker {
  readonly url: string;
  private readonly options: WorkerProcessOptions;
  private child: ChildProcess | undefined;
  private output = '';
  private lines: string[] = [];
  /** The workerd process that runs the worker (not wrangler's proxy in front of it). */
  workerd = 0;

  constructor(options: WorkerProcessOptions) {
    this.options = options;
    this.url = `http://127.0.0.1:${options.port}`;
  }

  /** Starts wrangler dev and returns the milliseconds until /health answered. */
  async start(): Promise<number> {
    const { benchDir, wranglerBin, port, inspectorPort, env } = this.options;
    const config = join(benchDir, 'bench-wrangler.json');
    writeFileSync(config, `${JSON.stringify({
      name: 'sextant-mcp-bench', main: 'bundle/worker.js', compatibility_date: '2025-09-01', no_bundle: true,
      r2_buckets: [{ binding: 'INDEX', bucket_name: 'sextant-index' }],
    }, null, 2)}\n`);
    const envFile = join(benchDir, 'bench.env');
    writeFileSync(envFile, Object.entries(env).map(([k, v]) => `${k}='${v}'\n`).join(''), { mode: 0o600 });
    const started = performance.now();
    this.child = spawn(process.execPath, [
      wranglerBin, 'dev', '--config', config, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort),
      '--persist-to', join(benchDir, 'state'), '--env-file', envFile, '--local', '--show-interactive-dev-session=false', '--log-level', 'log',
    ], { cwd: benchDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' } });
    const take = (chunk: Buffer) => {
      this.output += chunk.toString();
      const parts = this.output.split('\n');
      this.output = parts.pop()!;
      for (const line of parts) if (line.includes('"event":')) this.lines.push(line.slice(line.indexOf('{')));
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    await this.waitHealthy(120_000);
    this.workerd = await this.findWorkerd(0);
    return performance.now() - started;
  }

  /** A fresh isolate: touch the bundle, wait for the new workerd process to answer. */
  async freshIsolate(): Promise<void> {
    const before = this.workerd;
    const bundle = join(this.options.benchDir, 'bundle', 'worker.js');
    const now = new Date();
    utimesSync(bundle, now, now);
    this.workerd = await this.findWorkerd(before);
    await this.waitHealthy(60_000);
  }

  /** On-CPU milliseconds of the worker's workerd process so far. */
  cpuMs(): number {
    let ns = 0;
    for (const task of readdirSync(`/proc/${this.workerd}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${this.workerd}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that just ended
      }
    }
    return ns / 1e6;
  }

  /**
   * Runs `work` under V8's sampling profiler attached to the worker's isolate (through wrangler's
   * inspector proxy) and returns the profile's non-idle time: the isolate's own CPU, without the
   * local runtime's other services (the R2 and cache simulators run in the same process), but
   * counted in wall-clock samples, so a descheduled thread still counts. With `saveTo`, the profile
   * is written there (a .cpuprofile that Chrome's DevTools opens).
   */
  async profiled<T>(work: () => Promise<T>, saveTo?: string): Promise<{ value: T; busyMs: number }> {
    return this.inspected(async (send) => {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 100 });
      await send('Profiler.start');
      const value = await work();
      const { profile } = await send('Profiler.stop') as { profile: { nodes: { id: number; callFrame: { functionName: string } }[]; samples: number[]; timeDeltas: number[] } };
      if (saveTo) writeFileSync(saveTo, JSON.stringify(profile));
      const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
      let busy = 0;
      profile.samples.forEach((node, i) => { if (!idle.has(node)) busy += profile.timeDeltas[i]! / 1000; });
      return { value, busyMs: busy };
    });
  }

  /**
   * The worker isolate's V8 heap after a full collection (what is live: module globals, the shard
   * LRU, anything that leaks), and the heap's reserved size, in bytes.
   */
  async heap(): Promise<{ liveBytes: number; reservedBytes: number }> {
    return this.inspected(async (send) => {
      await send('HeapProfiler.enable');
      await send('HeapProfiler.collectGarbage');
      const { usedSize, totalSize } = await send('Runtime.getHeapUsage') as { usedSize: number; totalSize: number };
      return { liveBytes: usedSize, reservedBytes: totalSize };
    });
  }

  /**
   * Resident memory of the processes behind the endpoint, in bytes: the workerd that runs the
   * worker, and wrangler's local dev proxy (its node process and the workerd on the public port),
   * which production does not have.
   */
  residentBytes(): { worker: number; devProxy: number } {
    const rss = (pid: number) => {
      try {
        return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) * 1024;
      } catch {
        return 0;
      }
    };
    const proxy = this.groupProcesses().filter((p) => p.pid !== this.workerd);
    return { worker: rss(this.workerd), devProxy: proxy.reduce((sum, p) => sum + rss(p.pid), 0) };
  }

  /** One session on the isolate's inspector (through wrangler's inspector proxy). */
  private async inspected<T>(use: (send: (method: string, params?: Record<string, unknown>) => Promise<any>) => Promise<T>): Promise<T> {
    const socket = new WebSocket(`ws://127.0.0.1:${this.options.inspectorPort}/ws`, { headers: { origin: 'http://localhost' } } as never);
    const pending = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
    let id = 0;
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    };
    // Bounded: an inspector that stops answering fails the measurement instead of hanging the bench.
    const send = (method: string, params: Record<string, unknown> = {}) => new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: the inspector did not answer within ${INSPECTOR_TIMEOUT_MS} ms`)), INSPECTOR_TIMEOUT_MS);
      pending.set(++id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the inspector did not accept a connection')), INSPECTOR_TIMEOUT_MS);
      socket.onopen = () => { clearTimeout(timer); resolve(undefined); };
      socket.onerror = () => { clearTimeout(timer); reject(new Error('cannot connect to the inspector')); };
    });
    try {
      return await use(send);
    } finally {
      socket.close();
    }
  }

  /** Structured log lines the worker printed since the last call (tool_call, error). */
  takeLogLines(): Record<string, unknown>[] {
    const lines = this.lines;
    this.lines = [];
    return lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 5_000);
    await exited;
    clearTimeout(timer);
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
  }

  private async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null) throw new Error(`wrangler dev exited (${this.child?.exitCode}): ${this.output.slice(-2000)}`);
      try {
        if ((await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2_000) })).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`wrangler dev did not answer ${this.url}/health within ${timeoutMs} ms`);
  }

  /**
   * The workerd of this wrangler's process group that is not the proxy on the public port (the
   * proxy's socket is entry=127.0.0.1:<port>; the worker's is on a port the OS picked). Waits until
   * it is a different process from `previous`.
   */
  private async findWorkerd(previous: number): Promise<number> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const found = this.groupProcesses().find((p) => p.pid !== previous && p.args[0]!.endsWith('workerd')
        && !p.args.some((a) => a.includes(`entry=127.0.0.1:${this.options.port}`)));
      if (found) return found.pid;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no new workerd process for the worker appeared (previous ${previous})`);
  }

  /** The live processes of this wrangler's process group, with their command lines. */
  private groupProcesses(): { pid: number; args: string[] }[] {
    const group = this.child!.pid!;
    return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
        return pgid === group ? [{ pid, args: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') }] : [];
      } catch {
        return []; // gone while looking
      }
    });
  }
}

/** A port on 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}
