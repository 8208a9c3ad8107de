// `npm run bench:worker`: the real worker in workerd (`wrangler dev`, the deployable bundle) with
// local R2 holding the indexes of rxjs, zod and effect, driven from loopback. Reports per tool and
// corpus the CPU and wall time of a call, cold (a fresh isolate that has never seen the
// repository) and warm, then the sustained rate at a fixed concurrency over 60 s, a 10-minute
// memory soak (the isolate's live heap must stay flat), the bundle size and the startup time;
// checks the targets of issue #17 (which replaced those of issue #6). With --review, also the change-review tools (diff_symbols and
// change_impact) on version pairs of real packages, both commits published, cold and warm, against
// the targets of issue #14. With --text, search_text's queries cold and warm, every answer against
// ripgrep, against the targets of issue #29. See bench/README.md for the method.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cliLine, SextantError, sha256Hex, shortCommit } from '@sextant/format';
import { prepareBenchCorpora, prepareReviewPairs, type BenchCorpus, type BenchPair } from './bench-corpora.ts';
import { REVIEW_TARGETS } from '../../../indexer/bench/corpora.ts';
import { BenchWorker, freePort } from './bench-worker-process.ts';
import { measured, percentile, post, structured, TOKEN, type Call, type Sample } from './bench-calls.ts';
import { buildBundle, type BundleInfo } from './worker-bundle.ts';
import { renderText, textSection, type TextSection } from './text-section.ts';
import { ripgrepVersion } from '../../../indexer/bench/text-search-queries.ts';
import { SHARD_CACHE_BYTES } from '../src/isolate-caches.ts';
import { positiveOption } from '../../../indexer/bench/bench-options.ts';

const WORKER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(WORKER_DIR, '../..');
const BENCH_DIR = join(WORKER_DIR, '.bench');
const WRANGLER = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');

const USAGE = `usage: npm run bench:worker -- [--corpus rxjs,zod,effect] [--cold 3] [--warm 100] [--seconds 60] [--concurrency 8] [--soak 600]
  --cold N          fresh-isolate samples per tool and corpus (default 3)
  --warm N          warm samples per tool and corpus (default 100)
  --seconds S       length of the sustained-load run (default 60)
  --concurrency C   requests in flight during it (default 8)
  --soak S          length of the memory soak after it, heap sampled every 30 s (default 600; 0 skips it)
  --profiles DIR    also write each cold call's V8 CPU profile there (.cpuprofile)
  --review PAIRS    also diff_symbols and change_impact on these version pairs (indexer/bench/corpora.ts VERSION_PAIRS,
                    e.g. effect-small,effect-large,zod-small,zod-large), cold and warm, against the targets of issue #14
  --only-review     only that section: no other tool, no sustained run, no soak
  --text            also search_text: the text bench's queries on each corpus, cold and warm, every answer against ripgrep (rg on PATH), against the targets of issue #29
  --only-text       only that section (with --corpus; no other tool, no sustained run, no soak)`;

/**
 * Issue #17 (replacing issue #6's): on effect, cold CPU p50 (a fresh isolate that never saw the
 * repository) per tool, warm CPU p99 with the LRU full, and module evaluation; the bundle of #6.
 */
const TARGETS = {
  corpus: 'effect',
  coldCpuMsP50: {
    goto_definition: 15, 'goto_definition (position)': 15, symbol_info: 15, find_references: 15, search_symbols: 15,
    call_hierarchy: 40, type_hierarchy: 40, find_implementations: 40,
  } as Record<string, number>,
  warmCpuMsP99: { goto_definition: 2, 'goto_definition (position)': 2, symbol_info: 2, search_symbols: 5 } as Record<string, number>,
  startupCpuMs: 25,
  bundleGzipBytes: 1024 * 1024,
};

