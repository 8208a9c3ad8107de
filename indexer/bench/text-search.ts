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
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { READ_TOOLS } from '@sextant/mcp';
import { CORPORA, prepareCorpus } from './corpora.ts';
import { build } from './review-builds.ts';
import { BenchIndexSet } from './review-index-set.ts';

const BENCH_DIR = join(import.meta.dirname, '..', '.bench');
const TOOL = READ_TOOLS.find((t) => t.name === 'search_text')!;
const CONTEXT = { signPlan: async <P>(p: P) => p };

interface Query {
  kind: string;
  args: { query: string; mode?: 'literal' | 'regex'; caseSensitive: boolean; wholeWord?: boolean; paths?: string[] };
}

interface QueryResult {
  query: Query;
  total: number;
  agree: boolean;
  onlyOurs: string[];
  onlyRg: string[];
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
  const rg = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (rg.status !== 0) {
    console.error('error: ripgrep (rg) is not on PATH. To fix this, install it (Debian: apt-get install ripgrep) and run the bench again.');
    return 2;
  }
  console.log(`search_text against ${rg.stdout.split('\n')[0]}; times are medians of ${runs} runs`);
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
  }
  return 0;
}

/**
 * Every match of search_text (all pages), as `path:line:byteColumn`, and the wall time of one call:
 * the first page (the default 100 matches, with the exact total), what a call costs.
 */
async function ours(provider: BenchIndexSet, args: Query['args'], dir: string): Promise<{ matches: string[]; ms: number; total: number }> {
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
  // ripgrep's columns count bytes; search_text's UTF-16 code units.
  const lines = new Map<string, string[]>();
  const byteColumn = (m: { path: string; line: number; column: number }) => {
    let file = lines.get(m.path);
    if (!file) lines.set(m.path, (file = readFileSync(join(dir, m.path), 'utf8').split('\n')));
    return Buffer.byteLength((file[m.line - 1] ?? '').slice(0, m.column - 1)) + 1;
  };
  return { matches: matches.map((m) => `${m.path}:${m.line}:${byteColumn(m)}`), ms, total };
}

function ripgrep(args: Query['args'], dir: string): { matches: string[]; ms: number } {
  const flags = ['--vimgrep', '--no-config', '--color', 'never', '--hidden', '--no-ignore', '-g', '!.git', args.caseSensitive ? '-s' : '-i'];
  if (args.mode !== 'regex') flags.push('-F');
  if (args.wholeWord) flags.push('-w');
  for (const glob of args.paths ?? []) flags.push('-g', glob);
  const started = performance.now();
  // A path, or ripgrep reads its standard input (a pipe here).
  const run = spawnSync('rg', [...flags, '-e', args.query, '.'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (run.status === 2) throw new Error(`rg failed on ${args.query}: ${run.stderr}`);
  const matches = run.stdout.split('\n').filter(Boolean).map((line) => {
    const [path, l, c] = line.split(':');
    return `${path!.replace(/^\.\//, '')}:${l}:${c}`;
  });
  return { matches, ms };
}

async function measure(query: Query, provider: BenchIndexSet, dir: string, runs: number): Promise<QueryResult> {
  const cold: number[] = [];
  const warm: number[] = [];
  const repeat: number[] = [];
  // The same work under another query fingerprint: an exclusion that excludes nothing.
  const fresh = (i: number) => ({ ...query.args, paths: [...(query.args.paths ?? ['**']), `!.no-such-dir-${i}/**`] });
  const rgTimes: number[] = [];
  let answer: Awaited<ReturnType<typeof ours>> | undefined;
  let rg: ReturnType<typeof ripgrep> | undefined;
  for (let i = 0; i < runs; i++) {
    provider.reset({ cold: true });
    answer = await ours(provider, query.args, dir);
    cold.push(answer.ms);
    repeat.push((await ours(provider, query.args, dir)).ms);
    warm.push((await ours(provider, fresh(i), dir)).ms);
    rg = ripgrep(query.args, dir);
    rgTimes.push(rg.ms);
  }
  const a = new Set(answer!.matches);
  const b = new Set(rg!.matches);
  const onlyOurs = [...a].filter((m) => !b.has(m));
  const onlyRg = [...b].filter((m) => !a.has(m));
  return { query, total: answer!.total, agree: onlyOurs.length === 0 && onlyRg.length === 0 && a.size === answer!.matches.length, onlyOurs, onlyRg, coldMs: median(cold), warmMs: median(warm), repeatMs: median(repeat), rgMs: median(rgTimes) };
}

/** Queries made from the corpus's own words, deterministic for a commit. */
function queriesOf(dir: string, tracked: string[]): Query[] {
  const files = new Map<string, Set<string>>();
  for (const path of tracked) {
    const text = readFileSync(join(dir, path), 'utf8');
    for (const word of new Set(text.match(/\b[A-Za-z_][A-Za-z0-9_]{5,}\b/g) ?? [])) {
      let set = files.get(word);
      if (!set) files.set(word, (set = new Set()));
      set.add(path);
    }
  }
  const words = [...files].map(([word, set]) => ({ word, files: set.size })).sort((x, y) => x.files - y.files || (x.word < y.word ? -1 : 1));
  const pick = (min: number, max: number, n: number) => {
    const within = words.filter((w) => w.files >= min && w.files <= max);
    return Array.from({ length: Math.min(n, within.length) }, (_, i) => within[Math.floor((i * within.length) / n)]!.word);
  };
  /** Words found in 2 to 20 files, some of them under `prefix`. */
  const pickIn = (prefix: string, n: number) => {
    const within = words.filter((w) => w.files >= 2 && w.files <= 20 && [...files.get(w.word)!].some((p) => p.startsWith(prefix)));
    return Array.from({ length: Math.min(n, within.length) }, (_, i) => within[Math.floor((i * within.length) / n)]!.word);
  };
  const smart = (q: string) => q !== q.toLowerCase();
  const literal = (kind: string, query: string, extra: Partial<Query['args']> = {}): Query => ({ kind, args: { query, caseSensitive: smart(query), ...extra } });
  const top = tracked.find((p) => p.startsWith('src/') && p.split('/').length > 2)?.split('/').slice(0, 2).join('/') ?? 'src';
  return [
    ...pick(1, 1, 10).map((w) => literal('literal, selective (1 file)', w)),
    ...pick(10, 60, 10).map((w) => literal('literal, medium (10-60 files)', w)),
    ...words.slice(-5).map((w) => literal('literal, broad (most files)', w.word)),
    ...['return', 'this.', 'export'].map((q) => literal('literal, broad (most files)', q)),
    ...pick(10, 60, 5).map((w) => literal('case-insensitive', w.toUpperCase(), { caseSensitive: false })),
    ...pick(3, 30, 5).map((w) => literal('whole word', w, { wholeWord: true })),
    ...['\\bcreate[A-Z]\\w+', 'TODO|FIXME|XXX', '^export (function|const|class) \\w+', '^\\s*//', '\\d{3,}', '[A-Z][a-z]+Error\\b', '(?i)deprecated', 'new [A-Z]\\w*\\(', '=>\\s*\\{$', '\\bif \\(!?\\w+\\)']
      .map((q) => ({ kind: 'regex', args: { query: q, mode: 'regex' as const, caseSensitive: true } })),
    ...pickIn(`${top}/`, 5).map((w) => literal('path-filtered', w, { paths: [`${top}/**`] })),
    literal('non-code file', '"compilerOptions"'),
    literal('non-code file', '"version"', { paths: ['*.json'] }),
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
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
