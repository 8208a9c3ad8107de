// Java/Kotlin indexer bench on real corpora fetched from the registries at bench time (jvm-corpora.ts:
// ReactAndroid of react-native@0.80.0 and java.base of Debian's openjdk-17-source).
// For each corpus it measures, each in a fresh process:
//   parse   a bare tree-sitter parse of every file with the same grammars (the floor);
//   index   the Java/Kotlin LanguageIndexer alone (parse, extract, resolve, emit) from the same texts;
//   build   the whole `indexer build` (git, every language, shards written);
// and reports files/s, MB/s per core (source bytes per CPU second), peak RSS, shard bytes / source
// bytes and the share of references at each confidence. Targets: index throughput at least half
// the parse rate, shards at most a quarter of the source bytes, on java.base at least 90% of
// references resolved or better.
//
//   cd indexer && npm run bench:jvm                      # both corpora
//   cd indexer && npm run bench:jvm -- --corpus java.base
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
import { JVM_CACHE, JVM_CORPORA, type JvmCorpus } from './jvm-corpora.ts';

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
  if (kind === 'parse') {
    for (const file of sources) parsers.get(grammarOf(file.path)!.lang)!.parse(file.text)?.delete();
  } else if (kind === 'index') {
    const indexer = new JvmIndexer();
    const collector = new IndexCollector();
    const context: IndexContext = { root, texts: new Map(files.map((f) => [f.path, f.text])), collector, warnings: [], parsers: {}, progress: new Progress(process.stderr) };
    for await (const compiled of indexer.index(sources, context)) void compiled;
    const confidence = { resolved: 0, candidate: 0 };
    for (const symbol of collector.symbols.values()) for (const ref of symbol.refs) confidence[ref.confidence === 'candidate' ? 'candidate' : 'resolved']++;
    extra = { ...indexer.stats!, recordedResolved: confidence.resolved, recordedCandidates: confidence.candidate, symbols: collector.symbols.size, edges: collector.edges };
  } else {
    const manifest = await buildIndex({ repo: root, commit: 'HEAD', out, repoName: 'bench/jvm', maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
    const shardBytes = (prefix?: string) => Object.entries(manifest.shards).filter(([name]) => !prefix || name.startsWith(prefix)).reduce((sum, [, s]) => sum + s.bytes, 0);
    extra = { shardBytes: shardBytes(), indexShardBytes: shardBytes('symbols/') + shardBytes('files/') + shardBytes('names'), textShardBytes: shardBytes('texts/') };
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { wallSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssBytes: process.resourceUsage().maxRSS * 1024, files: sources.length, bytes, ...(extra ? { extra } : {}) };
}

function measureInChild(kind: string, repo: string, out: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, SELF, '--step', kind, '--repo', repo, '--out', out], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench step ${kind} exited with ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Sample);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Report

const mb = (bytes: number) => bytes / 1e6;
const fixed = (n: number, digits = 1) => n.toFixed(digits);
const percent = (n: number, total: number) => `${fixed((100 * n) / Math.max(1, total))}%`;

async function bench(corpora: Corpus[]): Promise<void> {
  const results: Record<string, unknown> = {};
  const lines = [
    `# JVM indexer bench (${new Date().toISOString()}, ${(await run('nproc')).stdout.trim()} cores, load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')})`,
    '',
    '| corpus | files | source MB | step | wall s | files/s | MB/s per core | peak RSS MB | vs parse |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const notes: string[] = [];
  for (const corpus of corpora) {
    process.stderr.write(`preparing ${corpus.id} (${corpus.note})...\n`);
    const repo = await corpus.prepare();
    const out = join(CACHE, `${corpus.id}-index`);
    const samples: Record<string, Sample> = {};
    for (const kind of ['parse', 'index', 'build']) {
      process.stderr.write(`  ${kind}...\n`);
      samples[kind] = await measureInChild(kind, repo, out);
    }
    const parseRate = samples.parse!.bytes / samples.parse!.cpuSeconds;
    for (const [kind, s] of Object.entries(samples)) {
      const rate = s.bytes / s.cpuSeconds;
      lines.push(`| ${corpus.id} | ${s.files} | ${fixed(mb(s.bytes), 2)} | ${kind} | ${fixed(s.wallSeconds)} | ${fixed(s.files / s.wallSeconds, 0)} | ${fixed(mb(rate), 2)} | ${fixed(mb(s.peakRssBytes), 0)} | ${fixed(rate / parseRate, 2)}x |`);
    }
    const stats = samples.index!.extra!;
    const total = stats.resolved! + stats.candidate! + stats.unresolved!;
    const build = samples.build!.extra!;
    notes.push(
      `- ${corpus.id}: ${total} references: ${percent(stats.resolved!, total)} resolved, ${percent(stats.candidate!, total)} candidates only, `
      + `${percent(stats.unresolved!, total)} unresolved (${stats.ignored} package segments and implicit names not counted); `
      + `recorded references ${stats.recordedResolved} resolved, ${stats.recordedCandidates} candidate; ${stats.symbols} symbols, ${stats.edges} edges. `
      + `Shards ${fixed(mb(build.shardBytes!), 2)} MB = ${fixed(build.shardBytes! / samples.build!.bytes, 2)}x source `
      + `(symbols + files + names ${fixed(build.indexShardBytes! / samples.build!.bytes, 2)}x, file texts ${fixed(build.textShardBytes! / samples.build!.bytes, 2)}x).`,
    );
    results[corpus.id] = { note: corpus.note, samples };
  }
  const report = [...lines, '', ...notes, ''].join('\n');
  process.stdout.write(report);
  await writeFile(join(CACHE, 'results.json'), JSON.stringify(results, null, 2));
  await writeFile(join(CACHE, 'results.md'), report);
  process.stderr.write(`wrote ${relative(process.cwd(), join(CACHE, 'results.md'))} and results.json\n`);
}

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
    process.stdout.write('usage: tsx bench/jvm-bench.ts [--corpus react-native,java.base]\n');
    return;
  }
  const wanted = (option('corpus') ?? CORPORA.map((c) => c.id).join(',')).split(',');
  const unknown = wanted.filter((id) => !CORPORA.some((c) => c.id === id));
  if (unknown.length) throw new Error(`unknown corpus ${unknown.join(', ')}. To fix this, pick from ${CORPORA.map((c) => c.id).join(', ')}.`);
  await mkdir(CACHE, { recursive: true });
  await bench(CORPORA.filter((c) => wanted.includes(c.id)));
}

await main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
