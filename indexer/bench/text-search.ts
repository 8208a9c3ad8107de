// The text-search bench (issue #29): search_text against ripgrep over the same commit. For each
// corpus (rxjs and effect, from the npm registry), the commit is indexed, and 50+ queries made from
// its own text (literals of several selectivities, case-insensitive, whole-word, RE2 patterns with
// classes, alternation and anchors, path-filtered, one in a non-code file) are answered by
// search_text in this process (IndexReader over the index directory, as the runner answers: cold
// with a new shard cache, warm on a kept one, every page followed) and by `rg --vimgrep` over the
// checkout with the flags aligned (-F, -s/-i, -w, -g). The match sets must be equal: file, line and
// byte column (every page followed). Prints per class the agreement and the times side by side (a
// call: the first page, 100 matches and the exact total; ripgrep: all matches), and the gram
// shards' bytes against the source's.
//
//   npx tsx bench/text-search.ts [--corpus rxjs,effect] [--runs 5]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { decodeInflatedShard, storedPayload } from '@sextant/format';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { READ_TOOLS } from '@sextant/mcp';
import { CORPORA, prepareCorpus } from './corpora.ts';
import { build } from './review-builds.ts';
import { BenchIndexSet } from './review-index-set.ts';
import { agreement, asRipgrepKeys, freshArgs, median, queriesOf, ripgrep, ripgrepVersion, type Agreement, type TextQuery } from './text-search-queries.ts';

const BENCH_DIR = join(import.meta.dirname, '..', '.bench');
const TOOL = READ_TOOLS.find((t) => t.name === 'search_text')!;
const CONTEXT = { signPlan: async <P>(p: P) => p };

interface QueryResult extends Agreement {
  query: TextQuery;
  total: number;
  coldMs: number;
  /** Shards cached, the query new to the process. */
  warmMs: number;
  /** The same query again (its counts kept, as paging through an answer has them). */
  repeatMs: number;
  rgMs: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'rxjs,effect' }, runs: { type: 'string', default: '5' } } });
  const runs = Number(values.runs);
  let rg: string;
  try {
    rg = ripgrepVersion();
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 2;
  }
  console.log(`search_text against ${rg}; times are medians of ${runs} runs`);
  for (const id of values.corpus.split(',')) {
    const spec = CORPORA.find((c) => c.id === id)!;
    const corpus = await prepareCorpus(spec, { cacheDir: join(BENCH_DIR, 'cache'), maxFileBytes: 1_000_000, log: console.log });
    const out = join(BENCH_DIR, 'text-search', id);
    await mkdir(out, { recursive: true });
    const seconds = build(corpus.dir, corpus.commit, out, id);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as { shards: Record<string, { bytes: number }> };
    const gramBytes = Object.entries(manifest.shards).filter(([name]) => name.startsWith('grams/')).reduce((n, [, s]) => n + s.bytes, 0);
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: corpus.dir, encoding: 'utf8' }).split('\0').filter(Boolean);
    const sourceBytes = tracked.reduce((n, path) => n + readFileSync(join(corpus.dir, path)).byteLength, 0);
    const provider = await BenchIndexSet.of([out]);
    const results: QueryResult[] = [];
    for (const query of queriesOf(corpus.dir, tracked)) results.push(await measure(query, provider, corpus.dir, runs));
    report(id, corpus.commit, seconds, gramBytes, sourceBytes, tracked.length, results);
    console.log(textFloor(out, runs));
  }
  return 0;
}

/**
 * Every match of search_text (all pages), as ripgrep prints them, and the wall time of one call:
 * the first page (the default 100 matches, with the exact total), what a call costs.
 */
async function ours(provider: BenchIndexSet, args: TextQuery['args'], dir: string): Promise<{ matches: string[]; ms: number; total: number }> {
  const started = performance.now();
  await TOOL.run(provider, args as never, CONTEXT as never);
  const ms = performance.now() - started;
  const matches: { path: string; line: number; column: number }[] = [];
  let cursor: string | undefined;
  let total = 0;
  do {
    const page = await TOOL.run(provider, { ...args, limit: 1000, ...(cursor ? { cursor } : {}) } as never, CONTEXT as never) as { matches: { path: string; line: number; column: number }[]; nextCursor?: string; total: number };
    matches.push(...page.matches);
    cursor = page.nextCursor;
    total = page.total;
  } while (cursor);
  return { matches: asRipgrepKeys(dir, matches), ms, total };
}

