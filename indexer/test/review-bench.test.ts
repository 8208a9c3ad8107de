// The review bench's harness pieces on a small real project: the mutation generator (ts-morph)
// finds candidates with users, the compiler oracle (TypeScript) reports the diagnostics a
// mutation introduces with lines mapped through the edit, and the scoring matches sites to them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CompilerOracle, lineOf, newlines } from '../bench/compiler-oracle.ts';
import { applyEdit, MutationGenerator, type Mutation } from '../bench/mutation-generator.ts';
import { seededRandom } from '../bench/references-accuracy.ts';
import { scoreDiff, scoreSites } from '../bench/review-scoring.ts';

const dir = mkdtempSync(join(tmpdir(), 'sextant-review-bench-'));
mkdirSync(join(dir, 'src'));
writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, types: [] }, include: ['src'] }));
writeFileSync(join(dir, 'src/lib.ts'), [
  'export function greet(name: string, times: number): string {',
  '  return name.repeat(times);',
  '}',
  '',
  'export interface Shape {',
  '  area(): number;',
  '}',
  '',
  'export abstract class Base {',
  '  abstract id(): string;',
  '}',
  '',
].join('\n'));
writeFileSync(join(dir, 'src/use.ts'), [
  "import { greet, Base, type Shape } from './lib.ts';",
  '',
  "export const a = greet('a', 2);",
  'export class Square extends Base implements Shape {',
  '  area(): number { return 4; }',
  "  id(): string { return 'sq'; }",
  '}',
  'export const total = (s: Shape) => s.area();',
  '',
].join('\n'));
// The kinds about barrels and flows: a barrel re-exporting by name and by `export *`, a function
// called through a local alias, and one whose result its callers use.
const flows = mkdtempSync(join(tmpdir(), 'sextant-review-bench-flows-'));
mkdirSync(join(flows, 'src'));
writeFileSync(join(flows, 'tsconfig.json'), readFileSync(join(dir, 'tsconfig.json')));
writeFileSync(join(flows, 'src/hash.ts'), [
  'export function hashKey(key: string): string {',
  '  return key;',
  '}',
  '',
  'export function size(): number {',
  '  return 1;',
  '}',
  '',
].join('\n'));
writeFileSync(join(flows, 'src/codes.ts'), 'export const OK = 0;\nexport const FAILED = 1;\n');
writeFileSync(join(flows, 'src/index.ts'), [
  "export { OK, FAILED } from './codes.ts';",
  "export * from './hash.ts';",
  '',
].join('\n'));
writeFileSync(join(flows, 'src/use.ts'), [
  "import { FAILED, hashKey, size } from './index.ts';",
  '',
  'export function run(options: { hashFn?: (key: string) => string }): number {',
  '  const fn = options.hashFn || hashKey;',
  "  fn('a');",
  '  const total: number = size() + FAILED;',
  '  return total;',
  '}',
  '',
].join('\n'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(flows, { recursive: true, force: true });
});

const isTestPath = () => false;
const oracle = new CompilerOracle(dir);

/** The mutant checked by the oracle of the project it was generated in. */
function checkWith(project: string, projectOracle: CompilerOracle, mutation: Mutation) {
  const base = readFileSync(join(project, mutation.path), 'utf8');
  return projectOracle.check(mutation.path, applyEdit(base, mutation.edit), {
    startLine: lineOf(base, mutation.edit.start), endLine: lineOf(base, mutation.edit.end),
    lineDelta: newlines(mutation.edit.text) - newlines(base.slice(mutation.edit.start, mutation.edit.end)),
  });
}
const check = (mutation: Mutation) => checkWith(dir, oracle, mutation);