interface Row {
  label: string;
  corpus: string;
  cold: Sample[];
  warm: Sample[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: 'rxjs,zod,effect' },
      cold: { type: 'string', default: '3' },
      warm: { type: 'string', default: '100' },
      seconds: { type: 'string', default: '60' },
      concurrency: { type: 'string', default: '8' },
      soak: { type: 'string', default: '600' },
      profiles: { type: 'string' },
      review: { type: 'string', default: '' },
      'only-review': { type: 'boolean', default: false },
      text: { type: 'boolean', default: false },
      'only-text': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const coldRuns = positive(values.cold, '--cold');
  const warmRuns = positive(values.warm, '--warm');
  const seconds = positive(values.seconds, '--seconds');
  const concurrency = positive(values.concurrency, '--concurrency');
  const soakSeconds = values.soak === '0' ? 0 : positive(values.soak, '--soak');
  const profileDir = values.profiles && resolve(values.profiles);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}] ${line}`);
  log(`machine: ${readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown cpu'}, ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length} cores`);

  const onlyReview = values['only-review'];
  const reviewIds = values.review.split(',').filter(Boolean);
  if (onlyReview && reviewIds.length === 0) {
    console.error(`${cliLine(new SextantError('INVALID_ARGUMENT', '--only-review needs --review PAIRS.', 'See the usage below.'))}\n${USAGE}`);
    return 2;
  }
  const onlyText = values['only-text'];
  const text = values.text || onlyText;
  let rgVersion = '';
  if (text) {
    try {
      rgVersion = ripgrepVersion();
    } catch (error) {
      console.error(cliLine(new SextantError('INVALID_ARGUMENT', `--text needs ripgrep: ${(error as Error).message}`, 'Install ripgrep, or run without --text.')));
      return 2;
    }
  }
  const corpora = await prepareBenchCorpora({ root: ROOT, benchDir: BENCH_DIR, ids: onlyReview ? [] : values.corpus.split(','), log });
  const pairs = await prepareReviewPairs({ root: ROOT, benchDir: BENCH_DIR, ids: reviewIds, log });
  for (const p of pairs) log(`${p.repo}: ${p.baseVersion} (${shortCommit(p.base)}) -> ${p.headVersion} (${shortCommit(p.commit)}): ${p.changes.total} files changed (${p.changes.source} TS/JS) of ${p.files}; ${p.shards} shards, ${(p.shardBytes / 1048576).toFixed(1)} MiB in both indexes`);
  for (const c of corpora) log(`${c.repo}@${shortCommit(c.commit)}: ${c.files} files, ${c.lines} lines, ${c.shards} shards, ${(c.shardBytes / 1048576).toFixed(1)} MiB`);

  const bundle = buildBundle(BENCH_DIR, log);
  const startupCpuMs = startupCpu(log);

  // The edge cache of earlier runs would serve the first cold calls; start without it.
  rmSync(join(BENCH_DIR, 'state', 'v3', 'cache'), { recursive: true, force: true });
  const worker = new BenchWorker({
    benchDir: BENCH_DIR, wranglerBin: WRANGLER, port: await freePort(), inspectorPort: await freePort(),
    env: { SEXTANT_TOKENS: JSON.stringify([{ name: 'bench', sha256: sha256Hex(new TextEncoder().encode(TOKEN)), repos: ['bench/*'] }]) },
  });
  const rows: Row[] = [];
  const reviewRows: Row[] = [];
  let baseline: number[] = [];
  let load: LoadResult;
  let memory: Soak = { samples: [], firstErrors: [] };
  let startMs: number;
  let texts: TextSection | undefined;
  try {
    startMs = await worker.start();
    log(`wrangler dev answered /health after ${startMs.toFixed(0)} ms`);
    const calls = new Map<string, Call[]>();
    const measuredCorpora = onlyText ? [] : corpora;
    for (const corpus of measuredCorpora) calls.set(corpus.id, await chooseCalls(worker, corpus, log));

    if (measuredCorpora.length) log(`cold: ${coldRuns} fresh isolate(s) per tool and corpus`);
    for (const corpus of measuredCorpora) {
      for (const call of calls.get(corpus.id)!) {
        const row: Row = { label: call.label, corpus: corpus.id, cold: [], warm: [] };
        rows.push(row);
        for (let i = 0; i < coldRuns; i++) {
          await worker.freshIsolate();
          worker.takeLogLines();
          const saveTo = profileDir && join(profileDir, `${corpus.id}-${call.label.replace(/\W+/g, '-')}-${i + 1}.cpuprofile`);
          const { value, busyMs } = await worker.profiled(() => measured(worker, corpus, call), saveTo);
          row.cold.push({ ...value, profiled: busyMs });
        }
      }
      log(`cold ${corpus.id} done`);
    }

    if (measuredCorpora.length) log(`warm: ${warmRuns} calls per tool and corpus after 5 to warm up, one at a time`);
    await worker.freshIsolate();
    baseline = [];
    for (let i = 0; i < 100; i++) {
      const before = worker.cpuMs();
      await (await fetch(`${worker.url}/health`)).text();
      baseline.push(worker.cpuMs() - before);
    }
    for (const corpus of measuredCorpora) {
      for (const call of calls.get(corpus.id)!) {
        const row = rows.find((r) => r.corpus === corpus.id && r.label === call.label)!;
        for (let i = 0; i < 5; i++) await measured(worker, corpus, call);
        for (let i = 0; i < warmRuns; i++) row.warm.push(await measured(worker, corpus, call));
      }
      log(`warm ${corpus.id} done`);
    }

    if (pairs.length) await reviewSection(worker, pairs, reviewRows, coldRuns, warmRuns, log);
    if (text) texts = await textSection(worker, corpora, warmRuns, log, profileDir);
    const mix = measuredCorpora.flatMap((corpus) => calls.get(corpus.id)!.map((call) => ({ corpus, call })));
    if (mix.length) {
      log(`sustained: ${concurrency} in flight for ${seconds} s, every tool and corpus in turn`);
      load = await sustained(worker, mix, concurrency, seconds * 1000);
    }
    if (soakSeconds > 0 && mix.length) {
      log(`soak: ${concurrency} in flight for ${soakSeconds} s, the isolate's live heap sampled every ${SOAK_SAMPLE_MS / 1000} s`);
      memory = await soak(worker, mix, concurrency, soakSeconds * 1000, log);
    }
  } finally {
    await worker.stop();
  }

  const report = [
    ...(rows.length ? [render({ corpora, rows, baseline, load: load!, memory, bundle, startupCpuMs, startMs: startMs!, concurrency, seconds, coldRuns, warmRuns })] : []),
    ...(pairs.length ? [renderReview(pairs, reviewRows, baseline, coldRuns, warmRuns)] : []),
    ...(texts ? [renderText(texts, percentile(baseline, 50), rgVersion, warmRuns)] : []),
  ].join('\n\n');
  console.log(`\n${report}`);
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(join(BENCH_DIR, 'results', 'worker-bench.md'), `${report}\n`);
  writeFileSync(join(BENCH_DIR, 'results', 'worker-bench.json'), `${JSON.stringify({ corpora, rows, pairs, reviewRows, texts, baseline, load: load!, memory, bundle, startupCpuMs, startMs: startMs! }, null, 2)}\n`);
  log(`written to ${join(BENCH_DIR, 'results')}/worker-bench.{md,json}`);
  return 0;
}

