// `indexer build --scip` on real Python (issue #30): what importing a scip-python index costs, and how
// the references it gives agree with pyright's. Corpora are Debian packages that ship sources,
// fetched at bench time (`apt-get download` of a pinned version, `dpkg-deb -x`) into
// indexer/.bench/cache/ (git-ignored) and committed into a git repository of their own, because
// `indexer build` reads only what is tracked at a commit. Tools: @sourcegraph/scip-python (the
// indexer's optional dependency, run from node_modules) and pyright (installed at bench time under
// .bench/cache/tools, the version pinned).
//
// 1. Import cost: scip-python, `indexer build` (tags, the syntactic indexer) and `indexer build
//    --scip` each as its own process under GNU time (wall, CPU, peak RSS), interleaved over --runs
//    runs; the index's shard bytes against the source's and the .scip file's; SCIP documents
//    imported and refused (the manifest's warnings).
// 2. Precision against pyright: a seeded sample of the corpus's declarations (classes, functions,
//    methods, module-level variables, attributes) from the SCIP-imported index; for each, Sextant's
//    find_references (the declaration left out, related members left out, every confidence) against
//    pyright's textDocument/references at the declaration's name (includeDeclaration false).
//    Sites match by path, line and column of the name's start; the conventions aligned and the
//    difference classes are in bench/README.md.
// 3. The tags index of the same commit on the same sample, as a comparison row.
//
//   cd indexer && npm run bench:scip
//   cd indexer && npx tsx bench/scip-import.ts --corpus requests --sample 300 --seed 1 --runs 1
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { fromBinary } from '@bufbuild/protobuf';
import { cliLine, defsOf, formatSymbolId, SextantError, shortCommit, type Manifest } from '@sextant/format';
import { findReferences, IndexReader, nameEntry, resolveTarget, ShardCache, type NameEntry } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
import { IndexSchema } from '../src/scip/scip_pb.ts';
import { positiveOption } from './bench-options.ts';
import { prepareDebianCorpus } from './debian-corpus.ts';
import { LspClient } from './lsp-client.ts';
import { assertGnuTime, GNU_TIME, loadAverage, parseGnuTime } from './measure-process.ts';
import { seededRandom } from './references-accuracy.ts';
import { median } from './text-search-queries.ts';

const run = promisify(execFile);
const CACHE = fileURLToPath(new URL('../.bench/cache/', import.meta.url));
/** Shared with bench/syntactic-accuracy.ts: one download of a package version serves both. */
const CORPORA_DIR = join(CACHE, 'corpora', 'scip-python');
const TOOLS = join(CACHE, 'tools');
const RESULTS = fileURLToPath(new URL('../.bench/results/', import.meta.url));
const INDEXER = fileURLToPath(new URL('../bin/indexer.js', import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

const TARGETS = { recall: 0.99, precision: 0.99 };
const PYRIGHT_VERSION = '1.1.414';
/** Bounds on every wait: a tool run, a download or install, the server's start and one request. */
const TOOL_MS = 600_000;
const FETCH_MS = 300_000;
const LSP_READY_MS = 180_000;
const LSP_REQUEST_MS = 60_000;
/** The kinds sampled: what a Python module declares for other code to use (parameters and locals are not in the names shard). */
const SAMPLED_KINDS = new Set(['class', 'function', 'method', 'variable', 'property']);

interface Corpus {
  id: string;
  pkg: string;
  version: string;
  /** The package directory under usr/lib/python3/dist-packages: the repository's only folder, so its absolute imports resolve. */
  dir: string;
  note: string;
}

const CORPORA: readonly Corpus[] = [
  { id: 'rich', pkg: 'python3-rich', version: '13.3.1-1', dir: 'rich', note: 'rich 13.3.1 (Debian python3-rich)' },
  { id: 'requests', pkg: 'python3-requests', version: '2.28.1+dfsg-1', dir: 'requests', note: 'requests 2.28.1 (Debian python3-requests; its dependencies urllib3, idna, chardet, certifi are not in the corpus)' },
];

// ---- corpora ------------------------------------------------------------------------------------

interface Prepared {
  repo: string;
  commit: string;
  files: string[];
  sourceBytes: number;
  lines: number;
}

/** The corpus's git repository (made once per package version; cached), its commit and its Python files. */
async function prepare(corpus: Corpus): Promise<Prepared> {
  // The package as its own folder at the root, so that its absolute imports resolve in the repository.
  const { repo, commit } = await prepareDebianCorpus({
    id: corpus.id, pkg: corpus.pkg, version: corpus.version, from: `usr/lib/python3/dist-packages/${corpus.dir}`, to: corpus.dir,
    skip: (path) => path.includes('__pycache__'),
  }, CACHE, 'scip-python', log);
  const tracked = (await run('git', ['ls-files', '-z'], { cwd: repo, maxBuffer: 1 << 26 })).stdout.split('\0').filter(Boolean).sort();
  let sourceBytes = 0;
  let lines = 0;
  for (const path of tracked) {
    const text = await readFile(join(repo, path));
    sourceBytes += text.byteLength;
    if (path.endsWith('.py')) lines += text.toString('utf8').split('\n').length - (text.at(-1) === 10 ? 1 : 0);
  }
  return { repo, commit, files: tracked.filter((p) => p.endsWith('.py')), sourceBytes, lines };
}

// ---- tools --------------------------------------------------------------------------------------

function scipPythonTool(): { script: string; version: string } {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve('@sourcegraph/scip-python/package.json');
  } catch {
    throw new Error('@sourcegraph/scip-python is not installed. To fix this, run `npm install` at the workspace root (it is an optional dependency of the indexer).');
  }
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { script: join(dirname(manifest), 'index.js'), version: pkg.version };
}

async function pyrightServer(): Promise<string> {
  const dir = join(TOOLS, `pyright-${PYRIGHT_VERSION}`);
  const server = join(dir, 'node_modules', 'pyright', 'langserver.index.js');
  if (!existsSync(server)) {
    log(`installing pyright@${PYRIGHT_VERSION} under ${relative(process.cwd(), dir)}...`);
    await mkdir(dir, { recursive: true });
    // A package.json of its own, so npm installs here rather than into the workspace above.
    await writeFile(join(dir, 'package.json'), '{ "private": true }\n');
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, `pyright@${PYRIGHT_VERSION}`], { cwd: dir, maxBuffer: 1 << 26, timeout: FETCH_MS });
  }
  return server;
}

