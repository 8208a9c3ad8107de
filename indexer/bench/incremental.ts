// The incremental bench (issue #31): `indexer build --from` against a full `indexer build` of the same
// commit, each a process of its own under GNU time (wall seconds, peak RSS), and the two outputs
// compared byte for byte (every shard; the manifest but for builtAt and build). Cases: synthetic
// changes on a corpus (one leaf module edited, ten leaf modules edited, the most widely imported
// module edited, ten modules renamed), each a commit on a clone of the corpus built from the
// corpus's own full index; and consecutive published versions of real packages (VERSION_PAIRS),
// the head built from the base's index. Targets on effect: a leaf change at most 0.2x the full
// build's wall time, ten files at most 0.35x, a widely imported module no slower than full; peak
// RSS no higher than the full build's.
//
//   npx tsx bench/incremental.ts [--corpus effect] [--pairs effect-small,zod-small] [--cases leaf,ten,wide,rename]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Manifest } from '@sextant/format';
import { readPreviousIndex } from '../src/incremental/previous-index.ts';
import { buildModeText } from './review-builds.ts';
import { CORPORA, prepareCorpus, prepareVersionPair, VERSION_PAIRS } from './corpora.ts';
import { assertGnuTime, measure, type Measurement } from './measure-process.ts';

const BENCH_DIR = join(import.meta.dirname, '..', '.bench');
const INDEXER = join(import.meta.dirname, '..', 'bin', 'indexer.js');
const TARGETS: Record<string, number> = { leaf: 0.2, ten: 0.35, wide: 1 };

interface Row {
  corpus: string;
  case: string;
  changed: string;
  mode: string;
  full: Measurement;
  incremental: Measurement;
  identical: boolean;
  differing: string[];
  /** Shards of the new index that the base's lacks (what `indexer publish` uploads after the base's), and their bytes. */
  upload: { shards: number; of: number; bytes: number };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'effect' }, pairs: { type: 'string', default: 'effect-small,zod-small' }, cases: { type: 'string', default: 'leaf,ten,wide,rename' } } });
  assertGnuTime();
  const work = join(BENCH_DIR, 'incremental');
  await mkdir(work, { recursive: true });
  const rows: Row[] = [];
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

  for (const id of values.corpus.split(',').filter(Boolean)) {
    const spec = CORPORA.find((c) => c.id === id);
    if (!spec) throw new Error(`unknown corpus ${id}`);
    const corpus = await prepareCorpus(spec, { cacheDir: join(BENCH_DIR, 'cache'), maxFileBytes: 1_000_000, log });
    const repo = join(work, `${id}-repo`);
    rmSync(repo, { recursive: true, force: true });
    execFileSync('git', ['clone', '-q', corpus.dir, repo]);
    const base = join(work, `${id}-base`);
    log(`${id}: full build of ${corpus.commit.slice(0, 12)}`);
    await build(repo, base, work);
    const dependents = await dependentCounts(base);
    const leaves = [...dependents].filter(([path]) => /\.ts$/.test(path)).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    const widest = [...dependents].sort((a, b) => b[1] - a[1])[0]!;
    const cases: Record<string, () => string> = {
      leaf: () => edit(repo, [leaves[0]![0]]),
      ten: () => edit(repo, leaves.slice(0, 10).map(([path]) => path)),
      wide: () => edit(repo, [widest[0]]),
      rename: () => {
        const moved = leaves.slice(0, 10).map(([path]) => path);
        for (const path of moved) renameSync(join(repo, path), join(repo, path.replace(/\.ts$/, '-moved.ts')));
        return `${moved.length} renamed`;
      },
    };
    for (const name of values.cases.split(',').filter(Boolean)) {
      execFileSync('git', ['reset', '-q', '--hard', corpus.commit], { cwd: repo });
      const changed = cases[name]!();
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', name);
      log(`${id} ${name}: ${changed}`);
      rows.push(await compare(id, name, changed, repo, base, work));
    }
  }

  for (const id of values.pairs.split(',').filter(Boolean)) {
    const spec = VERSION_PAIRS.find((p) => p.id === id);
    if (!spec) throw new Error(`unknown pair ${id}`);
    const pair = await prepareVersionPair(spec, { cacheDir: join(BENCH_DIR, 'cache'), maxFileBytes: 1_000_000, log });
    const base = join(work, `${id}-base`);
    log(`${id}: full build of the base, ${spec.base}`);
    await build(pair.dir, base, work, pair.base.commit);
    const changed = `${spec.base} -> ${spec.head}: ${pair.changes.total} files (${pair.changes.source} TS/JS)`;
    log(`${id}: ${changed}`);
    rows.push(await compare(spec.corpus, id, changed, pair.dir, base, work, pair.head.commit));
  }
  report(rows);
  return rows.every((r) => r.identical) ? 0 : 1;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=bench@sextant.dev', '-c', 'user.name=bench', ...args], { cwd, encoding: 'utf8' });
}

