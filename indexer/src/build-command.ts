// `indexer build`: one commit of one repository, from git objects to a directory of shards.
import { basename } from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  FILE_FLAGS, FORMAT_VERSION, packShard, PRECISIONS, SextantError, shortCommit, withShardCompressor, type BuildMode, type ShardCompressor, sortedOccurrences, splitLines, unresolvedColumn, type ChangeRecord, type FileRecord, type FileTableEntry, type LibraryModelRef, type Manifest, type SkippedFile,
} from '@sextant/format';
import { workingTreeIndexPath } from '@sextant/query/node';
import { excludeSextantDir, isUnderSextantDir } from './git/git-exclude.ts';
import { listTrackedFiles, readBlobs, resolveCommit, type SnapshotFile, type TrackedEntry } from './git/git-snapshot.ts';
import { IndexCollector, type CollectedFile, type CollectedSymbol } from './index-collector.ts';
import { declsOf } from './decl-fingerprint.ts';
import { classifyFile, parseGitattributes } from './file-classification.ts';
import { Progress } from './progress.ts';
import type { StageClock } from './stage-clock.ts';
import { gramJobOf } from './shards/gram-job.ts';
import { layoutGrams, layoutRecordShards, withGramShards, writeIndex, type LayoutReuse } from './shards/shard-writer.ts';
import { isSkipped, type CompiledFile, type LanguageIndexer, type UnresolvedName } from './language-indexer.ts';
import { analysisFailed, failedWhileIndexing } from './analysis-failure.ts';
import { typescriptLanguage } from './ts/typescript-language.ts';
import { typescriptVersion } from './ts/compiler-version.ts';
import { OffThreadWalk } from './ts/off-thread-walk.ts';
import { jvmIndexer } from './jvm/jvm-indexer.ts';
import { holdHeapGrowth, JVM_HEAP_GROWING_PERCENT } from './heap-growth.ts';
import { tagsIndexer } from './tags/tags-indexer.ts';
import { indexerVersion } from './indexer-version.ts';
import type { IncrementalPlan } from './incremental/incremental-plan.ts';
import { readPreviousIndex } from './incremental/previous-index.ts';
import { layoutReuseOf, reuseFiles } from './incremental/reuse.ts';
import { importScip, readScipFiles } from './scip/scip-import.ts';
import { runScipIndexers } from './scip/scip-runners.ts';


export interface BuildOptions {
  repo: string;
  commit: string;
  /**
   * Where the index goes, used as given (an existing directory there is replaced only when it is
   * an index). Absent: .sextant/index of the working tree, only as a real directory git tracks
   * nothing in (workingTreeIndexPath).
   */
  out?: string;
  repoName?: string;
  maxFileBytes: number;
  progress: Progress;
  /** Print every warning; otherwise several are one line with their count (the manifest keeps them all). */
  verbose?: boolean;
  /** Time and memory by stage (the bench's stage split); absent, nothing is measured. */
  stages?: StageClock;
  /**
   * An index of another commit (a directory) to build from: only the files the change can affect
   * are walked again (incremental-plan.ts), the rest reused; in full, with the reason, when that
   * cannot be sure. Either way the shards equal a full build's.
   */
  from?: string;
  /** The share of source files changed above which a build from `from` is in full (default DEFAULT_MAX_CHANGED_SHARE). */
  maxChangedShare?: number;
  /**
   * With `from`: walk TypeScript on a second thread, creating its programs while the previous index
   * is read back (ts/off-thread-walk.ts). Default: when at least OFF_THREAD_MIN_REUSED files are reused.
   */
  walkOffThread?: boolean;
  /** Why this build is in full though `from` was asked for, when a first attempt found out late (an analysis failure). */
  fullBecause?: string;
  /** SCIP index files whose documents index the files they match, with precision scip (scip/scip-import.ts). */
  scip?: string[];
  /**
   * Run the installed SCIP indexers on the commit's files of their languages and import what they
   * write (scip/scip-runners.ts); default true, unless `scip` files are given.
   */
  autoScip?: boolean;
}