// ---- 1. import cost -------------------------------------------------------------------------------

interface Timed {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  stderr: string;
}

/** One tool as its own process under GNU time, killed (its whole process group) past TOOL_MS. */
async function timed(label: string, args: string[], cwd: string, timeFile: string): Promise<Timed> {
  await rm(timeFile, { force: true });
  const child = spawn(GNU_TIME, ['-v', '-o', timeFile, process.execPath, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch { /* already gone */ }
  };
  process.on('exit', kill);
  const stderr: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  let timer: NodeJS.Timeout | undefined;
  const code = await new Promise<number | string>((resolve, reject) => {
    timer = setTimeout(() => {
      kill();
      resolve(`killed after ${TOOL_MS / 1000}s`);
    }, TOOL_MS);
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? -1));
  }).finally(() => {
    clearTimeout(timer);
    process.off('exit', kill);
  });
  const text = Buffer.concat(stderr).toString('utf8');
  if (code !== 0) throw new Error(`${label} failed (${code}): ${text.slice(-1500)}`);
  const report = parseGnuTime(await readFile(timeFile, 'utf8'));
  return { wallSeconds: report.wallSeconds, cpuSeconds: report.userSeconds + report.systemSeconds, peakRssBytes: report.peakRssBytes, stderr: text };
}

interface CostReport {
  corpus: string;
  files: number;
  lines: number;
  sourceBytes: number;
  runs: number;
  scipPython: { wall: number; cpu: number; rss: number };
  tags: { wall: number; cpu: number; rss: number; shardBytes: number };
  scip: { wall: number; cpu: number; rss: number; shardBytes: number };
  /** `indexer build` as it runs by default: scip-python run by the build itself, then imported. */
  auto: { wall: number; cpu: number; rss: number };
  /** Python's precision in each build's manifest. */
  precision: { tags: string; scip: string; auto: string };
  scipFileBytes: number;
  scipDocuments: number;
  scipOccurrences: number;
  imported: number;
  refused: string[];
  /** The scip build's shard bytes by folder (symbols, files, texts, grams, ...). */
  shardsByFolder: Record<string, number>;
  warnings: string[];
}

interface CorpusPaths {
  scipFile: string;
  tagsIndex: string;
  scipIndex: string;
}

