// A language server over stdio (JSON-RPC with Content-Length framing), for the benches that put
// questions to a real server (pyright, gopls). Every request is bounded by a timeout, a server's own
// requests are answered (`workspace/configuration`: null per item, the server's defaults), and each
// server runs in a process group of its own that is killed when the bench exits or is interrupted,
// whatever the server was doing.
import { spawn, type ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();

/** Kills a child's whole process group (gopls runs `go list`, pyright its workers). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

let hooked = false;
function killOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => children.forEach(killGroup));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      children.forEach(killGroup);
      process.exit(130);
    });
  }
}

interface LspMessage {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export const LSP_REQUEST_MS = 30_000;

export class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (m: LspMessage) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, ((params: unknown) => void)[]>();
  private exited?: string;
  /** The server's last stderr chunks, for a failure's message. */
  readonly stderr: string[] = [];

  private constructor(private readonly child: ChildProcess, readonly label: string) {
    child.stdout!.on('data', (chunk: Buffer) => this.receive(chunk));
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk.toString('utf8'));
      if (this.stderr.length > 200) this.stderr.shift();
    });
    child.on('exit', (code, signal) => {
      this.exited = `${label} exited (${signal ?? code})`;
      children.delete(child);
      for (const { reject } of this.pending.values()) reject(new Error(this.exited));
      this.pending.clear();
    });
  }

  static start(label: string, command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): LspClient {
    killOnExit();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    children.add(child);
    return new LspClient(child, label);
  }

  /** The server's process id (for reading its memory from /proc). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  on(method: string, listener: (params: unknown) => void): void {
    (this.listeners.get(method) ?? this.listeners.set(method, []).get(method)!).push(listener);
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  request<T>(method: string, params: unknown, timeoutMs = LSP_REQUEST_MS): Promise<T> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.label} did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (m) => {
          clearTimeout(timer);
          if (m.error) reject(new Error(`${this.label} ${method}: ${m.error.message}`));
          else resolve(m.result as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.send({ id, method, params });
    });
  }

  /** shutdown and exit, bounded; then the process group is killed whatever it did. */
  async close(): Promise<void> {
    if (!this.exited) {
      await this.request('shutdown', null, 3000).catch(() => undefined);
      if (!this.exited) this.notify('exit', null);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    killGroup(this.child);
    children.delete(this.child);
  }

  private send(message: LspMessage): void {
    if (this.exited) return;
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    this.child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = this.buffer.indexOf('\r\n\r\n');
      if (header < 0) return;
      const length = Number(/Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, header).toString('ascii'))?.[1]);
      if (!Number.isFinite(length) || this.buffer.length < header + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(header + 4, header + 4 + length).toString('utf8')) as LspMessage;
      this.buffer = this.buffer.subarray(header + 4 + length);
      if (message.method === undefined && typeof message.id === 'number') {
        this.pending.get(message.id)?.resolve(message);
        this.pending.delete(message.id);
      } else if (message.method !== undefined && message.id !== undefined) {
        // A request of the server's: settings are the defaults (null per item), anything else is acknowledged.
        const items = (message.params as { items?: unknown[] } | undefined)?.items;
        this.send({ id: message.id, result: message.method === 'workspace/configuration' ? (items ?? []).map(() => null) : null });
      } else if (message.method !== undefined) {
        for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
      }
    }
  }
}
