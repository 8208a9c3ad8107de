// End to end on a pull request: test/fixtures/review-pair/{base,head} committed as two commits of
// one git repository, each indexed by the `indexer` CLI, both served by the worker in workerd (both
// published to one local R2) and by one `runner mcp` holding both indexes, asked through the real
// MCP SDK client. The expected breaks are the TypeScript compiler's (its messages at head) and, for
// Java, the ones the fixture was built to have.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFrom, type ToolResult } from './support/mcp-client.ts';
import { buildPair, pairViaRunner, pairViaWorker, type ServedPair } from './support/review-pair.ts';
import { ROOT } from './support/servers.ts';

const REPO = 'acme/review';
const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-review-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pair = buildPair('review-pair', REPO, scratch);

const TS = {
  pricing: 'src/pricing.ts', checkout: 'src/checkout.ts', naming: 'src/naming.ts', legacy: 'src/legacy.ts', usesLegacy: 'src/uses-legacy.ts',
  compute: 'src/compute.ts', runner: 'src/runner.ts', geometry: 'src/shapes/geometry.ts', usesGeometry: 'src/uses-geometry.ts', notes: 'src/notes.ts',
};
const JAVA = { shape: 'jvm/src/main/java/shop/Shape.java', square: 'jvm/src/main/java/shop/Square.java', inventory: 'jvm/src/main/java/shop/Inventory.java' };
const KOTLIN = 'jvm/src/main/kotlin/shop/Format.kt';

