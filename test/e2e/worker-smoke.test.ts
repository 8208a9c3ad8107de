// Smoke test of the deployed shape: publish an index into wrangler's local R2, run the real worker
// under `wrangler dev` (workerd), and talk to it with the real MCP SDK client over Streamable HTTP,
// at both per-repository URLs (/mcp/<owner>/<repo> and /r/<owner>/<repo>/mcp).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { callTool, connectMcpClient, type ConnectedClient } from './support/mcp-client.ts';
import { TINY_COMMIT, TINY_REPO, writeTinyIndex } from './support/tiny-index.ts';
import { startWorker, type RunningWorker } from './support/wrangler-dev.ts';

describe('worker smoke (wrangler dev + MCP client)', () => {
  let scratch: string;
  let worker: RunningWorker;
  let mcp: ConnectedClient;
  const quiet = { out: () => {}, err: (line: string) => console.error(line) };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-e2e-'));
    const persistDir = join(scratch, 'state');
    await writeTinyIndex(join(scratch, 'index'));
    const code = await publishCommand(
      ['--out', join(scratch, 'index'), '--ref', 'main', '--local', '--persist-to', persistDir], quiet);
    expect(code).toBe(0);
    worker = await startWorker({ persistDir });
    mcp = await connectMcpClient(`${worker.url}/mcp/${TINY_REPO}`);
  });

  afterAll(async () => {
    await mcp?.close();
    await worker?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('answers /health and 404s elsewhere with a hint', async () => {
    const health = await fetch(`${worker.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const missing = await fetch(`${worker.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.hint).toContain('/mcp/<owner>/<repo>');
  });

  it('lists the tools', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['index_status', 'search_symbols', 'goto_definition', 'find_references']));
  });

  it('answers index_status from the published commit, by default ref, sha prefix and ref name', async () => {
    for (const commit of [undefined, TINY_COMMIT.slice(0, 7), 'main']) {
      const status = await callTool<{ repo: string; commit: string; counts: { symbols: number } }>(
        mcp.client, 'index_status', commit ? { commit } : {});
      expect(status).toMatchObject({ repo: TINY_REPO, commit: TINY_COMMIT, counts: { symbols: 2 } });
    }
  });

  it('searches symbols through shards read from R2', async () => {
    const found = await callTool<{ results: { name: string; path: string }[] }>(mcp.client, 'search_symbols', { query: 'greet' });
    expect(found.results).toEqual([expect.objectContaining({ name: 'greet', path: 'src/greet.ts' })]);
  });

  it('reports an unindexed commit as COMMIT_NOT_INDEXED with what exists, and logs the call', async () => {
    const result = await mcp.client.callTool({ name: 'index_status', arguments: { commit: 'f'.repeat(40) } });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as { error: { code: string; message: string; hint: string } }).error;
    expect(error.code).toBe('COMMIT_NOT_INDEXED');
    expect(error.message).toContain(TINY_COMMIT);
    expect(error.hint).toContain('indexer publish');
    await expect.poll(() => worker.output(), { timeout: 5_000 }).toContain('"outcome":"COMMIT_NOT_INDEXED"');
    const line = worker.output().split('\n').find((l) => l.includes('"event":"tool_call"') && l.includes('"outcome":"ok"'));
    expect(JSON.parse(line!.slice(line!.indexOf('{')))).toMatchObject({ tool: 'index_status', repo: TINY_REPO, commit: TINY_COMMIT });
  });

  it('says REPO_NOT_FOUND for a repository nothing was published for', async () => {
    const other = await connectMcpClient(`${worker.url}/mcp/acme/nothing-here`);
    try {
      const result = await other.client.callTool({ name: 'index_status', arguments: {} });
      expect((result.structuredContent as { error: { code: string } }).error.code).toBe('REPO_NOT_FOUND');
    } finally {
      await other.close();
    }
  });

  it('serves the same repository at /r/<owner>/<repo>/mcp, the form for clients that need the URL to end in /mcp', async () => {
    const url = `${worker.url}/r/${TINY_REPO}/mcp`;
    expect(url.endsWith('/mcp')).toBe(true);
    const other = await connectMcpClient(url);
    try {
      expect((await other.client.listTools()).tools).toEqual((await mcp.client.listTools()).tools);
      const status = await callTool<{ repo: string; commit: string }>(other.client, 'index_status', {});
      expect(status).toMatchObject({ repo: TINY_REPO, commit: TINY_COMMIT });
      const found = await callTool<{ results: { name: string }[] }>(other.client, 'search_symbols', { query: 'greet' });
      expect(found.results.map((r) => r.name)).toEqual(['greet']);
    } finally {
      await other.close();
    }
    const malformed = await fetch(`${worker.url}/r/${TINY_REPO}`, { method: 'POST' });
    expect(malformed.status).toBe(404);
    expect((await malformed.json()).error.hint).toContain('/r/<owner>/<repo>/mcp');
  });
});
