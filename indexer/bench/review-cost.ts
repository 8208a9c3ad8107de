// `npm run bench:review` (second half): what change review costs on the runner. Pairs of published
// versions of real packages (VERSION_PAIRS in corpora.ts: a change of at most 20 files and a larger
// one, for effect and zod), each prepared as two commits of one repository and indexed with
// `indexer build --commit`; then `diff_symbols` and `change_impact` over the two indexes in this
// process (IndexReader over DirShardSource, as the runner answers): cold (a new shard cache per
// call) and warm (the same cache, after warm-up calls), with the time, the shards the readers asked
// for and fetched, and the bytes read from the index directories. The worker's figures (CPU in
// workerd, cold and warm) are workers/mcp/bench/worker-bench.ts --review. See bench/README.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cliLine, SextantError } from '@sextant/format';
import { READ_TOOLS, type ToolDefinition } from '@sextant/mcp';
import { prepareVersionPair, REVIEW_TARGETS, sourceFingerprint, VERSION_PAIRS, type FileChanges } from './corpora.ts';
import { ensureIndex } from './review-builds.ts';
import { BenchIndexSet, type CallCost } from './review-index-set.ts';
import { positiveOption } from './bench-options.ts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const BENCH_DIR = join(PACKAGE_DIR, '.bench');

const USAGE = `usage: tsx bench/review-cost.ts [--pairs ${VERSION_PAIRS.map((p) => p.id).join(',')}] [--cold 3] [--warm 20]
  --pairs LIST  version pairs (bench/corpora.ts VERSION_PAIRS)
  --cold N      calls per tool and pair, each with a new shard cache (default 3)
  --warm N      calls per tool and pair on one cache, after 3 unmeasured ones (default 20)`;

interface Sample extends CallCost {
  ms: number;
  cpuMs: number;
  /** Entries in the answer: changes, or impacts and their sites. */
  results: number;
  sites?: number;
}

