// `npm run bench:review` (first half): the precision of change review, measured. On a corpus commit
// (rxjs, zod), seeded API-breaking mutations (mutation-generator.ts), one at a time: the mutant is
// committed on top of the base with real git, indexed with `indexer build --commit`, and
// `change_impact`'s broken sites are compared with the TypeScript compiler's new diagnostics in the
// mutant (compiler-oracle.ts); `diff_symbols` must list the mutated symbol with the expected change
// and aspects. Prints recall, precision and the diff check per corpus and mutation kind, then the
// misses (the work list); writes everything to .bench/review-mutations.json. See bench/README.md.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { READ_TOOLS, type ToolDefinition } from '@sextant/mcp';
import { cliLine, SextantError, shortCommit, type BuildMode, type Manifest } from '@sextant/format';
import { CORPORA, prepareCorpus, sourceFingerprint } from './corpora.ts';
import { buildModeText, commitMutant, ensureIndex, startBuild } from './review-builds.ts';
import { CompilerOracle, lineOf, newlines, type Oracle, type OracleDiagnostic } from './compiler-oracle.ts';
import { nativeCompiler, NativeOracle } from './native-oracle.ts';
import { applyEdit, MUTATION_KINDS, MutationGenerator, type Mutation, type MutationKind } from './mutation-generator.ts';
import { seededRandom } from './references-accuracy.ts';
import { BenchIndexSet } from './review-index-set.ts';
import { benchJvm, type JvmBenchResult } from './review-jvm.ts';
import { ratio, scoreDiff, scoreSites, type DiffScore, type Impact, type ImpactSite, type SiteScore, type SymbolChange } from './review-scoring.ts';
import { positiveOption } from './bench-options.ts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const BENCH_DIR = join(PACKAGE_DIR, '.bench');

const USAGE = `usage: tsx bench/review-mutations.ts [--corpus rxjs,zod,jvm-shop] [--mutations 100] [--seed 1] [--kinds all]
       [--max-trials N] [--max-minutes M] [--builds 2] [--misses 40] [--oracle native|typescript] [--oracle-only]
  --corpus LIST   TypeScript corpora of bench/corpora.ts, and jvm-shop (test/fixtures/jvm-shop, mutations by construction)
  --mutations N   breaking mutations per corpus (default 100), spread over the kinds in turn
  --max-trials N  candidates tried per corpus before giving up (default 4 x --mutations)
  --max-minutes M stop taking new mutations in a corpus after M minutes (default: no limit; zod costs about
                  a minute and a half per mutant: the oracle's re-check and a full index build)
  --builds N      mutant builds run at once, beside the compiler's checks (default 2)
  --kinds LIST    mutation kinds (default all: ${MUTATION_KINDS.join(',')})
  --oracle WHICH  native (default when @typescript/native-preview is installed): tsgo screens every mutant and
                  TypeScript 6 judges again each one the screen finds an answer short on; typescript: TypeScript 6 alone
  --oracle-only   generate and check the mutations with the compiler, without indexing or calling the tools`;

/** Tests are not mutated (their uses of the code still count). */
const isTestPath = (path: string) => /(^|\/)(__tests__|tests?)\/|\.(test|spec)\.[cm]?[jt]sx?$/.test(path);

interface MutationResult {
  mutation: Omit<Mutation, 'edit'> & { edit: Mutation['edit'] & { startLine: number; endLine: number; lineDelta: number } };
  head?: string;
  /** New diagnostics of the mutant: outside the changed declaration (the oracle's sites) and inside it. */
  oracleSites: OracleDiagnostic[];
  inChange: OracleDiagnostic[];
  /** The compiler the scores are against: the screen's, or TypeScript 6 when the screen found the answer short (native-oracle.ts). */
  judge: string;
  /** The screen's scores, when TypeScript 6 judged again. */
  screened?: SiteScore;
  timings: { oracleSeconds: number; buildSeconds?: number; diffSeconds?: number; impactSeconds?: number; judgeSeconds?: number };
  /** How the mutant's index was built: from the base's (files walked and reused) or in full, and why. */
  build?: BuildMode;
  sites?: SiteScore;
  diff?: DiffScore;
  error?: string;
}

