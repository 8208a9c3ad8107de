// Benchmark corpora: real packages fetched from the npm registry at bench time (never committed),
// reduced to their `src/`, given a tsconfig.json that type-checks them as well as they can be
// without their dev dependencies, and committed into a git repository of their own, because
// `indexer build` reads only what is tracked at a commit. Every tool in a comparison reads the same
// files: the large-file rule is applied here, by leaving such files out of the commit.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';

const run = promisify(execFile);

/** TypeScript and JavaScript, as the indexer's project plan accepts them. */
export const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export interface CorpusSpec {
  id: string;
  pkg: string;
  version: string;
  /** Why this version, and what the tsconfig compensates for. */
  note: string;
  tsconfig: { compilerOptions: Record<string, unknown>; include: string[] };
}

// Options every corpus shares. They are spelled out rather than left to defaults because
// scip-typescript 0.4.0 brings TypeScript 5.9 and the indexer and tsc run TypeScript 6, whose
// defaults differ (types, strict, target). Nothing here is deprecated in 6.0 (no baseUrl, no
// moduleResolution node10), so both compilers read the file the same way.
const COMMON = {
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  esModuleInterop: true,
  resolveJsonModule: true,
};

export const CORPORA: readonly CorpusSpec[] = [
  {
    id: 'rxjs',
    pkg: 'rxjs',
    version: '7.8.2',
    note: 'rxjs 7.8.2 src/ (its own tsconfig used node10 resolution and baseUrl, both deprecated in TypeScript 6: '
      + 'the same paths are given without them); Rx.global.js is kept, so allowJs is on for every tool.',
    tsconfig: {
      compilerOptions: {
        ...COMMON, target: 'ES2022', lib: ['ES2022', 'DOM'], noImplicitReturns: true, allowJs: true, types: [],
        paths: {
          rxjs: ['./src/index.ts'],
          'rxjs/operators': ['./src/operators/index.ts'],
          'rxjs/testing': ['./src/testing/index.ts'],
          'rxjs/ajax': ['./src/ajax/index.ts'],
          'rxjs/webSocket': ['./src/webSocket/index.ts'],
          'rxjs/fetch': ['./src/fetch/index.ts'],
          'rxjs/internal/*': ['./src/internal/*'],
        },
      },
      include: ['src'],
    },
  },
  {
    id: 'zod',
    pkg: 'zod',
    version: '4.6.7',
    note: 'zod 4.6.7, the `latest` dist-tag: its tarball ships src/ (v3, v4 classic/core/mini, locales and their tests), '
      + 'as 3.25.x did; self-imports (zod/v4, zod/mini, ...) map to src/ as its "@zod/source" export condition does.',
    tsconfig: {
      compilerOptions: {
        ...COMMON, target: 'ES2022', lib: ['ES2022', 'DOM'], types: ['node'],
        paths: { zod: ['./src/index.ts'], 'zod/*': ['./src/*/index.ts', './src/*.ts'] },
      },
      include: ['src'],
    },
  },
  {
    id: 'effect',
    pkg: 'effect',
    version: '4.1.0',
    note: 'effect 4.1.0 src/: relative imports carry a .ts suffix (allowImportingTsExtensions with Bundler resolution); '
      + 'self-imports (effect/Layer, effect/cli) map to src/.',
    tsconfig: {
      compilerOptions: {
        ...COMMON, target: 'ES2022', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'],
        allowImportingTsExtensions: true, exactOptionalPropertyTypes: true,
        paths: { effect: ['./src/index.ts'], 'effect/*': ['./src/*/index.ts', './src/*.ts'] },
      },
      include: ['src'],
    },
  },
];

export interface RemovedFile {
  path: string;
  bytes: number;
}

export interface PreparedCorpus {
  spec: CorpusSpec;
  /** The git repository every tool reads. */
  dir: string;
  commit: string;
  /** TypeScript/JavaScript files committed, their bytes and lines. */
  files: number;
  bytes: number;
  lines: number;
  /** Files left out by the large-file rule. */
  removed: RemovedFile[];
  maxFileBytes: number;
}

