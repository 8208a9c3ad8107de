// The MCP server end to end, in process: the SDK's own Client talks to createSextantServer over
// InMemoryTransport, with the shop index from packages/query/test/support/memory-index.ts behind
// it. What a client sees: the tool list with schemas and read-only annotations; malformed
// arguments as JSON-RPC InvalidParams (-32602); failures of a well-formed call as isError results
// with a structured error; every answer naming its repo and commit and matching the outputSchema
// the server listed (the Client checks that itself once it has listed the tools; a test below
// proves it does, so the passing calls mean something).
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { abbreviatesCommit, FORMAT_VERSION, formatSymbolId, SextantError, shortCommit } from '@sextant/format';
import { generatePlanSigningKey, planHashMatches, planSigner, verifyPlanSignature, type Plan } from '@sextant/plan';
import type { IndexReader } from '@sextant/query';
import {
  modelFacingBytes, READ_TOOLS, TOOLS_LIST_BUDGET, type CallRecord, type IndexProvider, type IndexRequest, type ToolDefinition,
} from '../src/index.ts';
import { createSextantServer, type ServerOptions } from '../src/create-server.ts';
import { toolSchemaPaths } from '../scripts/schema-files.ts';

import { buildMemoryIndex, MEMORY_COMMIT, openMemoryIndex, sharedNameSpec, shopSpec, type MemoryIndex } from '../../query/test/support/memory-index.ts';

const CORE_TOOLS = ['index_status', 'search_symbols', 'goto_definition', 'find_references'];
const index = buildMemoryIndex(shopSpec());
const idOf = (id: string) => formatSymbolId(index.keys.get(id)!, MEMORY_COMMIT);

/** Serves the one in-memory index and refuses any other commit, as the runner's provider does. */
class MemoryIndexProvider implements IndexProvider {
  private readonly reader: Promise<IndexReader>;

  constructor(served: MemoryIndex = index) {
    this.reader = openMemoryIndex(served);
  }

  async open({ commit }: IndexRequest = {}): Promise<IndexReader> {
    const reader = await this.reader;
    if (commit === undefined || abbreviatesCommit(commit, reader.commit)) return reader;
    throw new SextantError('COMMIT_NOT_INDEXED', `${commit} is not the indexed commit.`, 'Omit commit.', { indexedCommit: reader.commit });
  }
}

interface Connection {
  client: Client;
  tools: Tool[];
  calls: CallRecord[];
  close(): Promise<void>;
}

async function connect(options: ServerOptions = {}, provider: IndexProvider = new MemoryIndexProvider()): Promise<Connection> {
  const calls: CallRecord[] = [];
  const server = createSextantServer(provider, { name: 'sextant-test', version: '0.0.0' }, { onCall: (r) => calls.push(r), ...options });
  const client = new Client({ name: 'sextant-test-client', version: '0.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  // The Client validates structuredContent only for tools it has listed: list first, as real clients do.
  const { tools } = await client.listTools();
  return { client, tools, calls, close: async () => { await client.close(); await server.close(); } };
}

async function call(connection: Connection, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await connection.client.callTool({ name, arguments: args })) as CallToolResult;
}

async function protocolError(connection: Connection, name: string, args: Record<string, unknown>): Promise<McpError> {
  const error = await connection.client.callTool({ name, arguments: args }).then(() => undefined, (e: unknown) => e);
  expect(error, `${name} ${JSON.stringify(args)} should be a protocol error`).toBeInstanceOf(McpError);
  return error as McpError;
}

interface ToolError {
  code: string;
  message: string;
  hint: string;
  data?: Record<string, unknown>;
}

function toolError(result: CallToolResult): ToolError {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: ToolError }).error;
}

let connection: Connection;
const successes: { tool: string; result: CallToolResult }[] = [];

async function succeed(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(connection, name, args);
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  successes.push({ tool: name, result });
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  connection = await connect();
});

afterAll(async () => {
  await connection.close();
});

