// The syntactic (tags) indexer against the bare parse and against real language servers (issue #30).
// Corpora are Debian packages that ship sources, fetched at bench time (`apt-get download` of a
// pinned version, `dpkg-deb -x`) into indexer/.bench/cache/ (git-ignored) and committed into a git
// repository of their own, because `indexer build` reads only what is tracked at a commit.
//
// 1. Extract rate: parse + tags extraction against the parse alone, the same files in the same
//    process, a warm-up round and then the median of --rounds rounds of each, interleaved (with a
//    parse + query round between, to tell the query's cost from the extractor's).
// 2. Candidate containment: the corpus is indexed (buildIndex), and a seeded sample of the
//    references the tags indexer extracted (those it matched to candidates, and those it left
//    unresolved: declared nowhere, or too often) is put to a language server's
//    textDocument/definition (pyright for Python, gopls for Go). A reference is contained when one
//    of the server's targets in the repository is one of its candidates, matched by path and the
//    line the declaration's name starts on. Targets outside the repository (the standard library,
//    a dependency) or none are counted apart and left out of containment. The headline counts the
//    unresolved references the server resolves into the repository as misses, each sort weighted
//    by its share of the index's references.
// 3. Misses by category (what the server's target is), with examples, for the next query or
//    scoping rule to fix.
//
//   cd indexer && npm run bench:syntactic
//   cd indexer && npx tsx bench/syntactic-accuracy.ts --corpus python --sample 300 --seed 1
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import {
  cliLine, defsOf, refsOf, SextantError, shortCommit, unresolvedShardName,
  type ReferenceKind, type SymbolKind, type UnresolvedShard,
} from '@sextant/format';
import { IndexReader, nameEntry, ShardCache } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { Parser, type Tree } from 'web-tree-sitter';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { extractTags } from '../src/tags/tags-extractor.ts';
import { loadTagsTagger, tagsGrammarOf, type TagsLanguage } from '../src/tags/tags-grammars.ts';
import { canName, MAX_CANDIDATES } from '../src/tags/tags-indexer.ts';
import { positiveOption } from './bench-options.ts';
import { LspClient } from './lsp-client.ts';
import { loadAverage } from './measure-process.ts';
import { prepareDebianCorpus } from './debian-corpus.ts';
import { seededRandom } from './references-accuracy.ts';
import { median } from './text-search-queries.ts';

