// `npm start` as a new user runs it from the checkout: it indexes this repository, serves it, and
// answers over MCP; SIGINT or SIGTERM sent to the npm process alone (not its group) stops every
// process it started, while it is still building or once it is ready, npm exits 0, and the last
// line says it stopped as asked. Its build prints no warning caused by the repository's own test
// fixtures. (How long it takes is measured by `npm run bench:start`.)
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpClient } from './support/mcp-client.ts';
import { alive, descendants } from './support/processes.ts';
import { ROOT } from './support/servers.ts';
import { freePort } from './support/wrangler-dev.ts';

let cleanup: number[] = [];
afterEach(() => {
  for (const pid of cleanup) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  cleanup = [];
});

async function startThenStop(signal: 'SIGINT' | 'SIGTERM', when: 'building' | 'ready'): Promise<{ output: string; code: number | null; left: number[] }> {
  const port = await freePort();
  const child = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, PORT: String(port), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk; });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, ms: number) => {
    for (const deadline = Date.now() + ms; !output.includes(text); await new Promise((r) => setTimeout(r, 200))) {
      if (Date.now() > deadline) throw new Error(`npm start did not print "${text}" within ${ms / 1000} s:\n${output}`);
    }
  };
  await waitFor(when === 'ready' ? 'Press Ctrl-C to stop.' : 'resolving typescript', 170_000);
  if (when === 'ready') {
    const url = /MCP endpoint \(Streamable HTTP\): (\S+)/.exec(output)![1]!;
    const { client } = await connectMcpClient(url);
    const status = await client.callTool({ name: 'index_status', arguments: {} });
    expect(status.isError).toBeFalsy();
    await client.close();
  }
  const started = descendants(child.pid!);
  cleanup = started;
  expect(started.length).toBeGreaterThan(3);
  // To npm alone, as `kill -INT <pid>` does: not to its process group.
  process.kill(child.pid!, signal);
  const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
  return { output, code, left: started.filter(alive) };
}

describe('npm start', () => {
  it('serves this repository over MCP, and stops everything it started on SIGTERM to npm, saying so last', async () => {
    const { output, code, left } = await startThenStop('SIGTERM', 'ready');
    expect(left).toEqual([]);
    expect(code).toBe(0);
    expect(output.trimEnd().split('\n').at(-1)).toBe('stopped as asked (SIGTERM): wrangler dev, workerd and the build are stopped.');
    expect(output).toMatch(/Sextant is serving \S+@[0-9a-f]{12} \(ref [^)]+\), ready after \d+\.\d s\./);
    expect(output).not.toMatch(/^warning:/m);
    expect(output).toMatch(/^note: \d+ problems? of project configuration in test files only/m);
  });

  it('stops the build and the worker on SIGINT to npm while the index is still being built', async () => {
    const { output, code, left } = await startThenStop('SIGINT', 'building');
    expect(left).toEqual([]);
    expect(code).toBe(0);
    expect(output.trimEnd().split('\n').at(-1)).toBe('stopped as asked (SIGINT): wrangler dev, workerd and the build are stopped.');
  });
});