/**
 * The calls of one corpus, on targets picked from the index through the worker itself: the type
 * with the most implementations, the symbol with the most references among the types, a method
 * with the most super methods, a function with the most callers, the file declaring the
 * most-referenced symbol, and the first place that references it.
 */
async function chooseCalls(worker: BenchWorker, corpus: BenchCorpus, log: (line: string) => void): Promise<Call[]> {
  const best = async (kinds: string[], key: 'references' | 'implementations' | 'superMethods' | 'callers') => {
    const found = await structured(worker, corpus, 'search_symbols', { query: 'e', kinds, limit: 150 });
    let top: { symbolId: string; qualifiedName: string; count: number; path?: string } | undefined;
    for (const result of found.results as { symbolId: string; qualifiedName: string; path?: string }[]) {
      const info = await structured(worker, corpus, 'symbol_info', { symbolId: result.symbolId });
      const count = info.counts[key] as number;
      if (!top || count > top.count) top = { symbolId: result.symbolId, qualifiedName: result.qualifiedName, count, path: result.path };
    }
    if (!top) throw new Error(`${corpus.id} has no ${kinds.join('/')} to benchmark`);
    return top;
  };
  const type = await best(['class', 'interface'], 'implementations');
  const referenced = await best(['class', 'interface', 'type'], 'references');
  const method = await best(['method'], 'superMethods');
  const fn = await best(['function'], 'callers');
  const site = (await structured(worker, corpus, 'find_references', { symbolId: referenced.symbolId, limit: 1 })).references[0];
  const path = referenced.path!;
  log(`${corpus.id} targets: ${type.qualifiedName} (${type.count} implementations), ${referenced.qualifiedName} (${referenced.count} references, in ${path}), ${method.qualifiedName} (${method.count} super methods), ${fn.qualifiedName} (${fn.count} callers)`);
  const call = (tool: string, args: Record<string, unknown>, label = tool): Call => ({ tool, label, args });
  return [
    call('index_status', {}),
    call('search_symbols', { query: 'map' }),
    call('goto_definition', { symbolId: referenced.symbolId }),
    call('goto_definition', { path: site.path, line: site.line, column: site.column }, 'goto_definition (position)'),
    call('symbol_info', { symbolId: referenced.symbolId }),
    call('find_references', { symbolId: referenced.symbolId }),
    call('find_implementations', { symbolId: type.symbolId }),
    call('find_implementations', { symbolId: method.symbolId, direction: 'supers' }),
    call('type_hierarchy', { symbolId: type.symbolId }),
    call('call_hierarchy', { symbolId: fn.symbolId }),
    call('file_structure', { path }),
    call('read_file', { path }),
    call('file_problems', { path }),
  ];
}