describe('tools/list', () => {
  it('lists the registry, in order, including the four core tools', () => {
    expect(connection.tools.map((t) => t.name)).toEqual(READ_TOOLS.map((t) => t.name));
    for (const name of CORE_TOOLS) expect(connection.tools.map((t) => t.name)).toContain(name);
  });

  it('gives every tool a description, object input and output schemas and read-only, closed-world annotations', () => {
    for (const tool of connection.tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, openWorldHint: false });
    }
  });

  it(`keeps what a model reads of tools/list (every tool but its outputSchema, and the instructions) within ${TOOLS_LIST_BUDGET} bytes`, () => {
    const bytes = modelFacingBytes(connection.tools, connection.client.getInstructions());
    const perTool = connection.tools.map((t) => `${t.name} ${modelFacingBytes([t], '')}`).join(', ');
    expect(bytes, `tools/list costs a model ${bytes} bytes (${perTool}); shorten descriptions or say shared arguments once in SERVER_INSTRUCTIONS`)
      .toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it('says each shared argument once, in the instructions, not in the tools', () => {
    const instructions = connection.client.getInstructions()!;
    for (const argument of ['symbolId', 'qualifiedName', 'repo', 'commit', 'cursor', 'paths', 'context']) {
      expect(instructions, argument).toContain(argument);
    }
    for (const tool of connection.tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const shared of ['symbolId', 'path', 'line', 'column', 'qualifiedName', 'name', 'repo', 'commit', 'cursor']) {
        // Where a name means something else, it says what: change_impact's symbolId and qualifiedName filter the changes.
        if (tool.name === 'change_impact' && (shared === 'symbolId' || shared === 'qualifiedName')) continue;
        expect(properties[shared]?.description, `${tool.name}.${shared}`).toBeUndefined();
      }
    }
  });

  it('serves the schemas published in schemas/tools (minus their $schema, $id, title and description)', () => {
    const stale = 'schemas/ is stale: run `npm run schemas -w @sextant/mcp`.';
    for (const tool of connection.tools) {
      const paths = toolSchemaPaths(tool);
      for (const [listed, path] of [[tool.inputSchema, paths.input], [tool.outputSchema, paths.output]] as const) {
        const { $schema: _s, $id: _i, title: _t, description: _d, ...file } = JSON.parse(
          readFileSync(fileURLToPath(new URL(`../../../schemas/${path}`, import.meta.url)), 'utf8'),
        ) as Record<string, unknown>;
        expect(listed, `${path}: ${stale}`).toEqual(file);
      }
    }
  });
});

describe('output validation by the client', () => {
  it('is active: a tool answering outside its outputSchema makes callTool reject', async () => {
    // Without this, the passing calls below would prove nothing about the schemas.
    const base = READ_TOOLS.find((t) => t.name === 'goto_definition')!;
    const broken: ToolDefinition = {
      ...base,
      async run(provider, args, context) {
        const answer = (await base.run(provider, args, context)) as { symbol: Record<string, unknown> };
        return { ...answer, symbol: { ...answer.symbol, kind: 'gizmo' } };
      },
      render: () => 'broken',
    };
    const other = await connect({ tools: [broken] });
    try {
      const error = await other.client.callTool({ name: 'goto_definition', arguments: { name: 'OrderService' } }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).message).toMatch(/output schema/);
    } finally {
      await other.close();
    }
  });
});

