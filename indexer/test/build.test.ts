// The build command on real git repositories: exactly the tracked files of the commit, byte-
// identical output for the same commit, and a clear error or a listed skip for every bad input.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync, existsSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refsOf, sha256Hex, type FileShard, type Manifest, type NameShard } from '@sextant/format';
import { openShard } from '../../packages/format/test/support/open-shard.ts';
import { fileStructure, indexStatus, IndexReader, ShardCache } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { commitAll, fixtureRepo, git } from './support/fixture-repo.ts';
import { renderIndex } from './support/render-index.ts';

const FIXTURE = new URL('../../test/fixtures/ts-basic/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
async function build(repo: string, commit = 'HEAD', maxFileBytes = 1 << 20): Promise<{ out: string; manifest: Manifest }> {
  const out = join(scratch, `index-${counter++}`);
  const manifest = await buildIndex({ repo, commit, out, maxFileBytes, progress: new Progress(process.stderr, true) });
  return { out, manifest };
}

function names(out: string, manifest: Manifest): string[] {
  if (manifest.shards.names === undefined) return [];
  const shard = openShard<NameShard>('names', new Uint8Array(readFileSync(join(out, 'names'))));
  return Array.from({ length: shard.size }, (_, i) => shard.name(i));
}

function indexedPaths(out: string, manifest: Manifest): string[] {
  return Object.keys(manifest.shards).filter((n) => n.startsWith('files/'))
    .flatMap((n) => openShard<FileShard>(n, new Uint8Array(readFileSync(join(out, n)))).paths).sort();
}

describe('indexer build', () => {
  it('gives byte-identical shards for the same commit', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      const a = await build(repo.dir);
      const b = await build(repo.dir);
      expect(a.manifest.shards).toEqual(b.manifest.shards);
      for (const name of Object.keys(a.manifest.shards)) {
        expect(sha256Hex(new Uint8Array(readFileSync(join(b.out, name))))).toBe(a.manifest.shards[name]!.sha256);
      }
      expect(a.manifest.commit).toBe(repo.commit);
    } finally {
      repo.cleanup();
    }
  });

  it('indexes the commit, not the working tree: edits, untracked and ignored files never leak', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, '.gitignore'), 'ignored.ts\n');
      commitAll(repo.dir, 'ignore');
      writeFileSync(join(repo.dir, 'src/app.ts'), 'export const leakedEdit = 1;\n');
      writeFileSync(join(repo.dir, 'src/untracked.ts'), 'export const leakedUntracked = 1;\n');
      writeFileSync(join(repo.dir, 'ignored.ts'), 'export const leakedIgnored = 1;\n');
      const { out, manifest } = await build(repo.dir);
      const all = names(out, manifest);
      expect(all).toContain('main');
      expect(all).not.toContain('leakedEdit');
      expect(all).not.toContain('leakedUntracked');
      expect(all).not.toContain('leakedIgnored');
      expect(indexedPaths(out, manifest)).not.toContain('src/untracked.ts');
    } finally {
      repo.cleanup();
    }
  });

  it('stores references production first, then tests, then generated code, each by path and position', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      // Both sort before src/app.ts, which uses main too.
      mkdirSync(join(repo.dir, 'src/__tests__'));
      mkdirSync(join(repo.dir, 'src/__generated__'));
      writeFileSync(join(repo.dir, 'src/__tests__/app.test.ts'), "import { main } from '../app';\nvoid main();\n");
      writeFileSync(join(repo.dir, 'src/__generated__/client.ts'), "import { main } from '../app';\nexport const run = main;\n");
      writeFileSync(join(repo.dir, 'src/use.ts'), "import { main } from './app';\nvoid main();\n");
      commitAll(repo.dir, 'uses of main');
      const { out } = await build(repo.dir);
      const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 20));
      const names = await reader.names();
      const [entry] = names.exactly(names.names, 'main');
      const { record, shard } = (await reader.symbol(names.key(entry!)))!;
      const sites: string[] = [];
      for (const ref of refsOf(record)) sites.push(`${shard.paths[ref.pathIndex]}:${ref.line}`);
      expect(sites).toEqual([
        'src/use.ts:1', 'src/use.ts:2', 'src/__tests__/app.test.ts:1', 'src/__tests__/app.test.ts:2',
        'src/__generated__/client.ts:1', 'src/__generated__/client.ts:2',
      ]);
    } finally {
      repo.cleanup();
    }
  });

  it('indexes an older commit by ref', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'src/later.ts'), 'export function addedLater() {}\n');
      commitAll(repo.dir, 'later');
      const { out, manifest } = await build(repo.dir, 'HEAD~1');
      expect(manifest.commit).toBe(repo.commit);
      expect(names(out, manifest)).not.toContain('addedLater');
    } finally {
      repo.cleanup();
    }
  });

  it('lists every tracked file with its blob in the file table: indexed with its language, skipped, or a text file of no indexed language', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'README.md'), '# shop\n');
      writeFileSync(join(repo.dir, 'data.bin'), Buffer.from([0, 1, 2]));
      writeFileSync(join(repo.dir, 'src/binary.ts'), Buffer.from([0x65, 0x00, 0x66]));
      symlinkSync('src/app.ts', join(repo.dir, 'app-link.ts'));
      commitAll(repo.dir, 'other files');
      const { out, manifest } = await build(repo.dir);
      const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 20));
      const table = await reader.fileTable();
      const tracked = git(repo.dir, 'ls-tree', '-r', '--full-tree', 'HEAD').split('\n')
        .map((line) => ({ blob: line.split(/\s+/)[2]!, path: line.slice(line.indexOf('\t') + 1) }));
      expect(table.paths).toEqual(tracked.map((t) => t.path).sort());
      expect(manifest.shards.filetable!.records).toBe(tracked.length);
      for (const { path, blob } of tracked) expect(table.blob(table.indexOf(path))).toBe(blob);
      const entry = (path: string) => table.entry(table.indexOf(path));
      expect(entry('src/app.ts')).toMatchObject({ status: 'indexed', lang: 'typescript' });
      expect(entry('src/legacy.js')).toMatchObject({ status: 'indexed', lang: 'javascript' });
      expect(entry('src/binary.ts')).toEqual({ path: 'src/binary.ts', blob: expect.any(String), status: 'skipped', flags: 0 });
      expect(entry('app-link.ts').status).toBe('skipped');
      // A text file no indexer reads is in the text shards (search_text searches it); a binary one is skipped.
      expect(entry('README.md').status).toBe('unindexed');
      expect(await reader.text('README.md')).toBe('# shop\n');
      expect(entry('data.bin').status).toBe('skipped');
      expect(manifest.skipped).toContainEqual(expect.objectContaining({ path: 'data.bin', reason: 'binary' }));
      expect(entry('tsconfig.json').status).toBe('unindexed');
      expect(manifest.counts.texts).toBe(table.paths.filter((_, i) => table.entry(i).status !== 'skipped').length);
      const indexed = table.paths.filter((_, i) => table.entry(i).status === 'indexed');
      expect(indexed).toEqual(indexedPaths(out, manifest));
      expect(table.paths.filter((_, i) => table.entry(i).status === 'skipped')).toEqual(manifest.skipped.map((s) => s.path).sort());
    } finally {
      repo.cleanup();
    }
  });

  it('lists binary, non-UTF-8 and oversized files as skipped, with the reason', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'src/binary.ts'), Buffer.from([0x65, 0x00, 0x66]));
      writeFileSync(join(repo.dir, 'src/latin1.ts'), Buffer.from('export const caf\xe9 = 1;\n', 'latin1'));
      writeFileSync(join(repo.dir, 'src/huge.generated.ts'), `// @generated\nexport const big = [${'1,'.repeat(60_000)}];\n`);
      commitAll(repo.dir, 'bad files');
      const { out, manifest } = await build(repo.dir, 'HEAD', 100_000);
      const reasons = Object.fromEntries(manifest.skipped.map((s) => [s.path, s.reason]));
      expect(reasons).toEqual({ 'src/binary.ts': 'binary', 'src/latin1.ts': 'not-utf8', 'src/huge.generated.ts': 'too-large' });
      expect(manifest.skipped.find((s) => s.path === 'src/huge.generated.ts')!.detail).toContain('--max-file-bytes');
      expect(indexedPaths(out, manifest)).toContain('src/app.ts');
    } finally {
      repo.cleanup();
    }
  });

  it('lists a tracked file whose name no tool can address (a backslash, a newline) as skipped with unaddressable-path, never as indexed', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'back\\slash.ts'), 'export const behindBackslash = 1;\n');
      writeFileSync(join(repo.dir, 'new\nline.ts'), 'export const behindNewline = 1;\n');
      commitAll(repo.dir, 'unaddressable names');
      const { out, manifest } = await build(repo.dir);
      expect(manifest.skipped).toEqual(expect.arrayContaining([
        { path: 'back\\slash.ts', reason: 'unaddressable-path', detail: expect.stringContaining('backslash') },
        { path: 'new\nline.ts', reason: 'unaddressable-path', detail: expect.stringContaining('control character') },
      ]));
      expect(indexedPaths(out, manifest)).not.toContain('back\\slash.ts');
      expect(names(out, manifest)).not.toContain('behindBackslash');
      expect(names(out, manifest)).not.toContain('behindNewline');
      expect(manifest.counts.files).toBe(indexedPaths(out, manifest).length);
      expect(indexedPaths(out, manifest)).toContain('src/app.ts');
      // Asked for by its name, the tool says why it is not there.
      const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 20));
      await expect(fileStructure(reader, 'back\\slash.ts')).rejects.toMatchObject({
        code: 'FILE_NOT_FOUND', message: expect.stringMatching(/back\\slash\.ts is tracked at \w+ but was not indexed: its name cannot be addressed: it contains a backslash/),
      });
    } finally {
      repo.cleanup();
    }
  });

  // Each overflows the stack of one stage: the parser recurses per nesting level; the binder per link
  // of a property chain, which the parser reads in a loop; the checker per nested call, more deeply
  // than the parser; the symbol walk per operand of a sum, which the checker reads in a loop.
  it.each([
    ['1,000 nested parentheses', 'src/deep.ts', `export const n = ${'('.repeat(1000)}1${')'.repeat(1000)};\n`, 'the TypeScript parser'],
    ['100,000 nested [] in a .js file', 'src/deep.js', `export const n = ${'['.repeat(100_000)}${']'.repeat(100_000)};\n`, 'the TypeScript parser'],
    ['a 5,000-link property chain', 'src/chain.ts', `declare const o: any;\nexport const x = o${'.a'.repeat(5000)};\n`, 'the TypeScript binder'],
    ['600 nested calls', 'src/calls.ts', `declare function f(x: unknown): unknown;\nexport const x = ${'f('.repeat(600)}1${')'.repeat(600)};\n`, 'the TypeScript checker'],
    ['a sum of 20,000 operands', 'src/sum.ts', `declare const a: number;\nexport const x = a${' + a'.repeat(20_000)};\n`, 'the symbol walk (TypeScript checker)'],
  ])('skips a file the compiler cannot handle (%s) as analysis-failed, and indexes every other file exactly as without it', async (_label, path, text, stage) => {
    const repo = fixtureRepo(FIXTURE);
    try {
      // A file that imports the bad one resolves nothing in it, as when it is not there at all.
      writeFileSync(join(repo.dir, 'src/z-importer.ts'), `import * as bad from './${path.slice(4).replace(/\.[jt]s$/, '')}';\nexport const y = bad;\n`);
      commitAll(repo.dir, 'importer');
      const without = await build(repo.dir);
      writeFileSync(join(repo.dir, path), text);
      commitAll(repo.dir, 'pathological file');
      const { out, manifest } = await build(repo.dir);
      expect(manifest.skipped).toEqual([{ path, reason: 'analysis-failed', detail: `RangeError: Maximum call stack size exceeded in ${stage}` }]);
      const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 20));
      expect(indexStatus(reader).skipped).toEqual(manifest.skipped);
      expect(indexedPaths(out, manifest)).not.toContain(path);
      // Every other file, symbol, reference and edge as the build without the file has them.
      const sources = new Map(indexedPaths(out, manifest).map((p) => [p, readFileSync(join(repo.dir, p), 'utf8')]));
      // The file table alone tells the two apart: it lists the skipped file.
      const [rendered, fileTable] = renderIndex(out, sources).split('\n## file table');
      const [expected] = renderIndex(without.out, sources).split('\n## file table');
      expect(rendered!.split('\n').filter((line) => !line.startsWith('# skipped')).join('\n')).toBe(expected);
      expect(fileTable).toContain(`\n${path} skipped `);
      expect(names(out, manifest)).toContain('OrderService');
    } finally {
      repo.cleanup();
    }
  });

  it('ends the build naming the file when the compiler cannot handle a file outside the commit (a dependency in node_modules), which cannot be skipped', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'src/uses-dep.ts'), "import { n } from 'deep-pkg';\nexport const m = n;\n");
      commitAll(repo.dir, 'a dependency');
      mkdirSync(join(repo.dir, 'node_modules/deep-pkg'), { recursive: true });
      writeFileSync(join(repo.dir, 'node_modules/deep-pkg/package.json'), '{ "name": "deep-pkg", "version": "1.0.0", "types": "index.d.ts" }\n');
      writeFileSync(join(repo.dir, 'node_modules/deep-pkg/index.d.ts'), `export declare const n: ${'('.repeat(100_000)}number${')'.repeat(100_000)};\n`);
      await expect(build(repo.dir)).rejects.toMatchObject({
        code: 'INTERNAL',
        message: 'RangeError: Maximum call stack size exceeded while indexing node_modules/deep-pkg/index.d.ts (in the TypeScript parser).',
      });
    } finally {
      repo.cleanup();
    }
  });

  it('indexes files of a tsconfig that does not parse, and says so', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'tsconfig.json'), '{ "compilerOptions": { "target": "NOPE", } "include": [ }');
      commitAll(repo.dir, 'broken tsconfig');
      const { out, manifest } = await build(repo.dir);
      expect(manifest.warnings.join('\n')).toMatch(/tsconfig\.json/);
      expect(indexedPaths(out, manifest)).toContain('src/orders/order-service.ts');
    } finally {
      repo.cleanup();
    }
  });

  it('records syntax errors of a file the compiler cannot parse, and still indexes the rest of it', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      writeFileSync(join(repo.dir, 'src/broken.ts'), 'export function ok() {}\nexport function broken( {\n');
      commitAll(repo.dir, 'broken file');
      const { out, manifest } = await build(repo.dir);
      const shardNames = Object.keys(manifest.shards).filter((n) => n.startsWith('files/'));
      const file = shardNames.flatMap((n) => [...openShard<FileShard>(n, new Uint8Array(readFileSync(join(out, n)))).files()])
        .find((f) => f.path === 'src/broken.ts')!;
      expect(file.problems.some((p) => p.source === 'syntax')).toBe(true);
      expect(file.problems.some((p) => p.source === 'compiler')).toBe(true);
      expect(names(out, manifest)).toContain('ok');
    } finally {
      repo.cleanup();
    }
  });

  it('stores a compiler message with its types printed whole and their unions sorted, however the checker ordered or would have cut them', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      // 40 members: the compiler would print the first and last few of them in the order it made their types.
      const members = Array.from({ length: 40 }, (_, i) => `Wide${String(39 - i).padStart(2, '0')}`);
      writeFileSync(join(repo.dir, 'src/wide.ts'), `${members.map((m) => `interface ${m} { ${m.toLowerCase()}: 1 }\n`).join('')}declare const wide: ${members.join(' | ')};\nexport const n: number = wide;\n`);
      commitAll(repo.dir, 'a wide union');
      const { out, manifest } = await build(repo.dir);
      const file = Object.keys(manifest.shards).filter((n) => n.startsWith('files/'))
        .flatMap((n) => [...openShard<FileShard>(n, new Uint8Array(readFileSync(join(out, n)))).files()]).find((f) => f.path === 'src/wide.ts')!;
      expect(file.problems.map((p) => p.message.split('\n')[0])).toEqual([`Type '${[...members].sort().join(' | ')}' is not assignable to type 'number'.`]);
    } finally {
      repo.cleanup();
    }
  });

  it('refuses a directory that is not a git repository, and an unknown commit', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'sextant-plain-'));
    try {
      await expect(build(plain)).rejects.toMatchObject({ code: 'NOT_A_GIT_REPOSITORY' });
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
    const repo = fixtureRepo(FIXTURE);
    try {
      await expect(build(repo.dir, 'no-such-branch')).rejects.toMatchObject({ code: 'UNKNOWN_COMMIT' });
      await expect(build(repo.dir, 'deadbeefdeadbeef')).rejects.toMatchObject({ code: 'UNKNOWN_COMMIT' });
    } finally {
      repo.cleanup();
    }
  });

  it('leaves the previous index in place when a build fails', async () => {
    const repo = fixtureRepo(FIXTURE);
    try {
      const { out, manifest } = await build(repo.dir);
      await expect(buildIndex({ repo: repo.dir, commit: 'nope', out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) }))
        .rejects.toMatchObject({ code: 'UNKNOWN_COMMIT' });
      expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).commit).toBe(manifest.commit);
      expect(readdirSync(scratch).filter((n) => n.includes('.tmp-'))).toEqual([]);
    } finally {
      repo.cleanup();
    }
  });

  it('records the library models Java and Kotlin resolution read, and index_status reports them', async () => {
    const repo = fixtureRepo();
    try {
      mkdirSync(join(repo.dir, 'src'));
      writeFileSync(join(repo.dir, 'src/A.java'), 'class A { int n(String s) { return s.length(); } }\n');
      writeFileSync(join(repo.dir, 'src/b.kt'), 'fun b(xs: List<String>) = xs.first()\n');
      commitAll(repo.dir, 'java and kotlin');
      const { out, manifest } = await build(repo.dir);
      expect(manifest.libraryModels).toEqual([{ name: 'jdk', version: expect.stringMatching(/^17\./) }, { name: 'kotlin-stdlib', version: '2.4.20' }]);
      const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 20));
      expect(indexStatus(reader).libraryModels).toEqual(manifest.libraryModels);
    } finally {
      repo.cleanup();
    }
  });

  it('indexes a repository with no tsconfig with the default program', async () => {
    const repo = fixtureRepo();
    try {
      mkdirSync(join(repo.dir, 'lib'));
      writeFileSync(join(repo.dir, 'lib/a.js'), 'export function helper() { return 1; }\n');
      writeFileSync(join(repo.dir, 'lib/b.ts'), "import { helper } from './a.js';\nexport const value = helper();\n");
      commitAll(repo.dir, 'no tsconfig');
      const { out, manifest } = await build(repo.dir);
      expect(manifest.languages).toEqual({ javascript: { files: 1, precision: 'compiler' }, typescript: { files: 1, precision: 'compiler' } });
      expect(manifest.libraryModels).toBeUndefined();
      expect(names(out, manifest)).toEqual(expect.arrayContaining(['helper', 'value']));
      expect(existsSync(join(out, 'manifest.json'))).toBe(true);
      expect(git(repo.dir, 'status', '--porcelain')).toBe('');
    } finally {
      repo.cleanup();
    }
  });
});
