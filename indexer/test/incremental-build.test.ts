// Incremental builds (issue #31). First the round trip they rest on: an index read back into the
// collector (previous-index.ts) with every file reused (reuse.ts) lays out again into the same
// shards, byte for byte, on every fixture.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@sextant/format';
import { buildIndex } from '../src/build-command.ts';
import { IndexCollector } from '../src/index-collector.ts';
import { readPreviousIndex } from '../src/incremental/previous-index.ts';
import { reuseFiles } from '../src/incremental/reuse.ts';
import { Progress } from '../src/progress.ts';
import { layoutShards } from '../src/shards/shard-writer.ts';
import { fixtureRepo } from './support/fixture-repo.ts';

const FIXTURES = ['ts-basic', 'ts-hierarchy', 'ts-overloads-merging', 'ts-generics-unions', 'ts-reference-kinds', 'ts-jsx', 'ts-jsdoc-js', 'ts-workspace', 'ts-no-config', 'jvm-shop', 'refactor-ts'];
const scratch = mkdtempSync(join(tmpdir(), 'sextant-incremental-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('an index read back', () => {
  it.each(FIXTURES)('lays out into the same shards, byte for byte, with every file reused (%s)', async (fixture) => {
    const repo = fixtureRepo(new URL(`../../test/fixtures/${fixture}/`, import.meta.url).pathname);
    try {
      const out = join(scratch, fixture);
      const manifest = await buildIndex({ repo: repo.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
      const previous = await readPreviousIndex(out);
      const collector = new IndexCollector();
      reuseFiles(previous, new Set(previous.files.keys()), collector);
      const texts = new Map(previous.entries.filter((e) => e.status !== 'skipped').map((e) => [e.path, execFileSync('git', ['cat-file', 'blob', e.blob], { cwd: repo.dir, encoding: 'utf8' })]));
      const set = layoutShards(collector, texts, previous.entries);
      expect(set.layout).toEqual(manifest.layout);
      const differing = [...set.shards].filter(([name, bytes]) => sha256Hex(bytes) !== manifest.shards[name]?.sha256).map(([name]) => name);
      expect(differing).toEqual([]);
      expect([...set.shards.keys()].sort()).toEqual(Object.keys(manifest.shards).sort());
      expect({ references: collector.references, edges: collector.edges, unresolved: collector.unresolvedCount, symbols: collector.symbols.size })
        .toEqual({ references: manifest.counts.references, edges: manifest.counts.edges, unresolved: manifest.counts.unresolved, symbols: manifest.counts.symbols });
    } finally {
      repo.cleanup();
    }
  });
});