const pathsOf = (corpus: Corpus): CorpusPaths => {
  const dir = join(CORPORA_DIR, corpus.id);
  return { scipFile: join(dir, 'index.scip'), tagsIndex: join(dir, 'index-tags'), scipIndex: join(dir, 'index-scip') };
};

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** scip-python, the tags build and the --scip build, interleaved over `runs`; medians. The last run's outputs stay for the accuracy half. */
async function measureCost(corpus: Corpus, prepared: Prepared, runs: number): Promise<CostReport> {
  const tool = scipPythonTool();
  const paths = pathsOf(corpus);
  const dir = dirname(paths.scipFile);
  const env = join(dir, 'env.json');
  // No packages: scip-python would otherwise run `pip` to list the environment's.
  await writeFile(env, '[]\n');
  const timeFile = join(dir, 'time.txt');
  const samples = { scipPython: [] as Timed[], tags: [] as Timed[], scip: [] as Timed[], auto: [] as Timed[] };
  const build = (out: string, ...flags: string[]) => [INDEXER, 'build', '--repo', prepared.repo, '--commit', prepared.commit, '--out', out, '--repo-name', `bench/${corpus.id}`, ...flags];
  const autoIndex = join(dir, 'index-auto');
  for (let i = 0; i < runs; i++) {
    log(`${corpus.id}: run ${i + 1} of ${runs}: scip-python ${tool.version}; indexer build --no-auto-scip; --scip; with scip-python run by the build...`);
    await rm(paths.scipFile, { force: true });
    samples.scipPython.push(await timed('scip-python', [tool.script, 'index', '--project-name', corpus.id, '--project-version', '0', '--cwd', prepared.repo,
      '--output', paths.scipFile, '--environment', env, '--quiet'], prepared.repo, timeFile));
    // The build runs installed SCIP indexers by itself unless told not to: the syntactic build is --no-auto-scip.
    await rm(paths.tagsIndex, { recursive: true, force: true });
    samples.tags.push(await timed('indexer build --no-auto-scip', build(paths.tagsIndex, '--no-auto-scip'), dir, timeFile));
    await rm(paths.scipIndex, { recursive: true, force: true });
    samples.scip.push(await timed('indexer build --scip', build(paths.scipIndex, '--scip', paths.scipFile), dir, timeFile));
    await rm(autoIndex, { recursive: true, force: true });
    samples.auto.push(await timed('indexer build', build(autoIndex), dir, timeFile));
  }
  const tagsManifest = JSON.parse(await readFile(join(paths.tagsIndex, 'manifest.json'), 'utf8')) as Manifest;
  const autoManifest = JSON.parse(await readFile(join(autoIndex, 'manifest.json'), 'utf8')) as Manifest;
  await rm(autoIndex, { recursive: true, force: true });
  const medians = (list: Timed[]) => ({ wall: median(list.map((t) => t.wallSeconds)), cpu: median(list.map((t) => t.cpuSeconds)), rss: median(list.map((t) => t.peakRssBytes)) });
  const scipBytes = await readFile(paths.scipFile);
  const index = fromBinary(IndexSchema, scipBytes);
  const manifest = JSON.parse(await readFile(join(paths.scipIndex, 'manifest.json'), 'utf8')) as Manifest;
  const refused = manifest.warnings.filter((w) => /SCIP document from .* refused/.test(w));
  const imported = Number(/imported (\d+) files from SCIP/.exec(samples.scip.at(-1)!.stderr)?.[1] ?? NaN);
  const shardsByFolder: Record<string, number> = {};
  for (const [name, shard] of Object.entries(manifest.shards as Record<string, { bytes: number }>)) {
    const folder = name.includes('/') ? name.slice(0, name.indexOf('/')) : name;
    shardsByFolder[folder] = (shardsByFolder[folder] ?? 0) + shard.bytes;
  }
  return {
    corpus: corpus.id, files: prepared.files.length, lines: prepared.lines, sourceBytes: prepared.sourceBytes, runs,
    scipPython: medians(samples.scipPython),
    tags: { ...medians(samples.tags), shardBytes: await dirBytes(paths.tagsIndex) },
    scip: { ...medians(samples.scip), shardBytes: await dirBytes(paths.scipIndex) },
    auto: medians(samples.auto),
    precision: { tags: tagsManifest.languages.python?.precision ?? '-', scip: manifest.languages.python?.precision ?? '-', auto: autoManifest.languages.python?.precision ?? '-' },
    scipFileBytes: scipBytes.byteLength, scipDocuments: index.documents.length,
    scipOccurrences: index.documents.reduce((n, d) => n + d.occurrences.length, 0),
    imported, refused, shardsByFolder, warnings: manifest.warnings,
  };
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
const seconds = (s: number) => s.toFixed(2);

function costTables(reports: CostReport[]): string {
  const out = [
    '| corpus | .py files | lines | source MB | scip-python wall s | CPU s | peak RSS MB | .scip MB | build --no-auto-scip (tags) wall s | CPU s | peak RSS MB | build --scip wall s | CPU s | peak RSS MB | --scip / tags wall | build (runs scip-python itself) wall s | peak RSS MB | scip-python + --scip wall s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of reports) {
    out.push(`| ${r.corpus} | ${r.files} | ${r.lines} | ${mb(r.sourceBytes)} | ${seconds(r.scipPython.wall)} | ${seconds(r.scipPython.cpu)} | ${mb(r.scipPython.rss)} | ${mb(r.scipFileBytes)} `
      + `| ${seconds(r.tags.wall)} | ${seconds(r.tags.cpu)} | ${mb(r.tags.rss)} | ${seconds(r.scip.wall)} | ${seconds(r.scip.cpu)} | ${mb(r.scip.rss)} | ${(r.scip.wall / r.tags.wall).toFixed(2)}x `
      + `| ${seconds(r.auto.wall)} | ${mb(r.auto.rss)} | ${seconds(r.scipPython.wall + r.scip.wall)} |`);
  }
  out.push('', '| corpus | index (tags) MB | index (--scip) MB | --scip index / source | --scip index / .scip | scip shards by folder (MB) | SCIP documents | occurrences | imported | refused |',
    '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const r of reports) {
    const folders = Object.entries(r.shardsByFolder).sort((a, b) => b[1] - a[1]).map(([f, n]) => `${f} ${mb(n)}`).join(', ');
    out.push(`| ${r.corpus} | ${mb(r.tags.shardBytes)} | ${mb(r.scip.shardBytes)} | ${(r.scip.shardBytes / r.sourceBytes).toFixed(2)}x | ${(r.scip.shardBytes / r.scipFileBytes).toFixed(2)}x `
      + `| ${folders} | ${r.scipDocuments} | ${r.scipOccurrences} | ${r.imported} | ${r.refused.length} |`);
  }
  for (const r of reports) {
    out.push(`- ${r.corpus}: Python's precision in the manifest: ${r.precision.tags} (--no-auto-scip), ${r.precision.scip} (--scip), ${r.precision.auto} (default build)`);
    for (const w of r.refused) out.push(`- ${r.corpus}: ${w}`);
  }
  return out.join('\n');
}

// ---- 2. and 3. references against pyright ---------------------------------------------------------

interface Site {
  path: string;
  line: number;
  column: number;
}

const siteKey = (s: Site) => `${s.path}:${s.line}:${s.column}`;

interface Declaration extends Site {
  name: string;
  kind: string;
  qname: string;
  symbolId: string;
}

type Side = 'pyright only' | 'Sextant only';

interface Difference extends Site {
  side: Side;
  index: 'scip' | 'tags';
  class: string;
  /** Aligned: a convention of one side (not counted against either); else a difference that counts. */
  aligned: boolean;
  source: string;
  declaration: string;
  /** What the --scip index names at the site. */
  named: string;
}

interface Scored {
  declaration: Declaration;
  pyright: string[];
  scip: string[];
  /** undefined: the tags index declares nothing at the declaration's name. */
  tags?: string[];
  error?: string;
}

interface Tally {
  declarations: number;
  pyright: number;
  ours: number;
  common: number;
  identical: number;
}

const emptyTally = (): Tally => ({ declarations: 0, pyright: 0, ours: 0, common: 0, identical: 0 });

interface AccuracyReport {
  corpus: string;
  commit: string;
  seed: number;
  pool: Record<string, number>;
  readiness: string;
  pyrightMs: { median: number; max: number };
  /** By index, raw and after the alignments; per kind. */
  tallies: Record<'scip' | 'tags', { raw: Tally; aligned: Tally; byKind: Record<string, Tally> }>;
  tagsUndeclared: number;
  errors: { declaration: string; error: string }[];
  differences: Difference[];
}

/** Every reference find_references gives for the symbol, every page, the declaration and related members left out. */
async function ourSites(reader: IndexReader, symbolId: string): Promise<string[]> {
  const sites: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await findReferences(reader, { symbolId }, { includeDeclaration: false, includeRelated: false, minConfidence: 'candidate', limit: 2000, ...(cursor ? { cursor } : {}) });
    for (const hit of page.references) sites.push(siteKey(hit));
    cursor = page.nextCursor;
  } while (cursor);
  return [...new Set(sites)].sort();
}

