// The seam between the build and each language: an indexer takes the snapshot files it accepts,
// resolves them (all at once: resolution crosses files) into the shared collector, and yields one
// compiled file at a time so the build can stream file records out. A file it cannot analyse is
// yielded as skipped (analysis-failure.ts), having added nothing to the collector.
import type { Language, LibraryModelRef, Precision, OutlineNode, ProblemRecord, ReexportRecord, SkippedFile, UnresolvedSiteData } from '@sextant/format';
import type { SnapshotFile } from './git/git-snapshot.ts';
import type { IndexCollector } from './index-collector.ts';
import type { Progress } from './progress.ts';
import type { StageClock } from './stage-clock.ts';

export interface CompiledFile {
  path: string;
  lang: Language;
  /** Keys of the symbols occurring in the file; occ entries index into it. */
  syms: string[];
  /** Occurrences, laid out by pushOccurrence (any order: the build sorts them). */
  occ: number[];
  problems: ProblemRecord[];
  /** Names the module exports that are declared in other files (ChangeRecord.reexports), by name. */
  reexports?: ReexportRecord[];
  /** Problems beyond those in `problems` (MAX_FILE_PROBLEMS); absent when none were left out. */
  problemsOmitted?: number;
  /**
   * The whole signature of each declaration (SymbolInfo.signature is cut), by its name's position
   * `line:column`: a DeclRecord's body and `sig` fingerprints are cut by it. Absent: by SymbolInfo.signature.
   */
  signatures?: ReadonlyMap<string, string>;
  /** The file's declarations, nested. */
  outline: OutlineNode[];
  /** Its declarations reach beyond its module (FILE_FLAGS.global): a script, `declare global`, a module augmentation. */
  declaresGlobals?: boolean;
  /**
   * Identifiers in reference positions the indexer resolved to nothing (any order: the build sorts
   * them); absent when the indexer does not record them (ChangeRecord.unresolved null).
   */
  unresolved?: UnresolvedName[];
}

/**
 * An identifier in a reference position that resolved to no symbol: kept, so answers can say they
 * may be incomplete. Its site as an unresolved shard stores it, the file's path left to the file.
 */
export interface UnresolvedName extends Omit<UnresolvedSiteData, 'path'> {
  name: string;
}

export type IndexedFile = CompiledFile | SkippedFile;

export function isSkipped(file: IndexedFile): file is SkippedFile {
  return 'reason' in file;
}

export interface IndexContext {
  /** Absolute path of the repository root. */
  root: string;
  /** Every file read from the commit (sources and auxiliary files), by repository-relative path. */
  texts: ReadonlyMap<string, string>;
  collector: IndexCollector;
  warnings: string[];
  /** Parser and grammar versions used, by package name: indexers add theirs, the manifest lists them. */
  parsers: Record<string, string>;
  /** Library API models resolution used: indexers add theirs, the manifest lists them (when the caller collects them). */
  libraryModels?: LibraryModelRef[];
  progress: Progress;
  /** Time and memory by stage, when the caller (the bench) measures them. */
  stages?: StageClock;
  /**
   * An incremental build's files to walk again; the others of the indexer's are reused from the
   * previous index (incremental-plan.ts) and must not be yielded. Absent: every file. An indexer
   * that cannot walk a part of its files walks them all and says so (reusesFiles).
   */
  walk?: ReadonlySet<string>;
  /**
   * With `walk`: the files of the previous index whose declarations reach beyond their module
   * (FILE_FLAGS.global), which a compiler's program must hold beside the walked files and what they
   * import, for their answers to be a full build's. Absent: its programs hold every file.
   */
  globals?: ReadonlySet<string>;
  /**
   * Called once a program is created, before its first file is walked: an off-thread walk
   * (ts/off-thread-walk.ts) waits there for the build's collector state, which it needs to walk.
   */
  beforeWalk?: () => void;
}

export interface LanguageIndexer {
  readonly name: string;
  /** How its references are found (PRECISIONS). */
  readonly precision: Precision;
  /** Source files this indexer indexes. */
  accepts(path: string): boolean;
  /** Other tracked files it needs to read (build files, configs). */
  reads(path: string): boolean;
  /**
   * Tracked files it reads when they are within the size limit (JSON a module may import); one over
   * it is left unread and unlisted, as it is no source of its own (its importers' errors say so).
   */
  readsIfSmall?(path: string): boolean;
  /** Whether it walks only the files of IndexContext.walk (else every file, and none is reused). */
  readonly reusesFiles: boolean;
  /** Yields every file it was given, compiled or skipped (reason analysis-failed); with IndexContext.walk, only those (when reusesFiles). */
  index(files: SnapshotFile[], context: IndexContext): AsyncIterable<IndexedFile> | Iterable<IndexedFile>;
}