const run = promisify(execFile);
const CACHE = fileURLToPath(new URL('../.bench/cache/', import.meta.url));
const CORPORA_DIR = join(CACHE, 'corpora', 'syntactic');
const TOOLS = join(CACHE, 'tools');
const RESULTS = fileURLToPath(new URL('../.bench/results/', import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

const TARGETS = { rate: 0.5, containment: 0.95 };
/** The limit the indexer puts on one file's parse and tags query (tags-indexer.ts). */
const TIME_LIMIT_MS = 10_000;
const LSP_READY_MS = 180_000;

type OracleName = 'pyright' | 'gopls';

interface Corpus {
  id: string;
  lang: TagsLanguage;
  /** The Debian package and the exact version fetched. */
  pkg: string;
  version: string;
  /** The folder inside the package that becomes the repository's root, and what of it is kept. */
  root: string;
  include?: string[];
  note: string;
  /** The language server the references are put to; none: the corpus is measured for speed only. */
  oracle?: OracleName;
}

const CORPORA: readonly Corpus[] = [
  {
    id: 'python-rich', lang: 'python', pkg: 'python3-rich', version: '13.3.1-1', root: 'usr/lib/python3/dist-packages', include: ['rich'], oracle: 'pyright',
    note: 'rich 13.3.1 (Debian python3-rich), the package as rich/ so that its absolute imports resolve in the repository',
  },
  {
    id: 'go-cmp', lang: 'go', pkg: 'golang-github-google-go-cmp-dev', version: '0.5.9-1', root: 'usr/share/gocode/src/github.com/google/go-cmp', oracle: 'gopls',
    note: 'go-cmp 0.5.9 (Debian golang-github-google-go-cmp-dev), a module with no dependencies beyond the standard library',
  },
  {
    id: 'go-std', lang: 'go', pkg: 'golang-1.19-src', version: '1.19.8-2', root: 'usr/share/go-1.19/src', include: ['net/http', 'encoding/json', 'go/ast', 'go/parser'],
    note: 'Go 1.19.8 standard library (Debian golang-1.19-src): net/http, encoding/json, go/ast, go/parser',
  },
  {
    id: 'rust-regex-syntax', lang: 'rust', pkg: 'librust-regex-syntax-dev', version: '0.6.27-1', root: 'usr/share/cargo/registry/regex-syntax-0.6.27',
    note: 'regex-syntax 0.6.27 (Debian librust-regex-syntax-dev), its Unicode tables included',
  },
];

// ---- corpora ------------------------------------------------------------------------------------

/** The corpus's git repository (made once per package version; cached) and its commit. */
function prepare(corpus: Corpus): Promise<{ repo: string; commit: string }> {
  return prepareDebianCorpus({
    id: corpus.id, pkg: corpus.pkg, version: corpus.version, from: corpus.root,
    ...(corpus.include ? { include: corpus.include } : {}), skip: (path) => path.split('/').includes('testdata'),
  }, CACHE, 'syntactic', log);
}

async function filesOf(repo: string, lang: TagsLanguage): Promise<string[]> {
  const tracked = (await run('git', ['ls-files', '-z'], { cwd: repo, maxBuffer: 1 << 28 })).stdout.split('\0').filter(Boolean);
  return tracked.filter((p) => tagsGrammarOf(p)?.lang === lang).sort();
}

// ---- 1. extract rate ----------------------------------------------------------------------------

interface RateReport {
  corpus: string;
  lang: TagsLanguage;
  files: number;
  bytes: number;
  lines: number;
  rounds: number;
  /** Medians of the rounds: the parse alone, the parse and the tags query's matches, the parse and extractTags. */
  parseMs: number;
  queryMs: number;
  extractMs: number;
  defs: number;
  refs: number;
}

/**
 * Rounds over the same texts with one parser, interleaved (parse, parse + query, parse + extract):
 * a busy machine slows the three alike. The query-only round tells the tags query's own cost from
 * the extractor's work over its captures.
 */
async function measureRate(corpus: Corpus, repo: string, rounds: number): Promise<RateReport> {
  const paths = await filesOf(repo, corpus.lang);
  const texts = await Promise.all(paths.map((p) => readFile(join(repo, p), 'utf8')));
  const tagger = await loadTagsTagger(tagsGrammarOf(paths[0]!)!);
  const parser = new Parser();
  parser.setLanguage(tagger.language);
  let defs = 0;
  let refs = 0;
  const timed = (each: (text: string) => void) => () => {
    const started = performance.now();
    for (const text of texts) each(text);
    return performance.now() - started;
  };
  const withTree = (text: string, use: (tree: Tree) => void) => {
    const tree = parser.parse(text)!;
    try {
      use(tree);
    } finally {
      tree.delete();
    }
  };
  const steps = {
    parse: timed((text) => parser.parse(text)!.delete()),
    query: timed((text) => withTree(text, (tree) => tagger.query.matches(tree.rootNode))),
    extract: timed((text) => withTree(text, (tree) => {
      const tags = extractTags(tree, tagger.query, text, TIME_LIMIT_MS);
      defs += tags.defs.length;
      refs += tags.refs.length;
    })),
  };
  try {
    for (const step of Object.values(steps)) step();
    const times = { parse: [] as number[], query: [] as number[], extract: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      for (const [name, step] of Object.entries(steps) as [keyof typeof steps, () => number][]) {
        if (name === 'extract') defs = refs = 0;
        times[name].push(step());
      }
    }
    return {
      corpus: corpus.id, lang: corpus.lang, files: paths.length, bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0),
      lines: texts.reduce((n, t) => n + t.split('\n').length, 0), rounds,
      parseMs: median(times.parse), queryMs: median(times.query), extractMs: median(times.extract), defs, refs,
    };
  } finally {
    parser.delete();
  }
}

function rateTable(reports: RateReport[]): string {
  const out = [
    '| corpus | files | MB | lines | parse MB/s | parse+query MB/s | parse+tags MB/s | parse+tags files/s | query only vs parse | rate vs parse | target | |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of reports) {
    const mb = r.bytes / 1e6;
    const speed = (ms: number) => (mb / (ms / 1000)).toFixed(2);
    const ratio = r.parseMs / r.extractMs;
    out.push(`| ${r.corpus} (${r.lang}) | ${r.files} | ${mb.toFixed(2)} | ${r.lines} | ${speed(r.parseMs)} | ${speed(r.queryMs)} | ${speed(r.extractMs)} `
      + `| ${(r.files / (r.extractMs / 1000)).toFixed(0)} | ${(r.parseMs / r.queryMs).toFixed(2)}x | ${ratio.toFixed(2)}x | ≥ ${TARGETS.rate}x | ${ratio >= TARGETS.rate ? 'met' : 'NOT met'} |`);
  }
  return out.join('\n');
}

// ---- the references the index holds --------------------------------------------------------------

interface Declaration {
  name: string;
  kind: SymbolKind;
  qname: string;
  path: string;
  line: number;
  column: number;
}

type Unresolved = 'declared nowhere' | `over ${typeof MAX_CANDIDATES} declarations` | 'no declaration of a kind this use can name';

interface RefSite {
  path: string;
  line: number;
  column: number;
  name: string;
  kind: ReferenceKind;
  /** Declarations it is a candidate reference of; empty when unresolved. */
  candidates: Declaration[];
  unresolved?: Unresolved;
}

const siteKey = (s: { path: string; line: number; column: number }) => `${s.path}:${s.line}:${s.column}`;

interface IndexedReferences {
  resolved: RefSite[];
  unresolved: RefSite[];
  /** Declarations of the language, by `path:line` of their name. */
  declarationsAt: Map<string, Declaration[]>;
}

/** Every reference of `lang` the index holds: those stored on declarations (candidates), and the unresolved ones. */
async function indexedReferences(reader: IndexReader, lang: TagsLanguage): Promise<IndexedReferences> {
  const names = await reader.names();
  const sites = new Map<string, RefSite>();
  const declarationsAt = new Map<string, Declaration[]>();
  const byName = new Map<string, Declaration[]>();
  for (let i = 0; i < names.size; i++) {
    if (names.isExternal(i)) continue;
    const entry = nameEntry(names, i);
    if (entry.lang !== lang) continue;
    const loaded = await reader.symbol(entry.key);
    if (!loaded) continue;
    const { record, shard } = loaded;
    const decls: Declaration[] = [];
    for (const def of defsOf(record)) {
      const decl = { name: record.name, kind: record.kind, qname: record.qname, path: shard.paths[def.pathIndex]!, line: def.line, column: def.column };
      decls.push(decl);
      const at = `${decl.path}:${decl.line}`;
      (declarationsAt.get(at) ?? declarationsAt.set(at, []).get(at)!).push(decl);
    }
    (byName.get(record.name) ?? byName.set(record.name, []).get(record.name)!).push(...decls.slice(0, 1));
    for (const ref of refsOf(record)) {
      if (ref.confidence !== 'candidate') {
        throw new Error(`${record.qname} has a ${ref.confidence} reference: the ${lang} files were not indexed by the tags indexer alone.`);
      }
      const site = { path: shard.paths[ref.pathIndex]!, line: ref.line, column: ref.column };
      const key = siteKey(site);
      let known = sites.get(key);
      if (!known) sites.set(key, (known = { ...site, name: record.name, kind: ref.kind, candidates: [] }));
      known.candidates.push(...decls);
    }
  }
  const unresolved: RefSite[] = [];
  for (let bucket = 0; bucket < 1 << reader.manifest.layout.unresolvedBucketBits; bucket++) {
    const shard = await reader.shard<UnresolvedShard>(unresolvedShardName(bucket));
    for (const name of shard?.names ?? []) {
      for (const site of shard!.sitesNamed(name)) {
        if (site.lang !== lang) continue;
        const named = byName.get(name) ?? [];
        const usable = named.filter((d) => canName(site.kind, d.kind)).length;
        const why: Unresolved = named.length === 0 ? 'declared nowhere' : usable === 0 ? 'no declaration of a kind this use can name' : `over ${MAX_CANDIDATES} declarations`;
        unresolved.push({ path: site.path, line: site.line, column: site.column, name, kind: site.kind, candidates: [], unresolved: why });
      }
    }
  }
  const order = (a: RefSite, b: RefSite) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column);
  return { resolved: [...sites.values()].sort(order), unresolved: unresolved.sort(order), declarationsAt };
}

