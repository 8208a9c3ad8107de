// End to end on a polyglot repository (test/fixtures/polyglot: TypeScript, Python, Go, Rust, a
// shell script and a YAML file): indexed by the `indexer` CLI, served by the worker in workerd and
// by `runner mcp`, asked through the real MCP SDK client. TypeScript answers from the compiler; the
// Python from scip-python, which indexer build runs by itself; the languages only tags queries cover
// answer syntactically, and every such answer says so: name-only references are candidates, totals
// are not exact, graphs say why they may be empty.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { answerFrom, where, type ToolResult } from './support/mcp-client.ts';
import { BACKENDS, buildFixtureIndex, type Backend } from './support/servers.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-polyglot-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const poly = buildFixtureIndex('polyglot', 'fixtures/polyglot', scratch);

const CART_PY = 'service/shop/cart.py';
const MAIN_PY = 'service/main.py';
const CART_GO = 'tools/cart/cart.go';
const MAIN_GO = 'tools/cmd/main.go';
const LIB_RS = 'crates/cart/src/lib.rs';
const DEPLOY = 'scripts/deploy.sh';

for (const makeBackend of BACKENDS) {
  describe.sequential('', () => {
    let backend: Backend;
    let client: Client;
    beforeAll(async () => {
      backend = await makeBackend([poly], scratch);
      client = await backend.connect(poly.repo);
    }, 180_000);
    afterAll(async () => backend?.close());

    const ok = (name: string, args: Record<string, unknown>) => answerFrom(client, poly, name, args);
    const failing = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError, `${name} should fail: ${result.content[0]?.text}`).toBe(true);
      return { text: result.content[0]!.text, error: result.structuredContent!.error as Record<string, any> };
    };

    describe(`a polyglot repository through ${makeBackend === BACKENDS[0] ? 'the worker' : 'the runner'}`, () => {
      it('lists each language with its precision and file count, and the grammars and indexers it used', async () => {
        const status = await ok('index_status', {});
        expect(status.languages).toEqual({
          bash: { files: 1, precision: 'syntactic' },
          go: { files: 3, precision: 'syntactic' },
          python: { files: 4, precision: 'scip' },
          rust: { files: 1, precision: 'syntactic' },
          typescript: { files: 1, precision: 'compiler' },
        });
        // scip-python (the indexer's optional dependency) ran on the commit's Python files by itself.
        expect(status.parsers).toMatchObject({ 'scip:scip-python': '0.6.6' });
        expect(Object.keys(status.parsers)).toEqual(expect.arrayContaining(['tree-sitter-go', 'tree-sitter-rust', 'tree-sitter-bash']));
        expect(status.warnings).toEqual([]);
        // The YAML file is no language of the index, but its text is searchable.
        expect(status.counts).toMatchObject({ files: 10, texts: 11 });
      });

      it('searches declarations of every language, filtered by language', async () => {
        const carts = await ok('search_symbols', { query: 'Cart', matchMode: 'exact' });
        expect(carts.results.map((r: any) => `${r.language} ${r.kind} ${r.qualifiedName}`).sort()).toEqual(['go class Cart', 'python class Cart', 'rust class Cart']);
        const rust = await ok('search_symbols', { query: 'total', language: 'rust' });
        expect(rust.results.map((r: any) => `${where(r)} ${r.kind}`)).toEqual([`${LIB_RS}:21:12 method`]);
      });

      it('answers Python exactly from scip-python: references, definitions, callers', async () => {
        // report.py declares a total of its own: its bare `total(rows)` is that one, `cart.total(basket)` the module's.
        const refs = await ok('find_references', { qualifiedName: `${CART_PY}:total` });
        expect(refs.references.map((r: any) => `${where(r)} ${r.kind} ${r.confidence}`)).toEqual([
          `${MAIN_PY}:1:29 import exact`,
          `${MAIN_PY}:8:12 call exact`,
          'service/report.py:9:30 call exact',
          'service/shop/__init__.py:1:25 import exact',
        ]);
        expect(refs.totalIsExact).toBe(true);
        const own = await ok('find_references', { qualifiedName: 'service/report.py:total' });
        expect(own.references.map(where)).toEqual(['service/report.py:9:12']);
        const definition = await ok('goto_definition', { path: MAIN_PY, line: 5, column: 12 });
        expect(definition.definitions.map(where)).toEqual([`${CART_PY}:6:7`]);
        const info = await ok('symbol_info', { path: MAIN_PY, line: 5, column: 12 });
        expect(info).toMatchObject({ precision: 'scip', symbol: { language: 'python', kind: 'class', qualifiedName: 'Cart' } });
        const callers = await ok('call_hierarchy', { qualifiedName: `${CART_PY}:total`, direction: 'callers' });
        expect(callers.nodes.map((n: any) => n.qualifiedName).sort()).toEqual(['checkout', 'summary', 'total']);
      });

      it('answers a position on a Go use with the name-only candidates of its language', async () => {
        const { error, text } = await failing('goto_definition', { path: MAIN_GO, line: 12, column: 19 });
        expect(error.code).toBe('NO_SYMBOL_AT_POSITION');
        expect(error.data).toMatchObject({ identifier: 'Total', match: 'name-only', totalCandidates: 2 });
        expect(error.data.candidates.map(where).sort()).toEqual([`${CART_GO}:21:6`, 'tools/report/report.go:5:6']);
        expect(text).toMatch(/matched by name only \(go is indexed syntactically/);
        const atDefinition = await ok('goto_definition', { path: CART_GO, line: 21, column: 7 });
        expect(atDefinition.definitions.map(where)).toEqual([`${CART_GO}:21:6`]);
      });

      it('says a name-matched graph may be empty: calls and subtypes are not resolved', async () => {
        const total = await ok('search_symbols', { query: 'Total', matchMode: 'exact', language: 'go', paths: ['tools/cart/**'] });
        const calls = await ok('call_hierarchy', { symbolId: total.results[0].symbolId, direction: 'callers' });
        expect(calls.totalIsExact).toBe(false);
        expect(calls.truncationReason).toMatch(/go is indexed syntactically, matching names only: its calls are not resolved/);
        const cart = await ok('search_symbols', { query: 'Cart', matchMode: 'exact', language: 'go' });
        const subtypes = await ok('find_implementations', { symbolId: cart.results[0].symbolId });
        expect(subtypes).toMatchObject({ results: [], totalIsExact: false });
        const hierarchy = await ok('type_hierarchy', { symbolId: cart.results[0].symbolId });
        expect(hierarchy).toMatchObject({ totalIsExact: false, hasMore: false });
        const info = await ok('symbol_info', { symbolId: total.results[0].symbolId });
        expect(info).toMatchObject({ precision: 'syntactic', symbol: { language: 'go', kind: 'function' }, signature: 'func Total(c *Cart) int' });
        expect(info.counts.references).toBe(1);
      });

      it('outlines a Rust file, reads a shell function by symbol, and finds Go references across packages', async () => {
        const outline = await ok('file_structure', { path: LIB_RS });
        expect(outline.outline.map((n: any) => `${n.kind} ${n.name} [${(n.children ?? []).map((c: any) => c.name).join(' ')}]`)).toEqual([
          'class Line [sku price]', 'class Cart [lines]', 'method new []', 'method add []', 'method total []',
        ]);
        const build = await ok('search_symbols', { query: 'build', matchMode: 'exact', language: 'bash' });
        const read = await ok('read_file', { symbolId: build.results[0].symbolId });
        expect(read.lines.map((l: any) => l.text)).toContain('  local out="$1"');
        expect(read).toMatchObject({ startLine: 7, declaration: { startLine: 7, endLine: 10 } });
        const add = await ok('search_symbols', { query: 'Add', matchMode: 'exact', language: 'go' });
        // A Go method is its receiver type's, as a Rust method is its impl's type's.
        expect(add.results.map((r: any) => r.qualifiedName)).toEqual(['Cart.Add']);
        const refs = await ok('find_references', { symbolId: add.results[0].symbolId });
        expect(refs.references.map((r: any) => `${where(r)} ${r.kind} ${r.confidence}`)).toEqual([`${MAIN_GO}:11:4 call candidate`]);
        // A package-qualified call is that package's Total; a bare one, its own package's.
        const cartTotal = await ok('find_references', { qualifiedName: `${CART_GO}:Total` });
        expect(cartTotal.references.map(where)).toEqual([`${MAIN_GO}:12:19`]);
        const reportTotal = await ok('find_references', { qualifiedName: 'tools/report/report.go:Total' });
        expect(reportTotal.references.map(where)).toEqual(['tools/report/report.go:15:13']);
        const shipRefs = await ok('find_references', { qualifiedName: `${DEPLOY}:ship` });
        expect(shipRefs.references.map((r: any) => `${where(r)} ${r.kind}`)).toEqual([`${DEPLOY}:17:1 call`]);
      });

      it('keeps TypeScript exact beside the syntactic languages', async () => {
        const refs = await ok('find_references', { qualifiedName: 'web/app.ts:CartLine' });
        expect(refs).toMatchObject({ totalIsExact: true });
        expect(refs.references.map((r: any) => r.confidence)).toEqual(['exact']);
        const yaml = await ok('search_text', { query: 'tax_rate', caseSensitive: true });
        expect(yaml.matches.map(where)).toEqual(['config/settings.yaml:4:3']);
        const problems = await ok('file_problems', { path: CART_GO });
        expect(problems.problems).toEqual([]);
      });
    });
  });
}
