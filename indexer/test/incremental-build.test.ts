// Incremental builds (issue #31). First the round trip they rest on: an index read back into the
// collector (previous-index.ts) with every file reused (reuse.ts) lays out again into the same
// shards, byte for byte, on every fixture.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestDigestLine, sha256Hex, type Manifest } from '@sextant/format';
import { buildIndex } from '../src/build-command.ts';
import { IndexCollector } from '../src/index-collector.ts';
import { indexerVersion } from '../src/indexer-version.ts';
import { readPreviousIndex } from '../src/incremental/previous-index.ts';
import { reuseFiles } from '../src/incremental/reuse.ts';
import { Progress } from '../src/progress.ts';
import { layoutShards } from '../src/shards/shard-writer.ts';
import { commitAll, fixtureRepo } from './support/fixture-repo.ts';

const FIXTURES = ['ts-basic', 'ts-hierarchy', 'ts-overloads-merging', 'ts-generics-unions', 'ts-reference-kinds', 'ts-jsx', 'ts-jsdoc-js', 'ts-workspace', 'ts-no-config', 'jvm-shop', 'refactor-ts'];
const scratch = mkdtempSync(join(tmpdir(), 'sextant-incremental-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('an index read back', () => {
  it.each(FIXTURES)('lays out into the same shards, byte for byte, with every file reused (%s)', async (fixture) => {
    const repo = fixtureRepo(new URL(`../../test/fixtures/${fixture}/`, import.meta.url).pathname);
    try {
      const out = join(scratch, fixture);
      const manifest = await buildIndex({ repo: repo.dir, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
      const previous = await (await (await readPreviousIndex(out)).records()).rest();
      const collector = new IndexCollector();
      reuseFiles(previous, new Set(previous.files.keys()), collector, new Map())();
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

describe('a build from a previous index', () => {
  const build = (repo: string, out: string, from?: string, maxChangedShare?: number, walkOffThread?: boolean) => buildIndex({
    repo, commit: 'HEAD', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), ...(from ? { from } : {}), ...(maxChangedShare !== undefined ? { maxChangedShare } : {}),
    ...(walkOffThread !== undefined ? { walkOffThread } : {}),
  });
  /** The previous index with its manifest edited (and its recorded sha256 with it, so it still opens). */
  const editManifest = (dir: string, edit: (m: Manifest) => void) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    edit(manifest);
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    writeFileSync(join(dir, 'manifest.json'), text);
    writeFileSync(join(dir, 'manifest.sha256'), manifestDigestLine(text));
  };

  /** The build mode of a build from the fixture's index after `prepare` changed the repository (and maybe that index). */
  const buildAfter = async (prepare: (repo: string, previous: string) => void, walkOffThread?: boolean): Promise<Manifest['build']> => {
    const repo = fixtureRepo(new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname);
    try {
      const previous = join(scratch, `previous-${Math.random().toString(36).slice(2)}`);
      await build(repo.dir, previous);
      prepare(repo.dir, previous);
      commitAll(repo.dir, 'change');
      return (await build(repo.dir, join(scratch, `next-${Math.random().toString(36).slice(2)}`), previous, undefined, walkOffThread)).build;
    } finally {
      repo.cleanup();
    }
  };

  it.each([
    ['a changed tsconfig.json', (dir: string) => appendFileSync(join(dir, 'tsconfig.json'), '\n'), /tsconfig\.json changed/],
    ['a changed JSON file', (dir: string) => writeFileSync(join(dir, 'src/data.json'), '{"a": 1}\n'), /src\/data\.json changed/],
    ['a script (no import or export)', (dir: string) => writeFileSync(join(dir, 'src/script.ts'), 'const globalValue = 1;\n'), /src\/script\.ts is a script/],
    ['a `declare global`', (dir: string) => appendFileSync(join(dir, 'src/app.ts'), '\ndeclare global { interface Extra { a: number } }\n'), /src\/app\.ts declares globals/],
    ['an ambient module', (dir: string) => appendFileSync(join(dir, 'src/app.ts'), "\ndeclare module 'extra' { export const a: number; }\n"), /declares or augments the module "extra"/],
  ])('builds in full after %s, naming it', async (_what, change, reason) => {
    expect(await buildAfter((dir) => change(dir))).toEqual({ mode: 'full', reason: expect.stringMatching(reason) });
  });

  it.each([
    ['another indexer version', (m: Manifest) => { m.indexer.version = '0.0.0-other'; }, /built by indexer 0\.0\.0-other/],
    // The same release number, other sources (an unreleased edit of the indexer, or of the format it writes).
    ['the same release of other sources', (m: Manifest) => { m.indexer.version = `${indexerVersion().split('+')[0]}+00000000`; }, /built by indexer [\d.]+\+00000000, this is [\d.]+\+[0-9a-f]{8}$/],
    ['another parser version', (m: Manifest) => { m.parsers.typescript = '1.0.0'; }, /typescript is .* here, 1\.0\.0 in the previous index/],
    ['a file that failed analysis', (m: Manifest) => { m.skipped.push({ path: 'src/zz-failed.ts', reason: 'analysis-failed', detail: 'a stack overflow' }); }, /src\/zz-failed\.ts failed analysis/],
    ['another format (Sextant upgraded since)', (m: Manifest) => { m.formatVersion = 13; }, /cannot be read \(INDEX_VERSION_UNSUPPORTED/],
  ])('builds in full from an index built with %s, naming it', async (_what, edit, reason) => {
    const build = await buildAfter((dir, previous) => {
      editManifest(previous, edit);
      appendFileSync(join(dir, 'src/app.ts'), '\nexport const more = 1;\n');
    });
    expect(build).toEqual({ mode: 'full', reason: expect.stringMatching(reason) });
  });

  it('builds in full when more than the allowed share of the sources changed, and incrementally below it', async () => {
    const repo = fixtureRepo(new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname);
    try {
      const previous = join(scratch, 'share-previous');
      await build(repo.dir, previous);
      appendFileSync(join(repo.dir, 'src/app.ts'), '\nexport const more = 1;\n');
      commitAll(repo.dir, 'change');
      expect((await build(repo.dir, join(scratch, 'share-full'), previous, 0.1)).build).toEqual({ mode: 'full', reason: expect.stringMatching(/1 of 7 TypeScript and JavaScript files changed, more than 10%/) });
      // app.ts alone: no file has a compiler problem or an unresolved name spelled `more` that the new name might resolve.
      expect((await build(repo.dir, join(scratch, 'share-incremental'), previous, 0.5)).build).toEqual({ mode: 'incremental', from: repo.commit, walked: 1, reused: 6 });
    } finally {
      repo.cleanup();
    }
  });

  it('builds in full at once when the files a change reaches by declaration pass the allowed share', async () => {
    const repo = fixtureRepo(new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname);
    try {
      const previous = join(scratch, 'reach-share-previous');
      await build(repo.dir, previous);
      // A member of the Order interface reaches five of the seven files (the next test): past 0.5 the reach stops, at 4.
      const file = join(repo.dir, 'src/orders/order.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace('  total: number;', '  total: bigint;'));
      commitAll(repo.dir, 'change');
      expect((await build(repo.dir, join(scratch, 'reach-share-full'), previous, 0.5)).build)
        .toEqual({ mode: 'full', reason: 'the change reaches at least 4 of 7 TypeScript and JavaScript files, more than 50%' });
    } finally {
      repo.cleanup();
    }
  });

  it.each([
    // A fully annotated method's body: no declaration's shape changes, only its own file is walked.
    ['a fully annotated body', 'src/orders/repository.ts', 'this.rows.set(order.id, order);', 'this.rows.set(`${order.id}`, order);', 1],
    // A parameter of `warm`: its file and app.ts, which calls it (through the index barrel's `export *`, which names nothing).
    ['a function signature', 'src/images/image-cache.ts', 'export function warm(cache: ImageCache): void {', 'export function warm(cache: ImageCache, twice = false): void {', 2],
    // A member of the Order interface shapes Order, so every file using Order or its members is walked, and not the image cache's.
    ['an interface member', 'src/orders/order.ts', '  total: number;', '  total: bigint;', 5],
    // The barrel and app.ts, which imports OrderRepository through it; not repository.ts's other users.
    ['a re-export specifier removed', 'src/index.ts', "export { OrderRepository } from './orders/repository';\n", '', 2],
    // The barrel and app.ts, which imports ImageCache and warm through it; image-cache.ts itself is unchanged.
    ['an `export *` removed', 'src/index.ts', "export * from './images/image-cache';\n", '', 2],
    // The barrel and app.ts, whose import of Service now fails.
    ['a re-export renamed', 'src/index.ts', 'OrderService as Service', 'OrderService as Services', 2],
    // A name added that an unresolved identifier spells (`total.toFixed` in legacy.js, a member of an untyped value): that file is walked too.
    ['a name a file failed to import', 'src/app.ts', 'export async function main', 'export async function toFixed', 2],
  ])('walks only the files that use what a change to %s may shape, and equals the full build', async (what, path, from, to, walked) => {
    const repo = fixtureRepo(new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname);
    try {
      const previous = join(scratch, `reach-previous-${what}`);
      await build(repo.dir, previous);
      const file = join(repo.dir, path);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(from);
      writeFileSync(file, text.replace(from, to));
      commitAll(repo.dir, 'change');
      const full = await build(repo.dir, join(scratch, `reach-full-${what}`));
      const incremental = await build(repo.dir, join(scratch, `reach-incremental-${what}`), previous, 1);
      expect(incremental.build).toEqual({ mode: 'incremental', from: repo.commit, walked, reused: 7 - walked });
      expect(Object.fromEntries(Object.entries(incremental.shards).map(([name, entry]) => [name, entry.sha256])))
        .toEqual(Object.fromEntries(Object.entries(full.shards).map(([name, entry]) => [name, entry.sha256])));
    } finally {
      repo.cleanup();
    }
  });

  /** ts-basic with `base` written and committed, then `head`: the head's full build and its build from the base's index. */
  const fromBase = async (name: string, base: Record<string, string>, head: Record<string, string>, walkOffThread?: boolean) => {
    const repo = fixtureRepo(new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname);
    try {
      const write = (files: Record<string, string>) => {
        for (const [path, text] of Object.entries(files)) {
          mkdirSync(dirname(join(repo.dir, path)), { recursive: true });
          writeFileSync(join(repo.dir, path), text);
        }
      };
      write(base);
      commitAll(repo.dir, 'base');
      const previous = join(scratch, `${name}-${walkOffThread}-previous`);
      await build(repo.dir, previous);
      write(head);
      commitAll(repo.dir, 'head');
      return { full: await build(repo.dir, join(scratch, `${name}-${walkOffThread}-full`)), incremental: await build(repo.dir, join(scratch, `${name}-${walkOffThread}-incremental`), previous, 1, walkOffThread) };
    } finally {
      repo.cleanup();
    }
  };
  const shardHashes = (manifest: Manifest) => Object.fromEntries(Object.entries(manifest.shards).map(([name, entry]) => [name, entry.sha256]));

  it.each([false, true])('walks no file for a change to no TypeScript or JavaScript file (a Markdown file added), its programs still made for their warnings, and equals the full build (walked on a second thread: %s)', async (walkOffThread) => {
    const { full, incremental } = await fromBase('docs', { 'docs/readme.md': '# Read me\n' }, { 'docs/notes.md': '# Notes\nA file no indexer reads.\n' }, walkOffThread);
    expect(incremental.build).toEqual({ mode: 'incremental', from: expect.any(String), walked: 0, reused: 7 });
    expect(shardHashes(incremental)).toEqual(shardHashes(full));
    expect(incremental.warnings).toEqual(full.warnings);
  });

  it('reaches by file when an import is edited in a file that exports names of its own scope, and equals the full build', async () => {
    // `export { Store }` re-exports what the import binds: pointed at another module, every importer of Store changes.
    const { full, incremental } = await fromBase('import', {
      'src/orders/store.ts': "import { OrderRepository as Store } from './repository';\nexport { Store };\n",
      'src/orders/use-store.ts': "import { Store } from './store';\nexport const store = new Store();\n",
    }, { 'src/orders/store.ts': "import { ImageCache as Store } from '../images/image-cache';\nexport { Store };\n" });
    expect(incremental.build).toEqual({ mode: 'incremental', from: expect.any(String), walked: expect.any(Number), reused: expect.any(Number) });
    expect(shardHashes(incremental)).toEqual(shardHashes(full));
  });

  it('holds in its program, beside the walked file and its imports, every file whose declarations are global, and equals the full build', async () => {
    // The walked file imports neither the script nor the augmentation it relies on: a program of
    // its imports alone would leave legacyFormat unresolved and `warmed` missing.
    const { full, incremental } = await fromBase('globals', {
      'src/legacy.ts': 'function legacyFormat(n: number): string {\n  return String(n);\n}\n',
      'src/augment-cache.ts': "import { ImageCache } from './images/image-cache';\ndeclare module './images/image-cache' {\n  interface ImageCache {\n    warmed: boolean;\n  }\n}\nexport type Cache = ImageCache;\n",
      'src/use-globals.ts': "import { ImageCache } from './images/image-cache';\nexport const label = legacyFormat(1);\nexport const isWarm = (cache: ImageCache) => cache.warmed;\n",
    }, { 'src/use-globals.ts': "import { ImageCache } from './images/image-cache';\nexport const label = legacyFormat(2);\nexport const isWarm = (cache: ImageCache) => cache.warmed;\n" });
    expect(incremental.build).toEqual({ mode: 'incremental', from: expect.any(String), walked: 1, reused: expect.any(Number) });
    expect(shardHashes(incremental)).toEqual(shardHashes(full));
  });

  it.each([false, true])('keeps every file in its programs when a configuration warning names a source (not under rootDir), and equals the full build (walked on a second thread: %s)', async (walkOffThread) => {
    const { full, incremental } = await fromBase('root-dir', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: 'src', strict: true, noEmit: true }, include: ['src', 'tools'] }),
      'tools/outside.ts': 'export const outside = 1;\n',
      'src/use-outside.ts': "export const inside = 2;\n",
    }, { 'src/use-outside.ts': 'export const inside = 3;\n' }, walkOffThread);
    expect(incremental.build).toEqual({ mode: 'incremental', from: expect.any(String), walked: 1, reused: expect.any(Number) });
    expect(full.warnings.some((warning) => warning.includes('tools/outside.ts'))).toBe(true);
    expect(incremental.warnings).toEqual(full.warnings);
    expect(shardHashes(incremental)).toEqual(shardHashes(full));
  });

  it("walks the importers using a module's namespace whole when a declaration of it changes, and equals the full build", async () => {
    // `settings` is the namespace object of limits.ts: its type changes with `max`, and check.ts, which names neither, gets an error.
    const { full, incremental } = await fromBase('namespace', {
      'src/limits.ts': 'export const max = 3;\n',
      'src/settings.ts': "import * as Limits from './limits';\nexport const settings = Limits;\nexport const named = Limits.max;\n",
      'src/check.ts': "import { settings } from './settings';\nfunction needs(limits: { max: number }): number {\n  return limits.max;\n}\nexport const checked = needs(settings);\n",
    }, { 'src/limits.ts': "export const max = 'three';\n" });
    expect(incremental.build).toEqual({ mode: 'incremental', from: expect.any(String), walked: 3, reused: 7 });
    expect(shardHashes(incremental)).toEqual(shardHashes(full));
  });

  it.each([false, true])('builds again in full when a file it walks fails analysis, naming it (walked on a second thread: %s)', async (walkOffThread) => {
    const text = `declare function f(x: unknown): unknown;\nexport const x = ${'f('.repeat(600)}1${')'.repeat(600)};\n`;
    expect(await buildAfter((dir) => writeFileSync(join(dir, 'src/calls.ts'), text), walkOffThread)).toEqual({ mode: 'full', reason: 'src/calls.ts failed analysis, which changes what its program resolved' });
  });

  // The name shard is inflated for the compressor; text and gram shards are only checked (previous-index.ts).
  it.each(['names', 'texts/0000', 'grams/0000'])('builds in full from a damaged previous index, naming the damage (%s)', async (shard) => {
    const build = await buildAfter((dir, previous) => {
      writeFileSync(join(previous, shard), 'not a shard');
      appendFileSync(join(dir, 'src/app.ts'), '\nexport const more = 1;\n');
    });
    expect(build).toEqual({ mode: 'full', reason: expect.stringMatching(new RegExp(`cannot be read \\(INDEX_CORRUPT: .*${shard}`)) });
  });

  it('refuses a previous index that is not one, saying so, and writes nothing', async () => {
    const repo = fixtureRepo(new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname);
    try {
      const out = join(scratch, 'never-written');
      await expect(build(repo.dir, out, join(scratch, 'no-such-index'))).rejects.toMatchObject({ code: 'INDEX_NOT_FOUND', hint: expect.stringMatching(/--from/) });
      expect(() => readFileSync(join(out, 'manifest.json'))).toThrow();
    } finally {
      repo.cleanup();
    }
  });
});
