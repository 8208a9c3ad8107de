// End to end: every new compiler error of a change is a broken site, whatever the way it breaks code
// that does not name the changed symbol (test/fixtures/review-causes): a call through a local alias,
// a changed return type used later and on an assignment's left side, a name a barrel stopped
// re-exporting (a specifier, `export *`, `export * as ns`), a class no longer assignable where it
// is passed, and an error no changed symbol explains. The oracle is the TypeScript compiler: its
// new errors at head (tsc --noEmit on the two trees, listed below). The repository has no tests,
// and the answer says it is complete. Through the worker in workerd and through `runner mcp`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFrom, type ToolResult } from './support/mcp-client.ts';
import { buildPair, pairViaRunner, pairViaWorker, type ServedPair } from './support/review-pair.ts';

const REPO = 'acme/causes';
const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-causes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const pair = buildPair('review-causes', REPO, scratch);

/** `tsc --noEmit -p test/fixtures/review-causes/head` (base has none): file:line code. */
const COMPILER_ERRORS = [
  'src/cache.ts:5 2554', 'src/console-sink.ts:9 2345', 'src/plan.ts:12 2554', 'src/retry.ts:3 2339', 'src/server.ts:9 2322', 'src/server.ts:10 2551',
  'src/status.ts:1 2305', 'src/status.ts:1 2305', 'src/status.ts:1 2305',
];

