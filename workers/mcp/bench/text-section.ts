// The worker bench's text-search section (issue #29): the queries of the in-process text bench
// (indexer/bench/text-search-queries.ts, made from each corpus's own words) through the worker in
// workerd, each cold (the first call of a fresh isolate) and warm (a new query to an isolate that
// holds the corpus's shards: each sample under another fingerprint, so no kept count answers it),
// every answer paged to its end and compared with ripgrep over the checkout of the same commit.
// A cold goto_definition in the same run is the yardstick of the cold target.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { agreement, asRipgrepKeys, BROAD_KIND, freshArgs, median, queriesOf, ripgrep, SELECTIVE_KIND, type Agreement, type TextQuery } from '../../../indexer/bench/text-search-queries.ts';
import { measured, percentile, structured, type Call, type Sample } from './bench-calls.ts';
import type { BenchCorpus } from './bench-corpora.ts';
import type { BenchWorker } from './bench-worker-process.ts';

/** Issue #29's worker targets, on effect: warm CPU p50 per kind, and cold at most this many cold goto_definitions. */
const TEXT_TARGETS = { corpus: 'effect', warmCpuMsP50: { [SELECTIVE_KIND]: 3, [BROAD_KIND]: 20 } as Record<string, number>, coldOverGoto: 2 };
/** Cold goto_definition samples per corpus, the yardstick. */
const GOTO_SAMPLES = 3;

export interface TextRow extends Agreement {
  corpus: string;
  query: TextQuery;
  cold: Sample;
  warm: Sample[];
  total: number;
  rgMs: number;
}

export interface TextSection {
  rows: TextRow[];
  /** Per corpus, cold goto_definition samples. */
  goto: Record<string, Sample[]>;
}

export async function textSection(worker: BenchWorker, corpora: BenchCorpus[], warmRuns: number, log: (line: string) => void, profileDir?: string): Promise<TextSection> {
  const rows: TextRow[] = [];
  const goto: Record<string, Sample[]> = {};
  for (const corpus of corpora) {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: corpus.dir, encoding: 'utf8' }).split('\0').filter(Boolean);
    const queries = queriesOf(corpus.dir, tracked);
    const symbol = (await structured(worker, corpus, 'search_symbols', { query: 'map', limit: 1 })).results[0].symbolId as string;
    goto[corpus.id] = [];
    for (let i = 0; i < GOTO_SAMPLES; i++) {
      const saveTo = profileDir && join(profileDir, `${corpus.id}-goto_definition-${i + 1}.cpuprofile`);
      goto[corpus.id]!.push(await cold(worker, corpus, { tool: 'goto_definition', label: 'goto_definition', args: { symbolId: symbol } }, saveTo));
    }
    log(`text ${corpus.id}: ${queries.length} queries, each cold in a fresh isolate`);
    const colds = [];
    for (const [i, query] of queries.entries()) {
      const saveTo = profileDir && join(profileDir, `${corpus.id}-search_text-${i + 1}-${query.kind.replace(/\W+/g, '-')}.cpuprofile`);
      colds.push(await cold(worker, corpus, { tool: 'search_text', label: query.kind, args: query.args }, saveTo));
    }
    log(`text ${corpus.id}: ${warmRuns} warm calls per query, then every answer paged to its end against ripgrep`);
    await worker.freshIsolate();
    for (const [i, query] of queries.entries()) {
      const call = (n: number): Call => ({ tool: 'search_text', label: query.kind, args: freshArgs(query.args, n) });
      await measured(worker, corpus, call(-1));
      const warm: Sample[] = [];
      for (let n = 0; n < warmRuns; n++) warm.push(await measured(worker, corpus, call(n)));
      const { matches, total } = await everyMatch(worker, corpus, query.args);
      const rg = ripgrep(query.args, corpus.dir);
      rows.push({ corpus: corpus.id, query, cold: colds[i]!, warm, total, rgMs: rg.ms, ...agreement(asRipgrepKeys(corpus.dir, matches), rg.matches) });
    }
    log(`text ${corpus.id} done`);
  }
  return { rows, goto };
}

async function cold(worker: BenchWorker, corpus: BenchCorpus, call: Call, saveTo?: string): Promise<Sample> {
  await worker.freshIsolate();
  worker.takeLogLines();
  const { value, busyMs } = await worker.profiled(() => measured(worker, corpus, call), saveTo);
  return { ...value, profiled: busyMs };
}

/** Every page of the answer, 1000 matches at a time. */
async function everyMatch(worker: BenchWorker, corpus: BenchCorpus, args: TextQuery['args']): Promise<{ matches: { path: string; line: number; column: number }[]; total: number }> {
  const matches: { path: string; line: number; column: number }[] = [];
  let cursor: string | undefined;
  let total = 0;
  do {
    const page = await structured(worker, corpus, 'search_text', { ...args, limit: 1000, ...(cursor ? { cursor } : {}) });
    matches.push(...page.matches);
    cursor = page.nextCursor;
    total = page.total;
  } while (cursor);
  return { matches, total };
}