/**
 * The review section: for each version pair, diff_symbols and change_impact from base to head
 * (both published under the pair's repository), each cold (a fresh isolate per call) and warm.
 * Runs after the warm rows, in a fresh isolate of its own.
 */
async function reviewSection(worker: BenchWorker, pairs: BenchPair[], rows: Row[], coldRuns: number, warmRuns: number, log: (line: string) => void): Promise<void> {
  const callsOf = (pair: BenchPair): Call[] => ['diff_symbols', 'change_impact'].map((tool) => ({ tool, label: tool, args: { base: pair.base, head: pair.commit } }));
  log(`review: ${coldRuns} fresh isolate(s) per tool and pair, then ${warmRuns} warm calls`);
  for (const pair of pairs) {
    for (const call of callsOf(pair)) {
      const row: Row = { label: call.label, corpus: pair.id, cold: [], warm: [] };
      rows.push(row);
      for (let i = 0; i < coldRuns; i++) {
        await worker.freshIsolate();
        worker.takeLogLines();
        const { value, busyMs } = await worker.profiled(() => measured(worker, pair, call));
        row.cold.push({ ...value, profiled: busyMs });
      }
    }
  }
  await worker.freshIsolate();
  for (const pair of pairs) {
    for (const call of callsOf(pair)) {
      const row = rows.find((r) => r.corpus === pair.id && r.label === call.label)!;
      for (let i = 0; i < 5; i++) await measured(worker, pair, call);
      for (let i = 0; i < warmRuns; i++) row.warm.push(await measured(worker, pair, call));
    }
    log(`review ${pair.id} done`);
  }
}

/** The review table: CPU cold and warm, shards and bytes, and the ratio to issue #14's targets where they apply. */
function renderReview(pairs: BenchPair[], rows: Row[], baseline: number[], coldRuns: number, warmRuns: number): string {
  const floor = baseline.length ? percentile(baseline, 50) : 0;
  const handler = (s: Sample) => Math.max(0, s.cpu - floor);
  const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(0));
  const lines = [
    `## Worker bench: change review (${new Date().toISOString()})`, '',
    `Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(', ')}. CPU as in the table above (workerd's on-CPU time minus the /health median, ${f(floor)} ms; cold: the smaller of that and V8's profile of the isolate). Cold: ${coldRuns} call(s), each the first in a fresh isolate; warm: ${warmRuns} after 5. Shards and KiB: what the call's log line says it read (cold: the first sample).`,
    `Targets (issue #14) on ${REVIEW_TARGETS.pkg}, a change of at most ${REVIEW_TARGETS.maxFiles} files: cold CPU at most ${REVIEW_TARGETS.coldCpuMs.diff_symbols} ms diff_symbols and ${REVIEW_TARGETS.coldCpuMs.change_impact} ms change_impact; warm at most ${REVIEW_TARGETS.warmCpuMs} ms. Ratio = measured / target (at most 1 meets it).`, '',
    '| pair | versions | files changed (TS/JS) | tool | cold CPU ms p50 / max | cold wall ms p50 | cold shards | cold KiB | cold R2 reads / edge hits | warm CPU ms p50 / p99 | warm wall ms p50 | ratio cold / warm | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const misses: string[] = [];
  for (const row of rows) {
    const pair = pairs.find((p) => p.id === row.corpus)!;
    const coldCpu = row.cold.map((s) => Math.min(handler(s), s.profiled ?? Infinity));
    const warmCpu = row.warm.map(handler);
    const targeted = pair.id.startsWith(`${REVIEW_TARGETS.pkg}-`) && pair.changes.total <= REVIEW_TARGETS.maxFiles;
    const coldTarget = REVIEW_TARGETS.coldCpuMs[row.label]!;
    const coldMax = Math.max(...coldCpu);
    const warmP50 = percentile(warmCpu, 50);
    let verdict = '-';
    if (targeted) {
      const checks = [coldMax <= coldTarget ? 'cold ok' : `cold ${f(coldMax)} > ${coldTarget}`, warmP50 <= REVIEW_TARGETS.warmCpuMs ? 'warm ok' : `warm ${f(warmP50)} > ${REVIEW_TARGETS.warmCpuMs}`];
      if (checks.some((c) => c.includes('>'))) misses.push(`${row.label} on ${pair.id}: ${checks.join(', ')}`);
      verdict = checks.join(', ');
    }
    const first = row.cold[0];
    lines.push(`| ${pair.id} | ${pair.baseVersion} -> ${pair.headVersion} | ${pair.changes.total} (${pair.changes.source}) | ${row.label} | ${f(percentile(coldCpu, 50))} / ${f(coldMax)} | ${f(percentile(row.cold.map((s) => s.wall), 50))} | ${first?.shardsRead ?? '?'} | ${first?.shardBytes === undefined ? '?' : (first.shardBytes / 1024).toFixed(0)} | ${row.cold.map((s) => `${s.r2Reads ?? '?'}/${s.edgeCacheHits ?? '?'}`).join(' ')} | ${f(warmP50)} / ${f(percentile(warmCpu, 99))} | ${f(percentile(row.warm.map((s) => s.wall), 50))} | ${f(coldMax / coldTarget)} / ${f(warmP50 / REVIEW_TARGETS.warmCpuMs)} | ${verdict} |`);
  }
  lines.push('', misses.length ? `Review targets missed (${misses.length}):\n${misses.map((m) => `- ${m}`).join('\n')}` : 'Every review target met.');
  return lines.join('\n');
}