interface PairResult {
  pair: string;
  pkg: string;
  base: { version: string; commit: string; files: number };
  head: { version: string; commit: string; files: number };
  changes: FileChanges;
  buildSeconds: { base?: number; head?: number };
  tools: { tool: string; cold: Sample[]; warm: Sample[] }[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string', default: VERSION_PAIRS.map((p) => p.id).join(',') },
      cold: { type: 'string', default: '3' },
      warm: { type: 'string', default: '20' },
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
  const tools = ['diff_symbols', 'change_impact'].map((name) => READ_TOOLS.find((t) => t.name === name));
  if (tools.some((t) => !t)) {
    console.error(cliLine(new SextantError('INVALID_ARGUMENT', 'the MCP tools diff_symbols and change_impact are not in READ_TOOLS yet.', 'Run the bench on a tree that has them (packages/mcp/src/registry.ts).')));
    return 2;
  }
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}] ${line}`);
  log(`review cost: indexer source ${await sourceFingerprint()}, ${coldRuns} cold and ${warmRuns} warm calls per tool and pair`);

  const results: PairResult[] = [];
  for (const id of values.pairs.split(',')) {
    const spec = VERSION_PAIRS.find((p) => p.id === id);
    if (!spec) {
      console.error(cliLine(new SextantError('INVALID_ARGUMENT', `unknown pair "${id}".`, `Use one of ${VERSION_PAIRS.map((p) => p.id).join(', ')}.`)));
      return 2;
    }
    const pair = await prepareVersionPair(spec, { cacheDir: join(BENCH_DIR, 'cache'), maxFileBytes: 1_000_000, log });
    log(`${id}: ${pair.base.spec.pkg}@${spec.base} -> @${spec.head}: ${pair.changes.total} files changed (${pair.changes.source} TS/JS; ${pair.changes.added} added, ${pair.changes.removed} removed, ${pair.changes.modified} modified, ${pair.changes.renamed} renamed)`);
    const work = join(BENCH_DIR, 'review-cost', id);
    await mkdir(work, { recursive: true });
    const baseIndex = join(work, 'base');
    const headIndex = join(work, 'head');
    const buildSeconds = {
      base: await ensureIndex(pair.dir, pair.base.commit, baseIndex, id, log),
      head: await ensureIndex(pair.dir, pair.head.commit, headIndex, id, log),
    };
    const provider = await BenchIndexSet.of([baseIndex, headIndex]);
    const args = { base: pair.base.commit, head: pair.head.commit };
    const result: PairResult = {
      pair: id, pkg: pair.base.spec.pkg, changes: pair.changes, buildSeconds, tools: [],
      base: { version: spec.base, commit: pair.base.commit, files: pair.base.files },
      head: { version: spec.head, commit: pair.head.commit, files: pair.head.files },
    };
    for (const tool of tools as ToolDefinition[]) {
      const cold: Sample[] = [];
      const warm: Sample[] = [];
      for (let i = 0; i < coldRuns; i++) cold.push(await measure(tool, provider, args, true));
      for (let i = 0; i < 3; i++) await measure(tool, provider, args, false);
      for (let i = 0; i < warmRuns; i++) warm.push(await measure(tool, provider, args, false));
      result.tools.push({ tool: tool.name, cold, warm });
      log(`${id} ${tool.name}: cold ${median(cold.map((s) => s.ms)).toFixed(1)} ms, ${cold[0]!.shardsFetched} shards, ${kib(cold[0]!.bytes)} KiB; warm ${median(warm.map((s) => s.ms)).toFixed(2)} ms`);
    }
    results.push(result);
  }
  const report = render(results, coldRuns, warmRuns);
  console.log(`\n${report}`);
  await mkdir(BENCH_DIR, { recursive: true });
  await writeFile(join(BENCH_DIR, 'review-cost.json'), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(join(BENCH_DIR, 'review-cost.md'), `${report}\n`);
  log(`written to ${join(BENCH_DIR, 'review-cost')}.{json,md}`);
  return 0;
}

async function measure(tool: ToolDefinition, provider: BenchIndexSet, args: Record<string, unknown>, cold: boolean): Promise<Sample> {
  provider.reset({ cold });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const answer = await tool.run(provider, args as never, { signPlan: async (p) => p }) as { changes?: unknown[]; impacts?: { sites: unknown[] }[] };
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    ms, cpuMs: (used.user + used.system) / 1000, ...provider.cost(),
    results: (answer.changes ?? answer.impacts ?? []).length,
    ...(answer.impacts ? { sites: answer.impacts.reduce((n, i) => n + i.sites.length, 0) } : {}),
  };
}

function render(results: PairResult[], coldRuns: number, warmRuns: number): string {
  const lines = [
    `## Review cost on the runner (${new Date().toISOString()})`, '',
    `In process, IndexReader over DirShardSource. Cold: ${coldRuns} calls, each with a new shard cache; warm: ${warmRuns} calls on one cache after 3. ms: wall time of the call; CPU: this process's user+system time across it. Shards: asked for / fetched from the directory; bytes: read from the directories (manifests and shards).`, '',
    '| pair | versions | files changed (TS/JS) | files at head | tool | results (sites) | cold ms p50 | cold CPU ms p50 | cold shards read / fetched | cold KiB read | warm ms p50 / p99 | warm shards fetched | warm KiB read | CPU / target, cold warm |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    for (const t of r.tools) {
      const c = t.cold[0]!;
      lines.push(`| ${r.pair} | ${r.base.version} -> ${r.head.version} | ${r.changes.total} (${r.changes.source}) | ${r.head.files} | ${t.tool} | ${c.results}${c.sites !== undefined ? ` (${c.sites})` : ''} | ${f(median(t.cold.map((s) => s.ms)))} | ${f(median(t.cold.map((s) => s.cpuMs)))} | ${c.shardsRead} / ${c.shardsFetched} | ${kib(c.bytes)} | ${f(median(t.warm.map((s) => s.ms)))} / ${f(percentile(t.warm.map((s) => s.ms), 99))} | ${median(t.warm.map((s) => s.shardsFetched))} | ${kib(median(t.warm.map((s) => s.bytes)))} | ${targeted(r) ? `${f(median(t.cold.map((s) => s.cpuMs)) / REVIEW_TARGETS.coldCpuMs[t.tool]!)}x ${f(median(t.warm.map((s) => s.cpuMs)) / REVIEW_TARGETS.warmCpuMs)}x` : '-'} |`);
    }
  }
  lines.push('', `CPU / target: this process's CPU over issue #14's worker targets (cold ${REVIEW_TARGETS.coldCpuMs.diff_symbols} ms diff_symbols, ${REVIEW_TARGETS.coldCpuMs.change_impact} ms change_impact, warm ${REVIEW_TARGETS.warmCpuMs} ms), for ${REVIEW_TARGETS.pkg} pairs of at most ${REVIEW_TARGETS.maxFiles} files only; indicative, the targets are the worker's.`);
  const built = results.flatMap((r) => (['base', 'head'] as const).filter((side) => r.buildSeconds[side] !== undefined).map((side) => `${r.pair} ${side} ${f(r.buildSeconds[side]!)} s`));
  lines.push('', `Index builds this run: ${built.length ? built.join(', ') : 'none (all reused)'}. The worker's cold and warm CPU against the targets of issue #14: workers/mcp bench:worker --review.`);
  return lines.join('\n');
}

function targeted(r: PairResult): boolean {
  return r.pkg === REVIEW_TARGETS.pkg && r.changes.total <= REVIEW_TARGETS.maxFiles;
}

function f(n: number): string {
  return Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(0)) : '-';
}

function kib(bytes: number): string {
  return (bytes / 1024).toFixed(0);
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function positive(text: string, flag: string): number {
  return positiveOption(text, flag, USAGE);
}

process.exitCode = await main();
