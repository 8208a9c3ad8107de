// The manifest: what an index is (repo, commit, tool versions), what it holds (counts, languages,
// skipped files) and, per shard, the checksum every reader verifies before decoding. Its schema and
// consistency checks are in manifest-check.ts.
import type { Language } from './records.ts';

/**
 * 4: every bucket the layout implies is written (empty ones too), and shard entries count their records.
 * 5: a file table (every tracked file with its blob id and classification), and change shards (per
 * file: its declarations with body and doc fingerprints, unresolved identifiers, line hashes), so two
 * commits compare from the change shards of their changed files.
 * 6: a symbol's record says, per call, which of its declarations (overloads) the compiler resolved
 * it to (SymbolRecord.refDecls).
 * 7: identifiers the indexer resolved to nothing are kept: by name in unresolved shards
 * (unresolved-shard.ts), and with their reference kind in each file's change record.
 * 8: edges live in graph shards (graph-shard.ts), with what a walk says about each node, and no
 * longer in symbol records, which name their graph node instead.
 * 9: change records hold no line hashes; a change set hashes the lines of the changed files' texts.
 * 10: the file table (version 2) carries a digest of each indexed file's problems.
 * 11: compiler errors carry their blame (the symbols they stem from), file records the count of
 *     problems left out, change records the re-exports of a module.
 * 12: compiler errors carry the names in their blamed code that resolve to nothing (blameNames),
 *     and a module re-exports the namespaces (`export * as ns`) of the modules it star-exports.
 * 13: text shards hold every tracked text file (counts.texts), not only the indexed ones, and gram
 *     shards (gram-shard.ts) index them for search_text; files of no indexed language carry their
 *     classification flags in the file table.
 * 14: a gram shard stores each gram's posting list apart (its byte size), so a lookup decodes one
 *     list rather than the shard's every posting.
 * 15: gram shards hold exact-case trigrams beside the case-folded ones.
 * 16: languages beyond TypeScript, JavaScript, Java and Kotlin (LANGUAGES), and the precision
 *     `scip` of a language imported from a SCIP index.
 * 17: a DeclRecord may carry `sig`, the fingerprint of its declarations' whole signatures (a
 *     reader of 16 refuses it as a malformed declaration).
 * 18: gram shards keep their grams and posting-list ends four bytes each, searched in place (a
 *     shard is opened without decoding its grams); text shards are DEFLATE's stored blocks.
 * 19: a gram's posting carries a follow mask (the bytes that come after the gram in the file), so a
 *     literal's grams rule out the files where they never come in its order.
 */
export const FORMAT_VERSION = 19;
export const MANIFEST_FILE = 'manifest.json';
/**
 * Next to manifest.json in an index directory: its sha256, as `sha256sum` prints it, so that the
 * runner (which has no ref record to compare with) can tell an edited manifest from the one built.
 */
export const MANIFEST_DIGEST_FILE = 'manifest.sha256';
export const NAMES_SHARD = 'names';
/** The file table (file-table.ts): every tracked file and its blob id. */
export const FILE_TABLE_SHARD = 'filetable';

export interface ShardEntry {
  /** sha256 of the shard's bytes, lowercase hex; also its content address in object storage. */
  sha256: string;
  bytes: number;
  /** Records the shard holds: symbols (symbol shards), files (file, text and change shards, the file table), entries (names), grams (gram shards). */
  records: number;
}

/**
 * Why a tracked file is not in the index. unaddressable-path: its name is not one a tool can address
 * (repo-path.ts); analysis-failed: the compiler or a syntax walker could not handle it (the detail
 * names the error and the stage).
 */
export const SKIPPED_REASONS = [
  'too-large', 'binary', 'not-utf8', 'unreadable', 'symlink', 'submodule', 'unaddressable-path', 'analysis-failed',
] as const;

export type SkippedReason = (typeof SKIPPED_REASONS)[number];

export interface SkippedFile {
  path: string;
  reason: SkippedReason;
  detail: string;
}

/** A model of a library's public API the syntactic resolvers typed library calls with (`{ name: 'jdk', version: '17.0.15' }`). */
export interface LibraryModelRef {
  name: string;
  version: string;
}

/**
 * How a language's references were found: compiler (a compiler resolved them), scip (imported from
 * a SCIP index its own precise indexer wrote), syntactic (on the syntax tree: by scope and imports
 * for Java and Kotlin, by name alone for the languages only tags queries cover).
 */
export const PRECISIONS = ['compiler', 'scip', 'syntactic'] as const;
export type Precision = (typeof PRECISIONS)[number];

export interface LanguageSummary {
  files: number;
  precision: Precision;
}

