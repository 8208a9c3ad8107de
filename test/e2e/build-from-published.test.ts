// A pull request's head built from the base's published index (issue #31): `indexer build
// --from-ref` and `--from-commit` over wrangler's local R2 fetch the base's index (each shard checked)
// and build incrementally from it, to the same bytes as a full build (the same commit built from its
// own published index is that index, brought here); a ref the store lacks is INDEX_NOT_FOUND, exit
// 1, nothing written.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Manifest } from '@sextant/format';
import { main } from '../../indexer/src/cli.ts';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { commitAll, fixtureRepo, type FixtureRepo } from '../../indexer/test/support/fixture-repo.ts';

const REPO = 'acme/shop';

describe('indexer build from a published index', () => {
  let scratch: string;
  let repo: FixtureRepo;
  let base: string;
  const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const build = (out: string, ...extra: string[]) => main(['build', '--repo', repo.dir, '--out', out, '--repo-name', REPO, '--quiet', ...extra]);

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-from-published-'));
    repo = fixtureRepo(new URL('../fixtures/ts-basic/', import.meta.url).pathname);
    base = repo.commit;
    expect(await build(join(scratch, 'base'))).toBe(0);
    const published = await publishCommand(['--out', join(scratch, 'base'), '--repo-name', REPO, '--ref', 'main', '--local', '--persist-to', join(scratch, 'r2')], { out: () => {}, err: () => {} });
    expect(published).toBe(0);
    appendFileSync(join(repo.dir, 'src/app.ts'), '\nexport const headOnly = 1;\n');
    commitAll(repo.dir, 'head');
    expect(await build(join(scratch, 'full'))).toBe(0);
  }, 180_000);
  afterAll(async () => {
    repo?.cleanup();
    await rm(scratch, { recursive: true, force: true });
  });

  it.each([['--from-ref', 'main'], ['--from-commit', 'HEAD~1']])('builds the head incrementally from the index published for %s %s, byte for byte as a full build', async (flag, value) => {
    const out = join(scratch, `from-${flag}`);
    expect(await build(out, flag, value, '--local', '--persist-to', join(scratch, 'r2'))).toBe(0);
    const { builtAt: _a, build: mode, ...incremental } = manifestOf(out);
    const { builtAt: _b, build: _full, ...full } = manifestOf(join(scratch, 'full'));
    // app.ts alone: no file has a compiler problem or an unresolved name spelled like its new export.
    expect(mode).toEqual({ mode: 'incremental', from: base, walked: 1, reused: 6 });
    expect(incremental).toEqual(full);
  }, 120_000);

  it('brings a published index here: the same commit built from it walks nothing and writes the published shards (the review workflow\'s base)', async () => {
    const out = join(scratch, 'base-again');
    expect(await build(out, '--commit', base, '--from-commit', base, '--local', '--persist-to', join(scratch, 'r2'))).toBe(0);
    const { builtAt: _a, build: mode, ...again } = manifestOf(out);
    const { builtAt: _b, build: _full, ...published } = manifestOf(join(scratch, 'base'));
    expect(mode).toEqual({ mode: 'incremental', from: base, walked: 0, reused: 7 });
    expect(again).toEqual(published);
  }, 120_000);

  it('refuses a ref the store lacks with INDEX_NOT_FOUND and writes nothing', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const out = join(scratch, 'never');
      expect(await build(out, '--from-ref', 'no-such-ref', '--local', '--persist-to', join(scratch, 'r2'))).toBe(1);
      expect(err.mock.calls.map((c) => String(c[0])).join('')).toContain('no ref "no-such-ref" of acme/shop');
      expect(existsSync(out)).toBe(false);
    } finally {
      err.mockRestore();
    }
  }, 120_000);
});