/** The declarations of the sampled kinds the index holds, in one order on every machine. */
async function declarationsOf(reader: IndexReader): Promise<{ all: Declaration[]; byKind: Record<string, number> }> {
  const names = await reader.names();
  const all: Declaration[] = [];
  const byKind: Record<string, number> = {};
  for (let i = 0; i < names.size; i++) {
    if (names.isExternal(i)) continue;
    const entry: NameEntry = nameEntry(names, i);
    if (entry.lang !== 'python' || !SAMPLED_KINDS.has(entry.kind) || !entry.path || entry.line <= 0) continue;
    byKind[entry.kind] = (byKind[entry.kind] ?? 0) + 1;
    all.push({ name: entry.name, kind: entry.kind, qname: entry.qname, path: entry.path, line: entry.line, column: entry.column, symbolId: formatSymbolId(entry.key, reader.commit) });
  }
  all.sort((a, b) => (siteKey(a) < siteKey(b) ? -1 : siteKey(a) > siteKey(b) ? 1 : a.qname < b.qname ? -1 : 1));
  return { all, byKind };
}

async function tagsDeclarationsAt(reader: IndexReader): Promise<Map<string, string>> {
  const names = await reader.names();
  const at = new Map<string, string>();
  for (let i = 0; i < names.size; i++) {
    if (names.isExternal(i)) continue;
    const entry = nameEntry(names, i);
    if (entry.path && entry.line > 0 && !at.has(siteKey(entry))) at.set(siteKey(entry), formatSymbolId(entry.key, reader.commit));
  }
  return at;
}

interface LspRange { start: { line: number; character: number }; end: { line: number; character: number } }

/** pyright's hints for code it does not analyse: "Code is unreachable", "Code is structurally unreachable", "Code is not analyzed because condition is statically evaluated as false". */
const UNREACHABLE = /unreachable|not analyzed/i;
/** By path: the ranges pyright does not analyse, with its message. */
type Unreachable = Map<string, { range: LspRange; message: string }[]>;

/** pyright's message when it does not analyse the site (a 1-based position; the range's end exclusive). */
function unreachableAt(unreachable: Unreachable, site: Site): string | undefined {
  const line = site.line - 1;
  const character = site.column - 1;
  const inside = (r: LspRange) => (line > r.start.line || (line === r.start.line && character >= r.start.character)) && (line < r.end.line || (line === r.end.line && character < r.end.character));
  return unreachable.get(site.path)?.find((u) => inside(u.range))?.message;
}

/** pyright's references at the declaration's name; LSP positions are 0-based lines and UTF-16 characters, Sextant's 1-based. */
async function pyrightReferences(client: LspClient, root: string, site: Site): Promise<string[]> {
  const answer = await client.request<{ uri: string; range: LspRange }[] | null>('textDocument/references', {
    textDocument: { uri: pathToFileURL(join(root, site.path)).href }, position: { line: site.line - 1, character: site.column - 1 },
    context: { includeDeclaration: false },
  }, LSP_REQUEST_MS);
  const sites = (answer ?? []).map((l) => {
    const path = relative(root, fileURLToPath(l.uri));
    return siteKey({ path: path.startsWith('..') ? l.uri : path, line: l.range.start.line + 1, column: l.range.start.character + 1 });
  });
  return [...new Set(sites)].sort();
}

