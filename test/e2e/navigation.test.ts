// End to end, on the final interfaces: a fixture repository is committed, indexed by the `indexer`
// CLI, published to local R2 and served by the real worker in workerd, and served by `runner mcp`
// over stdio; the same scenarios run against both through the real MCP SDK client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildFixtureIndex, serveWithRunner, serveWithWorker, type Served } from './support/servers.ts';

const REPO = 'fixtures/ts-basic';
const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-'));
const built = buildFixtureIndex('ts-basic', REPO, scratch);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text: string }[];
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]!.text}`);
  // Every answer names its repo and commit.
  expect(result.structuredContent).toMatchObject({ repo: REPO, commit: built.commit });
  expect(result.content[0]!.text.length).toBeGreaterThan(0);
  return result.structuredContent!;
}

async function failure(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  return result.structuredContent!.error;
}

const where = (r: { path: string; line: number; column: number }) => `${r.path}:${r.line}:${r.column}`;

for (const start of [
  { name: 'worker (wrangler dev, Streamable HTTP)', serve: () => serveWithWorker(built.index, REPO, scratch) },
  { name: 'runner mcp (stdio)', serve: () => serveWithRunner(built.index) },
]) {
  describe(start.name, () => {
    let served: Served;
    let client: Client;
    beforeAll(async () => {
      served = await start.serve();
      client = served.client;
    }, 120_000);
    afterAll(async () => served?.close());

    it('lists the read-only tools with input and output schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'index_status', 'search_symbols', 'goto_definition', 'symbol_info', 'find_references', 'find_implementations',
        'find_super_methods', 'type_hierarchy', 'call_hierarchy', 'file_structure', 'read_file', 'file_problems',
      ]);
      for (const tool of tools) {
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
        expect(tool.description!.length).toBeGreaterThan(80);
      }
    });

    it('index_status names the repo, the commit and what was indexed', async () => {
      const status = await ok(client, 'index_status', {});
      expect(status.counts.files).toBe(7);
      expect(status.languages).toEqual({ typescript: { files: 6, precision: 'compiler' }, javascript: { files: 1, precision: 'compiler' } });
      expect(Object.keys(status.parsers)).toEqual(expect.arrayContaining(['typescript', 'web-tree-sitter']));
      expect((await ok(client, 'index_status', { commit: built.commit.slice(0, 8) })).requested).toEqual({ commit: built.commit.slice(0, 8), matches: true });
      expect((await failure(client, 'index_status', { commit: 'ffffffffffff' })).code).toBe('COMMIT_NOT_INDEXED');
    });

    it('search → definition → references chain by symbolId', async () => {
      const search = await ok(client, 'search_symbols', { query: 'OrderServ' });
      expect(search.results[0]).toMatchObject({ name: 'OrderService', kind: 'class', path: 'src/orders/order-service.ts', line: 4, column: 14, match: 'prefix' });
      expect(search).toMatchObject({ total: search.results.length, totalIsExact: true, hasMore: false });
      const { symbolId } = search.results[0];
      const definition = await ok(client, 'goto_definition', { symbolId });
      expect(definition.definitions).toEqual([expect.objectContaining({ path: 'src/orders/order-service.ts', line: 4, column: 14, preview: 'export class OrderService {' })]);
      const references = await ok(client, 'find_references', { symbolId });
      expect(references.symbol.symbolId).toBe(symbolId);
      // Reached through `export { OrderService as Service }` and `import { Service }`.
      expect(references.references.map((r: any) => `${where(r)} ${r.kind}`)).toEqual([
        'src/app.ts:1:10 import', 'src/app.ts:3:21 new', 'src/index.ts:1:10 export', 'src/index.ts:1:26 export',
      ]);
      expect(references).toMatchObject({ total: 4, totalIsExact: true, hasMore: false });
    });

    it('goes to the definition through an aliased re-export, from a use site', async () => {
      const definition = await ok(client, 'goto_definition', { path: 'src/app.ts', line: 3, column: 24 });
      expect(definition.symbol).toMatchObject({ name: 'OrderService', qualifiedName: 'OrderService' });
      expect(definition.definitions.map(where)).toEqual(['src/orders/order-service.ts:4:14']);
    });

    it('never mixes up two methods that share a name, and finds a call made through an interface', async () => {
      const image = await ok(client, 'find_references', { qualifiedName: 'ImageCache.save' });
      expect(image.references.map(where)).toEqual(['src/app.ts:9:9', 'src/images/image-cache.ts:10:9']);
      const viaInterface = await ok(client, 'find_references', { qualifiedName: 'Repository.save' });
      expect(viaInterface.references).toEqual([expect.objectContaining({
        path: 'src/orders/order-service.ts', line: 10, column: 27, kind: 'call', enclosing: expect.objectContaining({ name: 'submit', kind: 'method' }),
      })]);
      const ambiguous = await failure(client, 'find_references', { name: 'save' });
      expect(ambiguous.code).toBe('AMBIGUOUS_SYMBOL');
      expect(ambiguous.data.candidates.map((c: any) => c.qualifiedName).sort()).toEqual(['ImageCache.save', 'OrderRepository.save', 'Repository.save']);
      for (const candidate of ambiguous.data.candidates) expect(candidate.symbolId).toMatch(/^[0-9a-z]{16}@[0-9a-f]{12}$/);
    });

    it('pages with stateless cursors, every reference exactly once', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await ok(client, 'find_references', { qualifiedName: 'OrderService', includeDeclaration: true, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.total).toBe(5);
        seen.push(...page.references.map((r: any) => `${where(r)} ${r.kind}`));
        cursor = page.hasMore ? page.nextCursor : undefined;
        if (page.hasMore) expect(page.truncationReason).toBe('limit 2');
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen[0]).toBe('src/orders/order-service.ts:4:14 definition');
      expect(new Set(seen).size).toBe(5);
      const other = await failure(client, 'find_references', { qualifiedName: 'ImageCache', cursor: (await ok(client, 'find_references', { qualifiedName: 'OrderService', limit: 1 })).nextCursor });
      expect(other.code).toBe('INVALID_CURSOR');
    });

    it('filters references by kind', async () => {
      const calls = await ok(client, 'find_references', { qualifiedName: 'OrderService', kinds: ['new'] });
      expect(calls.references.map(where)).toEqual(['src/app.ts:3:21']);
    });

    it('refuses a symbolId from another commit, saying which', async () => {
      const { results } = await ok(client, 'search_symbols', { query: 'OrderService', matchMode: 'exact' });
      const key = results[0].symbolId.split('@')[0];
      const stale = await failure(client, 'goto_definition', { symbolId: `${key}@0123456789ab` });
      expect(stale.code).toBe('STALE_SYMBOL');
      expect(stale.message).toContain('0123456789ab');
      expect(stale.data.currentSymbolId).toBe(results[0].symbolId);
    });

    it('answers bad positions with their own codes', async () => {
      expect((await failure(client, 'goto_definition', { path: 'src/app.ts', line: 2, column: 1 })).code).toBe('NO_SYMBOL_AT_POSITION');
      expect((await failure(client, 'goto_definition', { path: 'src/app.ts', line: 500, column: 1 })).code).toBe('POSITION_OUT_OF_RANGE');
      expect((await failure(client, 'goto_definition', { path: 'src/app.ts', line: 3, column: 400 })).code).toBe('POSITION_OUT_OF_RANGE');
      expect((await failure(client, 'goto_definition', { path: 'src/nope.ts', line: 1, column: 1 })).code).toBe('FILE_NOT_FOUND');
      expect((await failure(client, 'goto_definition', { name: 'NoSuchThing' })).code).toBe('SYMBOL_NOT_FOUND');
    });

    it('turns malformed arguments into protocol errors', async () => {
      await expect(client.callTool({ name: 'find_references', arguments: { line: 'x' } })).rejects.toBeInstanceOf(McpError);
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toBeInstanceOf(McpError);
      expect((await failure(client, 'goto_definition', {})).code).toBe('INVALID_ARGUMENT');
    });
  });
}