interface CorpusResult {
  corpus: string;
  commit: string;
  files: number;
  lines: number;
  oracle: { compiler: string; baseDiagnostics: number; baseSeconds: number };
  baseBuildSeconds?: number;
  trials: number;
  /** Candidates the compiler found no new diagnostic for outside their own declaration (not counted). */
  notBreaking: number;
  candidates: Record<string, number>;
  mutations: MutationResult[];
  /** Why fewer than --mutations were taken, when a limit stopped the corpus early. */
  stoppedBy?: string;
  seconds: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: 'rxjs,zod,jvm-shop' },
      mutations: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      kinds: { type: 'string', default: 'all' },
      'max-trials': { type: 'string' },
      'max-minutes': { type: 'string' },
      builds: { type: 'string', default: '2' },
      misses: { type: 'string', default: '40' },
      'oracle-only': { type: 'boolean', default: false },
      oracle: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const count = positive(values.mutations, '--mutations');
  const seed = Number(values.seed);
  const maxTrials = values['max-trials'] ? positive(values['max-trials'], '--max-trials') : 4 * count;
  const maxMinutes = values['max-minutes'] ? positive(values['max-minutes'], '--max-minutes') : Infinity;
  const builds = positive(values.builds, '--builds');
  const kinds = (values.kinds === 'all' ? [...MUTATION_KINDS] : values.kinds.split(',')) as MutationKind[];
  const unknownKind = kinds.find((k) => !MUTATION_KINDS.includes(k));
  if (unknownKind) return usageError(`unknown mutation kind "${unknownKind}"`);
  const oracleOnly = values['oracle-only'];
  const native = nativeCompiler();
  if (values.oracle !== undefined && values.oracle !== 'native' && values.oracle !== 'typescript') return usageError(`--oracle is native or typescript, not "${values.oracle}"`);
  if (values.oracle === 'native' && !native) return usageError('--oracle native: @typescript/native-preview (tsgo) is not installed; run npm install, or use --oracle typescript');
  const screen = values.oracle === 'typescript' ? undefined : native;
  const tools = oracleOnly ? undefined : reviewTools();
  if (!oracleOnly && !tools) {
    return usageError('the MCP tools diff_symbols and change_impact are not in READ_TOOLS yet; run with --oracle-only to measure the generator and the oracle');
  }
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}] ${line}`);
  const started = performance.now();
  const source = await sourceFingerprint();
  log(`review mutations: ${count} per corpus, seed ${seed}, indexer source ${source}${oracleOnly ? ', oracle only' : ''}`);

  const results: CorpusResult[] = [];
  let jvm: JvmBenchResult | undefined;
  for (const id of values.corpus.split(',')) {
    if (id === 'jvm-shop') {
      const work = join(BENCH_DIR, 'review', 'jvm-shop');
      await mkdir(work, { recursive: true });
      jvm = await benchJvm(work, tools, log);
      continue;
    }
    const spec = CORPORA.find((c) => c.id === id);
    if (!spec) return usageError(`unknown corpus "${id}"; known: ${CORPORA.map((c) => c.id).join(', ')}`);
    results.push(await benchCorpus(spec, { count, seed, maxTrials, maxMinutes, kinds, builds, tools, log, screen }));
  }

  const report = [...(results.length ? [render(results, Number(values.misses))] : []), ...(jvm ? [renderJvm(jvm, oracleOnly)] : [])].join('\n\n');
  console.log(`\n${report}`);
  await mkdir(BENCH_DIR, { recursive: true });
  await writeFile(join(BENCH_DIR, 'review-mutations.json'), `${JSON.stringify({ seed, count, source, seconds: (performance.now() - started) / 1000, results, jvm }, null, 2)}\n`);
  log(`written to ${join(BENCH_DIR, 'review-mutations.json')}; ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
  return 0;
}