function seededSample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

// ---- the language servers (lsp-client.ts) -----------------------------------------------------------

interface Oracle {
  name: OracleName;
  version: string;
  languageId: string;
  start(repo: string): LspClient;
}

const PYRIGHT_VERSION = '1.1.414';

async function pyrightOracle(): Promise<Oracle> {
  const dir = join(TOOLS, `pyright-${PYRIGHT_VERSION}`);
  const server = join(dir, 'node_modules', 'pyright', 'langserver.index.js');
  if (!existsSync(server)) {
    log(`installing pyright@${PYRIGHT_VERSION} under ${relative(process.cwd(), dir)}...`);
    await mkdir(dir, { recursive: true });
    // A package.json of its own, so npm installs here rather than into the workspace above.
    await writeFile(join(dir, 'package.json'), '{ "private": true }\n');
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, `pyright@${PYRIGHT_VERSION}`], { cwd: dir, maxBuffer: 1 << 26 });
  }
  return {
    name: 'pyright', version: PYRIGHT_VERSION, languageId: 'python',
    start: (repo) => LspClient.start('pyright', process.execPath, [server, '--stdio'], { cwd: repo }),
  };
}

async function goplsOracle(): Promise<Oracle> {
  const installed = async () => (await run('dpkg-query', ['-W', '-f', '${Version}', 'gopls']).catch(() => ({ stdout: '' }))).stdout.trim();
  let version = existsSync('/usr/bin/gopls') && existsSync('/usr/bin/go') ? await installed() : '';
  if (!version) {
    if (process.getuid?.() !== 0) throw new Error('gopls is not installed. To fix this, run `apt-get install -y golang-go gopls` as root.');
    log('installing golang-go and gopls (apt-get install)...');
    await run('apt-get', ['install', '-y', '-qq', 'golang-go', 'gopls'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 1 << 26 });
    version = await installed();
  }
  const gopath = join(TOOLS, 'gopath');
  // Module mode over the corpus's own go.mod; nothing is downloaded (go-cmp needs only the standard library).
  const env = { ...process.env, GO111MODULE: 'on', GOPROXY: 'off', GOFLAGS: '-mod=mod', GOPATH: gopath, GOCACHE: join(gopath, 'cache') };
  return {
    name: 'gopls', version: `Debian ${version}`, languageId: 'go',
    start: (repo) => LspClient.start('gopls', '/usr/bin/gopls', ['serve'], { cwd: repo, env }),
  };
}

