// End to end, on the final interfaces: fixture repositories are committed, indexed by the `indexer`
// CLI, published to local R2 and served by the real worker in workerd, and served by `runner mcp`
// over stdio; the same scenarios run against both through the real MCP SDK client. Titles cite the
// requirement ids (requirements.ts) they prove.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { modelFacingBytes, TOOLS_LIST_BUDGET } from '@sextant/mcp';
import { answerFrom, where, type ToolResult } from './support/mcp-client.ts';
import { BACKENDS, buildFixtureIndex, buildIndexOf, ROOT, type Backend } from './support/servers.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const basic = buildFixtureIndex('ts-basic', 'fixtures/ts-basic', scratch);
const shapes = buildFixtureIndex('ts-hierarchy', 'fixtures/ts-hierarchy', scratch);
const REFERENCE_COUNT = 10_000;
const crowd = buildIndexOf(crowdRepo(), 'fixtures/crowd', scratch);
const INDEXES = [basic, shapes, crowd];

/** A function with 10,000 call sites over ten files. */
function crowdRepo(): string {
  const dir = join(scratch, 'crowd-src');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/tick.ts'), 'export function tick(): void {}\n');
  for (let f = 0; f < 10; f++) {
    writeFileSync(join(dir, `src/calls-${f}.ts`), `import { tick } from './tick';\n${'tick();\n'.repeat(REFERENCE_COUNT / 10)}`);
  }
  return dir;
}