describe('successful calls', () => {
  it('index_status names the index', async () => {
    const status = await succeed('index_status', {});
    expect(status).toMatchObject({ state: 'ready', formatVersion: FORMAT_VERSION, counts: index.manifest.counts });
    const requested = await succeed('index_status', { commit: MEMORY_COMMIT.slice(0, 7) });
    expect(requested.requested).toEqual({ commit: MEMORY_COMMIT.slice(0, 7), matches: true });
  });

  it('search_symbols turns a name into symbolIds, ranked and paged', async () => {
    const answer = await succeed('search_symbols', { query: 'OSvc', matchMode: 'camelCase' });
    expect(answer.results).toMatchObject([{ name: 'OrderService', symbolId: idOf('OrderService'), match: 'camelCase' }]);
    const first = await succeed('search_symbols', { query: 'order', limit: 2 });
    expect(first).toMatchObject({ total: 3, hasMore: true });
    const rest = await succeed('search_symbols', { query: 'order', limit: 2, cursor: first.nextCursor });
    expect(rest).toMatchObject({ hasMore: false });
    expect((rest.results as unknown[]).length).toBe(1);
  });

  it('goto_definition resolves a use site to its declaration', async () => {
    const answer = await succeed('goto_definition', { path: 'src/main.ts', line: 7, column: 13 });
    expect(answer.symbol).toMatchObject({ symbolId: idOf('OrderService.submit'), qualifiedName: 'OrderService.submit' });
    expect(answer.definitions).toMatchObject([{ path: 'src/orders/order-service.ts', line: 6, column: 3 }]);
    const result = successes.at(-1)!.result;
    expect((result.content[0] as { text: string }).text).toContain('src/orders/order-service.ts:6:3');
  });

  it('goto_definition marks an external symbol', async () => {
    const answer = await succeed('goto_definition', { name: 'readFileSync' });
    expect(answer).toMatchObject({ external: true, definitions: [], symbol: { external: { package: '@types/node' } } });
  });

  it('read_file reads by path with endLine, and by symbol naming the symbol', async () => {
    const lines = await call(connection, 'read_file', { path: 'src/orders/order-service.ts', startLine: 6, endLine: 7 });
    expect(lines.structuredContent).toMatchObject({ startLine: 6, endLine: 7, hasMore: false });
    expect((lines.content[0] as { text: string }).text).toBe(
      'src/orders/order-service.ts:6-7 of 10\n6|   submit(order: string): void {\n7|     this.repository.save(order);');
    // The memory index stores no declaration ranges (ChangeRecord.decls), so this reads the name's
    // line; indexer/test/read-file.test.ts reads whole declarations from real indexes.
    const symbol = await call(connection, 'read_file', { qualifiedName: 'OrderService.submit' });
    expect(symbol.structuredContent).toMatchObject({
      symbol: { symbolId: idOf('OrderService.submit') }, declaration: { startLine: 6, endLine: 6 }, lines: [{ line: 6 }],
    });
    expect((symbol.content[0] as { text: string }).text.split('\n')[0]).toBe(`method OrderService.submit src/orders/order-service.ts:6:3 ${idOf('OrderService.submit')}`);
    const external = toolError(await call(connection, 'read_file', { name: 'readFileSync' }));
    expect([external.code, external.message]).toEqual(['FILE_NOT_FOUND', expect.stringMatching(/^readFileSync is external: it is declared in @types\/node@/)]);
    expect(toolError(await call(connection, 'read_file', { path: 'src/main.ts', startLine: 3, endLine: 2 })).code).toBe('INVALID_ARGUMENT');
  });

  it('find_references lists every use with its enclosing symbol, paged with a cursor', async () => {
    const all = await succeed('find_references', { symbolId: idOf('OrderService'), includeDeclaration: true });
    expect(all).toMatchObject({ total: 5, hasMore: false, order: 'production, then tests, then generated and vendored; each by path and position' });
    expect((successes.at(-1)!.result.content[0] as { text: string }).text.split('\n')[0])
      .toMatch(/^5 references to class OrderService .*; production, then tests, then generated and vendored; each by path and position$/);
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await succeed('find_references', { symbolId: idOf('OrderService'), includeDeclaration: true, limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...(page.references as unknown[]));
      cursor = page.nextCursor as string | undefined;
    } while (cursor);
    expect(seen).toEqual(all.references);
    const calls = await succeed('find_references', { qualifiedName: 'OrderService.submit', kinds: ['call'] });
    expect(calls.references).toMatchObject([{ path: 'src/main.ts', line: 7, kind: 'call', enclosing: { symbolId: idOf('main'), name: 'main' } }]);
  });

  it('type_hierarchy tells same-named types apart in its edges, TypeScript and Java alike', async () => {
    // Hono's layout: three classes named Hono, two extending the one in hono-base.ts under an alias.
    const hierarchy = buildMemoryIndex({
      files: [
        { path: 'src/hono-base.ts', text: 'export class Hono {}' },
        { path: 'src/hono.ts', text: "import { Hono as HonoBase } from './hono-base';\nexport class Hono extends HonoBase {}" },
        { path: 'src/preset/tiny.ts', text: "import { Hono as HonoBase } from '../hono-base';\nexport class Hono extends HonoBase {}" },
        { path: 'core/Base.java', lang: 'java', text: 'class Base {}' },
        { path: 'core/Impl.java', lang: 'java', text: 'class Impl extends Base {}' },
      ],
      symbols: [
        { id: 'base', name: 'Hono', kind: 'class', defs: [{ path: 'src/hono-base.ts', line: 1 }] },
        { id: 'hono', name: 'Hono', kind: 'class', defs: [{ path: 'src/hono.ts', line: 2 }], extends: ['base'] },
        { id: 'tiny', name: 'Hono', kind: 'class', defs: [{ path: 'src/preset/tiny.ts', line: 2 }], extends: ['base'] },
        { id: 'Base', name: 'Base', qname: 'com.acme.Base', kind: 'class', lang: 'java', defs: [{ path: 'core/Base.java', line: 1 }] },
        { id: 'Impl', name: 'Impl', qname: 'com.acme.Impl', kind: 'class', lang: 'java', defs: [{ path: 'core/Impl.java', line: 1 }], extends: ['Base'] },
      ],
    });
    const other = await connect({}, new MemoryIndexProvider(hierarchy));
    try {
      const id = (handle: string) => formatSymbolId(hierarchy.keys.get(handle)!, MEMORY_COMMIT);
      const edges = async (symbolId: string) => ((await call(other, 'type_hierarchy', { symbolId })).content[0] as { text: string }).text
        .split('\n').filter((l) => / (extends|implements) /.test(l) && !/ (up|down) \d/.test(l));
      expect(await edges(id('base'))).toEqual([
        '  src/hono.ts:Hono extends src/hono-base.ts:Hono', '  src/preset/tiny.ts:Hono extends src/hono-base.ts:Hono',
      ]);
      expect(await edges(id('Impl'))).toEqual(['  com.acme.Impl extends com.acme.Base']);
    } finally {
      await other.close();
    }
  });

  it('every answer names its repo and full commit, and matches the outputSchema tools/list gave', () => {
    expect(new Set(successes.map((s) => s.tool))).toEqual(new Set(CORE_TOOLS));
    const validator = new AjvJsonSchemaValidator();
    for (const { tool, result } of successes) {
      const structured = result.structuredContent as Record<string, unknown>;
      expect(structured.repo, tool).toBe('acme/shop');
      expect(structured.commit, tool).toBe(MEMORY_COMMIT);
      expect(result.content[0]).toMatchObject({ type: 'text' });
      // The Client already checked this; checking again here keeps the test honest if it stops.
      const outputSchema = connection.tools.find((t) => t.name === tool)!.outputSchema!;
      expect(validator.getValidator(outputSchema)(structured).errorMessage, tool).toBeUndefined();
    }
  });
});

