// End to end on a multi-module Java + Kotlin repository (test/fixtures/jvm-shop): indexed by the
// `indexer` CLI, served by the worker in workerd and by `runner mcp`, asked through the real MCP SDK
// client. Search, definitions, references (with their confidence) and implementations cross the two
// languages in one package namespace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { answerFrom, where } from './support/mcp-client.ts';
import { BACKENDS, buildFixtureIndex, type Backend } from './support/servers.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-jvm-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const shop = buildFixtureIndex('jvm-shop', 'fixtures/jvm-shop', scratch);

const ORDER = 'core/src/main/java/com/example/core/Order.java';
const SERVICE = 'app/src/main/kotlin/com/example/app/OrderService.kt';
const CHECKOUT = 'app/src/main/java/com/example/app/Checkout.java';
const PROMOTIONS = 'app/src/main/java/com/example/app/Promotions.java';


for (const makeBackend of BACKENDS) {
  describe.sequential('', () => {
    let backend: Backend;
    let client: Client;
    beforeAll(async () => {
      backend = await makeBackend([shop], scratch);
      client = await backend.connect(shop.repo);
    }, 180_000);
    afterAll(async () => backend?.close());

    const ok = (name: string, args: Record<string, unknown>) => answerFrom(client, shop, name, args);

    describe(`Java and Kotlin through ${makeBackend === BACKENDS[0] ? 'the worker' : 'the runner'}`, () => {
      it('indexes both languages syntactically and says so', async () => {
        const status = await ok('index_status', {});
        expect(status.languages).toEqual({ java: { files: 13, precision: 'syntactic' }, kotlin: { files: 4, precision: 'syntactic' } });
      });

      it('searches declarations of both languages, with Java and Kotlin qualified names', async () => {
        const search = await ok('search_symbols', { query: 'OrderServ' });
        expect(search.results[0]).toMatchObject({ name: 'OrderService', kind: 'class', qualifiedName: 'com.example.app.OrderService', language: 'kotlin', path: SERVICE, line: 14, column: 7 });
        const method = await ok('search_symbols', { query: 'getId', kinds: ['method'] });
        expect(method.results.map((r: any) => r.qualifiedName)).toEqual(['com.example.core.Order#getId()']);
      });

      it('[TGT-6][TGT-7] tells overloads apart by parameter type, by qualified name and at call sites', async () => {
        const overloads = await ok('search_symbols', { query: 'discount', matchMode: 'exact' });
        expect(overloads.results.map((r: any) => r.qualifiedName).sort()).toEqual(['com.example.core.Order#discount(String)', 'com.example.core.Order#discount(int)']);
        const byInt = await ok('find_references', { qualifiedName: 'com.example.core.Order#discount(int)' });
        // discount(code.length()): String.length() is an int (the JDK model says so), so the String overload calls the int one.
        expect(byInt.references.map((r: any) => `${where(r)} ${r.confidence}`)).toEqual([`${PROMOTIONS}:8:15 resolved`, `${ORDER}:52:9 resolved`]);
        const byString = await ok('find_references', { qualifiedName: 'com.example.core.Order#discount(String)' });
        expect(byString.references.map((r: any) => `${where(r)} ${r.confidence}`)).toEqual([`${PROMOTIONS}:9:15 resolved`]);
        const atCall = await ok('goto_definition', { path: PROMOTIONS, line: 9, column: 16 });
        expect(atCall.symbol.qualifiedName).toBe('com.example.core.Order#discount(String)');
      });

      it('[TGT-2] goes from a Java use of a Kotlin property getter to the property, and from Kotlin to Java', async () => {
        const property = await ok('goto_definition', { path: CHECKOUT, line: 16, column: 33 });
        expect(property.symbol).toMatchObject({ name: 'lastOrderId', kind: 'property', qualifiedName: 'com.example.app.OrderService.lastOrderId' });
        expect(property.definitions.map(where)).toEqual([`${SERVICE}:15:9`]);
        const constructor = await ok('goto_definition', { path: SERVICE, line: 19, column: 21 });
        expect(constructor.definitions.map(where)[0]).toMatch(new RegExp(`^${ORDER}:`));
      });

      it('[REF-1] finds the references of a Java method from Java and from Kotlin property syntax', async () => {
        const references = await ok('find_references', { qualifiedName: 'com.example.core.Order#getId()' });
        expect(references.references.map((r: any) => `${where(r)} ${r.kind} ${r.confidence}`)).toEqual([
          `${SERVICE}:22:29 call resolved`,
          `${SERVICE}:40:23 call resolved`,
          'core/src/main/java/com/example/core/InMemoryOrderRepository.java:14:27 call resolved',
          'core/src/main/java/com/example/core/InMemoryOrderRepository.java:17:31 call resolved',
          'core/src/main/java/com/example/core/InMemoryOrderRepository.java:48:31 call resolved',
          'core/src/main/java/com/example/core/InMemoryOrderRepository.java:53:45 read resolved',
        ]);
      });

      it('[REF-3] keeps name-only candidates out unless asked, and counts them', async () => {
        const resolved = await ok('find_references', { qualifiedName: 'com.example.core.Order#add(Line)' });
        expect(resolved.references.map(where)).toEqual([`${ORDER}:39:16`]);
        // basket.add(…) on a type from a library the index never saw: a name match only.
        expect(resolved.omittedBelowConfidence).toBe(1);
        const all = await ok('find_references', { qualifiedName: 'com.example.core.Order#add(Line)', minConfidence: 'candidate' });
        expect(all.references.filter((r: any) => r.confidence === 'candidate').map(where)).toEqual(['app/src/test/kotlin/com/example/app/UntypedUse.kt:6:41']);
      });

      it('[SUP-1][HIE-1][CAL-1][INF-1][FIL-1][FIL-2][FIL-3] answers every navigation tool on Java and Kotlin', async () => {
        const supers = await ok('find_implementations', { qualifiedName: 'com.example.core.InMemoryOrderRepository#save(Order)', direction: 'supers' });
        expect(supers.results.map((r: any) => r.qualifiedName)).toEqual(['com.example.core.Repository#save(T)']);
        const hierarchy = await ok('type_hierarchy', { qualifiedName: 'com.example.core.InMemoryOrderRepository', direction: 'supertypes' });
        expect(hierarchy.nodes.map((n: any) => `${n.depth} ${n.qualifiedName}`)).toEqual([
          '0 com.example.core.InMemoryOrderRepository', '-1 com.example.core.OrderRepository', '-2 com.example.core.Repository',
        ]);
        const callers = await ok('call_hierarchy', { qualifiedName: 'com.example.core.Order#discount(int)' });
        const named = new Map(callers.nodes.map((n: any) => [n.symbolId, n.qualifiedName]));
        expect(callers.edges.map((e: any) => `${named.get(e.from)} -> ${named.get(e.to)} ${e.sites.map(where).join(',')}`).sort()).toEqual([
          `com.example.app.Promotions#apply(Order) -> com.example.core.Order#discount(String) ${PROMOTIONS}:9:15`,
          `com.example.app.Promotions#apply(Order) -> com.example.core.Order#discount(int) ${PROMOTIONS}:8:15`,
          `com.example.core.Order#discount(String) -> com.example.core.Order#discount(int) ${ORDER}:52:9`,
        ]);
        const info = await ok('symbol_info', { qualifiedName: 'com.example.core.Order#discount(int)' });
        expect(info).toMatchObject({ signature: 'public void discount(int percent)', precision: 'syntactic', container: { qualifiedName: 'com.example.core.Order' } });
        const structure = await ok('file_structure', { path: PROMOTIONS });
        expect(structure.outline.map((n: any) => `${n.kind} ${n.name} [${n.children.map((c: any) => c.name).join(',')}]`)).toEqual(['class Promotions [apply]']);
        const lines = await ok('read_file', { path: PROMOTIONS, startLine: 8, limit: 2 });
        expect(lines.lines.map((l: any) => l.text.trim())).toEqual(['order.discount(10);', 'order.discount("SPRING");']);
        expect(await ok('file_problems', { paths: ['**/*.kt'] })).toMatchObject({ files: 4, total: 0 });
      });

      it('[IMP-1] finds implementations across modules and languages, for an interface and its method', async () => {
        const types = await ok('find_implementations', { qualifiedName: 'com.example.core.Repository' });
        expect(types.results.map((r: any) => r.qualifiedName).sort()).toEqual([
          'com.example.app.FakeRepository', 'com.example.core.InMemoryOrderRepository', 'com.example.core.OrderRepository',
        ]);
        const methods = await ok('find_implementations', { qualifiedName: 'com.example.core.Repository#save(T)' });
        expect(methods.results.map((r: any) => r.qualifiedName).sort()).toEqual([
          'com.example.app.FakeRepository.save(Order)', 'com.example.core.InMemoryOrderRepository#save(Order)',
        ]);
      });

      it('[DEF-2] keeps JDK types as external symbols with their package', async () => {
        const list = await ok('goto_definition', { path: ORDER, line: 10, column: 19 });
        expect(list.symbol).toMatchObject({ qualifiedName: 'java.util.List', external: { package: 'java.util' } });
        const uses = await ok('find_references', { symbolId: list.symbol.symbolId });
        expect(uses.references.map((r: any) => r.path)).toContain('core/src/main/java/com/example/core/InMemoryOrderRepository.java');
      });
    });
  });
}
