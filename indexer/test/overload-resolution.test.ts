// Which overload a call uses: the TypeScript checker's resolved signature, recorded per call at
// index time (SymbolRecord.refDecls, .signatures), answers goto_definition from a call site with the
// one declaration the call resolved to: an overload, or a call signature of a dual API's type.
// From anywhere else the symbol's every declaration is listed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoDefinition, type IndexReader } from '@sextant/query';
import { openFixtureIndex } from './support/fixture-index.ts';

const FIXTURES = new URL('../../test/fixtures/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-overloads-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A dual API, as effect writes them: one const whose type has two call signatures; and a plain arrow function. */
const DUAL = {
  'tsconfig.json': '{ "compilerOptions": { "target": "ES2022", "strict": true, "noEmit": true } }\n',
  'src/dual.ts': `export const map: {
  <A, B>(f: (a: A) => B): (self: A[]) => B[];
  <A, B>(self: A[], f: (a: A) => B): B[];
} = ((...args: unknown[]) => args) as never;

export const twice = (n: number): number => n * 2;

export const data = map([1, 2], (n) => n + 1);
export const curried = map((n: number) => n + 1);
export const four = twice(2);
`,
};

const indexOf = (dir: string, name: string): Promise<IndexReader> => openFixtureIndex(dir, join(scratch, name));

let reader: IndexReader;
let dual: IndexReader;
beforeAll(async () => {
  reader = await indexOf(join(FIXTURES, 'ts-overloads-merging'), 'overloads');
  const dir = join(scratch, 'dual-src');
  for (const [path, text] of Object.entries(DUAL)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  dual = await indexOf(dir, 'dual');
}, 120_000);

const at = (def: { path: string; line: number }) => `${def.path}:${def.line}`;

describe('goto_definition from a call to an overloaded function', () => {
  // src/use.ts line 7: `${format('EUR')} ${format(total.amount, 2)}`: format(value: string) is
  // declared on line 2 of src/format.ts, format(value: number, digits: number) on line 3; the
  // implementation (line 4) and a namespace of the same name (line 9) are the symbol's others.
  it('gives the overload each call resolved to, and says of how many', async () => {
    const first = await gotoDefinition(reader, { path: 'src/use.ts', line: 7, column: 25 });
    expect(first.definitions.map(at)).toEqual(['src/format.ts:2']);
    expect(first.resolvedOverloadOf).toBe(4);
    const second = await gotoDefinition(reader, { path: 'src/use.ts', line: 7, column: 42 });
    expect(second.definitions.map(at)).toEqual(['src/format.ts:3']);
  });

  it('lists every declaration when asked by name, or from a site that is no call', async () => {
    const byName = await gotoDefinition(reader, { qualifiedName: 'format' });
    expect(byName.definitions.map(at)).toEqual(['src/format.ts:2', 'src/format.ts:3', 'src/format.ts:4', 'src/format.ts:9']);
    expect(byName.resolvedOverloadOf).toBeUndefined();
    const imported = await gotoDefinition(reader, { path: 'src/use.ts', line: 1, column: 10 });
    expect(imported.definitions).toHaveLength(4);
  });
});

describe('goto_definition from a call to a dual API (one const, several call signatures in its type)', () => {
  it('gives the call signature each call resolved to', async () => {
    const data = await gotoDefinition(dual, { path: 'src/dual.ts', line: 8, column: 21 });
    expect(data.definitions.map(at)).toEqual(['src/dual.ts:3']);
    expect(data.definitions[0]!.preview).toBe('<A, B>(self: A[], f: (a: A) => B): B[];');
    expect(data.resolvedSignature).toBe(true);
    const curried = await gotoDefinition(dual, { path: 'src/dual.ts', line: 9, column: 24 });
    expect(curried.definitions.map(at)).toEqual(['src/dual.ts:2']);
  });

  it('gives the declaration itself where there was nothing to choose from', async () => {
    const four = await gotoDefinition(dual, { path: 'src/dual.ts', line: 10, column: 21 });
    expect(four.definitions.map(at)).toEqual(['src/dual.ts:6']);
    expect(four).not.toHaveProperty('resolvedSignature');
    const byName = await gotoDefinition(dual, { qualifiedName: 'map' });
    expect(byName.definitions.map(at)).toEqual(['src/dual.ts:1']);
  });
});