describe('plans', () => {
  it('are signed with the server\'s plan signer, inside the outputSchema; a server without one answers them unsigned', async () => {
    const signer = await planSigner(generatePlanSigningKey(), 'the test key');
    const signing = await connect({ planSigner: signer });
    try {
      for (const [tool, args] of [['plan_rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' }], ['plan_safe_delete', { name: 'createImageCache' }]] as const) {
        const result = await call(signing, tool, args);
        expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
        const plan = (result.structuredContent as { plan: Plan }).plan;
        expect(plan.signature, tool).toMatchObject({ alg: 'ed25519', keyId: signer.key.keyId });
        expect(planHashMatches(plan), tool).toBe(true);
        expect(await verifyPlanSignature(plan, signer.key), tool).toBe(true);
      }
    } finally {
      await signing.close();
    }
    const unsigned = await call(connection, 'plan_rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' });
    expect((unsigned.structuredContent as { plan: Plan }).plan.signature).toBeUndefined();
  });
});

describe('patterns a caller supplies (issue #13)', () => {
  // What blocked a worker isolate for 12.7 s and a file_problems call for 19 s: answered, and right.
  it('search_symbols wildcard ****************Z and file_problems **********************Z answer', async () => {
    const search = await call(connection, 'search_symbols', { query: '****************Z', matchMode: 'wildcard' });
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent).toMatchObject({ total: 0, results: [] });
    const save = await call(connection, 'search_symbols', { query: '****************save', matchMode: 'wildcard' });
    expect((save.structuredContent as { results: { qualifiedName: string }[] }).results.map((r) => r.qualifiedName).sort())
      .toEqual(['ImageCache.save', 'OrderRepository.save', 'OrderRepositoryImpl.save']);
    const problems = await call(connection, 'file_problems', { paths: ['**********************Z'] });
    expect(problems.isError).toBeFalsy();
    expect(problems.structuredContent).toMatchObject({ files: 0, problems: [] });
    const ts = await call(connection, 'file_problems', { paths: ['**********************.ts'] });
    expect((ts.structuredContent as { files: number }).files).toBe(index.manifest.counts.files);
  });

  it('a pattern past the matcher budget is INVALID_ARGUMENT naming it', async () => {
    const pattern = `*${'ab?'.repeat(100)}`;
    const error = toolError(await call(connection, 'search_symbols', { query: 'a', paths: [pattern] }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(pattern.slice(0, 40));
    expect(error.data).toMatchObject({ pattern, maxStates: 256 });
  });
});

describe('malformed calls are protocol errors (InvalidParams, -32602)', () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['a line that is not a number', 'goto_definition', { path: 'src/main.ts', line: 'x', column: 1 }, /line/],
    ['a column below 1', 'goto_definition', { path: 'src/main.ts', line: 1, column: 0 }, /column/],
    ['a missing required query', 'search_symbols', {}, /query/],
    ['an unknown match mode', 'search_symbols', { query: 'a', matchMode: 'fuzzy' }, /matchMode/],
    ['a limit above the maximum', 'find_references', { name: 'main', limit: 100_000 }, /limit/],
    ['an unknown reference kind', 'find_references', { name: 'main', kinds: ['teleport'] }, /kinds/],
    ['a query longer than 512 characters', 'search_symbols', { query: 'a'.repeat(513), matchMode: 'wildcard' }, /query/],
    ['a glob longer than 512 characters', 'file_problems', { paths: [`${'*'.repeat(512)}Z`] }, /paths/],
    ['more than 64 globs', 'find_references', { name: 'main', paths: Array.from({ length: 65 }, () => 'src/**') }, /paths/],
  ];

  it.each(cases)('%s', async (_label, name, args, mentions) => {
    const error = await protocolError(connection, name, args);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(mentions);
  });

  it('an unknown tool, naming the known ones', async () => {
    const error = await protocolError(connection, 'delete_everything', {});
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('delete_everything');
    expect(error.message).toContain('goto_definition');
  });
});