// ---- 2. containment ---------------------------------------------------------------------------------

interface Target {
  /** Repository-relative; undefined outside the repository. */
  path?: string;
  uri: string;
  line: number;
  column: number;
}

type Verdict = 'contained' | 'missed' | 'outside' | 'nothing' | 'self' | 'error';

interface Judged extends RefSite {
  verdict: Verdict;
  targets: Target[];
  error?: string;
}

interface Miss {
  category: string;
  site: string;
  target: string;
  source: string;
  candidates: number;
}

interface ContainmentReport {
  corpus: string;
  lang: TagsLanguage;
  oracle: string;
  commit: string;
  seed: number;
  /** References the index holds: with candidates, and unresolved by why. */
  population: { resolved: number; unresolved: number; unresolvedBy: Record<string, number>; meanCandidates: number; p90Candidates: number; maxCandidates: number };
  readiness: string;
  strata: Record<'resolved' | 'unresolved', Record<Verdict, number> & { sampled: number }>;
  containment: { candidatesOnly: number; withUnresolved: number };
  misses: Miss[];
  judged: Judged[];
}

async function measureContainment(corpus: Corpus, repo: string, commit: string, oracle: Oracle, options: { sample: number; seed: number }): Promise<ContainmentReport> {
  const out = join(CORPORA_DIR, corpus.id, 'index');
  log(`${corpus.id}: building the index...`);
  await rm(out, { recursive: true, force: true });
  // The tags indexer's answers are measured: no SCIP indexer (scip-python, when installed) takes the files.
  await buildIndex({ repo, commit: 'HEAD', out, repoName: `bench/${corpus.id}`, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), autoScip: false });
  const reader = await IndexReader.open(new DirShardSource(out), new ShardCache(1 << 30));
  const refs = await indexedReferences(reader, corpus.lang);
  const random = seededRandom(options.seed);
  const sample = [...seededSample(refs.resolved, options.sample, random), ...seededSample(refs.unresolved, options.sample, random)];
  log(`  ${refs.resolved.length} references with candidates, ${refs.unresolved.length} unresolved; sampled ${sample.length} (seed ${options.seed})`);

  const root = realpathSync(repo);
  const texts = new Map<string, string[]>();
  const linesOf = async (path: string) => {
    let lines = texts.get(path);
    if (!lines) texts.set(path, (lines = (await readFile(join(root, path), 'utf8').catch(() => '')).split(/\r\n|\n|\r/)));
    return lines;
  };
  const client = oracle.start(root);
  let readiness: string;
  const judged: Judged[] = [];
  try {
    readiness = await openAndSettle(client, oracle, root, sample, linesOf);
    log(`  ${oracle.name}: ${readiness}`);
    for (const site of sample) {
      let targets: Target[];
      try {
        targets = await definition(client, root, site);
      } catch (error) {
        judged.push({ ...site, verdict: 'error', targets: [], error: error instanceof Error ? error.message : String(error) });
        continue;
      }
      judged.push({ ...site, verdict: judge(site, targets), targets });
    }
  } finally {
    await client.close();
  }

  const strata = { resolved: tally(judged.filter((j) => !j.unresolved)), unresolved: tally(judged.filter((j) => j.unresolved)) };
  // Each stratum stands for its population: the unresolved ones the server resolves into the
  // repository are misses in the same proportion as in the sample.
  const r = strata.resolved;
  const u = strata.unresolved;
  const weightR = r.sampled ? refs.resolved.length / r.sampled : 0;
  const weightU = u.sampled ? refs.unresolved.length / u.sampled : 0;
  const counts = refs.resolved.map((s) => s.candidates.length).sort((a, b) => a - b);
  const unresolvedBy: Record<string, number> = {};
  for (const s of refs.unresolved) unresolvedBy[s.unresolved!] = (unresolvedBy[s.unresolved!] ?? 0) + 1;
  const misses: Miss[] = [];
  for (const j of judged.filter((x) => x.verdict === 'missed')) misses.push(await describeMiss(j, corpus.lang, refs.declarationsAt, linesOf));
  return {
    corpus: corpus.id, lang: corpus.lang, oracle: `${oracle.name} ${oracle.version}`, commit, seed: options.seed,
    population: {
      resolved: refs.resolved.length, unresolved: refs.unresolved.length, unresolvedBy,
      meanCandidates: counts.reduce((n, c) => n + c, 0) / Math.max(1, counts.length), p90Candidates: counts[Math.floor(0.9 * (counts.length - 1))] ?? 0, maxCandidates: counts[counts.length - 1] ?? 0,
    },
    readiness, strata,
    containment: {
      candidatesOnly: r.contained / Math.max(1, r.contained + r.missed),
      withUnresolved: (weightR * r.contained) / Math.max(1e-9, weightR * (r.contained + r.missed) + weightU * u.missed),
    },
    misses, judged,
  };
}

