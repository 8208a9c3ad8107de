// The hosted service end to end: real indexes published with `indexer publish --local` into
// wrangler's local R2, the real worker under `wrangler dev` (workerd) with bearer tokens configured
// as a secret, and the real MCP SDK client. Two repositories (one with two commits), tokens scoped
// to one repository or to an owner, a ref moved while a client pages with a cursor, a shard deleted
// and one corrupted in R2, and a publish that dies half-way.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sha256Hex, shardKey } from '@sextant/format';
import type { ObjectStore } from '../../indexer/src/publish/object-store.ts';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { publishIndex } from '../../indexer/src/publish/publish-index.ts';
import { readIndexDirectory } from '../../indexer/src/publish/read-index.ts';
import { INDEXER, ROOT, run } from './support/servers.ts';
import { writeTinyIndex } from './support/tiny-index.ts';
import { startWorker, withLocalStore, type RunningWorker } from './support/wrangler-dev.ts';

const SHOP = 'acme/shop';
const TINY = 'acme/tiny';
const SHOP_TOKEN = 'shop-bot-token-7f3a9c';
const ORG_TOKEN = 'acme-org-token-51d2e8';
const TOKENS = [
  { name: 'shop-bot', sha256: sha256Hex(new TextEncoder().encode(SHOP_TOKEN)), repos: [SHOP] },
  { name: 'org-bot', sha256: sha256Hex(new TextEncoder().encode(ORG_TOKEN)), repos: ['acme/*'] },
];
const TINY_ONE = '1111111111111111111111111111111111111111';
const TINY_TWO = '2222222222222222222222222222222222222222';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
/** The worker trusts a ref resolution this long (REF_TTL_MS); polls wait a little more. */
const REF_TTL_MS = 5_000;

const scratch = mkdtempSync(join(tmpdir(), 'sextant-hosted-'));
const persistDir = join(scratch, 'r2');
const quiet = { out: () => {}, err: (line: string) => console.error(line) };

/** ts-basic committed twice: B adds a file that constructs OrderService once more. */
function shopCommits(): { first: string; second: string; indexFirst: string; indexSecond: string } {
  const repo = join(scratch, 'shop-src');
  cpSync(join(ROOT, 'test/fixtures/ts-basic'), repo, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd: repo, encoding: 'utf8', env }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  const first = git('rev-parse', 'HEAD');
  writeFileSync(join(repo, 'src/extra.ts'), "import { OrderService } from './orders/order-service';\nimport { OrderRepository } from './orders/repository';\n\nexport const extra = new OrderService(new OrderRepository());\n");
  git('add', '-A');
  git('commit', '-q', '-m', 'second');
  const second = git('rev-parse', 'HEAD');
  const indexFirst = join(scratch, 'shop-first');
  const indexSecond = join(scratch, 'shop-second');
  run(INDEXER, ['build', '--repo', repo, '--commit', first, '--out', indexFirst, '--repo-name', SHOP, '--quiet']);
  run(INDEXER, ['build', '--repo', repo, '--commit', second, '--out', indexSecond, '--repo-name', SHOP, '--quiet']);
  return { first, second, indexFirst, indexSecond };
}

async function publish(...argv: string[]): Promise<void> {
  expect(await publishCommand([...argv, '--local', '--persist-to', persistDir], quiet)).toBe(0);
}

/** The local R2 the worker reads, opened beside it. */
const withStore = <T>(use: (store: ObjectStore) => Promise<T>) => withLocalStore(persistDir, use);

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'sextant-e2e-bot', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent!;
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError).toBe(true);
  return result.structuredContent!.error;
}

function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
}