interface Stamp extends Omit<PreparedCorpus, 'spec' | 'dir'> {
  recipe: string;
}

export interface PrepareOptions {
  cacheDir: string;
  maxFileBytes: number;
  log: (line: string) => void;
}

/** The package tarball from the registry, downloaded once into the cache. */
export async function fetchTarball(spec: CorpusSpec, cacheDir: string): Promise<string> {
  const dir = join(cacheDir, 'tarballs');
  await mkdir(dir, { recursive: true });
  const name = `${spec.pkg.replace(/^@/, '').replace('/', '-')}-${spec.version}.tgz`;
  const path = join(dir, name);
  if (existsSync(path)) return path;
  const { stdout } = await run('npm', ['pack', `${spec.pkg}@${spec.version}`, '--json', '--pack-destination', dir], { cwd: dir, maxBuffer: 64 << 20 });
  const packed = (JSON.parse(stdout) as { filename: string }[])[0]!.filename;
  if (join(dir, packed) !== path) await rename(join(dir, packed), path);
  return path;
}

/** Prepares (or reuses, when nothing it depends on changed) one corpus repository. */
export async function prepareCorpus(spec: CorpusSpec, options: PrepareOptions): Promise<PreparedCorpus> {
  const dir = join(options.cacheDir, 'corpora', spec.id);
  const stampPath = join(options.cacheDir, 'corpora', `${spec.id}.json`);
  const recipe = createHash('sha256').update(JSON.stringify([spec.pkg, spec.version, spec.tsconfig, options.maxFileBytes])).digest('hex');
  const stamp = await readJson<Stamp>(stampPath);
  if (stamp?.recipe === recipe && await headOf(dir) === stamp.commit && await isClean(dir)) {
    return { spec, dir, ...stamp };
  }

  options.log(`preparing ${spec.id}: ${spec.pkg}@${spec.version} src/ into ${relative(process.cwd(), dir)}`);
  await rm(dir, { recursive: true, force: true });
  const tree = await writeSourceTree(spec, dir, options);
  const commit = await commitAll(dir, `${spec.pkg}@${spec.version} src/ for the Sextant indexer bench`, { init: true });

  const prepared: PreparedCorpus = { spec, dir, commit, ...tree, maxFileBytes: options.maxFileBytes };
  const { spec: _spec, dir: _dir, ...rest } = prepared;
  await writeFile(stampPath, `${JSON.stringify({ ...rest, recipe } satisfies Stamp, null, 2)}\n`);
  return prepared;
}

/**
 * Replaces the work tree of `dir` (all but .git) with the package's `src/`, the large-file rule
 * applied, and the corpus's tsconfig.json and package.json.
 */
async function writeSourceTree(spec: CorpusSpec, dir: string, options: PrepareOptions): Promise<Pick<PreparedCorpus, 'files' | 'bytes' | 'lines' | 'removed'>> {
  const tarball = await fetchTarball(spec, options.cacheDir);
  await mkdir(dir, { recursive: true });
  for (const entry of await readdir(dir)) if (entry !== '.git') await rm(join(dir, entry), { recursive: true, force: true });
  const unpack = `${dir}.unpack`;
  await rm(unpack, { recursive: true, force: true });
  await mkdir(unpack, { recursive: true });
  await run('tar', ['xzf', tarball, '-C', unpack, 'package/src']);
  await rename(join(unpack, 'package', 'src'), join(dir, 'src'));
  await rm(unpack, { recursive: true, force: true });

  const removed: RemovedFile[] = [];
  let files = 0;
  let bytes = 0;
  let lines = 0;
  for (const path of await walk(join(dir, 'src'))) {
    const size = (await stat(path)).size;
    const rel = relative(dir, path);
    if (size > options.maxFileBytes) {
      removed.push({ path: rel, bytes: size });
      await rm(path);
      continue;
    }
    if (!SOURCE_EXTENSIONS.test(path)) continue;
    files++;
    bytes += size;
    lines += countLines(await readFile(path, 'utf8'));
  }
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(spec.tsconfig, null, 2)}\n`);
  // scip-typescript names its symbols after the nearest package.json.
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: `bench-${spec.id}`, version: spec.version, private: true, type: 'module' }, null, 2)}\n`);
  return { files, bytes, lines, removed: removed.sort((a, b) => (a.path < b.path ? -1 : 1)) };
}