describe('failed calls are tool results with a structured error', () => {
  it('an ambiguous name gives AMBIGUOUS_SYMBOL with candidates carrying symbolIds that work', async () => {
    const result = await call(connection, 'goto_definition', { name: 'save' });
    const error = toolError(result);
    expect(error.code).toBe('AMBIGUOUS_SYMBOL');
    expect(error.hint).toMatch(/symbolId/);
    const candidates = error.data!.candidates as { symbolId: string; qualifiedName: string }[];
    expect(candidates.map((c) => c.qualifiedName).sort()).toEqual(['ImageCache.save', 'OrderRepository.save', 'OrderRepositoryImpl.save']);
    const text = (result.content[0] as { text: string }).text;
    for (const candidate of candidates) {
      expect(text).toContain(candidate.symbolId);
      const chained = await succeed('goto_definition', { symbolId: candidate.symbolId });
      expect((chained.symbol as { qualifiedName: string }).qualifiedName).toBe(candidate.qualifiedName);
    }
  });

  it('an ambiguous name lists the repository\'s own symbols first and says which package an external comes from', async () => {
    const shared = buildMemoryIndex(sharedNameSpec());
    const other = await connect({}, new MemoryIndexProvider(shared));
    try {
      const id = (handle: string) => formatSymbolId(shared.keys.get(handle)!, MEMORY_COMMIT);
      const text = ((await call(other, 'goto_definition', { name: 'open' })).content[0] as { text: string }).text;
      expect(text.split('\n').slice(1, 6)).toEqual([
        `  function open src/db.ts:2:17 ${id('db.open')}`,
        `  function open src/files.ts:1:17 ${id('files.open')}`,
        `  function open __tests__/open.test.ts:1:10 ${id('test.open')}`,
        `  function open external @types/node@20.19.43 ${id('fs.open')}`,
        `  method Window.open external typescript/lib ${id('window.open')}`,
      ]);
    } finally {
      await other.close();
    }
  });

  it('a symbolId of another commit gives STALE_SYMBOL naming that commit', async () => {
    const [key] = idOf('OrderService').split('@');
    const error = toolError(await call(connection, 'find_references', { symbolId: `${key}@0123456789ab` }));
    expect(error.code).toBe('STALE_SYMBOL');
    expect(error.message).toContain('0123456789ab');
    expect(error.data).toMatchObject({ symbolCommit: '0123456789ab', currentSymbolId: idOf('OrderService') });
  });

  it.each([
    ['goto_definition', {}, 'INVALID_ARGUMENT'],
    ['goto_definition', { name: 'main', symbolId: idOf('main') }, 'INVALID_ARGUMENT'],
    ['goto_definition', { symbolId: 'nonsense' }, 'INVALID_SYMBOL_ID'],
    ['goto_definition', { path: 'src/main.ts', line: 4, column: 1 }, 'NO_SYMBOL_AT_POSITION'],
    ['find_references', { name: 'main', cursor: 'garbage' }, 'INVALID_CURSOR'],
    ['search_symbols', { query: 'a', commit: 'deadbeefdeadbeef' }, 'COMMIT_NOT_INDEXED'],
    ['search_symbols', { query: `*${'ab?'.repeat(100)}`, matchMode: 'wildcard' }, 'INVALID_ARGUMENT'],
    ['file_problems', { paths: [`*${'ab?'.repeat(100)}`] }, 'INVALID_ARGUMENT'],
  ] as [string, Record<string, unknown>, string][])('%s %j gives %s', async (name, args, code) => {
    // Well-formed arguments that cannot be answered: a result the model can read and act on.
    const error = toolError(await call(connection, name, args));
    expect(error.code).toBe(code);
    expect(error.hint.length).toBeGreaterThan(10);
  });

  it('an unexpected exception is INTERNAL, not a silent empty answer', async () => {
    const failing: IndexProvider = { open: async () => { throw new TypeError('boom'); } };
    const other = await connect({}, failing);
    try {
      const error = toolError(await call(other, 'index_status', {}));
      expect(error.code).toBe('INTERNAL');
      expect(error.message).toContain('boom');
      expect(other.calls).toEqual([expect.objectContaining({ tool: 'index_status', outcome: 'INTERNAL' })]);
    } finally {
      await other.close();
    }
  });

  it('reports every call to onCall with its outcome', () => {
    expect(connection.calls.length).toBeGreaterThan(0);
    expect(connection.calls.some((c) => c.outcome === 'ok')).toBe(true);
    expect(connection.calls.some((c) => c.outcome === 'AMBIGUOUS_SYMBOL')).toBe(true);
    for (const record of connection.calls) expect(record.ms).toBeGreaterThanOrEqual(0);
  });
});