export interface Manifest {
  formatVersion: number;
  repo: string;
  commit: string;
  /** Committer date of the commit, ISO 8601. */
  commitDate: string;
  builtAt: string;
  indexer: { name: string; version: string };
  parsers: Record<string, string>;
  /** The library API models resolution read (the JDK's, the Kotlin stdlib's), when any: which library, of which version. */
  libraryModels?: LibraryModelRef[];
  /**
   * Shard layout: symbols live in 2^symbolBucketBits buckets by key, files (and their texts) in
   * 2^fileBucketBits by path, change records in 2^changeBucketBits by path (finer: a review reads
   * the change records of a few files, and a bucket of them should hold little else), unresolved
   * identifiers in 2^unresolvedBucketBits by name, the graph's nodes in 2^graphBucketBits ranges of
   * their ordinals (graph-shard.ts; at most 2^GRAPH_MAX_BUCKET_BITS), the text index's posting
   * lists in 2^gramBucketBits by gram (gram-shard.ts).
   */
  layout: { symbolBucketBits: number; fileBucketBits: number; changeBucketBits: number; unresolvedBucketBits: number; graphBucketBits: number; gramBucketBits: number };
  /** texts: tracked text files (indexed or not) in the text shards; unresolved: identifiers in reference positions the indexers resolved to nothing. */
  counts: { files: number; texts: number; symbols: number; references: number; edges: number; unresolved: number };
  languages: Partial<Record<Language, LanguageSummary>>;
  skipped: SkippedFile[];
  warnings: string[];
  /**
   * How the index was built: in full (with why, when an incremental build was asked for and could
   * not be sure), or from the index of another commit, walking some files again and reusing the
   * rest. An incremental index equals the full one but for this and builtAt.
   */
  build?: BuildMode;
  shards: Record<string, ShardEntry>;
}

export type BuildMode =
  | { mode: 'full'; reason?: string }
  | { mode: 'incremental'; from: string; walked: number; reused: number };

export function symbolShardName(bucket: number): string {
  return `symbols/${bucket.toString(16).padStart(4, '0')}`;
}

export function fileShardName(bucket: number): string {
  return `files/${bucket.toString(16).padStart(4, '0')}`;
}

export function textShardName(bucket: number): string {
  return `texts/${bucket.toString(16).padStart(4, '0')}`;
}

export function changeShardName(bucket: number): string {
  return `changes/${bucket.toString(16).padStart(4, '0')}`;
}

export function unresolvedShardName(bucket: number): string {
  return `unresolved/${bucket.toString(16).padStart(4, '0')}`;
}

export function graphShardName(bucket: number): string {
  return `graph/${bucket.toString(16).padStart(4, '0')}`;
}

export function gramShardName(bucket: number): string {
  return `grams/${bucket.toString(16).padStart(4, '0')}`;
}

/** The shards a layout implies, in order: every symbol bucket, every file, text, change, unresolved, graph and gram bucket, the names, the file table. */
export function* impliedShardNames(layout: Manifest['layout']): Generator<string> {
  for (let bucket = 0; bucket < 2 ** layout.symbolBucketBits; bucket++) yield symbolShardName(bucket);
  for (let bucket = 0; bucket < 2 ** layout.fileBucketBits; bucket++) yield fileShardName(bucket);
  for (let bucket = 0; bucket < 2 ** layout.fileBucketBits; bucket++) yield textShardName(bucket);
  for (let bucket = 0; bucket < 2 ** layout.changeBucketBits; bucket++) yield changeShardName(bucket);
  for (let bucket = 0; bucket < 2 ** layout.unresolvedBucketBits; bucket++) yield unresolvedShardName(bucket);
  for (let bucket = 0; bucket < 2 ** layout.graphBucketBits; bucket++) yield graphShardName(bucket);
  for (let bucket = 0; bucket < 2 ** layout.gramBucketBits; bucket++) yield gramShardName(bucket);
  yield NAMES_SHARD;
  yield FILE_TABLE_SHARD;
}

/** How many shards a layout implies. */
export function impliedShardCount(layout: Manifest['layout']): number {
  return 2 ** layout.symbolBucketBits + 2 * 2 ** layout.fileBucketBits + 2 ** layout.changeBucketBits + 2 ** layout.unresolvedBucketBits + 2 ** layout.graphBucketBits + 2 ** layout.gramBucketBits + 2;
}

export type BucketedShardKind = 'symbols' | 'files' | 'texts' | 'changes' | 'unresolved' | 'graph' | 'grams';

/** The bucket a shard name stands for under `layout`, or undefined when the layout implies no such shard. */
export function bucketOfShardName(name: string, layout: Manifest['layout']): { kind: BucketedShardKind; bucket: number } | undefined {
  const match = /^(symbols|files|texts|changes|unresolved|graph|grams)\/([0-9a-f]{4,5})$/.exec(name);
  if (!match) return undefined;
  const kind = match[1] as BucketedShardKind;
  const bucket = Number.parseInt(match[2]!, 16);
  const bits = kind === 'symbols' ? layout.symbolBucketBits : kind === 'changes' ? layout.changeBucketBits
    : kind === 'unresolved' ? layout.unresolvedBucketBits : kind === 'graph' ? layout.graphBucketBits : kind === 'grams' ? layout.gramBucketBits : layout.fileBucketBits;
  const canonical = {
    symbols: symbolShardName, files: fileShardName, texts: textShardName, changes: changeShardName, unresolved: unresolvedShardName, graph: graphShardName, grams: gramShardName,
  }[kind](bucket);
  return bucket < 2 ** bits && canonical === name ? { kind, bucket } : undefined;
}