/** A line inserted at the top of each file: its positions shift, its declarations do not change. */
function edit(repo: string, paths: readonly string[]): string {
  for (const path of paths) writeFileSync(join(repo, path), `// edited by the incremental bench\n${readFileSync(join(repo, path), 'utf8')}`);
  return paths.length === 1 ? `${paths[0]} edited` : `${paths.length} files edited`;
}

/** For each indexed file, how many files used something it declares (the previous index's view, as incremental-plan.ts reads it). */
async function dependentCounts(index: string): Promise<Map<string, number>> {
  const previous = await (await (await readPreviousIndex(index)).records()).rest();
  const users = new Map<string, Set<string>>([...previous.files.keys()].map((path) => [path, new Set()]));
  for (const symbol of previous.symbols.values()) {
    const declaring = new Set(symbol.info.defs.map((d) => d[0]));
    for (const ref of symbol.refs) for (const path of declaring) if (path !== ref.site.path) users.get(path)?.add(ref.site.path);
  }
  return new Map([...users].map(([path, set]) => [path, set.size]));
}

async function build(repo: string, out: string, work: string, commit = 'HEAD', from?: string): Promise<Measurement> {
  rmSync(out, { recursive: true, force: true });
  const measured = await measure(process.execPath, [INDEXER, 'build', '--repo', repo, '--commit', commit, '--out', out, ...(from ? ['--from', from] : [])], { cwd: repo, timeFile: join(work, 'time.txt') });
  if (measured.exitCode !== 0) throw new Error(`indexer build failed (exit ${measured.exitCode}): ${measured.stderr.slice(-1000)}`);
  return measured;
}

async function compare(corpus: string, name: string, changed: string, repo: string, base: string, work: string, commit = 'HEAD'): Promise<Row> {
  const fullDir = join(work, `${name}-full`);
  const incrementalDir = join(work, `${name}-incremental`);
  const full = await build(repo, fullDir, work, commit);
  const incremental = await build(repo, incrementalDir, work, commit, base);
  const a = manifestOf(fullDir);
  const b = manifestOf(incrementalDir);
  const differing = [...new Set([...Object.keys(a.shards), ...Object.keys(b.shards)])].filter((shard) => a.shards[shard]?.sha256 !== b.shards[shard]?.sha256
    || !existsSync(join(incrementalDir, shard)) || !readFileSync(join(fullDir, shard)).equals(readFileSync(join(incrementalDir, shard))));
  const strip = ({ builtAt: _t, build: _b, ...rest }: Manifest) => JSON.stringify(rest);
  if (strip(a) !== strip(b)) differing.push('manifest.json');
  const baseShas = new Set(Object.values(manifestOf(base).shards).map((e) => e.sha256));
  const fresh = Object.values(b.shards).filter((e) => !baseShas.has(e.sha256));
  const upload = { shards: fresh.length, of: Object.keys(b.shards).length, bytes: fresh.reduce((n, e) => n + e.bytes, 0) };
  const mode = buildModeText(b.build);
  return { corpus, case: name, changed, mode, full, incremental, identical: differing.length === 0, differing, upload };
}

function manifestOf(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

function report(rows: Row[]): void {
  const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
  console.log('\n| corpus | case | changed | built | full s | full peak MB | incremental s | incremental peak MB | ratio | identical | new shards (upload) | target |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const ratio = r.incremental.wallSeconds / r.full.wallSeconds;
    const target = r.corpus === 'effect' ? TARGETS[r.case] : undefined;
    const checks = [
      ...(target !== undefined ? [ratio <= target ? `time ok (<= ${target}x)` : `time MISSED (> ${target}x)`] : []),
      r.incremental.peakRssBytes <= r.full.peakRssBytes ? 'RSS ok' : 'RSS MISSED',
    ];
    console.log(`| ${r.corpus} | ${r.case} | ${r.changed} | ${r.mode} | ${r.full.wallSeconds.toFixed(1)} | ${mb(r.full.peakRssBytes)} | ${r.incremental.wallSeconds.toFixed(1)} | ${mb(r.incremental.peakRssBytes)} | ${ratio.toFixed(2)} | ${r.identical ? 'yes' : `NO: ${r.differing.slice(0, 5).join(', ')}`} | ${r.upload.shards} of ${r.upload.of}, ${(r.upload.bytes / 1048576).toFixed(1)} MB | ${checks.join(', ')} |`);
  }
}

process.exitCode = await main();