describe('the hosted worker (wrangler dev, tokens, many repositories and commits)', () => {
  let worker: RunningWorker;
  let shop: ReturnType<typeof shopCommits>;
  const clients: Client[] = [];
  const client = async (path: string, token: string) => {
    const connected = await connect(`${worker.url}${path}`, token);
    clients.push(connected);
    return connected;
  };

  beforeAll(async () => {
    shop = shopCommits();
    await publish('--out', shop.indexFirst, '--ref', 'main');
    await writeTinyIndex(join(scratch, 'tiny-one'), { repo: TINY, commit: TINY_ONE });
    await publish('--out', join(scratch, 'tiny-one'), '--ref', 'main');
    worker = await startWorker({ persistDir, env: { SEXTANT_TOKENS: JSON.stringify(TOKENS) } });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await worker?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  describe('access', () => {
    it('401s a request with no token or a bad one, with WWW-Authenticate', async () => {
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
      const none = await post(`${worker.url}/mcp/${SHOP}`, list);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="sextant"');
      const bad = await post(`${worker.url}/mcp/${SHOP}`, list, 'not-a-real-token');
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await expect(connect(`${worker.url}/mcp/${SHOP}`, 'not-a-real-token')).rejects.toThrow();
    });

    it('403s a token on a repository outside its scope, and cannot tell whether it exists', async () => {
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
      const existing = await post(`${worker.url}/mcp/${TINY}`, list, SHOP_TOKEN);
      const missing = await post(`${worker.url}/mcp/acme/ghost`, list, SHOP_TOKEN);
      expect([existing.status, missing.status]).toEqual([403, 403]);
      const [a, b] = [(await existing.json()).error, (await missing.json()).error];
      expect(a.code).toBe('FORBIDDEN');
      expect({ ...a, message: a.message.replace(TINY, 'R') }).toEqual({ ...b, message: b.message.replace('acme/ghost', 'R') });
      // On the multi-repository endpoint the repo argument is checked the same way.
      const viaArgument = await post(`${worker.url}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'index_status', arguments: { repo: TINY } } }, SHOP_TOKEN);
      expect(viaArgument.status).toBe(403);
    });

    it('serves a scoped token its repository, and an owner token every repository of the owner on /mcp', async () => {
      const shopBot = await client(`/mcp/${SHOP}`, SHOP_TOKEN);
      expect(await call(shopBot, 'index_status', {})).toMatchObject({ repo: SHOP, commit: shop.first });
      const orgBot = await client('/mcp', ORG_TOKEN);
      expect(await call(orgBot, 'index_status', { repo: SHOP })).toMatchObject({ repo: SHOP, commit: shop.first });
      expect(await call(orgBot, 'search_symbols', { repo: TINY, query: 'greet' })).toMatchObject({ repo: TINY, commit: TINY_ONE, total: 1 });
      expect((await toolError(orgBot, 'index_status', { repo: 'acme/ghost' })).code).toBe('REPO_NOT_FOUND');
      expect((await toolError(orgBot, 'index_status', {})).code).toBe('INVALID_ARGUMENT');
    });

    it('never writes a token to the logs, and logs each call with what it read', async () => {
      const searchLine = () => worker.output().split('\n').find((l) => l.includes('"event":"tool_call"') && l.includes('"tool":"search_symbols"'));
      // wrangler relays the worker's output asynchronously.
      await expect.poll(searchLine, { timeout: 10_000 }).toBeDefined();
      const output = worker.output();
      for (const secret of [SHOP_TOKEN, ORG_TOKEN, ...TOKENS.map((t) => t.sha256)]) expect(output).not.toContain(secret);
      const line = searchLine()!;
      expect(JSON.parse(line.slice(line.indexOf('{')))).toMatchObject({
        tool: 'search_symbols', repo: TINY, commit: TINY_ONE, outcome: 'ok', principal: 'org-bot',
        shardsRead: 1, cacheHits: expect.any(Number), cpuMs: expect.any(Number), r2Reads: expect.any(Number),
      });
    });
  });

  describe('commits and refs', () => {
    it('answers a moved ref from its new commit, while a cursor keeps answering for the commit it was issued on', async () => {
      const bot = await client(`/mcp/${SHOP}`, SHOP_TOKEN);
      const target = { qualifiedName: 'OrderService' };
      const whole = await call(bot, 'find_references', { ...target, commit: shop.first });
      const first = await call(bot, 'find_references', { ...target, limit: 1 });
      expect(first).toMatchObject({ commit: shop.first, total: whole.total, hasMore: true });

      await publish('--out', shop.indexSecond, '--ref', 'main');
      await expect.poll(async () => (await call(bot, 'index_status', {})).commit, { timeout: REF_TTL_MS * 3, interval: 500 }).toBe(shop.second);
      const moved = await call(bot, 'find_references', target);
      expect(moved.commit).toBe(shop.second);
      expect(moved.total).toBeGreaterThan(whole.total);

      // The rest of the old list, page by page, with no commit named: still the first commit's.
      const seen = [...first.references];
      let cursor: string | undefined = first.nextCursor;
      while (cursor) {
        const page = await call(bot, 'find_references', { ...target, limit: 1, cursor });
        expect(page).toMatchObject({ commit: shop.first, total: whole.total });
        seen.push(...page.references);
        cursor = page.nextCursor;
      }
      expect(seen).toEqual(whole.references);
      // Both commits stay addressable by sha and by short sha.
      expect(await call(bot, 'index_status', { commit: shop.first.slice(0, 9) })).toMatchObject({ commit: shop.first });
      expect(await call(bot, 'index_status', { commit: shop.second })).toMatchObject({ commit: shop.second });
    });

    it('keeps serving the previous commit when a publish dies half-way', async () => {
      const bot = await client('/mcp', ORG_TOKEN);
      await writeTinyIndex(join(scratch, 'tiny-two'), { repo: TINY, commit: TINY_TWO, variant: 'Two' });
      const index = await readIndexDirectory(join(scratch, 'tiny-two'));
      const failure = await withStore(async (store) => {
        let puts = 0;
        const dying: ObjectStore = {
          ...store,
          async put(key, body, options) {
            // The process dies after its first upload: one shard is in, no manifest, no ref.
            if (puts++ >= 1) throw new Error('killed');
            return store.put(key, body, options);
          },
        };
        return publishIndex(dying, index, { repo: TINY, ref: 'main' }).then(() => undefined, (error: Error) => error);
      });
      expect(failure?.message).toBe('killed');
      await new Promise((resolve) => setTimeout(resolve, REF_TTL_MS + 500));
      expect(await call(bot, 'index_status', { repo: TINY })).toMatchObject({ commit: TINY_ONE });
      expect(await call(bot, 'search_symbols', { repo: TINY, query: 'greet' })).toMatchObject({ commit: TINY_ONE, results: [{ name: 'greet' }] });
      expect((await toolError(bot, 'index_status', { repo: TINY, commit: TINY_TWO })).code).toBe('COMMIT_NOT_INDEXED');

      // Publishing again completes it, skipping what the dead publish had uploaded.
      await publish('--out', join(scratch, 'tiny-two'), '--ref', 'main');
      await expect.poll(async () => (await call(bot, 'index_status', { repo: TINY })).commit, { timeout: REF_TTL_MS * 3, interval: 500 }).toBe(TINY_TWO);
      expect(await call(bot, 'search_symbols', { repo: TINY, query: 'greetTwo' })).toMatchObject({ commit: TINY_TWO, total: 1 });
    });
  });

  describe('a damaged store', () => {
    it('calls a deleted or corrupted shard INDEX_CORRUPT naming the object, and the rest keeps working', async () => {
      const damaged = 'acme/damaged';
      const dir = join(scratch, 'damaged');
      const manifest = await writeTinyIndex(dir, { repo: damaged, commit: TINY_ONE, variant: 'Damaged' });
      await publish('--out', dir, '--ref', 'main');
      const names = shardKey(manifest.shards.names!.sha256);
      const symbols = shardKey(manifest.shards['symbols/0000']!.sha256);
      await withStore(async (store) => {
        // One byte flipped, so the size still matches; put without a checksum, as a damaged upload by an older publisher was.
        const bytes = (await store.get(names))!.bytes;
        bytes[bytes.length >> 1]! ^= 0x01;
        await store.put(names, bytes);
        await store.delete([symbols]);
      });
      const bot = await client('/mcp', ORG_TOKEN);

      const corrupt = await toolError(bot, 'search_symbols', { repo: damaged, query: 'greet' });
      expect(corrupt).toMatchObject({ code: 'INDEX_CORRUPT', data: { shard: 'names', object: `r2://sextant-index/${names}` } });
      expect(corrupt.message).toContain(names);
      expect(corrupt.hint).toContain('indexer publish');
      const missing = await toolError(bot, 'find_references', { repo: damaged, path: 'src/main.ts', line: 1, column: 20 });
      expect(missing).toMatchObject({ code: 'INDEX_CORRUPT', data: { shard: 'symbols/0000', object: `r2://sextant-index/${symbols}` } });

      // No crash, and other repositories are unaffected.
      expect((await fetch(`${worker.url}/health`)).status).toBe(200);
      expect(await call(bot, 'search_symbols', { repo: SHOP, query: 'OrderService' })).toMatchObject({ repo: SHOP, results: [expect.objectContaining({ name: 'OrderService' })] });

      // Publishing the commit again repairs it (the object has no checksum equal to its name, so it is uploaded over; nothing bad was cached).
      await withStore(async (store) => publishIndex(store, await readIndexDirectory(dir), { repo: damaged, ref: 'main' }));
      expect(await call(bot, 'search_symbols', { repo: damaged, query: 'greet' })).toMatchObject({ results: [{ name: 'greetDamaged' }] });
    });
  });
});