/**
 * Opens every Python file of the corpus (pyright then answers references from all of them rather
 * than from whatever its background enumeration of the workspace has reached), waits until it has
 * published diagnostics for each, then until a probe of references answers the same twice in a row.
 */
async function startPyright(server: string, root: string, files: string[], probe: Declaration[]): Promise<{ client: LspClient; readiness: string; unreachable: Unreachable }> {
  const started = performance.now();
  const client = LspClient.start('pyright', process.execPath, [server, '--stdio'], { cwd: root });
  await client.request('initialize', {
    processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'corpus' }],
    // tagSupport: pyright then reports the code it does not analyse (unreachable) as hints tagged Unnecessary.
    capabilities: { textDocument: { references: {}, publishDiagnostics: { tagSupport: { valueSet: [1, 2] } } }, workspace: { configuration: true, workspaceFolders: true } },
  }, LSP_READY_MS);
  client.notify('initialized', {});
  const waiting = new Set(files.map((p) => pathToFileURL(join(root, p)).href));
  const unreachable: Unreachable = new Map();
  const diagnosed = new Promise<void>((resolve) => {
    client.on('textDocument/publishDiagnostics', (params) => {
      const { uri, diagnostics } = params as { uri: string; diagnostics: { range: LspRange; message: string; tags?: number[] }[] };
      const path = relative(root, fileURLToPath(uri));
      unreachable.set(path, diagnostics.filter((d) => d.tags?.includes(1) && UNREACHABLE.test(d.message)).map((d) => ({ range: d.range, message: d.message })));
      waiting.delete(uri);
      if (waiting.size === 0) resolve();
    });
  });
  for (const path of files) {
    client.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(join(root, path)).href, languageId: 'python', version: 1, text: await readFile(join(root, path), 'utf8') } });
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([diagnosed.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), LSP_READY_MS)))]);
  clearTimeout(timer);
  const diagnosedAt = ((performance.now() - started) / 1000).toFixed(1);
  let previous = '';
  let round = 0;
  for (; round < 10; round++) {
    const answers = JSON.stringify(await Promise.all(probe.map((d) => pyrightReferences(client, root, d).catch((e: Error) => e.message))));
    if (answers === previous) break;
    previous = answers;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return {
    client, unreachable,
    readiness: `pyright ${PYRIGHT_VERSION}: ${files.length} files opened; diagnostics for ${files.length - waiting.size} of them after ${diagnosedAt}s${timedOut ? ` (gave up waiting after ${LSP_READY_MS / 1000}s)` : ''}; `
      + `a probe of ${probe.length} declarations' references stable after ${round + 1} rounds, ${((performance.now() - started) / 1000).toFixed(1)}s from start`,
  };
}