describe('which index a call opens', () => {
  /** Records every request and answers with the one memory index. */
  class RecordingProvider implements IndexProvider {
    readonly requests: IndexRequest[] = [];
    private readonly inner = new MemoryIndexProvider();

    async open(request: IndexRequest = {}): Promise<IndexReader> {
      this.requests.push(request);
      return this.inner.open({ commit: request.commit });
    }
  }

  it('passes repo and commit through, and continues a cursor on the cursor\'s commit when the call names none', async () => {
    const provider = new RecordingProvider();
    const recorded = await connect({}, provider);
    try {
      const first = (await call(recorded, 'search_symbols', { repo: 'acme/shop', query: 'order', limit: 2 })).structuredContent!;
      expect(provider.requests.at(-1)).toEqual({ repo: 'acme/shop' });
      await call(recorded, 'search_symbols', { repo: 'acme/shop', query: 'order', limit: 2, cursor: first.nextCursor });
      // Not the default ref's head: the commit the first page came from.
      expect(provider.requests.at(-1)).toEqual({ repo: 'acme/shop', commit: shortCommit(MEMORY_COMMIT) });
      await call(recorded, 'search_symbols', { query: 'order', limit: 2, cursor: first.nextCursor, commit: 'main' });
      expect(provider.requests.at(-1)).toEqual({ commit: 'main' });
      await call(recorded, 'search_symbols', { query: 'order', cursor: 'not a cursor' });
      expect(provider.requests.at(-1)).toEqual({});
    } finally {
      await recorded.close();
    }
  });

  it('reports the answering repo and commit, the shards read and the cache hits to onCall', async () => {
    const recorded = await connect({}, new RecordingProvider());
    try {
      await call(recorded, 'find_references', { name: 'submit' });
      const [record] = recorded.calls.filter((c) => c.tool === 'find_references');
      expect(record).toMatchObject({ outcome: 'ok', repo: index.manifest.repo, commit: MEMORY_COMMIT });
      expect(record!.shardsRead).toBeGreaterThan(0);
      expect(record!.cacheHits).toBeLessThanOrEqual(record!.shardsRead);
      await call(recorded, 'find_references', { name: 'submit' });
      // The second identical call finds every shard decoded already.
      const second = recorded.calls.filter((c) => c.tool === 'find_references')[1]!;
      expect(second.cacheHits).toBe(second.shardsRead);
    } finally {
      await recorded.close();
    }
  });
});