function tally(judged: Judged[]): Record<Verdict, number> & { sampled: number } {
  const t = { sampled: judged.length, contained: 0, missed: 0, outside: 0, nothing: 0, self: 0, error: 0 };
  for (const j of judged) t[j.verdict]++;
  return t;
}

/**
 * Opens every file of the sample, waits until the server published diagnostics for each (it has
 * analysed them) and then until a probe (the first 20 sites asked again a second later) answers the
 * same twice in a row: pyright enumerates the workspace asynchronously, gopls loads packages.
 */
async function openAndSettle(client: LspClient, oracle: Oracle, root: string, sample: RefSite[], linesOf: (path: string) => Promise<string[]>): Promise<string> {
  const started = performance.now();
  await client.request('initialize', {
    processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'corpus' }],
    capabilities: { textDocument: { definition: { linkSupport: true }, publishDiagnostics: {} }, workspace: { configuration: true, workspaceFolders: true } },
  }, LSP_READY_MS);
  client.notify('initialized', {});
  const files = [...new Set(sample.map((s) => s.path))];
  const waiting = new Set(files.map((p) => pathToFileURL(join(root, p)).href));
  const diagnosed = new Promise<void>((resolve) => {
    if (waiting.size === 0) resolve();
    client.on('textDocument/publishDiagnostics', (params) => {
      waiting.delete((params as { uri: string }).uri);
      if (waiting.size === 0) resolve();
    });
  });
  for (const path of files) {
    client.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(join(root, path)).href, languageId: oracle.languageId, version: 1, text: (await linesOf(path)).join('\n') } });
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([diagnosed.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), LSP_READY_MS)))]);
  clearTimeout(timer);
  const diagnosedAt = ((performance.now() - started) / 1000).toFixed(1);
  const probe = sample.slice(0, 20);
  let previous = '';
  let round = 0;
  for (; round < 10; round++) {
    const answers = JSON.stringify(await Promise.all(probe.map((s) => definition(client, root, s).catch((e: Error) => e.message))));
    if (answers === previous) break;
    previous = answers;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return `${files.length} files opened; diagnostics for ${files.length - waiting.size} of them after ${diagnosedAt}s${timedOut ? ` (gave up waiting after ${LSP_READY_MS / 1000}s)` : ''}; `
    + `a probe of ${probe.length} definitions stable after ${round + 1} rounds, ${((performance.now() - started) / 1000).toFixed(1)}s from start`;
}

interface LspRange { start: { line: number; character: number } }
type LspLocation = { uri: string; range: LspRange } | { targetUri: string; targetRange: LspRange; targetSelectionRange?: LspRange };

/** The server's definition targets for a site; LSP positions are 0-based lines and UTF-16 characters, Sextant's 1-based. */
async function definition(client: LspClient, root: string, site: RefSite): Promise<Target[]> {
  const answer = await client.request<LspLocation | LspLocation[] | null>('textDocument/definition', {
    textDocument: { uri: pathToFileURL(join(root, site.path)).href }, position: { line: site.line - 1, character: site.column - 1 },
  });
  const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
  return list.map((l) => {
    const [uri, range] = 'targetUri' in l ? [l.targetUri, l.targetSelectionRange ?? l.targetRange] : [l.uri, l.range];
    const path = uri.startsWith('file:') ? relative(root, fileURLToPath(uri)) : '..';
    return { ...(path.startsWith('..') || isAbsolute(path) ? {} : { path }), uri, line: range.start.line + 1, column: range.start.character + 1 };
  });
}

/** The server's target is the site itself: it takes the name there for its declaration. */
function atSite(site: RefSite, target: Target): boolean {
  // pyright points a `*args` or `**kwargs` parameter at its stars.
  return target.path === site.path && target.line === site.line && site.column - target.column >= 0 && site.column - target.column <= 2;
}