for (const makeBackend of BACKENDS) {
  describe.sequential('', () => {
    let backend: Backend;
    const clients = new Map<string, Client>();
    beforeAll(async () => {
      backend = await makeBackend(INDEXES, scratch);
      for (const { repo } of INDEXES) clients.set(repo, await backend.connect(repo));
    }, 180_000);
    afterAll(async () => backend?.close());

    async function call(repo: string, name: string, args: Record<string, unknown>): Promise<ToolResult> {
      return (await clients.get(repo)!.callTool({ name, arguments: args })) as ToolResult;
    }

    const ok = (index: { repo: string; commit: string }, name: string, args: Record<string, unknown>) => answerFrom(clients.get(index.repo)!, index, name, args);

    async function failure(index: { repo: string }, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
      const result = await call(index.repo, name, args);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain(result.structuredContent!.error.code);
      expect(result.structuredContent!.error.hint.length).toBeGreaterThan(10);
      return result.structuredContent!.error;
    }

    describe('every backend', () => {
      it('[SRV-1][SRV-2] lists the read-only tools with input and output schemas', async () => {
        const { tools } = await clients.get(basic.repo)!.listTools();
        expect(tools.map((t) => t.name)).toEqual([
          'index_status', 'search_symbols', 'search_text', 'goto_definition', 'symbol_info', 'find_references', 'find_implementations',
          'type_hierarchy', 'call_hierarchy', 'file_structure', 'read_file', 'file_problems',
          'diff_symbols', 'change_impact', 'plan_rename', 'plan_safe_delete',
        ]);
        for (const tool of tools) {
          expect(tool.inputSchema.type).toBe('object');
          expect(tool.outputSchema).toMatchObject({ type: 'object' });
          expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
          expect(tool.description!.length).toBeGreaterThan(60);
        }
      });

      it('[SRV-3] keeps what a model reads of tools/list, with the instructions, within the budget', async () => {
        const client = clients.get(basic.repo)!;
        const { tools } = await client.listTools();
        expect(modelFacingBytes(tools, client.getInstructions())).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
      });

      it('[STA-1][ANS-1][ANS-2][ERR-2] index_status names the repo, the commit and what was indexed', async () => {
        const status = await ok(basic, 'index_status', {});
        expect(status.counts.files).toBe(7);
        expect(status.languages).toEqual({ typescript: { files: 6, precision: 'compiler' }, javascript: { files: 1, precision: 'compiler' } });
        // The compiler parses TypeScript and JavaScript: no grammar is named for them.
        expect(Object.keys(status.parsers)).toEqual(['typescript']);
        expect(status.indexer.name).toBe('@sextant/indexer');
        expect(Date.parse(status.builtAt)).not.toBeNaN();
        expect(status.skipped).toEqual([]);
        expect((await ok(basic, 'index_status', { commit: basic.commit.slice(0, 8) })).requested).toEqual({ commit: basic.commit.slice(0, 8), matches: true });
        expect((await failure(basic, 'index_status', { commit: 'ffffffffffff' })).code).toBe('COMMIT_NOT_INDEXED');
      });

      it('[CHN-1][SRC-1][DEF-1][REF-1] search → definition → references chain by symbolId, through an aliased re-export', async () => {
        const search = await ok(basic, 'search_symbols', { query: 'OrderServ' });
        expect(search.results[0]).toMatchObject({ name: 'OrderService', kind: 'class', path: 'src/orders/order-service.ts', line: 4, column: 14, endColumn: 26, match: 'prefix' });
        const { symbolId } = search.results[0];
        const definition = await ok(basic, 'goto_definition', { symbolId });
        expect(definition.definitions).toEqual([expect.objectContaining({ path: 'src/orders/order-service.ts', line: 4, column: 14, preview: 'export class OrderService {' })]);
        const references = await ok(basic, 'find_references', { symbolId });
        expect(references.symbol.symbolId).toBe(symbolId);
        // Reached through `export { OrderService as Service }` and `import { Service }`.
        expect(references.references.map((r: any) => `${where(r)} ${r.kind}`)).toEqual([
          'src/app.ts:1:10 import', 'src/app.ts:3:21 new', 'src/index.ts:1:10 export', 'src/index.ts:1:26 export',
        ]);
        expect(references.references[1].enclosing.symbolId).toMatch(/@/);
        expect(references).toMatchObject({ total: 4, totalIsExact: true, hasMore: false, omittedBelowConfidence: 0 });
      });

      it('[TGT-2][DEF-1] goes to the definition from a use site, through the alias', async () => {
        for (const column of [21, 24, 28]) {
          const definition = await ok(basic, 'goto_definition', { path: 'src/app.ts', line: 3, column });
          expect(definition.symbol).toMatchObject({ name: 'OrderService', qualifiedName: 'OrderService' });
        }
      });

      it('[REF-6] includes the references of related members, each marked with the member it names', async () => {
        const implementation = await ok(basic, 'find_references', { qualifiedName: 'OrderRepository.save', includeDeclaration: true });
        const [repositorySave] = implementation.related;
        expect(implementation.related).toEqual([expect.objectContaining({ name: 'save', kind: 'method', qualifiedName: 'Repository.save', path: 'src/orders/repository.ts' })]);
        expect((await ok(basic, 'goto_definition', { symbolId: repositorySave.symbolId })).symbol.qualifiedName).toBe('Repository.save');
        expect(implementation.references.map((r: any) => `${where(r)} ${r.kind} ${r.via ? 'via' : 'own'}`)).toEqual([
          'src/orders/repository.ts:5:3 definition via', 'src/orders/repository.ts:11:9 definition own', 'src/orders/order-service.ts:10:27 call via',
        ]);
        expect(implementation.references[2].via.symbolId).toBe(repositorySave.symbolId);
        const text = (await call(basic.repo, 'find_references', { qualifiedName: 'OrderRepository.save' })).content[0]!.text;
        expect(text).toContain('and 1 related members (Repository.save)');
        expect(text).toContain('src/orders/order-service.ts:10:27 call via Repository.save');
        const alone = await ok(basic, 'find_references', { qualifiedName: 'OrderRepository.save', includeDeclaration: true, includeRelated: false });
        expect(alone).toMatchObject({ related: [], total: 1, references: [expect.objectContaining({ line: 11, kind: 'definition' })] });
      });

      it('[REF-6] relates a member to the members it overrides and every member overriding those, not to a second hierarchy', async () => {
        const ids = new Map<string, string>();
        const names = ['Shape.area', 'BaseShape.area', 'Circle.area', 'Ring.area', 'Square.area', 'Labelled.label', 'Tagged.label', 'Label.label', 'Badge.label', 'Tag.label'];
        for (const name of names) ids.set((await ok(shapes, 'symbol_info', { qualifiedName: name })).symbol.symbolId, name);
        const named = (peer: { symbolId: string } | undefined) => (peer ? ids.get(peer.symbolId) : 'own');
        const circle = await ok(shapes, 'find_references', { qualifiedName: 'Circle.area', includeDeclaration: true, kinds: ['definition', 'call'] });
        expect(circle.related.map(named).sort()).toEqual(['BaseShape.area', 'Ring.area', 'Shape.area', 'Square.area']);
        expect(circle.references.map((r: any) => `${where(r)} ${r.kind} ${named(r.via)}`)).toEqual([
          'src/shapes/base.ts:6:12 definition BaseShape.area', 'src/shapes/circle.ts:10:3 definition own',
          'src/shapes/circle.ts:20:12 definition Ring.area', 'src/shapes/shape.ts:3:3 definition Shape.area',
          'src/shapes/square.ts:10:3 definition Square.area',
          'src/report.ts:7:52 call Shape.area', 'src/shapes/base.ts:10:34 call BaseShape.area',
          'src/shapes/circle.ts:22:18 call own', 'src/shapes/circle.ts:22:49 call own',
        ]);
        // Badge.label implements both interfaces; Tagged's hierarchy is not Label's.
        const label = await ok(shapes, 'find_references', { qualifiedName: 'Label.label' });
        expect(label.related.map(named).sort()).toEqual(['Badge.label', 'Labelled.label']);
        expect(label.references.map((r: any) => `${where(r)} ${named(r.via)}`)).toEqual(['src/shapes/label.ts:25:45 own']);
        const badge = await ok(shapes, 'find_references', { qualifiedName: 'Badge.label' });
        expect(badge.related.map(named).sort()).toEqual(['Label.label', 'Labelled.label', 'Tag.label', 'Tagged.label']);
      });

      it('[REF-6] relates the same-named members of the object types of one union', async () => {
        const solid = await ok(shapes, 'find_references', { path: 'src/shapes/outline.ts', line: 2, column: 40, includeDeclaration: true });
        expect(solid.related).toEqual([expect.objectContaining({ name: 'stroke', kind: 'property' })]);
        expect(solid.references.map((r: any) => `${where(r)} ${r.kind} ${r.via ? 'via' : 'own'}`)).toEqual([
          'src/shapes/outline.ts:2:40 definition own', 'src/shapes/outline.ts:2:77 definition via',
          'src/shapes/outline.ts:5:18 read own', 'src/shapes/outline.ts:9:60 read via',
        ]);
      });

      it('[REF-1][REF-5][TGT-3][TGT-6] never mixes up two methods that share a name; a call through an interface is the interface member\'s', async () => {
        const image = await ok(basic, 'find_references', { qualifiedName: 'ImageCache.save' });
        expect(image.references.map(where)).toEqual(['src/app.ts:9:9', 'src/images/image-cache.ts:10:9']);
        const viaInterface = await ok(basic, 'find_references', { qualifiedName: 'src/orders/repository.ts:Repository.save' });
        expect(viaInterface.references).toEqual([expect.objectContaining({
          path: 'src/orders/order-service.ts', line: 10, column: 27, kind: 'call', confidence: 'exact',
          enclosing: expect.objectContaining({ name: 'submit', kind: 'method' }),
        })]);
        expect(viaInterface.related.map((r: any) => r.name)).toEqual(['save']);
        expect(viaInterface.references[0].via).toBeUndefined();
        const ambiguous = await failure(basic, 'find_references', { name: 'save' });
        expect(ambiguous.code).toBe('AMBIGUOUS_SYMBOL');
        expect(ambiguous.data.candidates.map((c: any) => c.qualifiedName).sort()).toEqual(['ImageCache.save', 'OrderRepository.save', 'Repository.save']);
        for (const candidate of ambiguous.data.candidates) expect(candidate.symbolId).toMatch(/^[0-9a-z]{16}@[0-9a-f]{12}$/);
      });

      it('[LST-1][LST-3][REF-4] pages with stateless cursors; a cursor of another query is refused', async () => {
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await ok(basic, 'find_references', { qualifiedName: 'OrderService', includeDeclaration: true, limit: 2, ...(cursor ? { cursor } : {}) });
          expect(page.total).toBe(5);
          seen.push(...page.references.map((r: any) => `${where(r)} ${r.kind}`));
          cursor = page.hasMore ? page.nextCursor : undefined;
          if (page.hasMore) expect(page.truncationReason).toBe('limit 2');
          pages++;
        } while (cursor);
        expect(pages).toBe(3);
        expect(seen[0]).toBe('src/orders/order-service.ts:4:14 definition');
        expect(new Set(seen).size).toBe(5);
        const first = await ok(basic, 'find_references', { qualifiedName: 'OrderService', limit: 1 });
        expect((await failure(basic, 'find_references', { qualifiedName: 'ImageCache', cursor: first.nextCursor })).code).toBe('INVALID_CURSOR');
        expect((await failure(basic, 'find_references', { qualifiedName: 'OrderService', cursor: 'bm90IGEgY3Vyc29y' })).code).toBe('INVALID_CURSOR');
        const grouped = await ok(basic, 'find_references', { qualifiedName: 'OrderService', groupByFile: true });
        expect(grouped.files).toEqual([{ path: 'src/app.ts', count: 2 }, { path: 'src/index.ts', count: 2 }]);
      });

      it('[REF-2] filters references by kind and path', async () => {
        expect((await ok(basic, 'find_references', { qualifiedName: 'OrderService', kinds: ['new'] })).references.map(where)).toEqual(['src/app.ts:3:21']);
        expect((await ok(basic, 'find_references', { qualifiedName: 'OrderService', paths: ['!src/index.ts'] })).total).toBe(2);
      });

      it('[TGT-4] refuses a symbolId from another commit, saying which, with the current id', async () => {
        const { results } = await ok(basic, 'search_symbols', { query: 'OrderService', matchMode: 'exact' });
        const key = results[0].symbolId.split('@')[0];
        const stale = await failure(basic, 'goto_definition', { symbolId: `${key}@0123456789ab` });
        expect(stale.code).toBe('STALE_SYMBOL');
        expect(stale.message).toContain('0123456789ab');
        expect(stale.data.currentSymbolId).toBe(results[0].symbolId);
      });

      it('[TGT-5] answers bad positions with their own codes, including a position in a comment', async () => {
        expect((await failure(shapes, 'goto_definition', { path: 'src/report.ts', line: 6, column: 20 })).code).toBe('NO_SYMBOL_AT_POSITION');
        expect((await failure(basic, 'goto_definition', { path: 'src/app.ts', line: 2, column: 1 })).code).toBe('NO_SYMBOL_AT_POSITION');
        expect((await failure(basic, 'goto_definition', { path: 'src/app.ts', line: 500, column: 1 })).code).toBe('POSITION_OUT_OF_RANGE');
        expect((await failure(basic, 'goto_definition', { path: 'src/app.ts', line: 3, column: 400 })).code).toBe('POSITION_OUT_OF_RANGE');
        expect((await failure(basic, 'goto_definition', { path: 'src/nope.ts', line: 1, column: 1 })).code).toBe('FILE_NOT_FOUND');
        expect((await failure(basic, 'goto_definition', { name: 'NoSuchThing' })).code).toBe('SYMBOL_NOT_FOUND');
      });

      it('[ERR-1][TGT-1] turns malformed arguments into protocol errors, inconsistent ones into INVALID_ARGUMENT', async () => {
        const client = clients.get(basic.repo)!;
        await expect(client.callTool({ name: 'find_references', arguments: { line: 'x' } })).rejects.toBeInstanceOf(McpError);
        await expect(client.callTool({ name: 'search_symbols', arguments: { query: 'a', limit: 100_000 } })).rejects.toBeInstanceOf(McpError);
        await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toBeInstanceOf(McpError);
        expect((await failure(basic, 'goto_definition', {})).code).toBe('INVALID_ARGUMENT');
        expect((await failure(basic, 'goto_definition', { name: 'OrderService', symbolId: 'x' })).code).toBe('INVALID_ARGUMENT');
        expect((await failure(basic, 'goto_definition', { path: 'src/app.ts', line: 3 })).code).toBe('INVALID_ARGUMENT');
      });

      it('[SRC-2][SRC-3] matches camelCase humps and wildcards, filtered by kind, language and path', async () => {
        expect((await ok(basic, 'search_symbols', { query: 'OSvc', matchMode: 'camelCase' })).results.map((r: any) => r.name)).toEqual(['OrderService']);
        expect((await ok(basic, 'search_symbols', { query: 'Order*y', matchMode: 'wildcard' })).results.map((r: any) => r.name)).toEqual(['OrderRepository']);
        expect((await ok(basic, 'search_symbols', { query: 'save', kinds: ['method'], paths: ['src/images/**'] })).results.map((r: any) => r.qualifiedName)).toEqual(['ImageCache.save']);
        expect((await ok(basic, 'search_symbols', { query: 'Total', language: 'javascript' })).results.map((r: any) => r.name).sort()).toEqual(['DEFAULT_TOTAL', 'formatTotal']);
      });

      it('[SRC-2][SRC-3][FIL-3] answers the patterns that backtracked for seconds (issue #13), and refuses one past the matcher budget', async () => {
        // A RegExp of ****************Z blocked a worker isolate for 12.7 s; the matcher is linear in each name and path.
        expect((await ok(basic, 'search_symbols', { query: '****************Z', matchMode: 'wildcard' })).total).toBe(0);
        const endingInY = (await ok(basic, 'search_symbols', { query: '****************y', matchMode: 'wildcard' })).results.map((r: any) => r.name);
        expect(endingInY).toContain('OrderRepository');
        expect(endingInY.filter((name: string) => !/y$/i.test(name))).toEqual([]);
        expect((await ok(basic, 'file_problems', { paths: ['**********************Z'] })).files).toBe(0);
        expect((await ok(basic, 'file_problems', { paths: ['**********************.ts'] })).files).toBeGreaterThan(0);
        const error = await failure(basic, 'search_symbols', { query: 'a', paths: [`*${'ab?'.repeat(100)}`] });
        expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { pattern: `*${'ab?'.repeat(100)}` } });
      });

      it('[SRC-4][SRC-1] leaves tests and generated code out of search unless asked', async () => {
        expect((await ok(shapes, 'search_symbols', { query: 'checked' })).total).toBe(0);
        expect((await ok(shapes, 'search_symbols', { query: 'checked', includeTests: true })).results.map((r: any) => r.path)).toEqual(['src/__tests__/report-check.ts']);
        expect((await ok(shapes, 'search_symbols', { query: 'generatedTotal' })).total).toBe(0);
        expect((await ok(shapes, 'search_symbols', { query: 'generatedTotal', includeGenerated: true })).total).toBe(1);
        expect((await ok(basic, 'search_symbols', { query: 'Uint8Array' })).total).toBe(0);
        const external = await ok(basic, 'search_symbols', { query: 'Uint8Array', includeExternal: true, matchMode: 'exact' });
        expect(external.results[0]).toMatchObject({ name: 'Uint8Array', external: { package: 'typescript' } });
        expect(external.results[0].path).toBeUndefined();
      });

      it('[DEF-2] says where an external symbol comes from', async () => {
        const definition = await ok(basic, 'goto_definition', { path: 'src/app.ts', line: 9, column: 30 });
        expect(definition).toMatchObject({ external: true, symbol: { name: 'Uint8Array', external: { package: 'typescript' } }, definitions: [] });
      });

      it('[INF-1] symbol_info gives signature, doc, modifiers, container and counts', async () => {
        const info = await ok(basic, 'symbol_info', { qualifiedName: 'OrderService.submit' });
        expect(info).toMatchObject({
          signature: 'async submit(order: PlacedOrder): Promise<void>',
          doc: 'Stores the order; rejects empty ones.',
          modifiers: ['async'],
          container: { name: 'OrderService', kind: 'class' },
          precision: 'compiler',
          local: false,
          counts: { references: 1, callers: 1, implementations: 0 },
        });
        const shape = await ok(shapes, 'symbol_info', { qualifiedName: 'Shape.area' });
        expect(shape.counts.implementations).toBe(1);
      });

      it('[REF-2] includes tests and generated code among references by default, after production code, and leaves them out on request', async () => {
        const all = await ok(shapes, 'find_references', { qualifiedName: 'total', kinds: ['call'] });
        // Production first though src/__tests__/ and src/generated/ sort before src/report.ts.
        expect(all.references.map((r: any) => r.path)).toEqual(['src/report.ts', 'src/__tests__/report-check.ts', 'src/generated/api.ts']);
        const production = await ok(shapes, 'find_references', { qualifiedName: 'total', kinds: ['call'], includeTests: false, includeGenerated: false });
        expect(production.references.map((r: any) => r.path)).toEqual(['src/report.ts']);
      });

      it('[REF-3] keeps name-only candidates out by default and counts them (none here: the compiler resolved all)', async () => {
        const result = await ok(shapes, 'find_references', { qualifiedName: 'Circle', minConfidence: 'candidate' });
        expect(result.references.every((r: any) => r.confidence === 'exact')).toBe(true);
        expect(result.omittedBelowConfidence).toBe(0);
      });

      it('[IMP-1] finds implementations transitively, for an interface and for an interface member', async () => {
        const types = await ok(shapes, 'find_implementations', { qualifiedName: 'Shape' });
        expect(types.results.map((r: any) => `${r.depth} ${r.relation} ${r.qualifiedName}`)).toEqual([
          '1 implements BaseShape', '1 extends Solid', '2 extends Circle', '2 extends Square', '3 extends Ring',
        ]);
        expect(types.results.find((r: any) => r.qualifiedName === 'Ring').via.name).toBe('Circle');
        const members = await ok(shapes, 'find_implementations', { qualifiedName: 'Shape.area' });
        expect(members.results.map((r: any) => r.qualifiedName)).toEqual(['BaseShape.area', 'Circle.area', 'Square.area', 'Ring.area']);
      });

      it('[SUP-1] finds the whole chain of super methods', async () => {
        const result = await ok(shapes, 'find_implementations', { qualifiedName: 'Ring.area', direction: 'supers' });
        expect(result.results.map((r: any) => `${r.depth} ${r.qualifiedName}`)).toEqual(['1 Circle.area', '2 BaseShape.area', '3 Shape.area']);
      });

      it('[HIE-1] gives the type hierarchy in both directions, bounded by depth', async () => {
        const both = await ok(shapes, 'type_hierarchy', { qualifiedName: 'Circle' });
        expect(both.nodes.map((n: any) => `${n.depth} ${n.qualifiedName}`)).toEqual(['0 Circle', '-1 BaseShape', '-2 Shape', '1 Ring']);
        expect(both.edges.map((e: any) => e.kind)).toEqual(['extends', 'implements', 'extends']);
        const shallow = await ok(shapes, 'type_hierarchy', { qualifiedName: 'Shape', direction: 'subtypes', depth: 1 });
        expect(shallow).toMatchObject({ totalIsExact: false, hasMore: true, truncationReason: 'depth 1' });
      });

      it('[CAL-1] gives callers as a graph with call sites, safe on a cycle', async () => {
        const cycle = await ok(shapes, 'call_hierarchy', { qualifiedName: 'ping', depth: 10 });
        expect(cycle.nodes.map((n: any) => n.qualifiedName)).toEqual(['ping', 'pong', 'report']);
        expect(cycle.edges.map((e: any) => `${e.sites.length} ${where(e.sites[0])}`)).toEqual(['1 src/report.ts:16:23', '1 src/report.ts:19:79', '1 src/report.ts:12:23']);
        const callees = await ok(shapes, 'call_hierarchy', { qualifiedName: 'ping', direction: 'callees' });
        expect(callees.nodes.map((n: any) => n.qualifiedName)).toEqual(['ping', 'pong']);
        expect(callees.totalIsExact).toBe(true);
      });

      it('[CAL-2] marks callers that call through an interface member', async () => {
        const callers = await ok(shapes, 'call_hierarchy', { qualifiedName: 'Circle.area', depth: 1 });
        const through = callers.edges.filter((e: any) => e.through).map((e: any) => `${where(e.sites[0])} through ${e.through.name}`);
        // shape.area() in total() resolves to Shape.area; this.area() in describe() to BaseShape.area.
        expect(through.sort()).toEqual(['src/report.ts:7:52 through area', 'src/shapes/base.ts:10:34 through area']);
        // Ring.area calls Circle.area twice: super.area() and new Circle(…).area(): one edge, two sites.
        const direct = callers.edges.filter((e: any) => !e.through).flatMap((e: any) => e.sites.map(where));
        expect(direct).toEqual(['src/shapes/circle.ts:22:18', 'src/shapes/circle.ts:22:49']);
      });

      it('[CTX-1] gives every site its own line, and with context the lines around it', async () => {
        // A file's lines; the empty string after a final line break is no line.
        const fixtureLines = (fixture: string, path: string) => readFileSync(join(ROOT, 'test/fixtures', fixture, path), 'utf8').replace(/\n$/, '').split('\n');
        const report = fixtureLines('ts-hierarchy', 'src/report.ts');
        const callers = await ok(shapes, 'call_hierarchy', { qualifiedName: 'ping', depth: 1, context: 1 });
        for (const site of callers.edges.flatMap((e: any) => e.sites)) {
          expect(site.text).toBe(report[site.line - 1]!.trimEnd());
          expect(site.before).toEqual([report[site.line - 2]!.trimEnd()]);
          expect(site.after).toEqual(site.line < report.length ? [report[site.line]!.trimEnd()] : []);
        }
        const app = fixtureLines('ts-basic', 'src/app.ts');
        const plain = await call(basic.repo, 'find_references', { qualifiedName: 'OrderService', kinds: ['new'] });
        const site = plain.structuredContent!.references[0];
        expect(site).toMatchObject({ text: app[site.line - 1]!.trimEnd() });
        expect(site).not.toHaveProperty('before');
        expect(plain.content[0]!.text).toContain(`${where(site)} new`);
        expect(plain.content[0]!.text).toContain(`| ${app[site.line - 1]!.trim()}`);
        const around = await call(basic.repo, 'find_references', { qualifiedName: 'OrderService', kinds: ['new'], context: 2 });
        expect(around.content[0]!.text).toContain(`> ${site.line} ${site.text}`);
        expect(around.structuredContent!.references[0].before).toHaveLength(2);
        await expect(clients.get(basic.repo)!.callTool({ name: 'find_references', arguments: { qualifiedName: 'OrderService', context: 4 } })).rejects.toThrow(/context/);
      });

      it('[CTX-2] groupByFile states each path once, then line:column and the line', async () => {
        const flat = await call(basic.repo, 'find_references', { qualifiedName: 'OrderService' });
        const grouped = await call(basic.repo, 'find_references', { qualifiedName: 'OrderService', groupByFile: true });
        expect(grouped.content[0]!.text.length).toBeLessThan(flat.content[0]!.text.length);
        const text = grouped.content[0]!.text.split('\n');
        expect(text.filter((l) => l.startsWith('src/app.ts'))).toEqual(['src/app.ts (2)']);
        for (const r of grouped.structuredContent!.references) expect(text).toContainEqual(expect.stringMatching(new RegExp(`^  ${r.line}:${r.column} `)));
      });

      it('[CAL-3] honours maxNodes and names the bound', async () => {
        const cut = await ok(shapes, 'call_hierarchy', { qualifiedName: 'ping', maxNodes: 2, depth: 10 });
        expect(cut).toMatchObject({ total: 2, totalIsExact: false, hasMore: true, truncationReason: 'maxNodes 2' });
      });

      it('[FIL-1] gives the nested outline of a file with symbolIds', async () => {
        const structure = await ok(shapes, 'file_structure', { path: 'src/shapes/circle.ts' });
        expect(structure.outline.map((n: any) => `${n.kind} ${n.name} ${n.line}-${n.endLine} [${n.children.map((c: any) => c.name).join(',')}]`)).toEqual([
          'class Circle 3-13 [name,constructor,area]', 'class Ring 15-24 [constructor,area]',
        ]);
        const info = await ok(shapes, 'symbol_info', { symbolId: structure.outline[0].children[2].symbolId });
        expect(info.symbol.qualifiedName).toBe('Circle.area');
        expect((await ok(shapes, 'file_structure', { path: 'src/__tests__/report-check.ts' })).classification).toEqual(['test']);
      });

      it('[FIL-2] reads lines of the file at the commit, paged', async () => {
        const first = await ok(shapes, 'read_file', { path: 'src/report.ts', startLine: 10, limit: 2 });
        expect(first.lines).toEqual([{ line: 10, text: '/** Mutual recursion: a cycle in the call graph. */' }, { line: 11, text: 'export function ping(n: number): number {' }]);
        expect(first).toMatchObject({ total: 19 + 1, hasMore: true });
        const next = await ok(shapes, 'read_file', { path: 'src/report.ts', startLine: 10, limit: 2, cursor: first.nextCursor });
        expect(next.startLine).toBe(12);
      });

      it('[FIL-2] reads a symbol\'s whole declaration with its doc comment, and a range to endLine', async () => {
        const ping = await ok(shapes, 'read_file', { name: 'ping' });
        expect(ping.lines.map((l: any) => l.line)).toEqual([10, 11, 12, 13]);
        expect(ping).toMatchObject({ symbol: { qualifiedName: 'ping' }, declaration: { startLine: 10, endLine: 13 }, hasMore: false });
        const range = await ok(shapes, 'read_file', { path: 'src/report.ts', startLine: 15, endLine: 17 });
        expect(range.lines.map((l: any) => l.text)).toEqual(['export function pong(n: number): number {', '  return n <= 0 ? 1 : ping(n - 1);', '}']);
      });

      it('[FIL-3] lists compiler errors for a file and for path globs', async () => {
        const none = await ok(shapes, 'file_problems', { paths: ['src/**'] });
        expect(none).toMatchObject({ files: 9, total: 0 });
        expect((await failure(shapes, 'file_problems', {})).code).toBe('INVALID_ARGUMENT');
      });

      it('[LST-2] pages 10,000 references to the end, every one exactly once', async () => {
        const seen = new Set<string>();
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await ok(crowd, 'find_references', { qualifiedName: 'tick', kinds: ['call'], limit: 2000, ...(cursor ? { cursor } : {}) });
          expect(page).toMatchObject({ total: REFERENCE_COUNT, totalIsExact: true });
          for (const r of page.references) seen.add(where(r));
          cursor = page.hasMore ? page.nextCursor : undefined;
          pages++;
        } while (cursor);
        expect(pages).toBe(5);
        expect(seen.size).toBe(REFERENCE_COUNT);
      });
    });
  });
}
