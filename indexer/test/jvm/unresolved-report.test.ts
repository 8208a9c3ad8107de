// Identifiers the Java/Kotlin resolver could not decide are kept (unresolved shards, change records)
// and answers about a same-named symbol say so: find_references and call_hierarchy report them as
// `unresolved` and their totals stop claiming to be exact. The fixture calls `create` on a receiver
// of a type declared nowhere, in Java and in Kotlin, with nine declarations of `create` to choose from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHierarchy, findReferences, indexStatus, type IndexReader } from '@sextant/query';
import { openFixtureIndex } from '../support/fixture-index.ts';

const FIXTURE = new URL('../../../test/fixtures/jvm-unresolved/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-unresolved-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let reader: IndexReader;
beforeAll(async () => {
  reader = await openFixtureIndex(FIXTURE, join(scratch, 'index'));
});

const USE = 'src/main/java/demo/Use.java';
const USE_KT = 'src/main/kotlin/demo/UseKt.kt';

describe('unresolved identifiers of Java and Kotlin', () => {
  it('are counted in the manifest', async () => {
    const status = await indexStatus(reader);
    expect(status.counts.unresolved).toBeGreaterThanOrEqual(3);
  });

  it('make find_references say which same-named calls it could not decide, in both languages', async () => {
    const answer = await findReferences(reader, { qualifiedName: 'demo.Factories.F1#create(String)' }, {});
    expect(answer.references.map((r) => `${r.path}:${r.line}`)).toEqual([`${USE}:11`]);
    expect(answer.unresolved.examples).toEqual([
      { path: USE, line: 7, column: 14, name: 'create' },
      { path: USE_KT, line: 3, column: 29, name: 'create' },
    ]);
    expect(answer).toMatchObject({ unresolved: { count: 2 }, totalIsExact: false });
    expect(answer.truncationReason).toMatch(/2 identifiers named like it could not be resolved/);
  });

  it('follow the path filters, and leave out the files a private member cannot be used from', async () => {
    const onlyKotlin = await findReferences(reader, { qualifiedName: 'demo.Factories.F1#create(String)' }, { paths: ['**/*.kt'] });
    expect(onlyKotlin.unresolved.examples.map((e) => e.path)).toEqual([USE_KT]);
    const hidden = await findReferences(reader, { qualifiedName: 'demo.Factories#hidden()' }, {});
    expect(hidden.references).toHaveLength(1);
    expect(hidden).toMatchObject({ unresolved: { count: 0, examples: [] }, totalIsExact: true });
  });

  it('make call_hierarchy say which calls it could not follow, callers and callees', async () => {
    const callers = await callHierarchy(reader, { qualifiedName: 'demo.Factories.F1#create(String)' }, { direction: 'callers' });
    expect(callers.nodes.map((n) => n.name)).toEqual(['create', 'direct']);
    expect(callers).toMatchObject({ unresolved: { count: 2 }, totalIsExact: false });
    const callees = await callHierarchy(reader, { qualifiedName: 'demo.Use#run(Mystery)' }, { direction: 'callees' });
    expect(callees.unresolved.examples.map((e) => `${e.line}:${e.column} ${e.name}`)).toEqual(['7:14 create']);
    expect(callees.totalIsExact).toBe(false);
  });
});