for (const serve of [pairViaWorker, pairViaRunner]) {
  describe.sequential('', () => {
    let served: ServedPair;
    beforeAll(async () => {
      served = await serve(pair);
    }, 180_000);
    afterAll(async () => served?.close());

    const ok = (name: string, args: Record<string, unknown>) => answerFrom(served.client, { repo: REPO, commit: pair.head }, name, { base: pair.base, head: pair.head, ...args });
    const change = (diff: Record<string, any>, name: string) => diff.changes.find((c: any) => (c.head ?? c.base).name === name);
    const sitesOf = (impact: Record<string, any>, qualifiedName: string) =>
      impact.impacts.find((i: any) => i.symbol.qualifiedName === qualifiedName)?.sites.map((s: any) => `${s.status} ${s.path}:${s.line}`) ?? [];

    describe(`reviewing a change through ${serve === pairViaWorker ? 'the worker' : 'the runner'}`, () => {
      it('[REV-1][REV-5] lists each changed symbol with what changed, matched across commits, and every changed file', async () => {
        const diff = await ok('diff_symbols', {});
        expect(diff).toMatchObject({ base: pair.base, head: pair.head, totalIsExact: true, hasMore: false });
        const summary = diff.changes.map((c: any) => `${c.change} ${(c.head ?? c.base).qualifiedName} [${c.aspects.join(',')}]`).sort();
        expect(summary).toEqual([
          'added shop.Shape#perimeter() []',
          'added shop.format(Int, Int) []', // the Kotlin overload format(x, width)
          'modified compute [body]',
          'modified label [body]', // its caller's call was renamed
          'modified price [signature,body]',
          'modified shop.Inventory#count(String, int) [signature,body]',
          'modified shop.Inventory#reserve(String) [body]',
          'modified shop.Shape [members]',
          'modified total [body]',
          'moved area [location]',
          'removed legacy []',
          'renamed newName []',
        ].sort());
        expect(change(diff, 'newName')).toMatchObject({ change: 'renamed', base: { name: 'oldName', path: TS.pricing }, head: { name: 'newName', path: TS.pricing } });
        expect(change(diff, 'area')).toMatchObject({ base: { path: 'src/geometry.ts' }, head: { path: TS.geometry } });
        expect(change(diff, 'price').head.signature).toBe('export function price(amount: number, currency: string): number');
        // base and head symbolIds chain into the other tools at their own commit
        const at = await answerFrom(served.client, { repo: REPO, commit: pair.base }, 'symbol_info', { symbolId: change(diff, 'legacy').base.symbolId, commit: pair.base });
        expect(at.symbol.qualifiedName).toBe('legacy');

        const files = Object.fromEntries(diff.files.map((f: any) => [f.path, `${f.change}${f.from ? ` from ${f.from}` : ''} ${f.status}`]));
        expect(files).toEqual({
          'README.md': 'modified unindexed',
          [TS.checkout]: 'modified indexed', [TS.compute]: 'modified indexed', [TS.legacy]: 'modified indexed', [TS.naming]: 'modified indexed',
          [TS.notes]: 'modified indexed', [TS.pricing]: 'modified indexed', [TS.geometry]: 'renamed from src/geometry.ts indexed',
          [TS.usesGeometry]: 'modified indexed', [JAVA.shape]: 'modified indexed', [JAVA.inventory]: 'modified indexed', [KOTLIN]: 'modified indexed',
        });
        // A comment-only change is a changed file and no symbol change.
        expect(diff.changes.some((c: any) => (c.head ?? c.base).path === TS.notes)).toBe(false);
        expect(diff.coverage.files.skipped).toEqual([{ path: 'README.md', reason: 'not-indexed', detail: 'no indexer reads this language' }]);
        expect(diff.coverage.files.syntactic.sort()).toEqual([JAVA.inventory, JAVA.shape, KOTLIN].sort());
      });

      it('[REV-2] marks the sites a change breaks with the compiler\'s message, the ones it updated, and the ones at risk', async () => {
        const impact = await ok('change_impact', {});
        expect(sitesOf(impact, 'price')).toEqual([`updated ${TS.checkout}:4`, `broken ${TS.checkout}:8`]);
        const quote = impact.impacts.find((i: any) => i.symbol.name === 'price').sites.find((s: any) => s.line === 8);
        expect(quote.reason).toBe('TS2554: Expected 2 arguments, but got 1.');
        // The import no longer compiles; the call through the broken import the compiler does not report again.
        expect(sitesOf(impact, 'legacy')).toEqual([`broken ${TS.usesLegacy}:1`, `at-risk ${TS.usesLegacy}:4`]);
        expect(sitesOf(impact, 'newName')).toEqual([`updated ${TS.naming}:1`, `updated ${TS.naming}:4`]);
        expect(sitesOf(impact, 'compute')).toEqual([`at-risk ${TS.runner}:4`]); // the import is not at risk
        expect(sitesOf(impact, 'area')).toEqual([`updated ${TS.usesGeometry}:1`]);
        // Java: a class that no longer implements its interface; a call whose arguments fit no overload.
        expect(sitesOf(impact, 'shop.Shape#perimeter()')).toEqual([`broken ${JAVA.square}:3`]);
        expect(sitesOf(impact, 'shop.Inventory#count(String, int)')).toEqual([`updated ${JAVA.inventory}:9`, `broken ${JAVA.inventory}:13`]);
        // Kotlin: an overload added breaks nothing.
        expect(impact.impacts.find((i: any) => i.symbol.path === KOTLIN && i.change === 'added').sites.filter((s: any) => s.status === 'broken')).toEqual([]);

        expect(impact.introducedProblems.map((p: any) => `${p.path}:${p.line} ${p.code}`).sort()).toEqual([`${TS.checkout}:8 2554`, `${TS.usesLegacy}:1 2305`].sort());
        expect(impact.coverage.unresolved).toEqual({ count: 0, examples: [] }); // Java and Kotlin record theirs too: none here
        // Nothing left unknown: every changed source file analysed, every identifier read resolved.
        expect(impact.totalIsExact).toBe(true);
      });

      it('[REV-3] finds the test that reaches a changed function through two calls, with the chain', async () => {
        const impact = await ok('change_impact', { qualifiedName: 'compute' });
        expect(impact.impacts).toHaveLength(1);
        expect(impact.affectedTests).toHaveLength(1);
        const test = impact.affectedTests[0];
        expect(test).toMatchObject({ path: 'test/runner.test.ts', tests: [{ name: 'runs compute through the helper' }] });
        const names = await Promise.all(test.chain.map(async (symbolId: string) => (await answerFrom(served.client, { repo: REPO, commit: pair.head }, 'symbol_info', { symbolId, commit: pair.head })).symbol.name));
        expect(names).toEqual(['compute', 'helper', 'run']);
        expect(impact.callers.map((c: any) => `${c.name} ${c.depth}`)).toEqual(['helper 1', 'run 2']);
        expect(impact.coverage.unresolved).toEqual({ count: 0, examples: [] });
        expect(impact.totalIsExact).toBe(true);
      });

      it('[REV-4] writes a review comment in Markdown', async () => {
        const result = (await served.client.callTool({ name: 'change_impact', arguments: { base: pair.base, head: pair.head, format: 'markdown' } })) as ToolResult;
        const text = result.content[0]!.text;
        expect(text).toMatch(/^### Sextant review of `[0-9a-f]{12}\.\.[0-9a-f]{12}`/);
        expect(text).toContain('**12 symbols changed: 4 sites broken, 2 at risk, 5 updated; 1 test file affected; 2 problems introduced, 0 resolved.**');
        // Each site with its line of code, and an at-risk one with why it is at risk.
        expect(text).toContain("- [`src/checkout.ts:8`](https://github.com/acme/review/blob/");
        expect(text).toContain('  `` return `${price(amount)} cents`; ``');
        expect(text).toContain('the symbol was removed and the compiler reports nothing here: the use goes through a broken import');
        expect(text.match(/^### /gm)).toHaveLength(1);
        expect(text).toContain('TS2554: Expected 2 arguments, but got 1.');
        expect(text).toContain('`test/runner.test.ts`: `runs compute through the helper`');
      });

      it('[CTX-1] gives each change-impact site its line at head, and with context the lines around it', async () => {
        const result = (await served.client.callTool({ name: 'change_impact', arguments: { base: pair.base, head: pair.head, context: 1 } })) as ToolResult;
        const sites = result.structuredContent!.impacts.flatMap((i: any) => i.sites);
        expect(sites.length).toBeGreaterThan(0);
        for (const site of sites) {
          const lines = readFileSync(join(ROOT, 'test/fixtures/review-pair/head', site.path), 'utf8').split('\n');
          expect(site.text).toBe(lines[site.line - 1]!.trimEnd());
          expect(site.before).toEqual(site.line > 1 ? [lines[site.line - 2]!.trimEnd()] : []);
        }
      });

      it('[REV-5] names which commit is not indexed', async () => {
        const result = (await served.client.callTool({ name: 'diff_symbols', arguments: { base: '0'.repeat(40), head: pair.head } })) as ToolResult;
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ error: { code: 'COMMIT_NOT_INDEXED', data: { side: 'base' } } });
      });
    });
  });
}
