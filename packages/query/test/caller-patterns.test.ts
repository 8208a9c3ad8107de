// Patterns a caller supplies (search_symbols wildcard and camelCase queries, the `paths` globs of
// search_symbols, find_references and file_problems) on a real IndexReader: the inputs that
// blocked a worker isolate for seconds (issue #13) answer right, the matching work of the whole
// call stays within the matcher's bound (4 * (states + 1) steps per character of every name or path
// it looked at, counted by matcherSteps, not timed), and a pattern past the budget is
// INVALID_ARGUMENT naming it.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCamelCase, compileGlob, compileWildcard, matcherSteps, SextantError, type PatternMatcher } from '@sextant/format';
import { fileProblems, findReferences, searchSymbols, type IndexReader } from '../src/index.ts';
import { buildMemoryIndex, openMemoryIndex, shopSpec, type MemoryIndexSpec } from './support/memory-index.ts';

const LONG = 'a'.repeat(60);
const DEEP = `${'a/'.repeat(40)}a.ts`;

/** Long names and a deep path: what backtracking RegExps took exponential time on. */
const spec: MemoryIndexSpec = {
  files: [
    { path: 'src/long.ts', text: `export const ${LONG} = 1;\nexport class AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAb {}\nexport class FizzBuzz {}\n` },
    { path: DEEP, text: 'export const deep = 1;\n' },
    { path: 'src/Z/zoo.ts', text: 'export const zoo = 1;\n' },
  ],
  symbols: [
    { name: LONG, kind: 'variable', defs: [{ path: 'src/long.ts', line: 1 }] },
    { name: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAb', kind: 'class', defs: [{ path: 'src/long.ts', line: 2 }] },
    { name: 'FizzBuzz', kind: 'class', defs: [{ path: 'src/long.ts', line: 3 }] },
    { name: 'deep', kind: 'variable', defs: [{ path: DEEP, line: 1 }] },
    { name: 'zoo', kind: 'variable', defs: [{ path: 'src/Z/zoo.ts', line: 1 }] },
  ],
};

/** What `run` made every matcher do, and the bound for `matcher` over `texts`. */
async function work<T>(run: () => Promise<T>, matcher: PatternMatcher, texts: readonly string[]): Promise<{ answer: T; steps: number; bound: number }> {
  const before = matcherSteps();
  const answer = await run();
  const steps = matcherSteps() - before;
  return { answer, steps, bound: texts.reduce((sum, text) => sum + 4 * (matcher.states + 1) * (text.length + 1), 0) };
}

async function rejection(run: () => Promise<unknown>): Promise<SextantError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SextantError);
  return error as SextantError;
}

