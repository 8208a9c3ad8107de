// Which overload a call uses: the TypeScript checker's resolved signature, recorded per call at
// index time (SymbolRecord.refDecls), answers goto_definition from a call site with the one
// declaration the call resolved to. From anywhere else the symbol's every declaration is listed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoDefinition, IndexReader, ShardCache } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { fixtureRepo } from './support/fixture-repo.ts';

const FIXTURES = new URL('../../test/fixtures/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-overloads-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let reader: IndexReader;
beforeAll(async () => {
  const repo = fixtureRepo(join(FIXTURES, 'ts-overloads-merging'));
  try {
    const out = join(scratch, 'index');
    await buildIndex({ repo: repo.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
    reader = await IndexReader.open(new DirShardSource(out), new ShardCache(16 << 20));
  } finally {
    repo.cleanup();
  }
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
