// The Cache API path of the real worker: shards read from R2 by one isolate are served from the
// edge cache to a fresh one. Two `wrangler dev` processes over the same persistence directory stand
// for two isolates of one colo (workerd persists its cache there, as it does R2).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { callTool, connectMcpClient } from './support/mcp-client.ts';
import { TINY_REPO, writeTinyIndex } from './support/tiny-index.ts';
import { startWorker } from './support/wrangler-dev.ts';

interface ToolCallLog {
  tool: string;
  r2Reads: number;
  edgeCacheHits: number;
  shardsRead: number;
}

describe('worker edge cache (two wrangler dev processes, one persisted cache)', () => {
  let scratch: string;
  let persistDir: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-edge-cache-'));
    persistDir = join(scratch, 'state');
    await writeTinyIndex(join(scratch, 'index'));
    const code = await publishCommand(['--out', join(scratch, 'index'), '--ref', 'main', '--local', '--persist-to', persistDir],
      { out: () => {}, err: (line) => console.error(line) });
    expect(code).toBe(0);
  });

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** One search in a fresh worker process: its structured log line. */
  async function searchInFreshIsolate(): Promise<ToolCallLog> {
    const worker = await startWorker({ persistDir });
    try {
      const mcp = await connectMcpClient(`${worker.url}/mcp/${TINY_REPO}`);
      try {
        const found = await callTool<{ results: { name: string }[] }>(mcp.client, 'search_symbols', { query: 'greet' });
        expect(found.results.map((r) => r.name)).toEqual(['greet']);
      } finally {
        await mcp.close();
      }
      const line = () => worker.output().split('\n').find((l) => l.includes('"event":"tool_call"') && l.includes('"tool":"search_symbols"'));
      await expect.poll(line, { timeout: 5_000 }).toBeDefined();
      return JSON.parse(line()!.slice(line()!.indexOf('{'))) as ToolCallLog;
    } finally {
      await worker.stop();
    }
  }

  it('reads shards from R2 in the first isolate and from the edge cache in the next', async () => {
    const first = await searchInFreshIsolate();
    // repo.json (default ref, with the manifest) and the names shard.
    expect(first).toMatchObject({ r2Reads: 2, edgeCacheHits: 0, shardsRead: 1 });
    const second = await searchInFreshIsolate();
    expect(second).toMatchObject({ r2Reads: 1, edgeCacheHits: 1, shardsRead: 1 });
  });
});
