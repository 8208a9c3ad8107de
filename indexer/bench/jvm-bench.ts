// Java/Kotlin indexer bench on real corpora fetched from the registries at bench time (jvm-corpora.ts:
// ReactAndroid of react-native@0.80.0 and java.base of Debian's openjdk-17-source), and on synthetic
// multi-module repositories made from them (synthetic-corpus.ts) to measure how memory grows with
// the number of files. For each corpus it measures, each in a fresh process:
//   parse   a bare tree-sitter parse of every file with the same grammars (the floor);
//   index   the Java/Kotlin LanguageIndexer alone (parse, extract, name, resolve, emit) from the same texts;
//   build   the whole `indexer build` (git, every language, file records, shards written);
// and reports files/s, MB/s per core (source bytes per CPU second), peak RSS, shard bytes / source
// bytes and the share of references at each confidence; for index and build, where the time and
// memory go (the stage split of stage-clock.ts: CPU seconds, resident and live heap at each stage's
// end); over the synthetic sizes, the slope of peak RSS per 1,000 files. Targets (issue #32): the
// whole build at least 0.35x the parse rate, java.base's build at most 700 MB of peak RSS, at most
// 100 MB more per 1,000 files and 20,000 files in 3 GB; shards at most half the source bytes (issue
// #17, replacing the quarter of issue #6); on java.base at least 90% of references resolved or better.
//
//   cd indexer && npm run bench:jvm                      # both real corpora
//   cd indexer && npm run bench:jvm -- --corpus java.base
//   cd indexer && npm run bench:jvm -- --corpus synthetic --files 5000,10000,20000 --steps build
import { execFile, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { Parser } from 'web-tree-sitter';
import { buildIndex } from '../src/build-command.ts';
import { listTrackedFiles, readBlobs, resolveCommit } from '../src/git/git-snapshot.ts';
import { IndexCollector } from '../src/index-collector.ts';
import type { IndexContext } from '../src/language-indexer.ts';
import { JvmIndexer } from '../src/jvm/jvm-indexer.ts';
import { grammarOf, JVM_GRAMMARS, loadTagger } from '../src/jvm/jvm-grammars.ts';
import { Progress } from '../src/progress.ts';
import { StageClock, STAGES, type StageSample } from '../src/stage-clock.ts';
import { JVM_CACHE, JVM_CORPORA, type JvmCorpus } from './jvm-corpora.ts';
import { positiveOption } from './bench-options.ts';
import { syntheticCorpus } from './synthetic-corpus.ts';

/** Issue #17: all shards of a Java corpus at most half its source bytes. */
const SHARDS_OVER_SOURCE = 0.5;
const run = promisify(execFile);
const CACHE = JVM_CACHE;
const SELF = new URL(import.meta.url).pathname;
const CORPORA = JVM_CORPORA;
type Corpus = JvmCorpus;

// ---------------------------------------------------------------------------------------------
// Measurements, each in its own process (so peak RSS is that step's alone).

interface Sample {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  files: number;
  bytes: number;
  extra?: Record<string, number>;
  stages?: Partial<Record<string, StageSample>>;
}

async function sourceFiles(repo: string) {
  const { root, commit } = await resolveCommit(repo, 'HEAD');
  const tracked = await listTrackedFiles(root, commit);
  const { files } = await readBlobs(root, tracked.files.filter((f) => grammarOf(f.path) || /(^|\/)(pom\.xml|[^/]*\.gradle(\.kts)?)$/.test(f.path)));
  return { root, files };
}

async function step(kind: string, repo: string, out: string): Promise<Sample> {
  const { root, files } = await sourceFiles(repo);
  const sources = files.filter((f) => grammarOf(f.path));
  const bytes = sources.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0);
  // Grammars and queries load once per process in every step, before the clock starts.
  const parsers = new Map<string, Parser>();
  for (const grammar of JVM_GRAMMARS) {
    const { language } = await loadTagger(grammar); // initialises the runtime first
    const parser = new Parser();
    parser.setLanguage(language);
    parsers.set(grammar.lang, parser);
  }
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let extra: Record<string, number> | undefined;
  const stages = new StageClock();
  if (kind === 'parse') {
    for (const file of sources) parsers.get(grammarOf(file.path)!.lang)!.parse(file.text)?.delete();
  } else if (kind === 'index') {
    const indexer = new JvmIndexer();
    const collector = new IndexCollector();
    const context: IndexContext = { root, texts: new Map(files.map((f) => [f.path, f.text])), collector, warnings: [], parsers: {}, progress: new Progress(process.stderr), stages };
    for await (const compiled of indexer.index(sources, context)) void compiled;
    const confidence = { resolved: 0, candidate: 0 };
    for (const symbol of collector.symbols.values()) for (const ref of symbol.refs) confidence[ref.confidence === 'candidate' ? 'candidate' : 'resolved']++;
    extra = { ...indexer.stats!, recordedResolved: confidence.resolved, recordedCandidates: confidence.candidate, symbols: collector.symbols.size, edges: collector.edges };
  } else {
    const manifest = await buildIndex({ repo: root, commit: 'HEAD', out, repoName: 'bench/jvm', maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), stages });
    const shardBytes = (prefix?: string) => Object.entries(manifest.shards).filter(([name]) => !prefix || name.startsWith(prefix)).reduce((sum, [, s]) => sum + s.bytes, 0);
    extra = { shardBytes: shardBytes(), indexShardBytes: shardBytes('symbols/') + shardBytes('files/') + shardBytes('names'), textShardBytes: shardBytes('texts/') };
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const split = stages.report();
  return {
    wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssBytes: process.resourceUsage().maxRSS * 1024, files: sources.length, bytes,
    ...(extra ? { extra } : {}), ...(Object.keys(split).length ? { stages: split } : {}),
  };
}

