// The worker's fetch handler, run in Node over a real local R2: routing (both per-repository URL
// forms), the Origin check, bearer tokens and their repository scopes, the request bounds, the MCP
// endpoints in stateless JSON mode, the public key of the worker's plan-signing secret at
// /.well-known/sextant-plan-keys, and one structured log line per tool call that never holds a
// credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@sextant/format';
import { generatePlanSigningKey, planSigner, type PlanKeysDocument } from '@sextant/plan';
import { ShardCache } from '@sextant/query';
import { parseTokens } from '../src/auth.ts';
import { createWorker, MAX_BODY_BYTES, type LogLine, type WorkerEnv } from '../src/create-worker.ts';
import { RefCache } from '../src/isolate-caches.ts';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../src/mcp-endpoint.ts';
import { LATEST_PROTOCOL_VERSION as SDK_LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS as SDK_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { putCommit, putDefaultRef, putRef, refRecord, startLocalR2, type LocalR2 } from './support/local-r2.ts';

const COMMIT = '2222222222222222222222222222222222222222';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const WIDGETS_TOKEN = 'widgets-token-0123456789';
const ACME_TOKEN = 'acme-wide-token-0123456789';
const TOKENS = JSON.stringify([
  { name: 'widgets-bot', sha256: sha256Hex(new TextEncoder().encode(WIDGETS_TOKEN)), repos: ['acme/widgets'] },
  { name: 'acme-bot', sha256: sha256Hex(new TextEncoder().encode(ACME_TOKEN)), repos: ['ACME/*'] },
]);

describe('createWorker', () => {
  let r2: LocalR2;
  const logs: LogLine[] = [];
  const worker = createWorker({ cache: new ShardCache(1 << 20), refs: new RefCache(), log: (line) => logs.push(line) });
  const env = (extra: Partial<WorkerEnv> = {}): WorkerEnv => ({ INDEX: r2.bucket, SEXTANT_TOKENS: TOKENS, ...extra });
  const call = (path: string, init: RequestInit = {}, extra: Partial<WorkerEnv> = {}, host = 'http://worker') =>
    worker.fetch(new Request(`${host}${path}`, init), env(extra));
  const rpc = (path: string, method: string, params: unknown, token: string | null = WIDGETS_TOKEN, headers: Record<string, string> = {}, extra: Partial<WorkerEnv> = {}) =>
    call(path, {
      method: 'POST',
      headers: { ...HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }, extra);
  const tool = async (path: string, name: string, args: Record<string, unknown>, token: string | null = WIDGETS_TOKEN) =>
    (await (await rpc(path, 'tools/call', { name, arguments: args }, token)).json()).result;

  beforeAll(async () => {
    r2 = await startLocalR2();
    const manifest = await putCommit(r2.bucket, 'acme/widgets', COMMIT);
    await putRef(r2.bucket, 'acme/widgets', 'main', COMMIT, manifest);
    await putDefaultRef(r2.bucket, 'acme/widgets', 'main', refRecord(COMMIT, manifest));
    const gadgets = await putCommit(r2.bucket, 'acme/gadgets', COMMIT, { variant: 'Gadget' });
    await putDefaultRef(r2.bucket, 'acme/gadgets', 'main', refRecord(COMMIT, gadgets));
    await putCommit(r2.bucket, 'other/private', COMMIT);
  });

  afterAll(async () => {
    await r2?.dispose();
  });

  it('answers /health without a token, saying whether auth is on', async () => {
    const response = await call('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'sextant', auth: 'bearer' });
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

  it('serves /r/<owner>/<repo>/mcp exactly as /mcp/<owner>/<repo>: same default repo, same auth, same errors', async () => {
    expect(await tool('/r/acme/widgets/mcp', 'index_status', {})).toMatchObject({ structuredContent: { repo: 'acme/widgets', commit: COMMIT } });
    expect(await tool('/r/acme/widgets/mcp/', 'index_status', {})).toMatchObject({ structuredContent: { repo: 'acme/widgets', commit: COMMIT } });
    expect(await tool('/r/Acme/Gadgets/mcp', 'index_status', {}, ACME_TOKEN)).toMatchObject({ structuredContent: { repo: 'acme/gadgets', commit: COMMIT } });
    const list = async (path: string) => (await (await rpc(path, 'tools/list', {})).json()).result.tools;
    expect(await list('/r/acme/widgets/mcp')).toEqual(await list('/mcp/acme/widgets'));

    expect((await rpc('/r/acme/widgets/mcp', 'tools/list', {}, null)).status).toBe(401);
    const outOfScope = await rpc('/r/acme/gadgets/mcp', 'tools/list', {});
    expect(outOfScope.status).toBe(403);
    expect((await rpc('/r/acme/widgets/mcp', 'tools/call', { name: 'index_status', arguments: { repo: 'other/private' } })).status).toBe(403);
    expect((await call('/r/acme/wid%20gets/mcp', { method: 'POST' })).status).toBe(400);
    const get = await call('/r/acme/widgets/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');

    // Malformed forms, and mixtures of the two forms, are nothing: a 404 whose hint names both.
    for (const path of ['/r/acme/mcp', '/r/acme/widgets', '/r/acme/widgets/mcp/extra', '/r/a/b/c/mcp', '/r/mcp', '/mcp/acme/widgets/mcp', '/r/acme/widgets/mcp/acme/widgets']) {
      const response = await call(path, { method: 'POST' });
      expect(response.status, path).toBe(404);
      const { error } = await response.json();
      expect(error).toMatchObject({ code: 'NOT_FOUND', message: `Nothing is served at ${path}.` });
      expect(error.hint).toContain('/r/<owner>/<repo>/mcp');
      expect(error.hint).toContain('/mcp/<owner>/<repo>');
    }
  });

  describe('authentication', () => {
    it('401s a request without a token, with WWW-Authenticate', async () => {
      const response = await rpc('/mcp/acme/widgets', 'tools/list', {}, null);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="sextant"');
      expect((await response.json()).error).toMatchObject({ code: 'UNAUTHORIZED' });
    });

    it('401s a token that is not configured, and a header that is not a bearer token', async () => {
      const bad = await rpc('/mcp/acme/widgets', 'tools/list', {}, 'not-a-token');
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="sextant", error="invalid_token"');
      const basic = await rpc('/mcp', 'tools/list', {}, null, { authorization: 'Basic dXNlcjpwYXNz' });
      expect(basic.status).toBe(401);
    });

    it('403s a repository outside the token\'s scope, the same whether it exists or not', async () => {
      const existing = await rpc('/mcp/acme/gadgets', 'tools/list', {});
      const absent = await rpc('/mcp/acme/nothing-here', 'tools/list', {});
      expect(existing.status).toBe(403);
      expect(absent.status).toBe(403);
      const [a, b] = [await existing.json(), await absent.json()];
      expect(a.error.code).toBe('FORBIDDEN');
      expect(a.error.message.replace('gadgets', 'X')).toBe(b.error.message.replace('nothing-here', 'X'));
      // The same on the multi-repository endpoint, for the repo argument of a tool call.
      const viaArgument = await rpc('/mcp', 'tools/call', { name: 'index_status', arguments: { repo: 'acme/gadgets' } });
      expect(viaArgument.status).toBe(403);
      const viaArgumentOnOtherEndpoint = await rpc('/mcp/acme/widgets', 'tools/call', { name: 'index_status', arguments: { repo: 'other/private' } }, ACME_TOKEN);
      expect(viaArgumentOnOtherEndpoint.status).toBe(403);
    });

    it('lets an owner/* token read every repository of the owner, whatever the case', async () => {
      expect(await tool('/mcp/Acme/Gadgets', 'index_status', {}, ACME_TOKEN)).toMatchObject({ structuredContent: { repo: 'acme/gadgets', commit: COMMIT } });
      expect(await tool('/mcp', 'index_status', { repo: 'acme/widgets' }, ACME_TOKEN)).toMatchObject({ structuredContent: { repo: 'acme/widgets' } });
    });

    it('is off only with SEXTANT_AUTH=off on a loopback address', async () => {
      const request = (host: string) => call('/mcp/acme/gadgets', {
        method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }, { SEXTANT_AUTH: 'off', SEXTANT_TOKENS: undefined }, host);
      expect((await request('http://127.0.0.1:8787')).status).toBe(200);
      expect((await request('http://localhost:8787')).status).toBe(200);
      // Not loopback (a DNS-rebinding page names its own host): auth stays on, and there are no tokens.
      expect((await request('http://evil.example:8787')).status).toBe(503);
      expect((await call('/health', {}, { SEXTANT_AUTH: 'off' }, 'http://127.0.0.1:8787').then((r) => r.json())).auth).toBe('off');
    });

    it('says so when no tokens are configured, or when they are malformed, without quoting them', async () => {
      const none = await call('/mcp', { method: 'POST', headers: HEADERS, body: '{}' }, { SEXTANT_TOKENS: undefined });
      expect(none.status).toBe(503);
      expect((await none.json()).error.hint).toContain('SEXTANT_TOKENS');
      const malformed = await call('/mcp', { method: 'POST', headers: { ...HEADERS, authorization: 'Bearer x' }, body: '{}' }, { SEXTANT_TOKENS: '[{"sha256":"secret-looking"}]' });
      expect(malformed.status).toBe(500);
      expect(JSON.stringify(await malformed.json())).not.toContain('secret-looking');
    });

    it('parses the token list strictly', () => {
      expect(() => parseTokens('{}')).toThrow('not a JSON list');
      expect(() => parseTokens('[{"sha256":"ab","repos":["a/b"]}]')).toThrow('64 lowercase hex');
      expect(() => parseTokens(`[{"sha256":"${'a'.repeat(64)}","repos":["*"]}]`)).toThrow('owner/name or owner/*');
      expect(parseTokens(`[{"sha256":"${'a'.repeat(64)}","repos":["a/*"]}]`)[0]!.name).toBe('token 0');
    });
  });

  describe('browser origins', () => {
    it('403s a browser Origin that is not allowed, before authentication', async () => {
      const response = await rpc('/mcp/acme/widgets', 'tools/list', {}, null, { origin: 'https://evil.example' });
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe('FORBIDDEN_ORIGIN');
    });

    it('answers an allowed origin with CORS headers, including the preflight', async () => {
      const allowed = { SEXTANT_ALLOWED_ORIGINS: 'https://review.example, https://other.example' };
      const preflight = await call('/mcp', { method: 'OPTIONS', headers: { origin: 'https://review.example' } }, allowed);
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://review.example');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      const response = await call('/mcp/acme/widgets', {
        method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${WIDGETS_TOKEN}`, origin: 'https://review.example' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }, allowed);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://review.example');
    });
  });

  describe('bounds', () => {
    it('413s a body over the limit, declared or not', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(MAX_BODY_BYTES) } });
      const declared = await call('/mcp', { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${WIDGETS_TOKEN}` }, body: big });
      expect(declared.status).toBe(413);
      const streamed = await call('/mcp', {
        method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${WIDGETS_TOKEN}` }, duplex: 'half',
        body: new Blob([big]).stream(),
      } as RequestInit);
      expect(streamed.status).toBe(413);
    });

    it('400s a batch of more messages than a request may carry', async () => {
      const batch = Array.from({ length: 5 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }));
      const response = await call('/mcp', { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${WIDGETS_TOKEN}` }, body: JSON.stringify(batch) });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('TOO_MANY_MESSAGES');
    });

    it('refuses page sizes and graph bounds past their maximum as invalid arguments', async () => {
      const page = await (await rpc('/mcp/acme/widgets', 'tools/call', { name: 'find_references', arguments: { name: 'greet', limit: 100_000 } })).json();
      expect(page.error.code).toBe(-32602);
      const graph = await (await rpc('/mcp/acme/widgets', 'tools/call', { name: 'call_hierarchy', arguments: { name: 'greet', maxNodes: 1_000_000 } })).json();
      expect(graph.error.code).toBe(-32602);
    });
  });

  describe('MCP', () => {
    it('serves MCP statelessly: every request stands alone', async () => {
      const init = await rpc('/mcp/acme/widgets', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect((await init.json()).result.serverInfo.name).toBe('sextant');

      const list = await rpc('/mcp/acme/widgets', 'tools/list', {});
      expect((await list.json()).result.tools.map((t: { name: string }) => t.name)).toContain('index_status');

      const status = await rpc('/mcp/acme/widgets', 'tools/call', { name: 'index_status', arguments: { commit: 'main' } });
      expect(status.headers.get('server-timing')).toMatch(/^cpu;dur=\d+, io;dur=\d+, total;dur=\d+$/);
      const body = await status.json();
      expect(body.result.structuredContent).toMatchObject({ repo: 'acme/widgets', commit: COMMIT });
    });

    it('checks a POST as the SDK\'s Streamable HTTP transport does (Accept, Content-Type, JSON-RPC, protocol version)', async () => {
      const post = (headers: Record<string, string>, body: unknown) =>
        call('/mcp/acme/widgets', { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${WIDGETS_TOKEN}`, ...headers }, body: JSON.stringify(body) });
      const list = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };
      const refused = async (response: Response, status: number, code: number, message: RegExp) => {
        expect(response.status).toBe(status);
        const body = await response.json();
        expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
        expect(body.error.message).toMatch(message);
      };
      await refused(await post({ accept: 'application/json' }, list), 406, -32000, /Not Acceptable/);
      await refused(await post({ 'content-type': 'text/plain' }, list), 415, -32000, /Unsupported Media Type/);
      await refused(await post({ 'mcp-protocol-version': '1999-01-01' }, list), 400, -32000, /Unsupported protocol version: 1999-01-01/);
      await refused(await post({}, { jsonrpc: '1.0', id: 1, method: 'tools/list' }), 400, -32700, /Invalid JSON-RPC message/);
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      await refused(await post({}, [init, list]), 400, -32600, /Only one initialization request/);
      // charset and the like are fine; so is a protocol version this server speaks.
      expect((await post({ 'content-type': 'application/json; charset=utf-8', 'mcp-protocol-version': SUPPORTED_PROTOCOL_VERSIONS.at(-1)! }, list)).status).toBe(200);
    });

    it('answers notifications with 202, a batch with an array, an unknown method with MethodNotFound, ping with {}', async () => {
      const post = (body: unknown) => call('/mcp/acme/widgets', { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${WIDGETS_TOKEN}` }, body: JSON.stringify(body) });
      const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(initialized.status).toBe(202);
      expect(await initialized.text()).toBe('');
      const batch = await post([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } },
        { jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} },
      ]);
      expect(batch.status).toBe(200);
      expect(await batch.json()).toEqual([
        { jsonrpc: '2.0', id: 'a', result: {} },
        { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
      ]);
      const negotiated = await (await post({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 't', version: '1' } } })).json();
      expect(negotiated.result).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { tools: {} }, instructions: expect.stringContaining('Shared arguments') });
    });

    it('speaks the protocol versions the MCP SDK supports, newest first', () => {
      expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_PROTOCOL_VERSIONS);
      expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST_PROTOCOL_VERSION);
    });

    it('serves every repository on /mcp, where a call must name its repo', async () => {
      expect(await tool('/mcp', 'search_symbols', { repo: 'acme/widgets', query: 'greet' })).toMatchObject({
        structuredContent: { repo: 'acme/widgets', results: [{ name: 'greet' }] },
      });
      const unnamed = await tool('/mcp', 'index_status', {});
      expect(unnamed.isError).toBe(true);
      expect(unnamed.structuredContent.error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('serves the public key of SEXTANT_PLAN_SIGNING_KEY at /.well-known/sextant-plan-keys, without a token', async () => {
      const secret = generatePlanSigningKey();
      const keys = await call('/.well-known/sextant-plan-keys', {}, { SEXTANT_PLAN_SIGNING_KEY: secret });
      expect(keys.status).toBe(200);
      const document = (await keys.json()) as PlanKeysDocument;
      expect(document.keys).toEqual([{ alg: 'ed25519', keyId: expect.stringMatching(/^[0-9a-f]{16}$/), publicKey: expect.any(String) }]);
      expect(document.keys).toEqual([(await planSigner(secret, 'the secret')).key]);
      expect(JSON.stringify(document)).not.toContain(secret);

      // Without the secret there are no keys to trust (the plan tools answer unsigned plans; e2e/refactor-hosted covers both in workerd).
      expect(await (await call('/.well-known/sextant-plan-keys')).json()).toEqual({ keys: [] });
      expect((await call('/.well-known/sextant-plan-keys', { method: 'POST' })).status).toBe(405);
    });

    it('says so when the plan-signing key is malformed, without quoting it', async () => {
      for (const response of [
        await call('/.well-known/sextant-plan-keys', {}, { SEXTANT_PLAN_SIGNING_KEY: 'hunter2-not-a-key' }),
        await rpc('/mcp/acme/widgets', 'tools/list', {}, WIDGETS_TOKEN, {}, { SEXTANT_PLAN_SIGNING_KEY: 'hunter2-not-a-key' }),
      ]) {
        expect(response.status).toBe(500);
        const text = await response.text();
        expect(JSON.parse(text).error).toMatchObject({ code: 'PLAN_SIGNING_MISCONFIGURED', hint: expect.stringContaining('openssl rand -base64 32') });
        expect(text).not.toContain('hunter2');
      }
    });

    it('logs one structured line per tool call, with what it read, and never a credential', async () => {
      logs.length = 0;
      await rpc('/mcp/acme/widgets', 'tools/call', { name: 'search_symbols', arguments: { query: 'greet' } });
      await rpc('/mcp/acme/widgets', 'tools/call', { name: 'index_status', arguments: { commit: 'nope' } });
      const calls = logs.filter((l) => l.event === 'tool_call');
      expect(calls).toEqual([
        {
          event: 'tool_call', tool: 'search_symbols', repo: 'acme/widgets', commit: COMMIT, outcome: 'ok', ms: expect.any(Number), cpuMs: expect.any(Number),
          shardsRead: 1, cacheHits: expect.any(Number), r2Reads: expect.any(Number), edgeCacheHits: 0, shardBytes: expect.any(Number), principal: 'widgets-bot',
        },
        {
          event: 'tool_call', tool: 'index_status', repo: 'acme/widgets', outcome: 'COMMIT_NOT_INDEXED', ms: expect.any(Number), cpuMs: expect.any(Number),
          shardsRead: 0, cacheHits: 0, r2Reads: expect.any(Number), edgeCacheHits: 0, shardBytes: 0, principal: 'widgets-bot',
        },
      ]);
      expect(JSON.stringify(logs)).not.toContain(WIDGETS_TOKEN);
      expect(JSON.stringify(logs)).not.toContain(sha256Hex(new TextEncoder().encode(WIDGETS_TOKEN)));
    });
  });
});
