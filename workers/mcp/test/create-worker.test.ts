// The worker's fetch handler, run in Node over a real local R2: routing, the MCP endpoint in
// stateless JSON mode, and one structured log line per tool call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShardCache } from '@sextant/query';
import { createWorker, type LogLine } from '../src/create-worker.ts';
import { putCommit, putDefaultRef, putRef, startLocalR2, type LocalR2 } from './support/local-r2.ts';

const COMMIT = '2222222222222222222222222222222222222222';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

describe('createWorker', () => {
  let r2: LocalR2;
  const logs: LogLine[] = [];
  const worker = createWorker({ cache: new ShardCache(1 << 20), log: (line) => logs.push(line) });
  const call = (path: string, init?: RequestInit) => worker.fetch(new Request(`http://worker${path}`, init), { INDEX: r2.bucket });
  const rpc = (path: string, method: string, params: unknown) =>
    call(path, { method: 'POST', headers: { ...HEADERS, authorization: 'Bearer secret-token' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });

  beforeAll(async () => {
    r2 = await startLocalR2();
    await putCommit(r2.bucket, 'acme/widgets', COMMIT);
    await putRef(r2.bucket, 'acme/widgets', 'main', COMMIT);
    await putDefaultRef(r2.bucket, 'acme/widgets', 'main');
  });

  afterAll(async () => {
    await r2?.dispose();
  });

  it('answers /health', async () => {
    const response = await call('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'sextant' });
  });

  it('404s unknown paths with a hint, 400s bad repository names, 405s non-POST MCP requests', async () => {
    const missing = await call('/mcp/acme');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.hint).toContain('/mcp/<owner>/<repo>');
    expect((await call('/mcp/acme/wid%20gets', { method: 'POST' })).status).toBe(400);
    expect((await call('/mcp/acme/%E0%A4%A', { method: 'POST' })).status).toBe(400);
    const get = await call('/mcp/acme/widgets');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('serves MCP statelessly: every request stands alone', async () => {
    const init = await rpc('/mcp/acme/widgets', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await init.json()).result.serverInfo.name).toBe('sextant');

    const list = await rpc('/mcp/acme/widgets', 'tools/list', {});
    expect((await list.json()).result.tools.map((t: { name: string }) => t.name)).toContain('index_status');

    const status = await rpc('/mcp/acme/widgets', 'tools/call', { name: 'index_status', arguments: { commit: 'main' } });
    const body = await status.json();
    expect(body.result.structuredContent).toMatchObject({ repo: 'acme/widgets', commit: COMMIT });
  });

  it('logs one structured line per tool call, with the commit when known and never a credential', async () => {
    logs.length = 0;
    await rpc('/mcp/acme/widgets', 'tools/call', { name: 'index_status', arguments: {} });
    await rpc('/mcp/acme/widgets', 'tools/call', { name: 'index_status', arguments: { commit: 'nope' } });
    const calls = logs.filter((l) => l.event === 'tool_call');
    expect(calls).toEqual([
      { event: 'tool_call', tool: 'index_status', repo: 'acme/widgets', commit: COMMIT, outcome: 'ok', ms: expect.any(Number) },
      { event: 'tool_call', tool: 'index_status', repo: 'acme/widgets', outcome: 'COMMIT_NOT_INDEXED', ms: expect.any(Number) },
    ]);
    expect(JSON.stringify(logs)).not.toContain('secret-token');
  });
});