interface LoadResult {
  ok: number;
  errors: number;
  firstErrors: string[];
  seconds: number;
  wall: number[];
  cpuMs: number;
}

/** A bounded load generator: `concurrency` loops, each one call at a time, for `ms`. */
async function sustained(worker: BenchWorker, mix: { corpus: BenchCorpus; call: Call }[], concurrency: number, ms: number): Promise<LoadResult> {
  const result: LoadResult = { ok: 0, errors: 0, firstErrors: [], seconds: ms / 1000, wall: [], cpuMs: 0 };
  const cpuBefore = worker.cpuMs();
  const started = performance.now();
  let next = 0;
  const loop = async () => {
    while (performance.now() - started < ms) {
      const { corpus, call } = mix[next++ % mix.length]!;
      const t = performance.now();
      try {
        await post(worker, corpus, call);
        result.ok++;
        result.wall.push(performance.now() - t);
      } catch (error) {
        result.errors++;
        if (result.firstErrors.length < 5) result.firstErrors.push(String(error).slice(0, 300));
      }
      worker.takeLogLines();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  result.seconds = (performance.now() - started) / 1000;
  result.cpuMs = worker.cpuMs() - cpuBefore;
  return result;
}

const SOAK_SAMPLE_MS = 30_000;

interface Soak {
  samples: MemorySample[];
  firstErrors: string[];
}

interface MemorySample {
  /** Seconds since the soak started. */
  at: number;
  calls: number;
  errors: number;
  /** The isolate's V8 heap after a full collection, and its reserved size. */
  liveBytes: number;
  reservedBytes: number;
  /** Resident memory of the worker's workerd, and of wrangler dev's own processes (its proxy). */
  workerRss: number;
  devProxyRss: number;
}

/**
 * The memory soak: the sustained load again for `ms`, with the isolate's live heap (after a full
 * collection, through the inspector) and the processes' resident memory sampled every 30 s. A
 * flat live heap says the shard LRU's bound holds and nothing else accumulates per request.
 */
async function soak(worker: BenchWorker, mix: { corpus: BenchCorpus; call: Call }[], concurrency: number, ms: number, log: (line: string) => void): Promise<Soak> {
  const samples: MemorySample[] = [];
  const firstErrors: string[] = [];
  let calls = 0;
  let errors = 0;
  const started = performance.now();
  const sample = async () => {
    let heap: { liveBytes: number; reservedBytes: number };
    try {
      heap = await worker.heap();
    } catch (error) {
      log(`soak: no heap sample (${(error as Error).message})`);
      return;
    }
    const { liveBytes, reservedBytes } = heap;
    const { worker: workerRss, devProxy: devProxyRss } = worker.residentBytes();
    const at = (performance.now() - started) / 1000;
    samples.push({ at, calls, errors, liveBytes, reservedBytes, workerRss, devProxyRss });
    log(`soak ${at.toFixed(0)} s: ${calls} calls, live heap ${mib(liveBytes)} MiB, worker RSS ${mib(workerRss)} MiB, dev proxy RSS ${mib(devProxyRss)} MiB`);
  };
  // The load runs until the last sample is taken: local workerd was seen to leave
  // HeapProfiler.collectGarbage unanswered once the isolate had nothing else to do.
  let sampling = true;
  let next = 0;
  const loop = async () => {
    while (sampling) {
      const { corpus, call } = mix[next++ % mix.length]!;
      try {
        await post(worker, corpus, call);
        calls++;
      } catch (error) {
        errors++;
        if (firstErrors.length < 3) firstErrors.push(String(error).slice(0, 300));
      }
      worker.takeLogLines();
    }
  };
  const sampler = async () => {
    for (let due = 0; due <= ms; due = Math.min(ms, due + SOAK_SAMPLE_MS)) {
      await new Promise((r) => setTimeout(r, Math.max(0, due - (performance.now() - started))));
      await sample();
      if (due === ms) break;
    }
    sampling = false;
  };
  await Promise.all([sampler(), ...Array.from({ length: concurrency }, loop)]);
  return { samples, firstErrors };
}

function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}

/** Script startup CPU: `wrangler check startup` profiles the module's evaluation in local workerd. */
function startupCpu(log: (line: string) => void): number | undefined {
  const outfile = join(BENCH_DIR, 'startup.cpuprofile');
  const check = spawnSync(process.execPath, [WRANGLER, 'check', 'startup', '--outfile', outfile, '--config', join(WORKER_DIR, 'wrangler.jsonc')], {
    cwd: WORKER_DIR, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  if (check.status !== 0 || !existsSync(outfile)) {
    log(`wrangler check startup failed; startup CPU not measured: ${(check.stderr || check.stdout).slice(-300)}`);
    return undefined;
  }
  const profile = JSON.parse(readFileSync(outfile, 'utf8')) as { nodes: { id: number; callFrame: { functionName: string } }[]; samples: number[]; timeDeltas: number[] };
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let busy = 0;
  profile.samples.forEach((id, i) => { if (!idle.has(id)) busy += profile.timeDeltas[i]! / 1000; });
  log(`startup: ${busy.toFixed(1)} ms of sampled CPU in the module's evaluation`);
  return busy;
}

interface Report {
  corpora: BenchCorpus[];
  rows: Row[];
  baseline: number[];
  load: LoadResult;
  memory: Soak;
  bundle: BundleInfo;
  startupCpuMs: number | undefined;
  startMs: number;
  concurrency: number;
  seconds: number;
  coldRuns: number;
  warmRuns: number;
}

function render({ corpora, rows, baseline, load, memory, bundle, startupCpuMs, startMs, concurrency, seconds, coldRuns, warmRuns }: Report): string {
  const floor = percentile(baseline, 50);
  const handler = (s: Sample) => Math.max(0, s.cpu - floor);
  const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(0));
  const lines = [
    `## Worker bench (${new Date().toISOString()})`,
    '',
    `Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(', ')} on ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length} cores.`,
    `Corpora: ${corpora.map((c) => `${c.repo} (${c.files} files, ${c.shards} shards, ${(c.shardBytes / 1048576).toFixed(1)} MiB)`).join('; ')}.`,
    `CPU: on-CPU time of the worker's workerd process across each call (kernel schedstat), minus the median of a /health request (${f(floor)} ms: HTTP and the local runtime's own routing).`,
    `Cold: ${coldRuns} call(s) per row, each the first in a fresh isolate (a new workerd process); its CPU is the smaller of that figure and the isolate's own CPU by V8's sampling profiler (which leaves out the R2 and cache simulators sharing the process but counts time the thread was descheduled): both are upper bounds. Warm: ${warmRuns} calls after 5, one at a time. Wall: as the client on loopback sees it, through wrangler's dev proxy.`,
    '',
    '| tool | corpus | cold CPU ms p50 / max | cold wall ms p50 / max | cold R2 reads / edge hits | warm CPU ms p50 / p99 | warm wall ms p50 / p99 | warm in-handler cpu ms p50 / p99 (1 ms clock) | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const misses: string[] = [];
  for (const row of rows) {
    // Both figures are upper bounds of the isolate's CPU (see the header), so their minimum is too.
    const coldCpu = row.cold.map((s) => Math.min(handler(s), s.profiled ?? Infinity));
    const warmCpu = row.warm.map(handler);
    const coldMax = Math.max(...coldCpu);
    const coldP50 = percentile(coldCpu, 50);
    const warmP99 = percentile(warmCpu, 99);
    const targeted = row.corpus === TARGETS.corpus;
    const coldTarget = targeted ? TARGETS.coldCpuMsP50[row.label] : undefined;
    const warmTarget = targeted ? TARGETS.warmCpuMsP99[row.label] : undefined;
    const checks: string[] = [];
    if (coldTarget !== undefined) checks.push(coldP50 <= coldTarget ? 'cold ok' : `cold p50 ${f(coldP50)} > ${coldTarget}`);
    if (warmTarget !== undefined) checks.push(warmP99 <= warmTarget ? 'warm ok' : `warm p99 ${f(warmP99)} > ${warmTarget}`);
    if (checks.length === 0) checks.push('-');
    if (checks.some((c) => c.includes('>'))) misses.push(`${row.label} on ${row.corpus}: ${checks.join(', ')}`);
    lines.push(`| ${row.label} | ${row.corpus} | ${f(percentile(coldCpu, 50))} / ${f(coldMax)} | ${f(percentile(row.cold.map((s) => s.wall), 50))} / ${f(Math.max(...row.cold.map((s) => s.wall)))} | ${row.cold.map((s) => `${s.r2Reads ?? '?'}/${s.edgeCacheHits ?? '?'}`).join(' ')} | ${f(percentile(warmCpu, 50))} / ${f(warmP99)} | ${f(percentile(row.warm.map((s) => s.wall), 50))} / ${f(percentile(row.warm.map((s) => s.wall), 99))} | ${f(percentile(row.warm.map((s) => s.handlerCpu ?? NaN), 50))} / ${f(percentile(row.warm.map((s) => s.handlerCpu ?? NaN), 99))} | ${checks.join(', ')} |`);
  }
  if (startupCpuMs !== undefined && startupCpuMs > TARGETS.startupCpuMs) misses.push(`module evaluation: ${f(startupCpuMs)} > ${TARGETS.startupCpuMs} ms`);
  lines.push(
    '',
    `Sustained: ${concurrency} in flight for ${f(load.seconds)} s over every row: ${load.ok} calls, ${load.errors} errors, ${f(load.ok / load.seconds)} requests/s; wall p50 ${f(percentile(load.wall, 50))} ms, p99 ${f(percentile(load.wall, 99))} ms; worker CPU ${f(load.cpuMs / Math.max(1, load.ok))} ms per call on average.${load.errors ? ` First errors: ${load.firstErrors.join(' | ')}` : ''}`,
    ...memoryLines(memory),
    `Bundle: ${(bundle.bytes / 1024).toFixed(1)} KiB, ${(bundle.gzipBytes / 1024).toFixed(1)} KiB gzip (wrangler: ${bundle.wranglerLine}); ${bundle.grammarOrIndexData ? 'CONTAINS grammar or index data' : 'no grammar (.wasm) or index data'}; target at most 1 MiB gzip: ${bundle.gzipBytes <= TARGETS.bundleGzipBytes ? 'met' : 'missed'}.`,
    `Startup: ${startupCpuMs === undefined ? 'not measured' : `${f(startupCpuMs)} ms CPU evaluating the module (wrangler check startup; target at most ${TARGETS.startupCpuMs} ms: ${startupCpuMs <= TARGETS.startupCpuMs ? 'met' : 'missed'})`}; wrangler dev answered /health ${f(startMs)} ms after it was started.`,
    '',
    misses.length ? `Targets missed (${misses.length}):\n${misses.map((m) => `- ${m}`).join('\n')}` : 'Every target met.',
    load.errors ? `Sustained run had ${load.errors} errors: target missed.` : 'Sustained run: zero errors.',
    '',
    closingNote(rows, handler),
  );
  return lines.join('\n');
}

/**
 * The soak's verdict. The live heap is flat when its last sample is within the larger of 2 MiB
 * and 10 % of its level once the LRU had filled (the sample a quarter into the soak), and never
 * above the LRU's bound plus that level's headroom; the dev proxy's growth is reported apart
 * (wrangler's local proxy is not deployed).
 */
function memoryLines({ samples: memory, firstErrors }: Soak): string[] {
  if (memory.length < 3) return ['Soak: not run (--soak 0).'];
  const settled = memory[Math.floor(memory.length / 4)]!;
  const last = memory.at(-1)!;
  const peak = Math.max(...memory.map((m) => m.liveBytes));
  const tolerance = Math.max(2 * 1048576, 0.1 * settled.liveBytes);
  const flat = last.liveBytes - settled.liveBytes <= tolerance;
  const perMinute = (key: 'liveBytes' | 'workerRss' | 'devProxyRss') => mib(((last[key] - settled[key]) / Math.max(1, last.at - settled.at)) * 60);
  return [
    `Soak: ${last.calls} calls (${last.errors} errors${firstErrors.length ? `, the first: ${firstErrors.join(' | ')}` : ''}) in ${last.at.toFixed(0)} s. Isolate live heap after a full collection: ${mib(memory[0]!.liveBytes)} MiB at the start, ${mib(settled.liveBytes)} MiB at ${settled.at.toFixed(0)} s, ${mib(last.liveBytes)} MiB at the end, peak ${mib(peak)} MiB (the shard LRU holds at most ${mib(SHARD_CACHE_BYTES)} MiB); ${perMinute('liveBytes')} MiB/min after ${settled.at.toFixed(0)} s: ${flat ? 'flat, target met' : 'GROWING, target missed'}.`,
    `Soak resident memory: worker workerd ${mib(settled.workerRss)} -> ${mib(last.workerRss)} MiB (${perMinute('workerRss')} MiB/min); wrangler dev's own processes (its local proxy, not deployed) ${mib(settled.devProxyRss)} -> ${mib(last.devProxyRss)} MiB (${perMinute('devProxyRss')} MiB/min).`,
    '',
    '| s | calls | live heap MiB | reserved heap MiB | worker RSS MiB | dev proxy RSS MiB |',
    '| --- | --- | --- | --- | --- | --- |',
    ...memory.map((m) => `| ${m.at.toFixed(0)} | ${m.calls} | ${mib(m.liveBytes)} | ${mib(m.reservedBytes)} | ${mib(m.workerRss)} | ${mib(m.devProxyRss)} |`),
    '',
  ];
}

/**
 * What the numbers say about where cold and warm CPU go: the fixed cost of a fresh isolate (a call
 * that decodes no shard), what the rest grows with (shard bytes decoded), and how far warm p99
 * sits from warm p50 (collections of a heap full of decoded shards, and the machine's load).
 */
function closingNote(rows: Row[], handler: (s: Sample) => number): string {
  const cold = rows.map((row) => ({
    row, cpu: percentile(row.cold.map((s) => Math.min(handler(s), s.profiled ?? Infinity)), 50),
    bytes: percentile(row.cold.map((s) => s.shardBytes ?? NaN), 50), shards: percentile(row.cold.map((s) => s.shardsRead ?? NaN), 50),
  }));
  const fixed = cold.filter((c) => c.row.label === 'index_status').map((c) => c.cpu);
  const decoding = cold.filter((c) => c.bytes > 0);
  // Least squares of cold CPU on shard bytes: the marginal cost of a byte fetched, verified, inflated and decoded.
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const mx = mean(decoding.map((c) => c.bytes));
  const my = mean(decoding.map((c) => c.cpu));
  const slope = decoding.reduce((a, c) => a + (c.bytes - mx) * (c.cpu - my), 0) / decoding.reduce((a, c) => a + (c.bytes - mx) ** 2, 0);
  const worst = [...cold].sort((a, b) => b.cpu - a.cpu).slice(0, 3);
  const warmRatio = percentile(rows.map((row) => percentile(row.warm.map(handler), 99) / Math.max(0.05, percentile(row.warm.map(handler), 50))), 50);
  const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
  return [
    'Closing note (computed from this run):',
    `- A fresh isolate costs ${f(Math.min(...fixed))}-${f(Math.max(...fixed))} ms before any shard is decoded (index_status reads only the manifest): the first run of Sextant's code (the request's handling, the manifest's parse and check), plus, locally, the R2 and cache simulators in the same process.`,
    `- Beyond that, cold CPU grows with the shard bytes a call decodes: about ${f(slope * 1048576)} ms per MiB fetched (least squares over the rows that read shards). The heaviest: ${worst.map((c) => `${c.row.label} on ${c.row.corpus} (${f(c.cpu)} ms, ${c.shards} shards, ${f(c.bytes / 1048576)} MiB)`).join('; ')}. A shard is inflated whole, then read through views that decode one record (a symbol, a file) when asked; a transitive walk reads graph shards only, at most 16 (format 9).`,
    `- Warm p99 is typically ${f(warmRatio)}x warm p50: collections of a heap holding decoded shards (up to 32 MB of small objects), and the load average printed above.`,
  ].join('\n');
}

function positive(text: string, flag: string): number {
  return positiveOption(text, flag, USAGE);
}

process.exitCode = await main();
