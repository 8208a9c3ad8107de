// Recall and precision of the index's Java and Kotlin find_references against the compilers:
// javac (the compiler API's attributed trees) for references in .java files, kotlinc for those in
// .kt files (jvm-oracles.ts). For each corpus it builds the index (buildIndex), samples a seeded
// set of declarations the oracles and the index both have (matched by the position of the name),
// asks find_references for each (every page, the declaration itself left out, related members
// left out: a compiler resolves a call to one method, not to its overrides) and compares sites by
// (path, line, column). Scoring rules: jvm-accuracy-scoring.ts and bench/README.md.
//
//   cd indexer && npm run bench:jvm-accuracy                                  # every corpus
//   cd indexer && npm run bench:jvm-accuracy -- --corpus jvm-shop,java.base --sample 300 --seed 1
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { cliLine, formatSymbolId, SextantError, shortCommit } from '@sextant/format';
import { findReferences, gotoDefinition, IndexReader, nameEntry, ShardCache, type NameEntry } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { positiveOption } from './bench-options.ts';
import { benchGitEnv } from './corpora.ts';
import { JVM_CACHE, JVM_CORPORA } from './jvm-corpora.ts';
import {
  addTallies, fileLanguage, guessCause, precisionOf, recallOf, scoreDeclaration, siteKey,
  type JvmLanguage, type OracleDeclaration, type OracleName, type OracleRun, type Site, type Tally,
} from './jvm-accuracy-scoring.ts';
import { javacOracle, kotlincOracle } from './jvm-oracles.ts';
import { seededRandom } from './references-accuracy.ts';

const run = promisify(execFile);
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const RESULTS = fileURLToPath(new URL('../.bench/results/', import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

const TARGETS: Record<JvmLanguage, { recall: number; precision: number; oracle: OracleName }> = {
  java: { recall: 0.99, precision: 0.995, oracle: 'javac' },
  kotlin: { recall: 0.97, precision: 0.99, oracle: 'kotlinc' },
};

interface AccuracyCorpus {
  id: string;
  note: string;
  prepare(): Promise<string>;
  /** The JDK module whose sources the corpus is: javac compiles them as that module. */
  module?: string;
}

/** The JVM bench corpora, and each fixture under test/fixtures holding Java or Kotlin files, committed into a repository of its own. */
async function accuracyCorpora(): Promise<AccuracyCorpus[]> {
  const fixtures: AccuracyCorpus[] = [];
  for (const entry of (await readdir(FIXTURES, { withFileTypes: true })).filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const dir = join(FIXTURES, entry.name);
    if (!(await hasJvmFiles(dir))) continue;
    fixtures.push({ id: entry.name, note: `test/fixtures/${entry.name}`, prepare: () => commitFixture(entry.name, dir) });
  }
  return [...fixtures, ...JVM_CORPORA.map((c) => ({ ...c, ...(c.id === 'java.base' ? { module: 'java.base' } : {}) }))];
}

async function hasJvmFiles(dir: string): Promise<boolean> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() ? await hasJvmFiles(join(dir, entry.name)) : fileLanguage(entry.name)) return true;
  }
  return false;
}