async function measureAccuracy(corpus: Corpus, prepared: Prepared, server: string, options: { sample: number; seed: number }): Promise<AccuracyReport> {
  const paths = pathsOf(corpus);
  const scipReader = await IndexReader.open(new DirShardSource(paths.scipIndex), new ShardCache(1 << 30));
  const tagsReader = await IndexReader.open(new DirShardSource(paths.tagsIndex), new ShardCache(1 << 30));
  const { all, byKind } = await declarationsOf(scipReader);
  const random = seededRandom(options.seed);
  const pool = [...all];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const sample = pool.slice(0, options.sample);
  log(`${corpus.id}: ${all.length} declarations of the sampled kinds in the --scip index; sampling ${sample.length} (seed ${options.seed})`);
  const tagsAt = await tagsDeclarationsAt(tagsReader);

  const root = realpathSync(prepared.repo);
  const { client, readiness, unreachable } = await startPyright(server, root, prepared.files, sample.slice(0, 5));
  log(`  ${readiness}`);
  const scored: Scored[] = [];
  const times: number[] = [];
  const askedFrom = performance.now();
  try {
    for (const [i, declaration] of sample.entries()) {
      if (i % 50 === 0) log(`  ${i} of ${sample.length} declarations asked, ${((performance.now() - askedFrom) / 1000).toFixed(1)}s`);
      const started = performance.now();
      let pyright: string[];
      try {
        pyright = await pyrightReferences(client, root, declaration);
      } catch (error) {
        scored.push({ declaration, pyright: [], scip: [], error: error instanceof Error ? error.message : String(error) });
        continue;
      }
      times.push(performance.now() - started);
      const tagsId = tagsAt.get(siteKey(declaration));
      scored.push({ declaration, pyright, scip: await ourSites(scipReader, declaration.symbolId), ...(tagsId ? { tags: await ourSites(tagsReader, tagsId) } : {}) });
    }
  } finally {
    await client.close();
  }

  const texts = new Map<string, string[]>();
  const linesOf = async (path: string) => {
    let lines = texts.get(path);
    if (!lines) texts.set(path, (lines = (await readFile(join(root, path), 'utf8').catch(() => '')).split(/\r\n|\n|\r/)));
    return lines;
  };
  const differences: Difference[] = [];
  const tallies = {
    scip: { raw: emptyTally(), aligned: emptyTally(), byKind: {} as Record<string, Tally> },
    tags: { raw: emptyTally(), aligned: emptyTally(), byKind: {} as Record<string, Tally> },
  };
  for (const s of scored.filter((x) => !x.error)) {
    for (const index of ['scip', 'tags'] as const) {
      const ours = index === 'scip' ? s.scip : s.tags ?? [];
      const theirs = new Set(s.pyright);
      const mine = new Set(ours);
      const diffs: Difference[] = [];
      for (const [side, list, other] of [['pyright only', s.pyright, mine], ['Sextant only', ours, theirs]] as const) {
        for (const key of list) {
          if (other.has(key)) continue;
          const site = parseSiteKey(key);
          const lines = await linesOf(site.path);
          const what = await classify({ side, site, lines, declaration: s.declaration, scipReader, unreachable });
          diffs.push({ ...site, side, index, ...what, source: (lines[site.line - 1] ?? '').trim().slice(0, 140), declaration: `${s.declaration.kind} ${s.declaration.qname} ${siteKey(s.declaration)}` });
        }
      }
      differences.push(...diffs);
      const ignored = new Set(diffs.filter((d) => d.aligned).map((d) => `${d.side}|${siteKey(d)}`));
      const alignedTheirs = s.pyright.filter((k) => !ignored.has(`pyright only|${k}`));
      const alignedMine = ours.filter((k) => !ignored.has(`Sextant only|${k}`));
      add(tallies[index].raw, s.pyright, ours);
      add(tallies[index].aligned, alignedTheirs, alignedMine);
      add((tallies[index].byKind[s.declaration.kind] ??= emptyTally()), alignedTheirs, alignedMine);
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    corpus: corpus.id, commit: prepared.commit, seed: options.seed, pool: byKind, readiness,
    pyrightMs: { median: median(times), max: sorted.at(-1) ?? 0 },
    tallies, tagsUndeclared: scored.filter((s) => !s.error && !s.tags).length,
    errors: scored.filter((s) => s.error).map((s) => ({ declaration: `${s.declaration.qname} ${siteKey(s.declaration)}`, error: s.error! })),
    differences,
  };
}

function add(tally: Tally, theirs: readonly string[], ours: readonly string[]): void {
  const mine = new Set(ours);
  const common = theirs.filter((k) => mine.has(k)).length;
  tally.declarations++;
  tally.pyright += theirs.length;
  tally.ours += ours.length;
  tally.common += common;
  if (common === theirs.length && common === ours.length) tally.identical++;
}

function parseSiteKey(key: string): Site {
  const match = /^(.*):(\d+):(\d+)$/.exec(key)!;
  return { path: match[1]!, line: Number(match[2]), column: Number(match[3]) };
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface ClassifyInput {
  side: Side;
  site: Site;
  lines: readonly string[];
  declaration: Declaration;
  scipReader: IndexReader;
  unreachable: Unreachable;
}

/**
 * What a difference is, by the site's source line, where pyright does not analyse, and what the
 * --scip index names at the site. Aligned classes are conventions of one side (README: Matching
 * rule); the others count.
 */
async function classify({ side, site, lines, declaration, scipReader, unreachable }: ClassifyInput): Promise<{ class: string; aligned: boolean; named: string }> {
  let named: string;
  try {
    const loaded = await resolveTarget(scipReader, site);
    let where = '';
    for (const def of defsOf(loaded.record)) {
      where = ` (${loaded.shard.paths[def.pathIndex]}:${def.line})`;
      break;
    }
    named = loaded.record.qname === declaration.qname && loaded.record.kind === declaration.kind ? 'the declaration' : `${loaded.record.kind} ${loaded.record.qname}${where}`;
  } catch {
    named = 'nothing';
  }
  const here = unreachableAt(unreachable, site);
  if (here) return { class: `${side}: in code pyright does not analyse on Linux ("${here}")`, aligned: true, named };
  const there = unreachableAt(unreachable, declaration);
  if (there) return { class: `${side}: the declaration is in code pyright does not analyse on Linux ("${there}"), so pyright resolves no use of it`, aligned: true, named };
  const source = lines[site.line - 1] ?? '';
  const n = escape(declaration.name);
  const at = source.slice(site.column - 1);
  const before = source.slice(0, site.column - 1);
  const listed = /["']$/.test(before) ? stringListOf(lines, site.line - 1) : undefined;
  if (listed) return { class: `${side}: a string in ${listed} (pyright resolves the names listed there; SCIP occurrences are identifiers)`, aligned: true, named };
  const word = /^\w+/.exec(at)?.[0] ?? '';
  const importing = inImport(lines, site.line - 1);
  if (importing && /\bas\s+$/.test(before) && word === declaration.name) {
    return { class: `${side}: the second name of \`import X as X\` (a re-export; pyright reports the alias, scip-python one occurrence over \`X as X\`)`, aligned: true, named };
  }
  if (word && word !== declaration.name) {
    if (/\.\s*$/.test(before) && declaration.kind === 'class' && named === 'the declaration') {
      return { class: `${side}: an attribute (\`obj.attr\`) that scip-python names as the class of obj, not as the attribute`, aligned: false, named };
    }
    if (new RegExp(`\\b${n}\\s+as\\s+${escape(word)}\\b`).test(lines.join('\n'))) {
      return { class: `${side}: a use under an import alias (\`import X as Y\`, then \`Y\`: pyright takes the alias for a name of its own)`, aligned: true, named };
    }
  }
  const shape = importing ? 'an import'
    : /^\s*(async\s+)?def\s+$/.test(before) ? 'a def'
    : /^\s*class\s+$/.test(before) ? 'a class statement'
    : new RegExp(`^${n}\\s*=[^=]`).test(at) && /[(,]\s*$/.test(before) ? 'a keyword argument'
    : /\b(self|cls)\.$/.test(before) && new RegExp(`^${n}\\s*(:[^=]*)?=[^=]`).test(at) ? 'an attribute write (self.x = ...)'
    : /["']$/.test(before) ? 'a name in a string (a forward-reference annotation)'
    : /#/.test(before) ? 'a comment'
    : 'a use';
  const what = named === 'nothing' ? 'no occurrence' : named === 'the declaration' ? 'the declaration' : 'another symbol';
  return { class: `${side}: ${shape}; the --scip index names ${what} there`, aligned: false, named };
}

/** The line (its comment left out) is a comma-separated list of items, each matching `item`, or empty. */
function listOf(line: string, item: RegExp): boolean {
  return line.replace(/#.*$/, '').split(',').map((part) => part.trim()).every((part) => part === '' || item.test(part));
}

/** The line at `index` is an import statement, or a line of a parenthesized one's names. */
function inImport(lines: readonly string[], index: number): boolean {
  for (let i = index; i >= 0 && i > index - 60; i--) {
    if (/^\s*(from\s+\S+\s+)?import\b/.test(lines[i]!)) return true;
    if (!listOf(lines[i]!, /^(\w+(\s+as\s+\w+)?|\(|\))$/)) return false;
  }
  return false;
}

/** `__slots__` or `__all__` when the string at line `index` is an entry of one (the list may span lines). */
function stringListOf(lines: readonly string[], index: number): string | undefined {
  for (let i = index; i >= 0 && i > index - 60; i--) {
    const list = /\b(__slots__|__all__)\s*(:[^=]*)?[+]?=/.exec(lines[i]!)?.[1];
    if (list) return list;
    if (i < index && !listOf(lines[i]!, /^(["'][^"']*["']|[[(])$/)) return undefined;
  }
  return undefined;
}

const percent = (x: number) => `${(100 * x).toFixed(2)}%`;
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

function accuracyTables(reports: AccuracyReport[]): string {
  const out = [
    '| corpus | index | declarations | pyright sites | Sextant sites | common | recall | target | precision | target | identical sets | raw recall | raw precision |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const rows = [...reports.map((r) => [r.corpus, r.tallies] as const)];
  if (reports.length > 1) {
    const sum = (index: 'scip' | 'tags', which: 'raw' | 'aligned') => reports.reduce((t, r) => {
      const x = r.tallies[index][which];
      return { declarations: t.declarations + x.declarations, pyright: t.pyright + x.pyright, ours: t.ours + x.ours, common: t.common + x.common, identical: t.identical + x.identical };
    }, emptyTally());
    rows.push(['all', { scip: { raw: sum('scip', 'raw'), aligned: sum('scip', 'aligned'), byKind: {} }, tags: { raw: sum('tags', 'raw'), aligned: sum('tags', 'aligned'), byKind: {} } }]);
  }
  for (const [corpus, tallies] of rows) {
    for (const index of ['scip', 'tags'] as const) {
      const t = tallies[index].aligned;
      const raw = tallies[index].raw;
      const recall = ratio(t.common, t.pyright);
      const precision = ratio(t.common, t.ours);
      const met = (x: number, target: number) => (index === 'tags' ? `(${percent(target)})` : `≥ ${percent(target)} ${x >= target ? 'met' : 'NOT met'}`);
      out.push(`| ${corpus} | ${index === 'scip' ? '--scip (scip-python)' : 'tags (syntactic), for comparison'} | ${t.declarations} | ${t.pyright} | ${t.ours} | ${t.common} `
        + `| ${percent(recall)} | ${met(recall, TARGETS.recall)} | ${percent(precision)} | ${met(precision, TARGETS.precision)} | ${t.identical} (${percent(t.identical / Math.max(1, t.declarations))}) `
        + `| ${percent(ratio(raw.common, raw.pyright))} | ${percent(ratio(raw.common, raw.ours))} |`);
    }
  }
  out.push('', '| corpus | kind | declarations in the pool | sampled | --scip recall | --scip precision | identical | tags recall | tags precision |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of reports) {
    for (const kind of Object.keys(r.pool).sort()) {
      const s = r.tallies.scip.byKind[kind] ?? emptyTally();
      const t = r.tallies.tags.byKind[kind] ?? emptyTally();
      out.push(`| ${r.corpus} | ${kind} | ${r.pool[kind]} | ${s.declarations} | ${percent(ratio(s.common, s.pyright))} | ${percent(ratio(s.common, s.ours))} | ${s.identical} `
        + `| ${percent(ratio(t.common, t.pyright))} | ${percent(ratio(t.common, t.ours))} |`);
    }
  }
  for (const r of reports) {
    out.push('', `- ${r.corpus}: ${r.readiness}; references answered in ${r.pyrightMs.median.toFixed(0)} ms (median), ${r.pyrightMs.max.toFixed(0)} ms at most`
      + `${r.tagsUndeclared ? `; the tags index declares nothing at ${r.tagsUndeclared} of the sampled names (all their pyright sites count as misses)` : ''}`);
    for (const e of r.errors) out.push(`- ${r.corpus}: not scored: ${e.declaration}: ${e.error}`);
  }
  return out.join('\n');
}

function differenceReport(reports: AccuracyReport[], examples: number): string {
  const out: string[] = [];
  for (const index of ['scip', 'tags'] as const) {
    const all = reports.flatMap((r) => r.differences.filter((d) => d.index === index).map((d) => ({ ...d, corpus: r.corpus })));
    const by = new Map<string, typeof all>();
    for (const d of all) (by.get(d.class) ?? by.set(d.class, []).get(d.class)!).push(d);
    out.push(`${index === 'scip' ? 'The --scip index' : 'The tags index'} against pyright: ${all.length} differing sites${index === 'tags' ? ' (classes only; the tags index is not expected to match)' : ''}`);
    for (const [name, list] of [...by].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
      out.push(`- ${list.length}  ${name}${list[0]!.aligned ? ' (aligned: not counted)' : ''}`);
      if (index === 'tags') continue;
      for (const d of list.slice(0, examples)) out.push(`    ${d.corpus}: ${siteKey(d)}  ${d.source}`, `        for ${d.declaration}; the --scip index names ${d.named} there`);
    }
    out.push('');
  }
  return out.join('\n');
}

// ---- main -----------------------------------------------------------------------------------------

const USAGE = 'usage: tsx bench/scip-import.ts [--corpus rich|requests|all] [--sample 300] [--seed 1] [--runs 3] [--examples 3] [--no-cost]';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string', default: 'all' }, sample: { type: 'string', default: '300' }, seed: { type: 'string', default: '1' },
      runs: { type: 'string', default: '3' }, examples: { type: 'string', default: '3' }, 'no-cost': { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const wanted = values.corpus.split(',');
  const corpora = CORPORA.filter((c) => wanted.includes('all') || wanted.includes(c.id));
  const unknown = wanted.filter((w) => w !== 'all' && !CORPORA.some((c) => c.id === w));
  if (unknown.length || !corpora.length) {
    process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', `unknown corpus ${unknown.join(', ')}.`, `Pick from all, ${CORPORA.map((c) => c.id).join(', ')}.`))}\n${USAGE}\n`);
    return 2;
  }
  const sample = positiveOption(values.sample, '--sample', USAGE);
  const runs = positiveOption(values.runs, '--runs', USAGE);
  const examples = positiveOption(values.examples, '--examples', USAGE);
  const seed = Number(values.seed);
  assertGnuTime();
  await mkdir(RESULTS, { recursive: true });
  const tool = scipPythonTool();
  const server = await pyrightServer();

  const prepared = new Map<string, Prepared>();
  for (const corpus of corpora) prepared.set(corpus.id, await prepare(corpus));
  process.stdout.write(`# indexer build --scip on Python: import cost and references against pyright (issue #30)\n\nload average at start: ${loadAverage()}; `
    + `scip-python ${tool.version}, pyright ${PYRIGHT_VERSION}\n\n`);
  for (const corpus of corpora) {
    const p = prepared.get(corpus.id)!;
    process.stdout.write(`- ${corpus.id} at ${shortCommit(p.commit)}: ${corpus.note}; repository ${relative(process.cwd(), p.repo)}\n`);
  }

  const costs: CostReport[] = [];
  for (const corpus of corpora) {
    const paths = pathsOf(corpus);
    if (values['no-cost'] && existsSync(join(paths.scipIndex, 'manifest.json')) && existsSync(join(paths.tagsIndex, 'manifest.json'))) continue;
    costs.push(await measureCost(corpus, prepared.get(corpus.id)!, values['no-cost'] ? 1 : runs));
  }
  if (costs.length) {
    await writeFile(join(RESULTS, 'scip-import-cost.json'), `${JSON.stringify(costs, null, 1)}\n`);
    process.stdout.write(`\n## 1. SCIP import cost (no target; medians of ${costs[0]!.runs} interleaved runs, each tool its own process under GNU time)\n\n${costTables(costs)}\n`);
  }

  const reports: AccuracyReport[] = [];
  for (const corpus of corpora) {
    const report = await measureAccuracy(corpus, prepared.get(corpus.id)!, server, { sample, seed });
    reports.push(report);
    await writeFile(join(RESULTS, `scip-import-accuracy-${corpus.id}.json`), `${JSON.stringify(report, null, 1)}\n`);
  }
  process.stdout.write(`\n## 2. and 3. find_references against pyright's textDocument/references (target: recall ≥ ${percent(TARGETS.recall)}, precision ≥ ${percent(TARGETS.precision)}; seed ${seed}, ${sample} declarations per corpus)\n\n`
    + `${accuracyTables(reports)}\n\n## Differences by class (side that had the site; ${examples} examples each)\n\n${differenceReport(reports, examples)}\n`
    + `(all in ${relative(process.cwd(), RESULTS)}/scip-import-accuracy-<corpus>.json)\n\nload average at end: ${loadAverage()}\n`);
  return 0;
}


process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
});
// Child processes are killed on exit (lsp-client.ts and timed() hook process 'exit').
process.exit();