/** Contained: one of the server's targets in the repository is a candidate (same path, same line of the name). */
function judge(site: RefSite, targets: Target[]): Verdict {
  if (targets.length === 0) return 'nothing';
  const inRepo = targets.filter((t) => t.path !== undefined);
  if (inRepo.length === 0) return 'outside';
  const others = inRepo.filter((t) => !atSite(site, t));
  if (others.length === 0) return 'self';
  const candidates = new Set(site.candidates.map((c) => `${c.path}:${c.line}`));
  return others.some((t) => candidates.has(`${t.path}:${t.line}`)) ? 'contained' : 'missed';
}

// ---- 3. miss categories ------------------------------------------------------------------------------

async function describeMiss(j: Judged, lang: TagsLanguage, declarationsAt: Map<string, Declaration[]>, linesOf: (path: string) => Promise<string[]>): Promise<Miss> {
  const target = j.targets.find((t) => t.path !== undefined && !atSite(j, t))!;
  const lines = await linesOf(target.path!);
  const text = lines[target.line - 1] ?? '';
  const declared = declarationsAt.get(`${target.path}:${target.line}`) ?? [];
  const same = declared.find((d) => d.name === j.name);
  const other = declared.find((d) => d.column === target.column);
  const shape = same ? `the index declares a ${same.kind} of that name there (a ${j.kind} use)`
    : other ? `the server follows an alias to a ${other.kind} of another name`
    : lang === 'python' ? pythonShape(lines, target.line - 1, j.name, target.column) : goShape(text, j.name, target.column);
  const status = j.unresolved ? `unresolved (${j.unresolved})` : 'candidates lack the target';
  return {
    category: `${status}: ${shape}`, site: `${siteKey(j)} ${j.name} (${j.kind})`, target: `${target.path}:${target.line}:${target.column}  ${text.trim().slice(0, 100)}`,
    source: ((await linesOf(j.path))[j.line - 1] ?? '').trim().slice(0, 120), candidates: j.candidates.length,
  };
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The scope a Python line is in, by the headers above it with less indentation: a function's, a class's or the module's. */
function pythonScope(lines: readonly string[], index: number): 'function' | 'class' | 'module block' | 'module' {
  let indent = indentOf(lines[index] ?? '');
  let scope: 'function' | 'class' | 'module block' | 'module' = 'module';
  for (let i = index - 1; i >= 0 && indent > 0; i--) {
    const line = lines[i]!;
    const trimmed = line.replace(/\s+#.*$/, '').trim();
    // Blank lines, comments and the closing lines of a bracket (`) -> str:`) open no scope.
    if (!trimmed || trimmed.startsWith('#') || /^[)\]}]/.test(trimmed) || indentOf(line) >= indent) continue;
    if (/^(async\s+)?def\b/.test(trimmed)) return 'function';
    if (/^class\b/.test(trimmed)) scope = scope === 'module' ? 'class' : scope;
    else if (trimmed.endsWith(':')) scope = scope === 'module' ? 'module block' : scope;
    else continue;
    indent = indentOf(line);
  }
  return scope;
}

/** What the Python line at `index` declares `name` as, at the server's target column. */
function pythonShape(lines: readonly string[], index: number, name: string, column: number): string {
  const line = lines[index] ?? '';
  const n = escape(name);
  if (column === 1 && !line.startsWith(name)) return 'a module (a file)';
  if (/^\s*(from\s+\S+\s+)?import\b/.test(line)) return 'an import (module or alias)';
  if (new RegExp(`\\bself\\.${n}\\s*(:[^=]*)?=[^=]`).test(line)) return 'an instance attribute assigned in a method (self.x = ...)';
  if (new RegExp(`\\b(cls|self)\\.${n}\\b`).test(line)) return 'an attribute set on self or cls';
  if (new RegExp(`^\\s*["']${n}["'],?\\s*$`).test(line)) return 'a __slots__ entry';
  if (/^\s*(async\s+)?def\s/.test(line)) return new RegExp(`def\\s+${n}\\b`).test(line) ? 'a function the index does not declare' : 'a parameter of an enclosing function';
  if (/^\s*class\s/.test(line)) return 'a class the index does not declare';
  const scope = pythonScope(lines, index);
  const where = scope === 'function' ? 'of an enclosing function' : scope === 'class' ? 'in a class body' : scope === 'module block' ? 'in a top-level if/try/with/for block' : 'at module level';
  if (new RegExp(`\\bfor\\s+[^=]*\\b${n}\\b[^=]*\\bin\\b`).test(line)) return `a loop or comprehension variable ${where}`;
  if (new RegExp(`\\bas\\s+${n}\\b`).test(line)) return `a with/except alias ${where}`;
  if (new RegExp(`(^|[\\s,(])${n}\\s*(:[^=]*)?=[^=]|(^|[\\s(])${n}\\s*,[^=]*=[^=]|,\\s*${n}\\s*\\)?\\s*=[^=]`).test(line)) return `an assignment ${where}`;
  if (new RegExp(`\\b${n}\\s*:`).test(line)) return `an annotated name ${where}`;
  return `another declaration ${where}`;
}