describe('review bench harness', () => {
  it('the base compiles clean', () => {
    expect(oracle.base()).toEqual([]);
  });

  it('removing a required parameter breaks the caller in the other file (TS2554), and the body in the change', () => {
    const generator = new MutationGenerator({ dir, random: seededRandom(1), isTestPath });
    const mutation = generator.next('remove-parameter')!;
    expect(mutation).toMatchObject({ path: 'src/lib.ts', qualifiedName: 'greet', expected: { change: 'modified', aspects: ['signature'], side: 'base', line: 1 } });
    expect(mutation.references).toBeGreaterThanOrEqual(1);
    const { introduced } = check(mutation);
    expect(introduced.map((d) => [d.path, d.line, d.code])).toEqual(expect.arrayContaining([['src/use.ts', 3, 2554], ['src/lib.ts', 2, 2304]]));
  });

  it('an abstract member added breaks the concrete subclass; lines after the edit map back, so nothing else is new', () => {
    const generator = new MutationGenerator({ dir, random: seededRandom(1), isTestPath });
    const mutation = generator.next('add-abstract-member')!;
    expect(mutation.qualifiedName).toBe('Base.sextantAddedMember');
    const { introduced } = check(mutation);
    expect(introduced.map((d) => [d.path, d.line, d.code])).toEqual([['src/use.ts', 4, 2515]]);
  });

  it('removing an implemented interface member breaks its uses through the interface', () => {
    const generator = new MutationGenerator({ dir, random: seededRandom(1), isTestPath });
    const mutation = generator.next('remove-interface-member')!;
    expect(mutation).toMatchObject({ qualifiedName: 'Shape.area', expected: { change: 'removed' } });
    expect(check(mutation).introduced.map((d) => [d.path, d.line, d.code])).toEqual([['src/use.ts', 8, 2339]]);
  });

  describe('barrels and flows', () => {
    const flowOracle = new CompilerOracle(flows);
    const generator = () => new MutationGenerator({ dir: flows, random: seededRandom(1), isTestPath });
    const checkFlow = (mutation: Mutation) => checkWith(flows, flowOracle, mutation);

    it('the base compiles clean', () => {
      expect(flowOracle.base()).toEqual([]);
    });

    it('a name removed from an export { … } from barrel breaks its importer; OK, which nobody imports, is no candidate', () => {
      const mutation = generator().next('remove-reexport')!;
      expect(mutation).toMatchObject({ path: 'src/index.ts', qualifiedName: 'FAILED', expected: { change: 'modified', aspects: ['exports'], side: 'base', name: 'FAILED', line: 1 } });
      expect(applyEdit(readFileSync(join(flows, 'src/index.ts'), 'utf8'), mutation.edit).split('\n')[0]).toBe("export { OK } from './codes.ts';");
      expect(checkFlow(mutation).introduced.map((d) => [d.path, d.line, d.code])).toEqual([['src/use.ts', 1, 2305]]);
      const g = generator();
      g.next('remove-reexport');
      expect(g.next('remove-reexport')).toBeUndefined();
    });

    it('a whole export * line removed breaks every name its importers took from it', () => {
      const mutation = generator().next('remove-export-star')!;
      expect(mutation).toMatchObject({ path: 'src/index.ts', expected: { change: 'modified', aspects: ['exports'], line: 2 } });
      expect(checkFlow(mutation).introduced.map((d) => [d.path, d.line, d.code])).toEqual([['src/use.ts', 1, 2305], ['src/use.ts', 1, 2305]]);
    });

    it('a required parameter added to a function called through a local alias breaks the alias call', () => {
      const mutation = generator().next('call-through-alias')!;
      expect(mutation).toMatchObject({ path: 'src/hash.ts', qualifiedName: 'hashKey', expected: { change: 'modified', aspects: ['signature'] } });
      // The error is at the call through the alias (`fn('a')`), where no reference to hashKey is.
      expect(checkFlow(mutation).introduced.map((d) => [d.path, d.line, d.code])).toEqual([['src/use.ts', 5, 2554]]);
    });

    it('a return type changed breaks the callers that use the result', () => {
      const g = generator();
      const mutations = [g.next('change-return-type'), g.next('change-return-type')];
      expect(g.next('change-return-type')).toBeUndefined();
      const size = mutations.find((m) => m?.qualifiedName === 'size')!;
      expect(size.description).toBe('return type number -> string');
      expect(checkFlow(size).introduced.map((d) => [d.path, d.line, d.code])).toEqual([['src/hash.ts', 6, 2322], ['src/use.ts', 6, 2322]]);
    });
  });

  it('scores sites by file and line overlap, and finds the changed symbol by its name line', () => {
    const diagnostic = { path: 'src/use.ts', line: 3, column: 1, endLine: 3, endColumn: 5, code: 2554, message: 'Expected 1 arguments, but got 2.' };
    const site = (path: string, line: number) => ({ path, line, column: 1, endLine: line, endColumn: 2, kind: 'call', confidence: 'exact', status: 'broken' });
    const score = scoreSites([diagnostic], [diagnostic], [{ symbol: {}, change: 'modified', aspects: ['signature'], sites: [site('src/use.ts', 3), site('src/use.ts', 5)] }], [], true);
    expect(score).toMatchObject({ oracle: 1, covered: 1, attributed: 1, falselyExact: false, broken: 2, matched: 1 });
    expect(score.extra.map((s) => s.line)).toEqual([5]);
    // An unattributed site covers the diagnostic too, but is no attribution; an exact answer missing one is counted.
    const other = { ...diagnostic, path: 'src/other.ts' };
    expect(scoreSites([diagnostic], [diagnostic], [], [{ ...site('src/use.ts', 3), cause: 'unattributed' }], true)).toMatchObject({ covered: 1, attributed: 0, matched: 1, falselyExact: false });
    expect(scoreSites([diagnostic, other], [diagnostic, other], [], [{ ...site('src/use.ts', 3), cause: 'unattributed' }], true)).toMatchObject({ covered: 1, falselyExact: true });
    const base = { symbolId: 'x', name: 'greet', qualifiedName: 'greet', kind: 'function', path: 'src/lib.ts', line: 1 };
    const expected = { change: 'modified' as const, aspects: ['signature'], side: 'base' as const, name: 'greet', line: 1 };
    expect(scoreDiff([{ change: 'modified', aspects: ['signature'], base }], 'src/lib.ts', expected)).toEqual({ ok: true, got: 'modified [signature]', extraAspects: [] });
    // An aspect the edit did not change is a wrong answer.
    expect(scoreDiff([{ change: 'modified', aspects: ['signature', 'body'], base }], 'src/lib.ts', expected)).toEqual({ ok: false, got: 'modified [signature, body]', extraAspects: ['body'] });
    expect(scoreDiff([{ change: 'removed', aspects: [], base }], 'src/lib.ts', expected).ok).toBe(false);
    expect(scoreDiff([], 'src/lib.ts', expected).got).toBe('not found');
  });
});