/** The section's table: per corpus and kind, agreement with ripgrep, cold and warm CPU against the targets. */
export function renderText({ rows, goto }: TextSection, floor: number, rgVersion: string, warmRuns: number): string {
  const handler = (s: Sample) => Math.max(0, s.cpu - floor);
  const coldCpu = (s: Sample) => Math.min(handler(s), s.profiled ?? Infinity);
  const f = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(0));
  const lines = [
    `## Worker bench: search_text (${new Date().toISOString()})`, '',
    `Every query of the in-process text bench (indexer/bench/text-search-queries.ts) through the worker: cold, the first call of a fresh isolate (one per query); warm, ${warmRuns} calls per query after one unmeasured, each under another fingerprint (an exclusion that excludes nothing) so that no count kept from an earlier call answers it. CPU as in the first table (workerd's on-CPU time minus the /health median, ${f(floor)} ms; cold: the smaller of that and V8's profile). A call is the first page (100 matches) with the exact total. Agreement: every page of the worker's answer against \`${rgVersion}\` over the checkout (file, line, byte column).`,
    `Targets (issue #29) on ${TEXT_TARGETS.corpus}: warm CPU p50 at most ${TEXT_TARGETS.warmCpuMsP50[SELECTIVE_KIND]} ms for selective literals and ${TEXT_TARGETS.warmCpuMsP50[BROAD_KIND]} ms for broad ones; cold at most ${TEXT_TARGETS.coldOverGoto}x a cold goto_definition of the same run.`, '',
    '| corpus | kind | queries | agree with rg | matches (median) | cold CPU ms p50 / max | cold goto_definition ms p50 | warm CPU ms p50 / p99 | warm wall ms p50 | rg ms (median) | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const misses: string[] = [];
  for (const corpus of [...new Set(rows.map((r) => r.corpus))]) {
    const gotoCold = percentile(goto[corpus]!.map(coldCpu), 50);
    const mine = rows.filter((r) => r.corpus === corpus);
    for (const kind of [...new Set(mine.map((r) => r.query.kind)), 'all']) {
      const rs = kind === 'all' ? mine : mine.filter((r) => r.query.kind === kind);
      const cold = rs.map((r) => coldCpu(r.cold));
      const warm = rs.flatMap((r) => r.warm.map(handler));
      const coldP50 = percentile(cold, 50);
      const warmP50 = percentile(warm, 50);
      const checks: string[] = [];
      if (corpus === TEXT_TARGETS.corpus && kind !== 'all') {
        const warmTarget = TEXT_TARGETS.warmCpuMsP50[kind];
        if (warmTarget !== undefined) checks.push(warmP50 <= warmTarget ? 'warm ok' : `warm p50 ${f(warmP50)} > ${warmTarget}`);
        checks.push(coldP50 <= TEXT_TARGETS.coldOverGoto * gotoCold ? 'cold ok' : `cold p50 ${f(coldP50)} > ${TEXT_TARGETS.coldOverGoto}x ${f(gotoCold)}`);
      }
      const disagree = rs.filter((r) => !r.agree).length;
      if (disagree) checks.push(`${disagree} DISAGREE`);
      if (checks.some((c) => c.includes('>') || c.includes('DISAGREE'))) misses.push(`${kind} on ${corpus}: ${checks.join(', ')}`);
      lines.push(`| ${corpus} | ${kind === 'all' ? '**all**' : kind} | ${rs.length} | ${rs.length - disagree}/${rs.length} | ${median(rs.map((r) => r.total))} | ${f(coldP50)} / ${f(Math.max(...cold))} | ${f(gotoCold)} | ${f(warmP50)} / ${f(percentile(warm, 99))} | ${f(percentile(rs.flatMap((r) => r.warm.map((s) => s.wall)), 50))} | ${f(median(rs.map((r) => r.rgMs)))} | ${checks.join(', ') || '-'} |`);
    }
  }
  lines.push('', misses.length ? `Targets missed (${misses.length}):\n${misses.map((m) => `- ${m}`).join('\n')}` : 'Every search_text target met, every answer equal to ripgrep\'s.');
  for (const r of rows.filter((x) => !x.agree)) {
    lines.push(`- disagrees on ${r.corpus}: ${JSON.stringify(r.query.args)}: only search_text ${r.onlyOurs.slice(0, 3).join(', ')} (${r.onlyOurs.length}); only rg ${r.onlyRg.slice(0, 3).join(', ')} (${r.onlyRg.length})`);
  }
  return lines.join('\n');
}