/** What a Go line declares `name` as, at the server's target column. */
function goShape(line: string, name: string, column: number): string {
  const n = escape(name);
  if (column === 1 && !line.startsWith(name)) return 'a package (a file)';
  if (/^\s*import\b|^\s*"[^"]+"\s*$|^\s*\w+\s+"[^"]+"\s*$/.test(line)) return 'an import';
  if (/^\s*(switch|case)\b.*:=.*\.\(type\)/.test(line)) return 'a type switch variable';
  if (new RegExp(`\\b${n}\\b[^:=]*:=`).test(line)) return 'a local (short variable declaration)';
  if (/^\s*func\s/.test(line)) return new RegExp(`func\\s+(\\([^)]*\\)\\s*)?${n}\\b`).test(line) ? 'a function the index does not declare' : 'a parameter, receiver or result';
  if (/^\s+(var|const)\s/.test(line)) return 'a local var or const';
  if (new RegExp(`^\\s+\\*?([\\w]+\\.)?${n}\\s*(//.*)?$`).test(line)) return 'an embedded field';
  if (new RegExp(`^\\s+${n}\\b[\\s,]`).test(line)) return 'a struct field or grouped declaration the index does not declare';
  return 'another declaration';
}

function missReport(report: ContainmentReport, examples: number): string[] {
  const grouped = <T>(items: T[], keyOf: (item: T) => string) => {
    const by = new Map<string, T[]>();
    for (const item of items) (by.get(keyOf(item)) ?? by.set(keyOf(item), []).get(keyOf(item))!).push(item);
    return [...by].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  };
  const out = [`Misses of ${report.corpus} by what the server's target is (${report.misses.length} sampled references; site name (use) → target):`];
  for (const [category, list] of grouped(report.misses, (m) => m.category)) {
    out.push(`- ${list.length}  ${category}`);
    for (const m of list.slice(0, examples)) out.push(`    ${m.site} → ${m.target}`, `        ${m.source}`);
  }
  const self = report.judged.filter((j) => j.verdict === 'self');
  if (self.length) {
    out.push(`Not scored: ${self.length} sampled sites the server takes for the declaration itself (${self.filter((j) => j.unresolved).length} of them unresolved), e.g.`);
    for (const j of self.slice(0, examples)) out.push(`    ${siteKey(j)} ${j.name} (${j.kind}${j.unresolved ? `, unresolved: ${j.unresolved}` : `, ${j.candidates.length} candidates`})`);
  }
  const errors = report.judged.filter((j) => j.verdict === 'error');
  for (const [message, list] of grouped(errors, (j) => (j.error ?? '').replace(/file:\/\/\S+/g, '<file>'))) {
    out.push(`Not scored: ${list.length} sampled sites the server failed on: ${message} (${[...new Set(list.map((j) => j.path))].join(', ')})`);
  }
  return out;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

function containmentTables(reports: ContainmentReport[]): string {
  const out = [
    '| corpus | server | references in the index | sampled | server: in repo | outside repo | nothing | at the site itself | error | contained | containment |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of reports) {
    for (const stratum of ['resolved', 'unresolved'] as const) {
      const t = r.strata[stratum];
      const population = stratum === 'resolved' ? `${r.population.resolved} with candidates` : `${r.population.unresolved} unresolved`;
      const inRepo = t.contained + t.missed;
      out.push(`| ${r.corpus} | ${r.oracle} | ${population} | ${t.sampled} | ${inRepo} | ${t.outside} | ${t.nothing} | ${t.self} | ${t.error} | ${t.contained} `
        + `| ${stratum === 'resolved' ? percent(r.containment.candidatesOnly) : '0% (all misses)'} |`);
    }
  }
  out.push('', '| corpus | containment, unresolved included (headline) | target | | candidates only | candidates per reference: mean | p90 | max | unresolved share of extracted | of those the server resolves into the repository |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of reports) {
    const p = r.population;
    const u = r.strata.unresolved;
    out.push(`| ${r.corpus} | ${percent(r.containment.withUnresolved)} | ≥ ${percent(TARGETS.containment)} | ${r.containment.withUnresolved >= TARGETS.containment ? 'met' : 'NOT met'} `
      + `| ${percent(r.containment.candidatesOnly)} | ${p.meanCandidates.toFixed(2)} | ${p.p90Candidates} | ${p.maxCandidates} `
      + `| ${percent(p.unresolved / Math.max(1, p.resolved + p.unresolved))} (${Object.entries(p.unresolvedBy).map(([why, n]) => `${n} ${why}`).join(', ')}) `
      + `| ${u.missed} of ${u.sampled} sampled (${percent(u.missed / Math.max(1, u.sampled))}) |`);
  }
  return out.join('\n');
}

// ---- main -----------------------------------------------------------------------------------------

const USAGE = 'usage: tsx bench/syntactic-accuracy.ts [--corpus python|go|rust|all|<corpus id>,...] [--sample 300] [--seed 1] [--rounds 5] [--examples 3] [--no-rate] [--no-containment]';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string', default: 'all' }, sample: { type: 'string', default: '300' }, seed: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '5' }, examples: { type: 'string', default: '3' },
      'no-rate': { type: 'boolean', default: false }, 'no-containment': { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const wanted = values.corpus.split(',');
  const corpora = CORPORA.filter((c) => wanted.includes('all') || wanted.includes(c.lang) || wanted.includes(c.id));
  const unknown = wanted.filter((w) => w !== 'all' && !CORPORA.some((c) => c.lang === w || c.id === w));
  if (unknown.length || !corpora.length) {
    process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', `unknown corpus ${unknown.join(', ')}.`, `Pick from all, python, go, rust, ${CORPORA.map((c) => c.id).join(', ')}.`))}\n${USAGE}\n`);
    return 2;
  }
  const sample = positiveOption(values.sample, '--sample', USAGE);
  const rounds = positiveOption(values.rounds, '--rounds', USAGE);
  const examples = positiveOption(values.examples, '--examples', USAGE);
  const seed = Number(values.seed);
  await mkdir(RESULTS, { recursive: true });

  const prepared = new Map<string, { repo: string; commit: string }>();
  for (const corpus of corpora) prepared.set(corpus.id, await prepare(corpus));
  process.stdout.write(`# Syntactic (tags) indexer: extract rate and candidate containment (issue #30)\n\nload average at start: ${loadAverage()}\n\n`);
  for (const corpus of corpora) {
    const { repo, commit } = prepared.get(corpus.id)!;
    process.stdout.write(`- ${corpus.id} at ${shortCommit(commit)}: ${corpus.note}; repository ${relative(process.cwd(), repo)}\n`);
  }

  if (!values['no-rate']) {
    const rates: RateReport[] = [];
    for (const corpus of corpora) {
      log(`${corpus.id}: measuring the extract rate (${rounds} rounds)...`);
      rates.push(await measureRate(corpus, prepared.get(corpus.id)!.repo, rounds));
    }
    await writeFile(join(RESULTS, 'syntactic-rate.json'), `${JSON.stringify(rates, null, 1)}\n`);
    process.stdout.write(`\n## 1. Extract rate against the bare parse (target ≥ ${TARGETS.rate}x), medians of ${rounds} rounds after a warm-up\n\n${rateTable(rates)}\n`);
  }

  const reports: ContainmentReport[] = [];
  const failures: string[] = [];
  if (!values['no-containment']) {
    for (const corpus of corpora.filter((c) => c.oracle)) {
      const { repo, commit } = prepared.get(corpus.id)!;
      try {
        const oracle = corpus.oracle === 'pyright' ? await pyrightOracle() : await goplsOracle();
        const report = await measureContainment(corpus, repo, commit, oracle, { sample, seed });
        reports.push(report);
        await writeFile(join(RESULTS, `syntactic-accuracy-${corpus.id}.json`), `${JSON.stringify(report, null, 1)}\n`);
      } catch (error) {
        failures.push(`- ${corpus.id} against ${corpus.oracle}: the server could not be measured: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    process.stdout.write(`\n## 2. Candidate containment against language servers (target ≥ ${percent(TARGETS.containment)}), seed ${seed}, ${sample} references of each kind sampled\n\n`);
    if (reports.length) process.stdout.write(`${containmentTables(reports)}\n\n${reports.map((r) => `- ${r.corpus}, ${r.oracle}: ${r.readiness}`).join('\n')}\n`);
    if (failures.length) process.stdout.write(`${failures.join('\n')}\n`);
    process.stdout.write('\n## 3. Misses by category\n\n');
    for (const report of reports) process.stdout.write(`${missReport(report, examples).join('\n')}\n(all in ${relative(process.cwd(), join(RESULTS, `syntactic-accuracy-${report.corpus}.json`))})\n\n`);
  }
  process.stdout.write(`load average at end: ${loadAverage()}\n`);
  return failures.length ? 1 : 0;
}


process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
});
// Child processes are killed on exit (process.on('exit')); the tree-sitter runtime keeps no handle open.
process.exit();