interface ReviewTools {
  diff: ToolDefinition;
  impact: ToolDefinition;
}

function reviewTools(): ReviewTools | undefined {
  const diff = READ_TOOLS.find((t) => t.name === 'diff_symbols');
  const impact = READ_TOOLS.find((t) => t.name === 'change_impact');
  return diff && impact ? { diff, impact } : undefined;
}

interface CorpusOptions {
  count: number;
  seed: number;
  maxTrials: number;
  maxMinutes: number;
  kinds: MutationKind[];
  /** Mutant builds run at once. */
  builds: number;
  tools: ReviewTools | undefined;
  log: (line: string) => void;
  /** The native compiler, when it screens (native-oracle.ts). */
  screen: { command: string; version: string } | undefined;
}

async function benchCorpus(spec: (typeof CORPORA)[number], { count, seed, maxTrials, maxMinutes, kinds, builds, tools, log, screen }: CorpusOptions): Promise<CorpusResult> {
  const started = performance.now();
  const corpus = await prepareCorpus(spec, { cacheDir: join(BENCH_DIR, 'cache'), maxFileBytes: 1_000_000, log });
  const work = join(BENCH_DIR, 'review', spec.id);
  await mkdir(work, { recursive: true });

  let t = performance.now();
  const generator = new MutationGenerator({ dir: corpus.dir, random: seededRandom(seed), isTestPath });
  const candidates = Object.fromEntries(MUTATION_KINDS.map((k) => [k, generator.remaining(k)]));
  log(`${spec.id}: candidates ${MUTATION_KINDS.map((k) => `${k} ${candidates[k]}`).join(', ')} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  t = performance.now();
  // TypeScript 6 in this process judges; made on first need when the native compiler screens.
  let judge: CompilerOracle | undefined;
  const typescript = () => (judge ??= new CompilerOracle(corpus.dir));
  const oracle: Oracle = screen ? new NativeOracle(corpus.dir, join(work, 'oracle-tree'), screen) : typescript();
  const baseDiagnostics = oracle.base().length;
  const baseSeconds = (performance.now() - t) / 1000;
  log(`${spec.id}: ${oracle.version} type-checked the base in ${baseSeconds.toFixed(1)} s: ${baseDiagnostics} diagnostics`);

  const baseIndex = join(work, 'base');
  let baseBuildSeconds: number | undefined;
  if (tools) baseBuildSeconds = await ensureIndex(corpus.dir, corpus.commit, baseIndex, spec.id, log);

  const result: CorpusResult = {
    corpus: spec.id, commit: corpus.commit, files: corpus.files, lines: corpus.lines,
    oracle: { compiler: oracle.version, baseDiagnostics, baseSeconds }, baseBuildSeconds,
    trials: 0, notBreaking: 0, candidates, mutations: [], seconds: 0,
  };
  const live = kinds.filter((k) => generator.remaining(k) > 0);
  // Mutants are indexed (each in a process of its own, `builds` at a time, each in a directory of
  // its slot) while this process checks the next candidates with the compiler: the costs overlap on
  // the two cores instead of adding up. A build costs more than a check, so with one build at a time
  // the checking core would wait for it.
  const inFlight: (Promise<void> | undefined)[] = Array.from({ length: builds }, () => undefined);
  const report = (entry: MutationResult, n: number) => {
    const { mutation } = entry;
    const s = entry.sites;
    log(`${spec.id} ${n}/${count} ${mutation.id} ${mutation.qualifiedName} (${mutation.path}): ${entry.oracleSites.length} oracle sites`
      + `${s ? `, ${s.covered} covered, ${s.broken} broken (${s.matched} right)` : ''}${entry.diff ? `, diff ${entry.diff.ok ? 'ok' : `WRONG: ${entry.diff.got}`}` : ''}`
      + `${entry.error ? `, ERROR ${entry.error.split('\n')[0]}` : ''}; oracle ${entry.timings.oracleSeconds.toFixed(1)} s`
      + `${entry.timings.buildSeconds !== undefined ? `, build ${entry.timings.buildSeconds.toFixed(1)} s${entry.build ? ` (${buildModeText(entry.build)})` : ''}` : ''}`);
  };
  for (let turn = 0; result.mutations.length < count && result.trials < maxTrials && live.length; turn++) {
    if ((performance.now() - started) / 60_000 > maxMinutes) {
      result.stoppedBy = `--max-minutes ${maxMinutes}`;
      log(`${spec.id}: stopped after ${maxMinutes} minutes with ${result.mutations.length} mutations`);
      break;
    }
    const kind = live[turn % live.length]!;
    const mutation = generator.next(kind);
    if (!mutation) {
      live.splice(live.indexOf(kind), 1);
      turn--;
      continue;
    }
    result.trials++;
    const baseText = await readFile(join(corpus.dir, mutation.path), 'utf8');
    const mutantText = applyEdit(baseText, mutation.edit);
    const edit = {
      ...mutation.edit, startLine: lineOf(baseText, mutation.edit.start), endLine: lineOf(baseText, mutation.edit.end),
      lineDelta: newlines(mutation.edit.text) - newlines(baseText.slice(mutation.edit.start, mutation.edit.end)),
    };
    const checked = oracle.check(mutation.path, mutantText, edit);
    // In mutant lines: the changed declaration, grown or shrunk by the edit.
    const inDeclaration = (d: OracleDiagnostic) => d.path === mutation.path
      && d.line >= mutation.declaration.startLine && d.line <= mutation.declaration.endLine + Math.max(0, edit.lineDelta);
    const oracleSites = checked.introduced.filter((d) => !inDeclaration(d));
    if (oracleSites.length === 0) {
      result.notBreaking++;
      continue;
    }
    const entry: MutationResult = {
      mutation: { ...mutation, edit }, oracleSites, inChange: checked.introduced.filter(inDeclaration), judge: oracle.version,
      timings: { oracleSeconds: checked.seconds },
    };
    result.mutations.push(entry);
    const n = result.mutations.length;
    if (!tools) {
      report(entry, n);
      continue;
    }
    // The slot's previous mutant done first; its commit made and the directory cleared here, so that
    // its build process starts before the next check blocks this thread.
    const slot = n % builds;
    await inFlight[slot];
    const failed = (error: unknown) => {
      entry.error = String((error as Error).stack ?? error).slice(0, 2000);
    };
    const headIndex = join(work, `mutant-${slot}`);
    try {
      entry.head = await commitMutant(corpus.dir, corpus.commit, [{ path: mutation.path, text: mutantText }], `${mutation.id}: ${mutation.description}`);
      await rm(headIndex, { recursive: true, force: true });
    } catch (error) {
      failed(error);
      report(entry, n);
      continue;
    }
    // The screen's answer short: TypeScript 6 checks the mutant and its scores are the ones kept.
    const judgeAgain = oracle === judge ? undefined : (): OracleDiagnostic[] => {
      const again = typescript().check(mutation.path, mutantText, edit);
      entry.timings.judgeSeconds = again.seconds;
      entry.oracleSites = again.introduced.filter((d) => !inDeclaration(d));
      entry.inChange = again.introduced.filter(inDeclaration);
      entry.judge = typescript().version;
      return again.introduced;
    };
    const context = { dir: corpus.dir, base: corpus.commit, baseIndex, headIndex, id: spec.id, tools, all: checked.introduced, judgeAgain };
    inFlight[slot] = reviewMutant(entry, entry.head, context).catch(failed).then(() => report(entry, n));
  }
  await Promise.all(inFlight);
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

interface MutantContext {
  dir: string;
  base: string;
  baseIndex: string;
  headIndex: string;
  id: string;
  tools: ReviewTools;
  all: OracleDiagnostic[];
  /** Checks the mutant again with TypeScript 6 (setting the entry's sites), returning every new diagnostic; absent when TypeScript 6 judged already. */
  judgeAgain: (() => OracleDiagnostic[]) | undefined;
}

/**
 * Indexes the mutant committed as `head` (on top of the base, the work tree untouched) into an empty
 * `headIndex`, asks the tools, scores them. The build process starts before the first await.
 */
async function reviewMutant(entry: MutationResult, head: string, { dir, base, baseIndex, headIndex, id, tools, all, judgeAgain }: MutantContext): Promise<void> {
  const { mutation } = entry;
  // From the base's index: a mutant whose change stays local builds at the cost of its change (issue #31).
  entry.timings.buildSeconds = await startBuild(dir, head, headIndex, id, baseIndex);
  entry.build = (JSON.parse(await readFile(join(headIndex, 'manifest.json'), 'utf8')) as Manifest).build;
  const provider = await BenchIndexSet.of([baseIndex, headIndex]);
  const context = { signPlan: async <P>(plan: P) => plan };
  let t = performance.now();
  const changes = (await allPages(tools.diff, provider, { base, head }, 'changes', context)).items as SymbolChange[];
  entry.timings.diffSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const impact = await allPages(tools.impact, provider, { base, head, limit: 1000 }, 'impacts', context);
  entry.timings.impactSeconds = (performance.now() - t) / 1000;
  const last = impact.last as { unattributed: ImpactSite[]; totalIsExact: boolean };
  entry.sites = scoreSites(entry.oracleSites, all, impact.items as Impact[], last.unattributed, last.totalIsExact);
  const s = entry.sites;
  if (judgeAgain && (s.covered < s.oracle || s.matched < s.broken || s.falselyExact)) {
    entry.screened = s;
    const judged = judgeAgain(); // sets entry.oracleSites
    entry.sites = scoreSites(entry.oracleSites, judged, impact.items as Impact[], last.unattributed, last.totalIsExact);
  }
  entry.diff = scoreDiff(changes, mutation.path, mutation.expected);
}

/** Every page of a list tool's answer (`nextCursor` followed to the end). */
async function allPages(
  tool: ToolDefinition, provider: BenchIndexSet, args: Record<string, unknown>, key: string, context: { signPlan: <P>(p: P) => Promise<P> },
): Promise<{ items: unknown[]; last: Record<string, unknown> }> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  let last: Record<string, unknown> = {};
  for (let page = 0; page < 100; page++) {
    last = await tool.run(provider, (cursor ? { ...args, cursor } : args) as never, context as never) as Record<string, unknown>;
    items.push(...(last[key] as unknown[]));
    cursor = last.nextCursor as string | undefined;
    if (!last.hasMore || !cursor) break;
  }
  return { items, last };
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

function render(results: CorpusResult[], misses: number): string {
  const lines: string[] = [`## Review mutations (${new Date().toISOString()})`, ''];
  lines.push('| corpus | kind | mutations | oracle sites | covered | recall | attributed | broken sites | right | precision | diff_symbols right | exact while missing | errors |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const row = (corpus: string, kind: string, ms: MutationResult[]) => {
    const scored = ms.filter((m) => m.sites);
    const sum = (get: (s: SiteScore) => number) => scored.reduce((n, m) => n + get(m.sites!), 0);
    const oracleSites = ms.reduce((n, m) => n + m.oracleSites.length, 0);
    const diffOk = ms.filter((m) => m.diff?.ok).length;
    const scoredDiff = ms.filter((m) => m.diff).length;
    lines.push(`| ${corpus} | ${kind} | ${ms.length} | ${oracleSites} | ${sum((s) => s.covered)} | ${ratio(sum((s) => s.covered), sum((s) => s.oracle))} | ${ratio(sum((s) => s.attributed), sum((s) => s.covered))} | ${sum((s) => s.broken)} | ${sum((s) => s.matched)} | ${ratio(sum((s) => s.matched), sum((s) => s.broken))} | ${scoredDiff ? `${diffOk}/${scoredDiff}` : '-'} | ${scored.filter((m) => m.sites!.falselyExact).length} | ${ms.filter((m) => m.error).length} |`);
  };
  for (const r of results) {
    for (const kind of MUTATION_KINDS) {
      const ms = r.mutations.filter((m) => m.mutation.kind === kind);
      if (ms.length) row(r.corpus, kind, ms);
    }
    row(r.corpus, '**all**', r.mutations);
  }
  lines.push('', 'Targets (issue #28): recall 100 % (every new diagnostic reported, attributed or not), precision at least 99.5 %, attributed at least 97 % of those reported, every mutated symbol found by diff_symbols with the right change and aspects, no answer exact while it misses one.', '');
  for (const r of results) {
    const builds = r.mutations.map((m) => m.timings.buildSeconds ?? NaN);
    lines.push(`${r.corpus}@${shortCommit(r.commit)} (${r.files} files, ${r.lines} lines): ${r.mutations.length} breaking mutations${r.stoppedBy ? ` (stopped by ${r.stoppedBy})` : ''} from ${r.trials} candidates tried (${r.notBreaking} broke nothing outside their own declaration); `
      + `base type-check ${f(r.oracle.baseSeconds)} s (${r.oracle.baseDiagnostics} diagnostics, ${r.oracle.compiler}), base index ${r.baseBuildSeconds === undefined ? 'reused' : `${f(r.baseBuildSeconds)} s`}; `
      + `per mutant: oracle ${f(median(r.mutations.map((m) => m.timings.oracleSeconds)))} s, build ${f(median(builds))} s (${r.mutations.filter((m) => m.build?.mode === 'incremental').length} of ${r.mutations.length} from the base's index), ${judgedAgain(r)}diff_symbols ${f(median(r.mutations.map((m) => (m.timings.diffSeconds ?? NaN) * 1000)))} ms, change_impact ${f(median(r.mutations.map((m) => (m.timings.impactSeconds ?? NaN) * 1000)))} ms (medians); ${f(r.seconds)} s in all.`);
  }
  for (const r of results) {
    const missed = r.mutations.flatMap((m) => (m.sites?.missed ?? []).map((d) => `- ${m.mutation.id} ${m.mutation.qualifiedName} (${m.mutation.description}): ${d.path}:${d.line} TS${d.code} ${d.message.split('\n')[0]} [${d.cause}]`));
    const extra = r.mutations.flatMap((m) => (m.sites?.extra ?? []).map((s) => `- ${m.mutation.id} ${m.mutation.qualifiedName} (${m.mutation.description}): ${s.path}:${s.line} ${s.kind} ${s.confidence}${s.reason ? ` "${s.reason}"` : ''}`));
    const diffs = r.mutations.filter((m) => m.diff && !m.diff.ok).map((m) => `- ${m.mutation.id} ${m.mutation.qualifiedName} (${m.mutation.path}:${m.mutation.expected.line}): expected ${m.mutation.expected.change}${m.mutation.expected.aspects.length ? ` [${m.mutation.expected.aspects.join(', ')}]` : ''}, got ${m.diff!.got}`);
    const errors = r.mutations.filter((m) => m.error).map((m) => `- ${m.mutation.id}: ${m.error!.split('\n')[0]}`);
    const causes = new Map<string, number>();
    for (const m of r.mutations) for (const d of m.sites?.missed ?? []) {
      const cause = d.cause.startsWith('site is ') ? d.cause.split(' (')[0]! : d.cause;
      causes.set(`${m.mutation.kind}: ${cause}`, (causes.get(`${m.mutation.kind}: ${cause}`) ?? 0) + 1);
    }
    if (causes.size) lines.push('', `### ${r.corpus}: recall misses by mutation kind and cause`, ...[...causes].sort((a, b) => b[1] - a[1]).map(([cause, n]) => `- ${cause}: ${n}`));
    const unattributed = new Map<string, { n: number; example: string }>();
    for (const m of r.mutations) for (const d of m.sites?.unattributedOnly ?? []) {
      const key = `${m.mutation.kind}: TS${d.code}`;
      const entry = unattributed.get(key) ?? { n: 0, example: `${m.mutation.id} ${m.mutation.qualifiedName}: ${d.path}:${d.line} ${d.message.split('\n')[0]}` };
      entry.n++;
      unattributed.set(key, entry);
    }
    if (unattributed.size) {
      lines.push('', `### ${r.corpus}: reported but attributed to no change (attribution misses), by mutation kind and code`,
        ...[...unattributed].sort((a, b) => b[1].n - a[1].n).slice(0, misses).map(([key, { n, example }]) => `- ${key}: ${n} (e.g. ${example})`));
    }
    for (const [title, list] of [['oracle sites no broken site covers (recall misses)', missed], ['broken sites the compiler does not confirm (precision misses)', extra], ['diff_symbols misses', diffs], ['errors', errors]] as const) {
      if (!list.length) continue;
      lines.push('', `### ${r.corpus}: ${title} (${list.length}${list.length > misses ? `, the first ${misses}; all in the JSON file` : ''})`, ...list.slice(0, misses));
    }
  }
  return lines.join('\n');
}

/** How many mutants TypeScript 6 judged again after the native compiler's screen found their answer short, and how many of those it still found short. */
function judgedAgain(r: CorpusResult): string {
  const again = r.mutations.filter((m) => m.screened);
  if (!r.oracle.compiler.startsWith('tsgo')) return '';
  const short = again.filter(({ sites: s }) => s && (s.covered < s.oracle || s.matched < s.broken || s.falselyExact));
  return `judged again by TypeScript 6: ${again.length} (${short.length} still short, median ${f(median(again.map((m) => m.timings.judgeSeconds ?? NaN)))} s), `;
}

function renderJvm({ judges, results }: JvmBenchResult, oracleOnly: boolean): string {
  const lines = [
    `### jvm-shop: mutations with their broken sites known by construction${judges ? ` (checked with ${judges})` : ' (no compiler installed to check them)'}`, '',
    '| mutation | expected sites | covered | broken sites | right | diff_symbols | compilers agree |', '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const asked = !oracleOnly && !r.error;
    lines.push(`| ${r.mutation.id} | ${r.expectedSites.length} | ${r.error ? 'error' : asked ? r.covered : '-'} | ${asked ? r.brokenSites.length : '-'} | ${asked ? r.brokenSites.length - r.extra.length : '-'} | ${r.diff ? (r.diff.ok ? 'ok' : `expected ${r.mutation.expected.change}, got ${r.diff.got}`) : '-'} | ${r.compilers ? (r.compilers.agrees ? 'yes' : `NO: ${r.compilers.errors.map((e) => `${e.path}:${e.line} ${e.message}`).join('; ')}`) : '-'} |`);
  }
  const covered = results.reduce((n, r) => n + r.covered, 0);
  const expected = results.reduce((n, r) => n + r.expectedSites.length, 0);
  const broken = results.reduce((n, r) => n + r.brokenSites.length, 0);
  const right = results.reduce((n, r) => n + r.brokenSites.length - r.extra.length, 0);
  if (!oracleOnly) lines.push('', `jvm-shop: recall ${ratio(covered, expected)} (${covered}/${expected}), precision ${ratio(right, broken)} (${right}/${broken}).`);
  for (const r of results) {
    for (const m of r.missed) lines.push(`- missed: ${r.mutation.id} ${m.path}:${m.line} (by ${m.by})`);
    for (const e of r.extra) lines.push(`- not broken: ${r.mutation.id} ${e.path}:${e.line} ${e.kind} ${e.confidence}${e.reason ? ` "${e.reason}"` : ''}`);
    if (r.error) lines.push(`- error: ${r.mutation.id} ${r.error.split('\n')[0]}`);
  }
  return lines.join('\n');
}

function positive(text: string, flag: string): number {
  return positiveOption(text, flag, USAGE);
}

function usageError(message: string): number {
  console.error(`${cliLine(new SextantError('INVALID_ARGUMENT', message, 'See the usage below.'))}\n${USAGE}`);
  return 2;
}

process.exitCode = await main();