for (const serve of [pairViaWorker, pairViaRunner]) {
  describe.sequential('', () => {
    let served: ServedPair;
    beforeAll(async () => {
      served = await serve(pair);
    }, 180_000);
    afterAll(async () => served?.close());

    const ask = (name: string, args: Record<string, unknown>) => answerFrom(served.client, { repo: REPO, commit: pair.head }, name, { base: pair.base, head: pair.head, ...args });
    const broken = (impact: Record<string, any>, qualifiedName: string) => impact.impacts.find((i: any) => i.symbol.qualifiedName === qualifiedName)
      ?.sites.filter((s: any) => s.status === 'broken').map((s: any) => `${s.cause} ${s.path}:${s.line}`) ?? [];

    describe(`every new error of a change, through ${serve === pairViaWorker ? 'the worker' : 'the runner'}`, () => {
      it('[REV-6] reports each of the compiler\'s new errors as a broken site, attributed to the change it stems from or said to be unattributed', async () => {
        const impact = await ask('change_impact', {});
        const reported = [
          ...impact.impacts.flatMap((i: any) => i.sites.filter((s: any) => s.status === 'broken').map((s: any) => `${s.path}:${s.line} ${/^TS(\d+)/.exec(s.reason)?.[1]}`)),
          ...impact.unattributed.map((s: any) => `${s.path}:${s.line} ${s.code}`),
        ];
        expect(reported.sort()).toEqual([...COMPILER_ERRORS].sort());
        // A call through a local alias: `const fn = hashKey; fn(key)`.
        expect(broken(impact, 'hashKey')).toEqual(['flow src/cache.ts:5']);
        // A return type used later (`port.toFixed`) and on an assignment's left side (`config.port = parsePort(…)` errs at `config.port`).
        expect(broken(impact, 'parsePort')).toEqual(['flow src/server.ts:9', 'flow src/server.ts:10']);
        // A class no longer assignable where it is passed: the interface that gained a member.
        expect(broken(impact, 'Sink')).toEqual(['flow src/console-sink.ts:9']);
        // A call in an object literal, on the reference.
        expect(broken(impact, 'computeHash')).toEqual(['reference src/plan.ts:12']);
        // An error no changed symbol explains (a JSON file changed shape): reported, as such.
        expect(impact.unattributed).toEqual([expect.objectContaining({
          path: 'src/retry.ts', line: 3, status: 'broken', cause: 'unattributed', code: 2339, text: 'export const retries: number = settings.retries;',
        })]);
        expect(impact.introducedProblems.map((p: any) => `${p.path}:${p.line} ${p.code}`).sort()).toEqual([...COMPILER_ERRORS].sort());
        // No tests in the repository, nothing skipped, every identifier resolved: complete.
        expect(impact.affectedTests).toEqual([]);
        expect(impact.truncationReason).toBeUndefined();
        expect(impact.totalIsExact).toBe(true);
      });

      it('[REV-7] lists the names a barrel stopped exporting as changes, with the importers as broken sites', async () => {
        const diff = await ask('diff_symbols', {});
        const barrel = diff.changes.filter((c: any) => (c.head ?? c.base).path === 'src/index.ts').map((c: any) => `${c.change} [${c.aspects}] ${(c.head ?? c.base).name}`);
        // `export { NOT_FOUND, GONE } from` lost GONE, `export *` lost NotFoundError, `export * as text` is gone.
        expect(barrel.sort()).toEqual(['modified [exports] GONE', 'modified [exports] NotFoundError', 'removed [] text']);
        const gone = diff.changes.find((c: any) => c.base?.name === 'GONE');
        expect(gone.head).toBeUndefined();
        expect(gone.base).toMatchObject({ path: 'src/index.ts', line: 1, qualifiedName: 'GONE' });
        const impact = await ask('change_impact', {});
        expect(broken(impact, 'GONE')).toEqual(['reference src/status.ts:1']);
        expect(broken(impact, 'NotFoundError')).toEqual(['reference src/status.ts:1']);
        expect(broken(impact, 'text')).toEqual(['reference src/status.ts:1']);
        const risk = impact.impacts.find((i: any) => i.symbol.name === 'GONE').sites.find((s: any) => s.status === 'at-risk');
        expect(risk).toMatchObject({ path: 'src/status.ts', line: 4, reason: 'src/index.ts no longer exports GONE: this use goes through an import the change broke' });
      });

      it('[REV-6] narrowed to one change, lists its errors and the unattributed one, which may be its', async () => {
        const impact = await ask('change_impact', { qualifiedName: 'parsePort' });
        expect(impact.introducedProblems.map((p: any) => `${p.path}:${p.line} ${p.cause}`)).toEqual(['src/retry.ts:3 unattributed', 'src/server.ts:9 flow', 'src/server.ts:10 flow']);
        expect(impact.unattributed.map((s: any) => `${s.path}:${s.line}`)).toEqual(['src/retry.ts:3']);
        expect(impact.totalIsExact).toBe(true);
      });

      it('[REV-8] names the function holding a call in an object literal as its caller', async () => {
        const diff = await ask('diff_symbols', {});
        const computeHash = diff.changes.find((c: any) => c.head?.name === 'computeHash').head.symbolId;
        const graph = await answerFrom(served.client, { repo: REPO, commit: pair.head }, 'call_hierarchy', { symbolId: computeHash, direction: 'callers', depth: 2, commit: pair.head });
        expect(graph.nodes.filter((n: any) => n.depth > 0).map((n: any) => `${n.qualifiedName} ${n.depth}`)).toEqual(['seal 1', 'publish 2']);
        const impact = await ask('change_impact', { qualifiedName: 'computeHash' });
        expect(impact.callers.map((c: any) => `${c.name} ${c.depth}`)).toEqual(['seal 1', 'publish 2']);
      });

      it('[REV-4] writes the review comment with every broken site, its line of code, and the unattributed error', async () => {
        const result = (await served.client.callTool({ name: 'change_impact', arguments: { base: pair.base, head: pair.head, format: 'markdown' } })) as ToolResult;
        const text = result.content[0]!.text;
        expect(text).toContain('**8 symbols changed: 9 sites broken (1 by no changed symbol), 5 at risk, 0 updated; 0 test files affected; 9 problems introduced, 0 resolved.**');
        expect(text).toContain('New errors at head that no changed symbol explains');
        expect(text).toContain('  `config.port = parsePort(text);`');
        expect(text).toContain('(its value or type flows here)');
        expect(text).not.toContain('Not complete');
      });
    });
  });
}