/** A fixture as a git repository (made again each run: the fixture is small and may have changed). */
async function commitFixture(name: string, dir: string): Promise<string> {
  const repo = join(JVM_CACHE, 'fixtures', name);
  await rm(repo, { recursive: true, force: true });
  await cp(dir, repo, { recursive: true });
  const git = (args: string[]) => run('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, env: { ...process.env, ...benchGitEnv() } });
  await git(['init', '-q', '-b', 'main']);
  await git(['add', '-A']);
  await git(['commit', '-q', '--no-verify', '-m', `${name} fixture`]);
  return repo;
}

interface Miss extends Site {
  side: 'missing' | 'extra';
  lang: JvmLanguage;
  cause: string;
  source: string;
  /** For an extra: what the oracle names at the site. */
  detail?: string;
  candidate?: boolean;
  declaration: { kind: string; name: string; qname: string; path: string; line: number; column: number };
}

interface CorpusReport {
  corpus: string;
  note: string;
  commit: string;
  seed: number;
  oracles: Record<string, { declarations: number; references: number; unresolvedSites: number }>;
  /** Oracle declarations, those the index has at the same position, and the kinds of those it has not. */
  pool: { oracle: number; matched: number; unmatchedByKind: Record<string, number>; unmatchedExamples: string[] };
  sampled: number;
  tallies: Record<string, { resolved: Tally; withCandidates: Tally }>;
  unscored: Record<string, number>;
  misses: Miss[];
}

async function measure(corpus: AccuracyCorpus, options: { sample: number; seed: number; oracles: Set<OracleName>; reuseIndex: boolean }): Promise<CorpusReport> {
  log(`${corpus.id} (${corpus.note}): preparing...`);
  const repo = await corpus.prepare();
  const commit = (await run('git', ['rev-parse', 'HEAD'], { cwd: repo })).stdout.trim();
  const tracked = (await run('git', ['ls-files', '-z'], { cwd: repo, maxBuffer: 1 << 28 })).stdout.split('\0').filter(Boolean);
  const javaFiles = tracked.filter((p) => p.endsWith('.java') && !p.endsWith('module-info.java') && (!corpus.module || p.startsWith(`${corpus.module}/`)));
  const kotlinFiles = tracked.filter((p) => p.endsWith('.kt'));

  const oracles = new Map<OracleName, OracleRun>();
  if (options.oracles.has('javac') && javaFiles.length) {
    oracles.set('javac', await javacOracle({ repo, commit, files: javaFiles, ...(corpus.module ? { module: corpus.module } : {}), log }));
  }
  if (options.oracles.has('kotlinc') && kotlinFiles.length) {
    oracles.set('kotlinc', await kotlincOracle({ repo, commit, files: [...kotlinFiles, ...javaFiles], log }));
  }

  const out = join(JVM_CACHE, 'accuracy', `${corpus.id}-index`);
  const manifest = join(out, 'manifest.json');
  if (!options.reuseIndex || !existsSync(manifest) || JSON.parse(await readFile(manifest, 'utf8')).commit !== commit) {
    log(`  building the index...`);
    await rm(out, { recursive: true, force: true });
    await buildIndex({ repo, commit: 'HEAD', out, repoName: `bench/${corpus.id}`, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
  }
  const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 30));
  const names = await reader.names();
  const ourDecls = new Map<string, NameEntry>();
  for (let i = 0; i < names.size; i++) {
    if (names.isExternal(i)) continue;
    const entry = nameEntry(names, i);
    if (entry.path && entry.line > 0) ourDecls.set(siteKey(entry), entry);
  }

  // The pool: every oracle declaration, in one order on every machine, that the index has too.
  const all = new Map<string, OracleDeclaration>();
  for (const oracle of oracles.values()) for (const [key, decl] of oracle.declarations) if (!all.has(key)) all.set(key, decl);
  const keys = [...all.keys()].sort();
  const matched = keys.filter((k) => ourDecls.has(k));
  const unmatchedByKind: Record<string, number> = Object.create(null); // kinds include `constructor`
  const unmatchedExamples: string[] = [];
  for (const key of keys) {
    if (ourDecls.has(key)) continue;
    const decl = all.get(key)!;
    unmatchedByKind[decl.kind] = (unmatchedByKind[decl.kind] ?? 0) + 1;
    if (unmatchedExamples.length < 20) unmatchedExamples.push(`${decl.kind} ${decl.name} ${key}`);
  }
  const random = seededRandom(options.seed);
  for (let i = matched.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [matched[i], matched[j]] = [matched[j]!, matched[i]!];
  }
  const sample = matched.slice(0, options.sample);
  log(`  ${keys.length} oracle declarations, ${ourDecls.size} in the index, ${matched.length} at the same position; sampling ${sample.length} (seed ${options.seed})`);

  // What the oracles name at each site, to say what an extra reference really is.
  const namedAt = new Map<string, string>();
  for (const oracle of oracles.values()) {
    for (const [key, sites] of oracle.references) for (const s of sites) if (!namedAt.has(siteKey(s))) namedAt.set(siteKey(s), key);
  }
  const lines = new Map<string, string[]>();
  const lineOf = async (path: string, line: number) => {
    let list = lines.get(path);
    if (!list) lines.set(path, (list = (await readFile(join(repo, path), 'utf8').catch(() => '')).split(/\r\n|\n|\r/)));
    return list[line - 1] ?? '';
  };

  const tallies = new Map<string, { resolved: Tally; withCandidates: Tally }>();
  const unscored: Record<string, number> = {};
  const misses: Miss[] = [];
  for (const key of sample) {
    const decl = all.get(key)!;
    const entry = ourDecls.get(key)!;
    const ours: { path: string; line: number; column: number; confidence: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await findReferences(reader, { symbolId: formatSymbolId(entry.key, commit) }, { includeDeclaration: false, includeRelated: false, minConfidence: 'candidate', limit: 2000, cursor });
      for (const hit of page.references) ours.push({ path: hit.path, line: hit.line, column: hit.column, confidence: hit.confidence });
      cursor = page.nextCursor;
    } while (cursor);
    const judged = scoreDeclaration(decl, ours, oracles);
    addTallies(tallies, judged.tallies);
    for (const u of judged.unscored) unscored[u.reason] = (unscored[u.reason] ?? 0) + 1;
    const declaration = { kind: decl.kind, name: decl.name, qname: entry.qname, path: decl.path, line: decl.line, column: decl.column };
    for (const site of judged.missing) {
      const lang = fileLanguage(site.path)!;
      const source = await lineOf(site.path, site.line);
      const detail = await ourSymbolAt(reader, site);
      // A file the build skipped (GB18030.java is over the 1 MiB limit) that the compiler still read.
      const cause = detail === 'ours: FILE_NOT_FOUND' ? 'file not in the index (over the size limit)' : guessCause(source, site.column, lang);
      misses.push({ side: 'missing', ...site, lang, cause, source, detail, declaration });
    }
    for (const site of judged.extra) {
      const lang = fileLanguage(site.path)!;
      const source = await lineOf(site.path, site.line);
      const other = namedAt.get(siteKey(site));
      const detail = other ? `the oracle names ${all.get(other)?.kind ?? 'declaration'} ${all.get(other)?.name ?? ''} (${other}) here`
        : 'the oracle names nothing of the corpus here (a library member, or no reference)';
      misses.push({ side: 'extra', ...site, lang, cause: guessCause(source, site.column, lang), source, detail, candidate: site.candidate, declaration });
    }
  }
  return {
    corpus: corpus.id, note: corpus.note, commit, seed: options.seed,
    oracles: Object.fromEntries([...oracles].map(([name, o]) => [name, { declarations: o.declarations.size, references: [...o.references.values()].reduce((n, l) => n + l.length, 0), unresolvedSites: o.unresolved.size }])),
    pool: { oracle: keys.length, matched: matched.length, unmatchedByKind, unmatchedExamples },
    sampled: sample.length, tallies: Object.fromEntries(tallies), unscored, misses,
  };
}

/** What the index names at a site the oracle has and we do not: goto_definition there. */
async function ourSymbolAt(reader: IndexReader, site: Site): Promise<string> {
  try {
    const answer = await gotoDefinition(reader, { path: site.path, line: site.line, column: site.column });
    const at = answer.definitions[0];
    return `ours names ${answer.symbol.kind} ${answer.symbol.qualifiedName}${at ? ` (${at.path}:${at.line})` : ''} here`;
  } catch (error) {
    return error instanceof SextantError ? `ours: ${error.code}` : `ours: ${String(error)}`;
  }
}

const percent = (x: number) => `${(100 * x).toFixed(2)}%`;

/** The tallies of every bucket of references in `lang` files, summed; undefined when there are none. */
function sumOf(report: CorpusReport, lang: JvmLanguage): { resolved: Tally; withCandidates: Tally } | undefined {
  const sum = new Map<string, { resolved: Tally; withCandidates: Tally }>();
  for (const [bucket, t] of Object.entries(report.tallies)) if (bucket.startsWith(`${lang}/`)) addTallies(sum, new Map([[lang, t]]));
  return sum.get(lang);
}

function table(reports: CorpusReport[]): string {
  const out = [
    '| corpus | references in | to declarations in | oracle | oracle refs | ours | both | recall | precision | ours +candidates | recall | precision |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const row = (corpus: string, site: string, decl: string, oracle: string, t: { resolved: Tally; withCandidates: Tally }, mark = '') => {
    const r = t.resolved;
    const c = t.withCandidates;
    out.push(`| ${corpus} | ${site} | ${decl} | ${oracle} | ${r.oracle} | ${r.ours} | ${r.both} | ${percent(recallOf(r))}${mark} | ${percent(precisionOf(r))} | ${c.ours} | ${percent(recallOf(c))} | ${percent(precisionOf(c))} |`);
  };
  for (const report of reports) {
    for (const lang of ['java', 'kotlin'] as const) {
      const buckets = Object.entries(report.tallies).filter(([bucket]) => bucket.startsWith(`${lang}/`)).sort();
      if (!buckets.length) continue;
      for (const [bucket, t] of buckets) row(report.corpus, lang, bucket.split('/')[1]!, TARGETS[lang].oracle, t);
      if (buckets.length > 1) row(report.corpus, `**${lang}**`, 'all', TARGETS[lang].oracle, sumOf(report, lang)!);
    }
  }
  return out.join('\n');
}

function verdicts(reports: CorpusReport[]): string[] {
  const out: string[] = [];
  for (const report of reports) {
    for (const lang of ['java', 'kotlin'] as const) {
      const t = sumOf(report, lang)?.resolved;
      if (!t) continue;
      const target = TARGETS[lang];
      const ok = recallOf(t) >= target.recall && precisionOf(t) >= target.precision;
      out.push(`- ${report.corpus}, references in ${lang} files against ${target.oracle}: recall ${percent(recallOf(t))} (target ≥ ${percent(target.recall)}), `
        + `precision ${percent(precisionOf(t))} (target ≥ ${percent(target.precision)}): ${ok ? 'met' : 'NOT met'}`);
    }
  }
  return out;
}

/** Misses and extras counted by cause, then up to `limit` of them spread over the causes. */
function missReport(report: CorpusReport, limit: number): string[] {
  const out: string[] = [];
  const causes = new Map<string, Miss[]>();
  for (const miss of report.misses) {
    const key = `${miss.side === 'missing' ? 'missing (oracle only)' : miss.candidate ? 'extra candidate (ours only)' : 'extra (ours only)'} in ${miss.lang}: ${miss.cause}`;
    (causes.get(key) ?? causes.set(key, []).get(key)!).push(miss);
  }
  const ranked = [...causes].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  if (!ranked.length) return out;
  out.push(`${report.corpus}: misses by guessed cause (references, declarations):`);
  for (const [cause, list] of ranked) out.push(`  ${String(list.length).padStart(6)}  ${String(new Set(list.map((m) => siteKey(m.declaration))).size).padStart(4)}  ${cause}`);
  const picked: [string, Miss][] = [];
  for (let round = 0; picked.length < limit; round++) {
    let any = false;
    for (const [cause, list] of ranked) {
      if (list[round] && picked.length < limit) {
        picked.push([cause, list[round]!]);
        any = true;
      }
    }
    if (!any) break;
  }
  picked.sort((a, b) => ranked.findIndex((r) => r[0] === a[0]) - ranked.findIndex((r) => r[0] === b[0]));
  let current = '';
  out.push(`  first ${picked.length} of ${report.misses.length}:`);
  for (const [cause, miss] of picked) {
    if (cause !== current) out.push(`  [${(current = cause)}]`);
    const d = miss.declaration;
    out.push(`    ${miss.path}:${miss.line}:${miss.column}  ${miss.source.trim().slice(0, 140)}`);
    out.push(`        of ${d.kind} ${d.qname} (${d.path}:${d.line}:${d.column})${miss.detail ? `; ${miss.detail}` : ''}`);
  }
  return out;
}

const USAGE = 'usage: tsx bench/jvm-accuracy.ts [--corpus jvm-shop,react-native,java.base] [--sample 300] [--seed 1] [--misses 40] [--oracles javac,kotlinc] [--reuse-index]';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string' }, sample: { type: 'string', default: '300' }, seed: { type: 'string', default: '1' },
      misses: { type: 'string', default: '40' }, oracles: { type: 'string', default: 'javac,kotlinc' }, 'reuse-index': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const corpora = await accuracyCorpora();
  const wanted = values.corpus ? values.corpus.split(',') : corpora.map((c) => c.id);
  const unknown = wanted.filter((id) => !corpora.some((c) => c.id === id));
  if (unknown.length) {
    process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', `unknown corpus ${unknown.join(', ')}.`, `Pick from ${corpora.map((c) => c.id).join(', ')}.`))}\n`);
    return 2;
  }
  const oracles = new Set(values.oracles.split(',') as OracleName[]);
  const badOracle = [...oracles].filter((o) => o !== 'javac' && o !== 'kotlinc');
  if (badOracle.length) {
    process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', `unknown oracle ${badOracle.join(', ')}.`, 'Pick from javac, kotlinc.'))}\n${USAGE}\n`);
    return 2;
  }
  const options = { sample: positiveOption(values.sample, '--sample', USAGE), seed: Number(values.seed), oracles, reuseIndex: values['reuse-index'] };
  const limit = positiveOption(values.misses, '--misses', USAGE);
  await mkdir(RESULTS, { recursive: true });
  const reports: CorpusReport[] = [];
  for (const corpus of corpora.filter((c) => wanted.includes(c.id))) {
    const report = await measure(corpus, options);
    reports.push(report);
    const file = join(RESULTS, `jvm-accuracy-${corpus.id}.json`);
    await writeFile(file, `${JSON.stringify(report, null, 1)}\n`);
    const unscored = Object.entries(report.unscored).map(([reason, n]) => `${n} ${reason}`).join('; ');
    process.stdout.write([
      `## ${corpus.id} (${corpus.note}) at ${shortCommit(report.commit)}: ${report.sampled} declarations sampled of ${report.pool.matched} matched (of ${report.pool.oracle} oracle declarations)`,
      ...Object.entries(report.oracles).map(([name, o]) => `- ${name}: ${o.declarations} declarations, ${o.references} references to them, ${o.unresolvedSites} sites it resolves to nothing`),
      ...(Object.keys(report.pool.unmatchedByKind).length ? [`- oracle declarations with no index declaration at their name: ${Object.entries(report.pool.unmatchedByKind).map(([k, n]) => `${n} ${k}`).join(', ')} (e.g. ${report.pool.unmatchedExamples.slice(0, 3).join('; ')})`] : []),
      `- our references not scored: ${unscored || 'none'}`,
      '', table([report]), '', ...missReport(report, limit), `(all in ${relative(process.cwd(), file)})`, '', '',
    ].join('\n'));
  }
  process.stdout.write(['# JVM find_references against the compilers', '', table(reports), '', ...verdicts(reports), ''].join('\n'));
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
});
