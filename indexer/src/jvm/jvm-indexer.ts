// Java and Kotlin, resolved on tree-sitter syntax trees: every file is parsed once and reduced to a
// file model by the tags queries, the models of the whole commit are named in one symbol table
// (both languages share the package namespace), then each file's references are resolved and
// emitted. One indexer for both languages, because Java calls Kotlin and Kotlin calls Java.
import { Parser } from 'web-tree-sitter';
import type { SkippedFile } from '@sextant/format';
import { analysisFailed } from '../analysis-failure.ts';
import type { SnapshotFile } from '../git/git-snapshot.ts';
import type { IndexContext, IndexedFile, LanguageIndexer } from '../language-indexer.ts';
import { BUILD_FILE, BuildLayout } from './build-layout.ts';
import type { FileModel, JvmLanguage } from './file-model.ts';
import { IndexEmitter, type ResolutionStats } from './index-emitter.ts';
import { grammarOf, JVM_GRAMMARS, loadTagger, type Tagger } from './jvm-grammars.ts';
import { libraryModelsFor } from './library/library-model.ts';
import { PackedFileModel, UnpackedModels } from './packed-file-model.ts';
import { SymbolTable } from './symbol-table.ts';
import type { StageClock } from '../stage-clock.ts';
import { extractFile } from './tag-extractor.ts';
import { reparsedKotlin } from './kotlin-grammar-repairs.ts';
import { ensureParserInit } from '../syntax/tree-sitter-runtime.ts';

/** A pathological (generated, minified) file must not stall a whole run: the limit of its parse, and of its tags query. */
const PARSE_TIMEOUT_MS = 10_000;

export class JvmIndexer implements LanguageIndexer {
  readonly name = 'java+kotlin';
  readonly precision = 'syntactic' as const;
  /** Java and Kotlin resolution is not incremental yet: every file is walked. */
  readonly reusesFiles = false;
  /** Resolution statistics of the last run, for the build log and the benchmark. */
  stats: ResolutionStats | undefined;

  accepts(path: string): boolean {
    return grammarOf(path) !== undefined;
  }

  reads(path: string): boolean {
    return BUILD_FILE.test(path);
  }

  async *index(files: SnapshotFile[], { texts, collector, progress, parsers, libraryModels, stages }: IndexContext): AsyncIterable<IndexedFile> {
    const taggers = new Map<JvmLanguage, Tagger>();
    for (const grammar of JVM_GRAMMARS) {
      const tagger = await loadTagger(grammar);
      taggers.set(grammar.lang, tagger);
      parsers[grammar.pkg] = tagger.version;
    }
    // The runtime the grammars run in (its version changes how they parse as theirs does).
    if (taggers.size > 0) parsers['web-tree-sitter'] = await ensureParserInit();
    let started = performance.now();
    const lap = () => {
      const seconds = (performance.now() - started) / 1000;
      started = performance.now();
      return `${seconds.toFixed(1)}s`;
    };
    const { models, skipped } = extractAll(files, taggers, PARSE_TIMEOUT_MS, stages);
    stages?.mark('parse', 'extract');
    yield* skipped;
    const parsed = lap();
    const layout = BuildLayout.detect(texts);
    progress.log(`  ${layout.describe()}`);
    const table = stages ? stages.time('name', () => new SymbolTable(models, layout)) : new SymbolTable(models, layout);
    stages?.mark('name');
    libraryModels?.push(...libraryModelsFor(models.map((m) => m.lang)));
    const named = lap();
    const emitter = new IndexEmitter(collector, table, stages);
    for (const fd of table.files) {
      try {
        yield collector.atomically(() => emitter.emit(fd));
      } catch (error) {
        // Its declarations stay in the symbol table (other files were resolved against them).
        yield analysisFailed(fd.file.path, 'the Java/Kotlin resolver', error);
      }
    }
    stages?.mark('resolve', 'emit');
    progress.log(`  parsed and extracted ${models.length} files in ${parsed}, named ${table.decls.length} declarations in ${named}, resolved in ${lap()}`);
    this.stats = emitter.stats;
    const total = this.stats.resolved + this.stats.candidate + this.stats.unresolved;
    if (total > 0) {
      const share = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
      progress.log(`  ${total} references: ${share(this.stats.resolved)} resolved, ${share(this.stats.candidate)} candidates only, ${share(this.stats.unresolved)} unresolved`);
    }
  }
}

/**
 * Parses and extracts every file (one parse each; trees are released as soon as they are read),
 * each model packed until resolution reads it (packed-file-model.ts). A file the extractor throws
 * on is skipped, and resolution never sees it.
 */
export function extractAll(
  files: readonly SnapshotFile[], taggers: ReadonlyMap<JvmLanguage, Tagger>, queryTimeLimitMs = PARSE_TIMEOUT_MS, stages?: StageClock,
): { models: FileModel[]; skipped: SkippedFile[] } {
  const parsers = new Map<JvmLanguage, Parser>();
  const models: FileModel[] = [];
  const skipped: SkippedFile[] = [];
  const unpacked = new UnpackedModels();
  try {
    for (const file of files) {
      const grammar = grammarOf(file.path);
      const tagger = grammar && taggers.get(grammar.lang);
      if (!grammar || !tagger) continue;
      let parser = parsers.get(grammar.lang);
      if (!parser) {
        parser = new Parser();
        parser.setLanguage(tagger.language);
        parsers.set(grammar.lang, parser);
      }
      const deadline = performance.now() + PARSE_TIMEOUT_MS;
      // Returning true from the progress callback cancels the parse (web-tree-sitter's typings say void).
      const parse = (text: string) => parser!.parse(text, null, { progressCallback: () => performance.now() > deadline });
      const parsed = stages?.begin('parse');
      const first = parse(file.text);
      const { tree, rowsMoved } = first && grammar.lang === 'kotlin' ? reparsedKotlin(parser, file.text, first, parse) : { tree: first, rowsMoved: false };
      parsed?.();
      if (!tree) {
        parser.reset();
        models.push(emptyModel(file.path, grammar.lang, `Syntax check failed: gave up after ${PARSE_TIMEOUT_MS} ms`));
        continue;
      }
      const extracted = stages?.begin('extract');
      try {
        models.push(new PackedFileModel(extractFile(tree, file.text, file.path, tagger.query, grammar.rules, queryTimeLimitMs, rowsMoved), unpacked));
      } catch (error) {
        skipped.push(analysisFailed(file.path, `the ${grammar.lang === 'java' ? 'Java' : 'Kotlin'} tag extractor`, error));
      } finally {
        tree.delete();
        extracted?.();
      }
    }
  } finally {
    for (const parser of parsers.values()) parser.delete();
  }
  return { models, skipped };
}

function emptyModel(path: string, lang: JvmLanguage, message: string): FileModel {
  return {
    path, lang, pkg: '', imports: [], defs: [], refs: [], exprs: [], scopes: [],
    problems: [{ source: 'syntax', severity: 'warning', message, line: 1, column: 1, endLine: 1, endColumn: 1 }],
  };
}

export const jvmIndexer = new JvmIndexer();