async function measure(query: TextQuery, provider: BenchIndexSet, dir: string, runs: number): Promise<QueryResult> {
  const cold: number[] = [];
  const warm: number[] = [];
  const repeat: number[] = [];
  const rgTimes: number[] = [];
  let answer: Awaited<ReturnType<typeof ours>> | undefined;
  let rg: ReturnType<typeof ripgrep> | undefined;
  for (let i = 0; i < runs; i++) {
    provider.reset({ cold: true });
    answer = await ours(provider, query.args, dir);
    cold.push(answer.ms);
    repeat.push((await ours(provider, query.args, dir)).ms);
    warm.push((await ours(provider, freshArgs(query.args, i), dir)).ms);
    rg = ripgrep(query.args, dir);
    rgTimes.push(rg.ms);
  }
  return { query, total: answer!.total, ...agreement(answer!.matches, rg!.matches), coldMs: median(cold), warmMs: median(warm), repeatMs: median(repeat), rgMs: median(rgTimes) };
}

/**
 * What reading every text shard costs before any search, in native code (the SHA-256 check, copying
 * the stored blocks out, MessagePack and TextDecoder): the floor of a cold query that must verify
 * candidates in all of them, as a broad literal must for an exact total. Medians of `runs`.
 */
function textFloor(dir: string, runs: number): string {
  const shards = readdirSync(join(dir, 'texts')).map((name) => readFileSync(join(dir, 'texts', name)));
  const check: number[] = [];
  const unpack: number[] = [];
  const decode: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    let started = performance.now();
    for (const shard of shards) createHash('sha256').update(shard).digest('hex');
    check.push(performance.now() - started);
    started = performance.now();
    const raw = shards.map((shard) => storedPayload(shard) ?? inflateRawSync(shard));
    unpack.push(performance.now() - started);
    started = performance.now();
    for (const [i, r] of raw.entries()) {
      for (const text of decodeInflatedShard<{ texts: Uint8Array[] }>(`texts/${i}`, r).texts) new TextDecoder('utf-8', { fatal: true }).decode(text);
    }
    decode.push(performance.now() - started);
    bytes = raw.reduce((n, r) => n + r.byteLength, 0);
  }
  return `\nCold floor: every text shard (${shards.length}, ${(bytes / 1e6).toFixed(1)} MB) takes ${median(check).toFixed(1)} ms to check (SHA-256), ${median(unpack).toFixed(1)} ms to copy out of its stored blocks and ${median(decode).toFixed(1)} ms to decode (MessagePack, then UTF-8 natively), before any search.`;
}

function report(id: string, commit: string, buildSeconds: number, gramBytes: number, sourceBytes: number, files: number, results: QueryResult[]): void {
  const f = (n: number) => n.toFixed(1);
  console.log(`\n## ${id}@${commit.slice(0, 12)}: ${files} tracked files, ${(sourceBytes / 1e6).toFixed(2)} MB; indexed in ${f(buildSeconds)} s; gram shards ${(gramBytes / 1e6).toFixed(2)} MB = ${(gramBytes / sourceBytes).toFixed(2)}x the source (target <= 0.4x)\n`);
  console.log('| queries | kind | agree with rg | matches (median) | search_text cold ms | warm ms | repeated ms | rg ms | warm / rg |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const kinds = [...new Set(results.map((r) => r.query.kind))];
  for (const kind of [...kinds, 'all']) {
    const rs = kind === 'all' ? results : results.filter((r) => r.query.kind === kind);
    const warm = median(rs.map((r) => r.warmMs));
    const rg = median(rs.map((r) => r.rgMs));
    console.log(`| ${rs.length} | ${kind === 'all' ? '**all**' : kind} | ${rs.filter((r) => r.agree).length}/${rs.length} | ${median(rs.map((r) => r.total))} | ${f(median(rs.map((r) => r.coldMs)))} | ${f(warm)} | ${f(median(rs.map((r) => r.repeatMs)))} | ${f(rg)} | ${(warm / rg).toFixed(2)} |`);
  }
  for (const r of results.filter((x) => !x.agree)) {
    console.log(`- disagrees: ${JSON.stringify(r.query.args)}: only search_text ${r.onlyOurs.slice(0, 3).join(', ')} (${r.onlyOurs.length}); only rg ${r.onlyRg.slice(0, 3).join(', ')} (${r.onlyRg.length})`);
  }
}

process.exitCode = await main();
