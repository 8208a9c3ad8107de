// The off-thread walk's own contract, beside the builds that compare it with the in-process walk
// (incremental-build.test.ts, incremental-property.test.ts): it gives the in-process walk's files
// and collector calls, it lays out the gram shards it is given as the build's thread would, a thread
// that dies before its walk is done is an error and not a hang, and a thread never asked for a walk
// stops at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileTableEntry } from '@sextant/format';
import { IndexCollector } from '../../src/index-collector.ts';
import { isSkipped, type IndexContext, type IndexedFile } from '../../src/language-indexer.ts';
import { Progress } from '../../src/progress.ts';
import { runGramJob, type GramJob } from '../../src/shards/gram-job.ts';
import { layoutGrams } from '../../src/shards/shard-writer.ts';
import { OffThreadWalk } from '../../src/ts/off-thread-walk.ts';
import { typescriptIndexer } from '../../src/ts/typescript-indexer.ts';

const ROOT = new URL('../../../test/fixtures/ts-basic/', import.meta.url).pathname;
const PATHS = ['tsconfig.json', 'src/app.ts', 'src/index.ts', 'src/legacy.js', 'src/images/image-cache.ts', 'src/orders/order-service.ts', 'src/orders/order.ts', 'src/orders/repository.ts'];

function contextOf(collector: IndexCollector): IndexContext {
  const texts = new Map(PATHS.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
  return { root: ROOT, texts, collector, warnings: [], parsers: {}, progress: new Progress(process.stderr, true) };
}

const files = () => PATHS.filter((path) => typescriptIndexer.accepts(path)).map((path) => ({ path, blob: '0'.repeat(40), bytes: 0, text: '' }));
const summary = (file: IndexedFile) => (isSkipped(file) ? file : { path: file.path, syms: file.syms, occ: file.occ, problems: file.problems });

describe('an off-thread walk', () => {
  it('yields the files the in-process walk does, and leaves the collector as it does', async () => {
    const walk = new Set(['src/orders/order-service.ts', 'src/app.ts']);
    const inProcess = new IndexCollector();
    const expected = [...typescriptIndexer.index(files(), { ...contextOf(inProcess), walk }) as Iterable<IndexedFile>].map(summary);

    const collector = new IndexCollector();
    const context = contextOf(collector);
    const thread = new OffThreadWalk();
    try {
      thread.start(files(), context, walk);
      thread.provide(collector);
      const actual: IndexedFile[] = [];
      for await (const file of thread.results(context)) actual.push(file);
      expect(actual.map((file) => file.path).sort()).toEqual([...walk].sort());
      expect(actual.map(summary)).toEqual(expected);
      expect(inProcess.references).toBeGreaterThan(10);
      expect(JSON.stringify([...collector.symbols])).toBe(JSON.stringify([...inProcess.symbols]));
      expect(collector.references).toBe(inProcess.references);
    } finally {
      await thread.stop();
    }
  });

  it('lays out the gram shards it is given after its walk: the previous postings moved, the dirty files\' collected again, as the build\'s thread would', async () => {
    const table = (paths: readonly string[]): FileTableEntry[] => paths.map((path) => ({ path, blob: '0'.repeat(40), status: 'indexed', flags: 0 }));
    const collector = new IndexCollector();
    const context = contextOf(collector);
    // The previous commit lacked app.ts and had another legacy.js.
    const before = PATHS.filter((path) => path !== 'src/app.ts');
    const previous = layoutGrams(table(before), new Map([...context.texts, ['src/legacy.js', 'var other = 1;\n']]));
    const job: GramJob = {
      fileTable: table(PATHS), texts: new Map(['src/app.ts', 'src/legacy.js'].map((path) => [path, context.texts.get(path)!])),
      dirtyPaths: ['src/app.ts', 'src/legacy.js'], previousShards: previous.shards, previousPaths: [...before].sort(),
    };
    const expected = layoutGrams(table(PATHS), context.texts);
    expect(runGramJob(job)).toEqual(expected);
    const thread = new OffThreadWalk();
    try {
      thread.start(files(), context, new Set(['src/app.ts']));
      thread.provide(collector, job);
      for await (const _ of thread.results(context)) { /* the walk */ }
      expect(await thread.grams(context)).toEqual(expected);
    } finally {
      await thread.stop();
    }
  });

  it('is an error, not a hang, when its thread ends before the walk is done', async () => {
    const collector = new IndexCollector();
    const context = contextOf(collector);
    const thread = new OffThreadWalk();
    thread.start(files(), context, new Set(['src/app.ts']));
    // Never given the collector's state: the walk waits for it until the thread is stopped.
    const reading = (async () => {
      for await (const _ of thread.results(context)) { /* nothing comes */ }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await thread.stop();
    await expect(reading).rejects.toThrow(/worker thread exited .* before its work was done/);
  });

  it('stops at once when it was never asked for a walk', async () => {
    const thread = new OffThreadWalk();
    expect(thread.started).toBe(false);
    await thread.stop();
    await thread.stop();
  });
});