describe('patterns a caller supplies', () => {
  let reader: IndexReader;
  let names: string[];
  const paths = spec.files.map((f) => f.path);
  beforeAll(async () => {
    reader = await openMemoryIndex(buildMemoryIndex(spec));
    const column = await reader.names();
    names = Array.from({ length: column.size }, (_, i) => column.name(i));
  });

  it('search_symbols wildcard ****************Z finds the names ending in z, within the bound', async () => {
    const query = '****************Z';
    const { answer, steps, bound } = await work(() => searchSymbols(reader, { query, matchMode: 'wildcard' }), compileWildcard(query), names);
    expect(answer.results.map((r) => [r.name, r.match])).toEqual([['FizzBuzz', 'wildcard']]);
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThanOrEqual(bound);
  });

  it('search_symbols wildcard *a*a*…b and camelCase A Ab Ab … answer right within the bound', async () => {
    const wildcard = `${'*a'.repeat(30)}*b`;
    const wild = await work(() => searchSymbols(reader, { query: wildcard, matchMode: 'wildcard' }), compileWildcard(wildcard), names);
    expect(wild.answer.results.map((r) => r.name)).toEqual(['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAb']);
    expect(wild.steps).toBeLessThanOrEqual(wild.bound);
    // Lazy `.*?A[^A-Z]*?b` RegExps backtracked polynomially over the run of capitals.
    const camel = `A${'A'.repeat(20)}bX`;
    const humps = await work(() => searchSymbols(reader, { query: camel, matchMode: 'camelCase' }), compileCamelCase(camel), names);
    expect(humps.answer.results).toEqual([]);
    expect(humps.steps).toBeLessThanOrEqual(humps.bound);
    expect((await searchSymbols(reader, { query: 'AAAb', matchMode: 'camelCase' })).results.map((r) => r.name)).toEqual(['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAb']);
  });

  it('file_problems paths **********************Z examines the one file under a directory Z, within the bound', async () => {
    const glob = '**********************Z';
    const { answer, steps, bound } = await work(() => fileProblems(reader, { paths: [glob] }), compileGlob(glob), paths);
    expect(answer).toMatchObject({ files: 1, problems: [], total: 0 });
    expect(steps).toBeLessThanOrEqual(bound);
    expect((await fileProblems(reader, { paths: ['**/**/**/**/**/a.ts'] })).files).toBe(1);
    expect((await fileProblems(reader, { paths: [`${'*/'.repeat(40)}*`] })).files).toBe(1);
  });

  it('search_symbols and find_references path globs take the same matcher', async () => {
    const glob = `${'**/'.repeat(30)}*Z*`;
    // Only `zoo` contains the query, so its path is the one the glob is tested on.
    const search = await work(() => searchSymbols(reader, { query: 'o', paths: [glob] }), compileGlob(glob), ['src/Z/zoo.ts']);
    expect(search.answer.results.map((r) => r.name)).toEqual(['zoo']);
    expect(search.steps).toBeLessThanOrEqual(search.bound);
    const references = await findReferences(reader, { name: 'deep' }, { includeDeclaration: true, paths: [`!${'*'.repeat(30)}/a.ts`] });
    expect(references.references).toEqual([]);
    expect((await findReferences(reader, { name: 'deep' }, { includeDeclaration: true })).references).toHaveLength(1);
  });

  it('refuses a pattern past the matcher budget as INVALID_ARGUMENT naming it, for every tool', async () => {
    const pattern = `*${'ab?'.repeat(100)}`;
    const errors = [
      await rejection(() => searchSymbols(reader, { query: pattern, matchMode: 'wildcard' })),
      await rejection(() => searchSymbols(reader, { query: pattern, matchMode: 'camelCase' })),
      await rejection(() => searchSymbols(reader, { query: 'a', paths: [pattern] })),
      await rejection(() => fileProblems(reader, { paths: ['src/**', `!${pattern}`] })),
      await rejection(() => findReferences(reader, { name: 'deep' }, { paths: [pattern] })),
    ];
    for (const error of errors) {
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain(pattern.slice(0, 40));
      expect(error.data).toMatchObject({ pattern });
    }
  });

  it('refuses globs whose matching costs past the budget as INVALID_ARGUMENT naming `paths`, over every path a call reads', async () => {
    const files = Array.from({ length: 400 }, (_, i) => ({ path: `packages/m-${i % 40}/src/components/subsystem-${i % 200}/internal/handlers/file-with-a-descriptive-name-${i}.ts`, text: `export const v${i} = ${i};\n` }));
    const wide = await openMemoryIndex(buildMemoryIndex({ files, symbols: files.map((f, i) => ({ name: `v${i}`, kind: 'variable', defs: [{ path: f.path, line: 1 }] })) }));
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-_.';
    const globs = Array.from({ length: 64 }, () => `${Array.from({ length: 120 }, () => `**${letters[Math.floor(next() * letters.length)]}`).join('')}Q`);
    const errors = [
      await rejection(() => fileProblems(wide, { paths: globs })),
      await rejection(() => searchSymbols(wide, { query: 'v', paths: globs })),
      await rejection(() => searchSymbols(wide, { query: 'v', paths: globs.map((g) => `!${g}`) })),
    ];
    for (const error of errors) expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { argument: 'paths', globs: 64 } });
    // The same number of ordinary globs answers.
    expect((await fileProblems(wide, { paths: Array.from({ length: 64 }, (_, i) => `**Z${i}`) })).files).toBe(0);
  });

  it('keeps ordinary globs and wildcards meaning what they meant on the shop index', async () => {
    const shop = await openMemoryIndex(buildMemoryIndex(shopSpec()));
    expect((await searchSymbols(shop, { query: 'save', paths: ['src/images/**'] })).results.map((r) => r.qualifiedName)).toEqual(['ImageCache.save']);
    expect((await searchSymbols(shop, { query: 'save', paths: ['*.ts', '!orders'] })).results.map((r) => r.qualifiedName)).toEqual(['ImageCache.save']);
    expect((await searchSymbols(shop, { query: '*Repository*', matchMode: 'wildcard' })).results.map((r) => r.name)).toEqual(['OrderRepository', 'OrderRepositoryImpl']);
  });
});