/**
 * Above this share of the sources changed, or reached by the change, walking them costs about what
 * walking all does: on effect (bench:incremental) 10 files walked take 0.35x of a full build, 240 of
 * 570 (42 %) 1.04x, since checking them resolves most of the program's types anyway.
 */
export const DEFAULT_MAX_CHANGED_SHARE = 0.3;

/**
 * Reused TypeScript and JavaScript files from which an incremental build walks on a second thread by
 * default: the thread loads the compiler again (about half a second of CPU, beside the build), which
 * pays when reading the previous index back takes as long (effect's 570 files: 2 to 3 s).
 */
export const OFF_THREAD_MIN_REUSED = 200;

/** Every language Sextant indexes; the first that accepts a path owns it. */
export const LANGUAGE_INDEXERS: readonly LanguageIndexer[] = [typescriptLanguage, jvmIndexer, tagsIndexer];

export async function buildIndex(options: BuildOptions): Promise<Manifest> {
  // Every thread a build starts (an incremental build's walk) is stopped when it ends, however it ends.
  const threads: OffThreadWalk[] = [];
  const releases: (() => void)[] = [];
  try {
    return await buildWith(options, () => {
      const thread = new OffThreadWalk();
      threads.push(thread);
      return thread;
    }, (percent) => releases.push(holdHeapGrowth(percent)));
  } finally {
    for (const release of releases) release();
    await Promise.all(threads.map((thread) => thread.stop()));
  }
}