/** Two published versions of one corpus's package, for the review benches. */
export interface VersionPairSpec {
  /** e.g. `effect-small`: the repository's name under .bench/cache/corpora. */
  id: string;
  corpus: string;
  base: string;
  head: string;
  note: string;
}

/**
 * The review benches' version pairs: for each package a pair changing at most 20 files and one
 * changing more (counts from `git diff --name-status` between the two prepared commits, src/ plus
 * package.json; printed by the benches). Found by diffing the src/ trees of consecutive releases.
 */
export const VERSION_PAIRS: readonly VersionPairSpec[] = [
  { id: 'effect-small', corpus: 'effect', base: '4.0.0-rc.116', head: '4.0.0-rc.117', note: '14 source files modified' },
  { id: 'effect-large', corpus: 'effect', base: '4.0.6', head: '4.1.0', note: 'a minor release: 223 files (36 added, 2 removed)' },
  { id: 'zod-small', corpus: 'zod', base: '4.6.6', head: '4.6.7', note: 'one source file modified' },
  { id: 'zod-large', corpus: 'zod', base: '4.6.0', head: '4.6.7', note: 'seven patch releases: 101 files' },
];

/** Issue #14's cost targets: worker CPU per call on effect, for a change of at most 20 files. */
export const REVIEW_TARGETS = { coldCpuMs: { diff_symbols: 100, change_impact: 150 } as Record<string, number>, warmCpuMs: 10, maxFiles: 20, pkg: 'effect' };

export interface FileChanges {
  added: number;
  removed: number;
  modified: number;
  renamed: number;
  /** Of those, TypeScript/JavaScript files. */
  source: number;
  total: number;
}

export interface PreparedPair {
  spec: VersionPairSpec;
  dir: string;
  base: PreparedCorpus;
  head: PreparedCorpus;
  changes: FileChanges;
}

/**
 * Prepares (or reuses) a repository holding two versions of a package as two commits, base then
 * head, each made as prepareCorpus makes a corpus (so base's commit is that of a corpus of that
 * version), the second a day later.
 */
export async function prepareVersionPair(pair: VersionPairSpec, options: PrepareOptions): Promise<PreparedPair> {
  const corpus = CORPORA.find((c) => c.id === pair.corpus);
  if (!corpus) throw new Error(`unknown corpus "${pair.corpus}"; known: ${CORPORA.map((c) => c.id).join(', ')}`);
  const dir = join(options.cacheDir, 'corpora', pair.id);
  const stampPath = join(options.cacheDir, 'corpora', `${pair.id}.json`);
  const recipe = createHash('sha256').update(JSON.stringify([pair, corpus.tsconfig, options.maxFileBytes])).digest('hex');
  const stamp = await readJson<{ recipe: string; base: Stamp; head: Stamp; changes: FileChanges }>(stampPath);
  if (stamp?.recipe === recipe && await headOf(dir) === stamp.head.commit && await isClean(dir)) {
    const specOf = (version: string): CorpusSpec => ({ ...corpus, version });
    return {
      spec: pair, dir, changes: stamp.changes,
      base: { spec: specOf(pair.base), dir, ...stamp.base }, head: { spec: specOf(pair.head), dir, ...stamp.head },
    };
  }
  options.log(`preparing ${pair.id}: ${corpus.pkg}@${pair.base} then @${pair.head} src/ as two commits of ${relative(process.cwd(), dir)}`);
  await rm(dir, { recursive: true, force: true });
  const sides: PreparedCorpus[] = [];
  for (const [i, version] of [pair.base, pair.head].entries()) {
    const spec = { ...corpus, version };
    const tree = await writeSourceTree(spec, dir, options);
    const commit = await commitAll(dir, `${corpus.pkg}@${version} src/ for the Sextant review bench`, { init: i === 0, day: i });
    sides.push({ spec, dir, commit, ...tree, maxFileBytes: options.maxFileBytes });
  }
  const [base, head] = sides as [PreparedCorpus, PreparedCorpus];
  const changes = await fileChanges(dir, base.commit, head.commit);
  const strip = ({ spec: _s, dir: _d, ...rest }: PreparedCorpus) => ({ ...rest, recipe });
  await writeFile(stampPath, `${JSON.stringify({ recipe, base: strip(base), head: strip(head), changes }, null, 2)}\n`);
  return { spec: pair, dir, base, head, changes };
}