/** A step's sample, or why its process failed (a heap limit reached is the finding at some sizes). */
function measureInChild(kind: string, repo: string, out: string): Promise<Sample | { failed: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', SELF, '--step', kind, '--repo', repo, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
      process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Sample);
      const cause = /heap out of memory|Reached heap limit/.test(stderr) ? 'JS heap limit reached' : `exited with ${code ?? signal}`;
      resolve({ failed: `${kind} ${cause}` });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Report

const mb = (bytes: number) => bytes / 1e6;
const fixed = (n: number, digits = 1) => n.toFixed(digits);
const percent = (n: number, total: number) => `${fixed((100 * n) / Math.max(1, total))}%`;
const STEPS = ['parse', 'index', 'build'];
/** Issue #32's targets: the whole build's rate against the bare parse, java.base's peak, the synthetic slope and 20,000-file peak. */
const BUILD_OVER_PARSE = 0.35;
const JAVA_BASE_PEAK_MB = 700;
const SLOPE_MB_PER_1000 = 100;
const PEAK_AT_20K_MB = 3000;

/** Least-squares slope and intercept of y over x. */
function fit(points: readonly [number, number][]): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = sxx ? points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx : 0;
  return { slope, intercept: my - slope * mx };
}

function stageTable(corpus: string, kind: string, s: Sample): string[] {
  const split = s.stages ?? {};
  const cpu = STAGES.reduce((sum, stage) => sum + (split[stage]?.cpuSeconds ?? 0), 0);
  const rows = STAGES.filter((stage) => split[stage]).map((stage) => {
    const t = split[stage]!;
    return `| ${stage} | ${fixed(t.wallSeconds)} | ${fixed(t.cpuSeconds)} | ${percent(t.cpuSeconds, s.cpuSeconds)} | ${fixed(mb(t.rssBytes), 0)} | ${fixed(mb(t.peakRssBytes), 0)} | ${fixed(mb(t.heapUsedBytes), 0)} | ${fixed(mb(t.externalBytes), 0)} |`;
  });
  return [
    '', `${corpus}, ${kind}: where the time and memory go (CPU of the stages ${fixed(cpu)} s of ${fixed(s.cpuSeconds)} s; the rest is loading, git, garbage collection outside the stages)`, '',
    '| stage | wall s | CPU s | share of CPU | RSS at end MB | peak RSS by end MB | live heap at end MB | external MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}

async function bench(corpora: Corpus[], steps: readonly string[]): Promise<void> {
  const results: Record<string, unknown> = {};
  const lines = [
    `# JVM indexer bench (${new Date().toISOString()}, ${(await run('nproc')).stdout.trim()} cores, load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')})`,
    '',
    '| corpus | files | source MB | step | wall s | CPU s | files/s | MB/s per core | peak RSS MB | vs parse |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const notes: string[] = [];
  const splits: string[] = [];
  const peaks = new Map<string, [number, number][]>();
  for (const corpus of corpora) {
    process.stderr.write(`preparing ${corpus.id} (${corpus.note})...\n`);
    const repo = await corpus.prepare();
    const out = join(CACHE, `${corpus.id}-index`);
    const samples: Record<string, Sample> = {};
    for (const kind of steps) {
      process.stderr.write(`  ${kind}...\n`);
      const sample = await measureInChild(kind, repo, out);
      if ('failed' in sample) {
        lines.push(`| ${corpus.id} | | | ${kind} | ${sample.failed} | | | | | |`);
        continue;
      }
      samples[kind] = sample;
    }
    const parseRate = samples.parse ? samples.parse.bytes / samples.parse.cpuSeconds : undefined;
    if (parseRate && samples.build) {
      const ratio = samples.build.bytes / samples.build.cpuSeconds / parseRate;
      notes.push(`- ${corpus.id}: the build at ${fixed(ratio, 2)}x the parse rate (target at least ${BUILD_OVER_PARSE}x, issue #32: ${ratio >= BUILD_OVER_PARSE ? 'met' : 'NOT met'}).`);
    }
    if (corpus.id === 'java.base' && samples.build) {
      const peak = mb(samples.build.peakRssBytes);
      notes.push(`- java.base: the build's peak RSS ${fixed(peak, 0)} MB (target at most ${JAVA_BASE_PEAK_MB} MB, issue #32: ${peak <= JAVA_BASE_PEAK_MB ? 'met' : 'NOT met'}).`);
    }
    for (const [kind, s] of Object.entries(samples)) {
      const rate = s.bytes / s.cpuSeconds;
      lines.push(`| ${corpus.id} | ${s.files} | ${fixed(mb(s.bytes), 2)} | ${kind} | ${fixed(s.wallSeconds)} | ${fixed(s.cpuSeconds)} | ${fixed(s.files / s.wallSeconds, 0)} | ${fixed(mb(rate), 2)} | ${fixed(mb(s.peakRssBytes), 0)} | ${parseRate ? `${fixed(rate / parseRate, 2)}x` : ''} |`);
      if (s.stages) splits.push(...stageTable(corpus.id, kind, s));
      if (corpus.id.startsWith('synthetic-')) (peaks.get(kind) ?? peaks.set(kind, []).get(kind)!).push([s.files, s.peakRssBytes]);
    }
    const stats = samples.index?.extra;
    const build = samples.build?.extra;
    if (stats) {
      const total = stats.resolved! + stats.candidate! + stats.unresolved!;
      notes.push(
        `- ${corpus.id}: ${total} references: ${percent(stats.resolved!, total)} resolved, ${percent(stats.candidate!, total)} candidates only, `
        + `${percent(stats.unresolved!, total)} unresolved (${stats.ignored} package segments and implicit names not counted); `
        + `recorded references ${stats.recordedResolved} resolved, ${stats.recordedCandidates} candidate; ${stats.symbols} symbols, ${stats.edges} edges.`,
      );
    }
    if (build) {
      notes.push(
        `- ${corpus.id}: shards ${fixed(mb(build.shardBytes!), 2)} MB = ${fixed(build.shardBytes! / samples.build!.bytes, 2)}x source `
        + `(symbols + files + names ${fixed(build.indexShardBytes! / samples.build!.bytes, 2)}x, file texts ${fixed(build.textShardBytes! / samples.build!.bytes, 2)}x; `
        + `target at most ${SHARDS_OVER_SOURCE}x (issue #17): ${build.shardBytes! / samples.build!.bytes <= SHARDS_OVER_SOURCE ? 'met' : 'NOT met'}).`,
      );
    }
    results[corpus.id] = { note: corpus.note, samples };
  }
  for (const [kind, points] of peaks) {
    if (points.length < 2) continue;
    const { slope, intercept } = fit(points.map(([files, peak]) => [files / 1000, mb(peak)]));
    const at20k = intercept + 20 * slope;
    const met = slope <= SLOPE_MB_PER_1000 && at20k <= PEAK_AT_20K_MB;
    notes.push(`- synthetic, ${kind}: peak RSS = ${fixed(intercept, 0)} MB + ${fixed(slope, 0)} MB per 1,000 files (least squares over ${points.map(([f]) => f).join(', ')} files; target at most ${SLOPE_MB_PER_1000} MB per 1,000 files and ${PEAK_AT_20K_MB} MB at 20,000, issue #32: ${fixed(at20k, 0)} MB, ${met ? 'met' : 'NOT met'}).`);
  }
  const report = [...lines, '', ...notes, ...splits, ''].join('\n');
  process.stdout.write(report);
  await writeFile(join(CACHE, 'results.json'), JSON.stringify(results, null, 2));
  await writeFile(join(CACHE, 'results.md'), report);
  process.stderr.write(`wrote ${relative(process.cwd(), join(CACHE, 'results.md'))} and results.json\n`);
}

const USAGE = 'usage: tsx bench/jvm-bench.ts [--corpus react-native,java.base,synthetic] [--files 5000,10000,20000] [--steps parse,index,build]';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const stepKind = option('step');
  if (stepKind) {
    process.stdout.write(`${JSON.stringify(await step(stepKind, option('repo')!, option('out')!))}\n`);
    return;
  }
  if (args.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const wanted = (option('corpus') ?? CORPORA.map((c) => c.id).join(',')).split(',');
  const unknown = wanted.filter((id) => id !== 'synthetic' && !CORPORA.some((c) => c.id === id));
  if (unknown.length) throw new Error(`unknown corpus ${unknown.join(', ')}. To fix this, pick from ${[...CORPORA.map((c) => c.id), 'synthetic'].join(', ')}.`);
  const steps = (option('steps') ?? STEPS.join(',')).split(',');
  const badStep = steps.find((s) => !STEPS.includes(s));
  if (badStep) throw new Error(`unknown step ${badStep}. To fix this, pick from ${STEPS.join(', ')}.`);
  const sizes = (option('files') ?? '5000,10000,20000').split(',').map((text) => positiveOption(text, '--files', USAGE));
  const corpora = [
    ...CORPORA.filter((c) => wanted.includes(c.id)),
    ...(wanted.includes('synthetic') ? sizes.map(syntheticCorpus) : []),
  ];
  await mkdir(CACHE, { recursive: true });
  await bench(corpora, steps);
}

await main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