/** `holdHeap`: holds the heap's growth (heap-growth.ts) until the build ends. */
async function buildWith(options: BuildOptions, newThread: () => OffThreadWalk, holdHeap: (percent: number) => void): Promise<Manifest> {
  const { progress, stages } = options;
  const started = performance.now();
  const { root, commit, commitDate } = await resolveCommit(options.repo, options.commit);
  // Checked before any work: a clone's own .sextant link must not cost a whole build to refuse.
  const out = options.out ?? workingTreeIndexPath(root, 'index', '--out');
  const scipFiles = await readScipFiles(options.scip ?? []);
  progress.log(`indexing ${root} at ${commit}`);

  // A build from another index loads the plan (and the compiler it parses with) and reads that
  // index's table while git is read. Handled at once: a refusal is met where the plan is awaited.
  let planning = options.from ? Promise.all([import('./incremental/incremental-plan.ts'), readPreviousIndex(options.from)]) : undefined;
  planning?.catch(() => undefined);
  const tracked = await listTrackedFiles(root, commit);
  // An incremental build's TypeScript walk on a second thread, which loads the compiler while git is read.
  let offThread = options.from && (options.walkOffThread ?? tracked.files.filter((f) => typescriptLanguage.accepts(f.path)).length >= OFF_THREAD_MIN_REUSED)
    ? newThread() : undefined;
  const skipped: SkippedFile[] = [...tracked.skipped];
  const ownerOf = (path: string) => indexers.find((indexer) => indexer.accepts(path));
  const needed = (path: string) => ownerOf(path) || path === '.gitattributes' || LANGUAGE_INDEXERS.some((i) => i.reads(path));
  const read = (path: string) => needed(path) || LANGUAGE_INDEXERS.some((i) => i.readsIfSmall?.(path));
  // Every tracked file is read: the indexers read theirs, and search_text every text file.
  const readable = tracked.files.filter((f) => {
    if (f.bytes <= options.maxFileBytes) return true;
    skipped.push({ path: f.path, reason: 'too-large', detail: `${f.bytes} bytes, over the ${options.maxFileBytes}-byte limit (raise it with --max-file-bytes)` });
    return false;
  });
  progress.start('reading files from git', readable.length);
  const reading = stages?.begin('read');
  const blobs = await readBlobs(root, readable);
  reading?.();
  stages?.mark('read');
  progress.tick(readable.length);
  skipped.push(...blobs.skipped);
  // What the indexers see is what they read: more files (another package.json) could change how they resolve.
  const allTexts = new Map(blobs.files.map((f) => [f.path, f.text]));
  // The files SCIP documents match are theirs, ahead of every language's own indexer.
  const auto = scipFiles.length === 0 && options.autoScip !== false ? await runScipIndexers(root, allTexts, progress) : { files: [], warnings: [] };
  const imports = [...scipFiles, ...auto.files];
  const scip = imports.length ? importScip(imports, { root, tracked: tracked.entries.map((e) => e.path), texts: allTexts, skipped }) : undefined;
  const indexers = scip ? [scip.indexer, ...LANGUAGE_INDEXERS] : LANGUAGE_INDEXERS;
  const texts = new Map(blobs.files.filter((f) => read(f.path)).map((f) => [f.path, f.text]));
  const byPath = new Map<string, SnapshotFile>(blobs.files.map((f) => [f.path, f]));

  const warnings: string[] = [...auto.warnings, ...(scip?.warnings ?? [])];
  const rules = parseGitattributes(texts.get('.gitattributes') ?? '');
  const collector = new IndexCollector();
  const languages: Manifest['languages'] = {};
  const parsers: Record<string, string> = { typescript: typescriptVersion(), ...scip?.parsers };
  const libraryModels: LibraryModelRef[] = [];
  const context = { root, texts, collector, warnings, progress, parsers, libraryModels, stages };

  let build: BuildMode = options.fullBecause ? { mode: 'full', reason: options.fullBecause } : { mode: 'full' };
  let walk: ReadonlySet<string> | undefined;
  let globals: ReadonlySet<string> | undefined;
  let compressor: ShardCompressor = packShard;
  let keep: (() => LayoutReuse) | undefined;
  /** Set when the walk's thread lays out the gram shards: how many files were skipped then. */
  let gramsOffThread: { skipped: number } | undefined;
  // The walk the thread is asked for, once the plan knows it (or that there is none).
  const scripts = blobs.files.filter((f) => ownerOf(f.path) === typescriptLanguage);
  const stopThread = () => {
    void offThread?.stop();
    offThread = undefined;
  };
  const askWalk = (walk: ReadonlySet<string>, globals: ReadonlySet<string> | undefined) => {
    if (!offThread || offThread.walks(walk, globals)) return;
    // A walk of no file still creates the programs, whose configuration warnings are the build's: on the thread too.
    if (!(options.walkOffThread ?? scripts.length - walk.size >= OFF_THREAD_MIN_REUSED)) {
      stopThread();
      return;
    }
    if (offThread.started) {
      // Asked for another walk than it was: a new thread (rare: a reused call's overload moved where the plan could not place it).
      void offThread.stop();
      offThread = newThread();
    }
    offThread.start(scripts, context, walk, globals);
  };
  if (options.from) {
    let plan: IncrementalPlan;
    try {
      plan = scip ? { full: 'SCIP indexes are imported (--scip), which a build from another index does not do yet' } : await planning!.then(([{ planIncremental }, previous]) => planIncremental({
        previous, entries: tracked.entries, texts: allTexts,
        indexerVersion: indexerVersion(), parsers, maxChangedShare: options.maxChangedShare ?? DEFAULT_MAX_CHANGED_SHARE, walkLikely: askWalk,
      }));
    } catch (error) {
      // An index of another format (Sextant was upgraded since) or a damaged one is no reason to fail: a full build needs neither.
      if (!(error instanceof SextantError && (error.code === 'INDEX_VERSION_UNSUPPORTED' || error.code === 'INDEX_CORRUPT'))) throw error;
      plan = { full: `the previous index cannot be read (${error.code}: ${error.message})` };
    }
    // Not kept by the promise through a build in full.
    planning = undefined;
    if ('full' in plan) {
      stopThread();
      progress.log(`building in full: ${plan.full}`);
      build = { mode: 'full', reason: plan.full };
    } else {
      const { previous } = plan;
      walk = plan.walk;
      globals = plan.globals;
      // Its programs are created while the reused files' records are taken in (a walk likely before may be another).
      askWalk(walk, globals);
      compressor = previous.compressor;
      const reuseRecords = reuseFiles(previous, plan.reuse, collector, plan.moved);
      const changed = new Set(plan.changed);
      collector.stale = new Set([...collector.symbols.values()].filter((s) => s.info.defs.some((d) => changed.has(d[0]))).map((s) => s.info.key));
      const reused = plan.reuse;
      const dirtyPaths = new Set([...plan.changed, ...blobs.files.map((f) => f.path).filter((p) => ownerOf(p) && !reused.has(p))]);
      // A walk reads only which symbols are known: the thread's starts while the reused records go in.
      // The gram shards depend on nothing but the texts and which files are skipped: the thread lays
      // them out after its walk, while this one lays out the rest (again here should the walk skip a file).
      if (offThread) gramsOffThread = { skipped: skipped.length };
      offThread?.provide(collector, gramsOffThread && gramJobOf(previous, fileTableOf(tracked.entries, [], skipped, () => 0), allTexts, dirtyPaths));
      for (const file of reuseRecords()) (languages[file.lang] ??= { files: 0, precision: ownerOf(file.path)!.precision }).files++;
      // From here on the collector notes what the walk touches; files of indexers that reuse none are walked in full.
      collector.touched = new Set();
      // What the previous index alone decides of what the writer keeps, while the thread walks.
      keep = layoutReuseOf(previous, collector, dirtyPaths);
      build = { mode: 'incremental', from: previous.manifest.commit, walked: plan.walk.size, reused: plan.reuse.size };
      progress.log(`building from ${shortCommit(previous.manifest.commit)}: ${plan.changed.length} files changed; ${plan.walk.size} TypeScript and JavaScript files walked again, ${plan.reuse.size} reused`);
    }
  }

  for (const indexer of indexers) {
    const files = blobs.files.filter((f) => ownerOf(f.path) === indexer);
    if (files.length === 0) continue;
    // From the Java and Kotlin files on (the TypeScript and JavaScript ones come first, on V8's own factor), to the build's end.
    if (indexer === jvmIndexer) holdHeap(JVM_HEAP_GROWING_PERCENT);
    progress.start(`resolving ${indexer.name} (${indexer.precision})`, files.length);
    let last: string | undefined;
    try {
      const results = indexer === typescriptLanguage && offThread ? offThread.results(context) : indexer.index(files, { ...context, ...(indexer.reusesFiles ? { walk, globals } : {}) });
      for await (const result of results) {
        last = result.path;
        progress.tick();
        let record: (FileRecord & { change: ChangeRecord }) | SkippedFile;
        const recorded = stages?.begin('records');
        try {
          record = isSkipped(result) ? result : fileRecord(byPath.get(result.path)!, result, rules, collector.symbols);
        } catch (error) {
          record = analysisFailed(result.path, 'the file record (outline, lines, classification)', error);
        } finally {
          recorded?.();
        }
        if ('reason' in record) {
          skipped.push(record);
          progress.log(`warning: skipped ${record.path}: ${record.detail}`);
          continue;
        }
        const { change, ...file } = record;
        collector.addFile(file, change, isSkipped(result) ? [] : result.unresolved);
        const summary = (languages[record.lang] ??= { files: 0, precision: indexer.precision });
        summary.files++;
        // A language indexed by several indexers is labelled with the least precise of them.
        if (PRECISIONS.indexOf(indexer.precision) > PRECISIONS.indexOf(summary.precision)) summary.precision = indexer.precision;
      }
    } catch (error) {
      throw failedWhileIndexing(error, `the ${indexer.name} files${last ? ` (the last one done was ${last})` : ''}`);
    }
    progress.finishLine();
  }
  stages?.mark('records');
  // A file the compiler fails on is taken out of its program, which changes what the files reused
  // from the previous index would have resolved: such a build is done again in full.
  const failed = build.mode === 'incremental' ? skipped.find((s) => s.reason === 'analysis-failed') : undefined;
  const stale = build.mode === 'incremental' ? collector.symbols.get([...collector.stale ?? []][0] ?? '')?.info : undefined;
  if (failed || stale) {
    const reason = failed
      ? `${failed.path} failed analysis, which changes what its program resolved`
      : `${stale!.kind} ${stale!.qname}, declared in the changed ${stale!.defs[0]![0]}, is named by files reused from the previous index but was not declared again`;
    progress.log(`building again in full: ${reason}`);
    await offThread?.stop();
    return buildIndex({ ...options, from: undefined, fullBecause: reason });
  }
  reportWarnings(warnings, texts, rules, progress, options.verbose === true);

  progress.start('writing shards');
  // The default --out is <repo>/.sextant/index: the first build keeps it out of `git status`.
  if (await isUnderSextantDir(out, root)) await excludeSextantDir(root);
  const written = stages?.begin('shards');
  const fileTable = fileTableOf(tracked.entries, collector.files, skipped, (path) => classifyFile(path, allTexts.get(path) ?? '', rules));
  // A shard equal to one of the previous index keeps its bytes rather than being compressed again.
  const reuse = keep?.();
  const recordShards = withShardCompressor(compressor, () => layoutRecordShards(collector, allTexts, fileTable, reuse));
  const grams = gramsOffThread?.skipped === skipped.length ? await offThread!.grams(context)
    : withShardCompressor(compressor, () => layoutGrams(fileTable, allTexts, reuse?.grams));
  const set = withGramShards(recordShards, grams);
  const manifest = await writeIndex(out, set, {
    formatVersion: FORMAT_VERSION,
    repo: options.repoName ?? repoNameOf(root),
    commit,
    commitDate,
    builtAt: new Date().toISOString(),
    indexer: { name: '@sextant/indexer', version: indexerVersion() },
    parsers,
    ...(libraryModels.length ? { libraryModels } : {}),
    counts: {
      files: collector.files.length, texts: fileTable.filter((e) => e.status !== 'skipped').length, symbols: collector.symbols.size, references: collector.references, edges: collector.edges, unresolved: collector.unresolvedCount,
    },
    // In name order: the order files were met in differs between a full and an incremental build.
    languages: Object.fromEntries(Object.entries(languages).sort(([a], [b]) => (a < b ? -1 : 1))),
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : 1)),
    warnings,
    build,
  });
  written?.();
  stages?.mark('shards');
  progress.finishLine();
  const bytes = Object.values(manifest.shards).reduce((sum, s) => sum + s.bytes, 0);
  progress.log(`wrote ${out}: ${Object.keys(manifest.shards).length} shards, ${bytes} bytes; ${manifest.counts.files} files, ${manifest.counts.symbols} symbols, ${manifest.counts.references} references, ${manifest.counts.edges} edges, ${skipped.length} skipped, in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  return manifest;
}

/**
 * Project-configuration warnings as the build prints them (the manifest keeps them all): each with
 * --verbose or when there is one; else one line with their count. Those that name only test files'
 * configs (fixtures, such as Sextant's own deliberately broken ones) are a note, not a warning.
 */
function reportWarnings(warnings: readonly string[], texts: ReadonlyMap<string, string>, rules: ReturnType<typeof parseGitattributes>, progress: Progress, verbose: boolean): void {
  if (verbose) {
    for (const warning of warnings) progress.log(`warning: ${warning}`);
    return;
  }
  const configs = [...texts.keys()].filter((path) => path.endsWith('.json'));
  const inTests = (warning: string) => {
    const named = configs.filter((path) => warning.includes(path));
    return named.length > 0 && named.every((path) => (classifyFile(path, '', rules) & FILE_FLAGS.test) !== 0);
  };
  const fixtures = warnings.filter(inTests);
  const others = warnings.filter((w) => !inTests(w));
  const more = '`indexer build --verbose` lists them, and so does the index_status tool.';
  if (others.length === 1) progress.log(`warning: ${others[0]}`);
  else if (others.length > 1) progress.log(`warning: ${others.length} warnings about project configuration (tsconfig or jsconfig files that do not parse, missing or cyclic project references); their files are indexed anyway. ${more}`);
  if (fixtures.length > 0) progress.log(`note: ${fixtures.length} problem${fixtures.length === 1 ? '' : 's'} of project configuration in test files only (fixtures, such as ${configs.find((path) => fixtures.some((w) => w.includes(path)))}); their files are indexed anyway. ${more}`);
}

/**
 * Every tracked path: indexed (in the file shards), skipped (in manifest.skipped) or unindexed (a
 * text file no indexer reads, classified as test, generated or vendored by `flagsOf` all the same).
 */
function fileTableOf(
  entries: readonly TrackedEntry[], files: readonly CollectedFile[], skipped: readonly SkippedFile[], flagsOf: (path: string) => number,
): FileTableEntry[] {
  const indexed = new Map(files.map((f) => [f.path, f]));
  const skippedPaths = new Set(skipped.map((s) => s.path));
  return entries.map(({ path, blob }): FileTableEntry => {
    const file = indexed.get(path);
    if (file) return { path, blob, status: 'indexed', lang: file.lang, flags: file.flags, problems: file.problems };
    return skippedPaths.has(path) ? { path, blob, status: 'skipped', flags: 0 } : { path, blob, status: 'unindexed', flags: flagsOf(path) };
  });
}

function fileRecord(
  file: SnapshotFile, compiled: CompiledFile, rules: ReturnType<typeof parseGitattributes>, symbols: ReadonlyMap<string, CollectedSymbol>,
): FileRecord & { change: ChangeRecord } {
  const { outline } = compiled;
  const lines = splitLines(file.text);
  return {
    path: file.path,
    lang: compiled.lang,
    blob: file.blob,
    bytes: file.bytes,
    lineLengths: lines.map((line) => line.length),
    flags: classifyFile(file.path, file.text, rules) | (compiled.declaresGlobals ? FILE_FLAGS.global : 0),
    syms: compiled.syms,
    occ: sortedOccurrences(compiled.occ),
    outline,
    problems: compiled.problems,
    problemsOmitted: compiled.problemsOmitted ?? 0,
    change: {
      path: file.path,
      decls: declsOf({ path: file.path, text: file.text, syms: compiled.syms, outline, signatures: compiled.signatures }, symbols),
      unresolved: compiled.unresolved ? sortUnresolved(compiled.unresolved) : null,
      reexports: compiled.reexports ?? [],
    },
  };
}

/** Unresolved identifiers in position order, as a change record stores them. */
function sortUnresolved(list: readonly UnresolvedName[]): number[] {
  return unresolvedColumn([...list].sort((a, b) => a.line - b.line || a.column - b.column || a.endLine - b.endLine || a.endColumn - b.endColumn));
}

/**
 * owner/name from the origin remote; local/<folder of the working tree> when there is no origin or
 * it is a local path or file:// URL, whose folder names say nothing about an owner.
 */
export function repoNameOf(root: string): string {
  try {
    const url = execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const match = isLocalRemote(url) ? null : /[/:]([^/:]+)\/([^/]+?)(\.git)?\/?$/.exec(url);
    if (match) return `${match[1]}/${match[2]}`;
  } catch {
    // no origin: fall through
  }
  return `local/${basename(root)}`;
}

/**
 * Whether a remote URL names a repository on this machine, read as git reads it: a file: URL is
 * local and any other <scheme>:// URL is not; `[user@]host:path` is scp-like (not local) only when
 * no slash comes before the first colon and more than a drive letter does; anything else is a path.
 */
export function isLocalRemote(url: string): boolean {
  if (/^file:/i.test(url)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return false;
  const colon = url.indexOf(':');
  return !(colon > 1 && !url.slice(0, colon).includes('/'));
}