/** What `git diff --name-status -M` says changed between two commits. */
export async function fileChanges(dir: string, base: string, head: string): Promise<FileChanges> {
  const { stdout } = await run('git', ['diff', '--name-status', '-M', base, head], { cwd: dir, maxBuffer: 64 << 20 });
  const changes: FileChanges = { added: 0, removed: 0, modified: 0, renamed: 0, source: 0, total: 0 };
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [status, ...paths] = line.split('\t');
    const key = status!.startsWith('A') ? 'added' : status!.startsWith('D') ? 'removed' : status!.startsWith('R') ? 'renamed' : 'modified';
    changes[key]++;
    changes.total++;
    if (paths.some((p) => SOURCE_EXTENSIONS.test(p))) changes.source++;
  }
  return changes;
}

// A fixed author, committer and date: the same corpus gives the same commit id on every machine
// (a version pair's head is dated a day after its base).
export function benchGitEnv(day = 0): Record<string, string> {
  const date = `2000-01-${String(1 + day).padStart(2, '0')}T00:00:00Z`;
  return {
    GIT_AUTHOR_NAME: 'sextant-bench', GIT_AUTHOR_EMAIL: 'bench@sextant.invalid', GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'sextant-bench', GIT_COMMITTER_EMAIL: 'bench@sextant.invalid', GIT_COMMITTER_DATE: date,
  };
}

async function commitAll(dir: string, message: string, { init, day = 0 }: { init: boolean; day?: number }): Promise<string> {
  const git = (args: string[]) => run('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir, env: { ...process.env, ...benchGitEnv(day) }, maxBuffer: 64 << 20,
  });
  if (init) await git(['init', '-q', '-b', 'main']);
  // A new tree replaced the last one: tar keeps the tarball's mtimes (npm sets them all alike), so
  // git's stat cache would take a changed file of the same size for unchanged. Hash every file.
  else await rm(join(dir, '.git', 'index'), { force: true });
  await git(['add', '-A']);
  await git(['commit', '-q', '--no-verify', '-m', message]);
  return (await git(['rev-parse', 'HEAD'])).stdout.trim();
}

async function headOf(dir: string): Promise<string | undefined> {
  try {
    return (await run('git', ['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
  } catch {
    return undefined;
  }
}

async function isClean(dir: string): Promise<boolean> {
  try {
    return (await run('git', ['status', '--porcelain'], { cwd: dir })).stdout.trim() === '';
  } catch {
    return false;
  }
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/**
 * A short hash of the TypeScript the indexer runs (its src/ and the workspace packages' src/): the
 * benches print it with each run and key cached indexes by it, since the work tree may change.
 */
const INDEXER_DIR = new URL('..', import.meta.url).pathname;

export async function sourceFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(path).update(await readFile(path));
    }
  };
  await walk(join(INDEXER_DIR, 'src'));
  for (const pkg of await readdir(join(INDEXER_DIR, '..', 'packages'))) await walk(join(INDEXER_DIR, '..', 'packages', pkg, 'src'));
  return hash.digest('hex').slice(0, 8);
}
