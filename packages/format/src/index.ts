// @sextant/format: everything in this barrel is public API. Runtime-neutral (Node and workerd).
export { cliLine, ERROR_CODES, ioErrorOf, isSextantError, SextantError } from './errors.ts';
export { decodeInflatedShard, decodeShard, encodeShard, packingOf, packShard, storedPayload, withShardCompressor } from './codec.ts';
export type { ShardCompressor, ShardPacking } from './codec.ts';
export { base32, digestSha256Hex, isBase32, leadingBits, sha256Bytes, sha256Hex } from './hash.ts';
export { canonicalJson } from './canonical-json.ts';
export { abbreviatesCommit, COMMIT_PREFIX_LENGTH, sameCommit, shortCommit } from './commit.ts';
export { bucketOf, formatSymbolId, KEY_LENGTH, localSymbolKey, parseSymbolId, pathKey, symbolKey } from './symbol-id.ts';
export { CONFIDENCES, EDGE_KINDS, FILE_FLAGS, LANGUAGES, LEADING_MODIFIERS, MAX_FILE_PROBLEMS, MODIFIERS, NAME_FLAG_EXTERNAL, REF_STRIDE, REFERENCE_KINDS, SYMBOL_KINDS } from './records.ts';
export type {
  ChangeRecord, Confidence, DeclRecord, EdgeKind, ExternalOrigin, FileRecord, Language, OutlineNode, PeerRecord, ProblemRecord, ReexportRecord, ReferenceKind,
  SymbolKind, SymbolRecord,
} from './records.ts';
export {
  callsChoseDeclarations, canonicalSymbolOrder, defAt, defColumn, defCount, defsOf, occurrenceCount, occurrencesOf, pushOccurrence, refAt, refColumn, refCount,
  refDeclColumn, refsOf, signatureAt, signatureCount, signaturesOf, sortedOccurrences, unresolvedColumn, unresolvedCount, unresolvedOf,
} from './record-fields.ts';
export type { DefFields, OccurrenceFields, RefFields, UnresolvedFields } from './record-fields.ts';
export { compareInReferenceOrder, REFERENCE_ORDER, siteClass } from './reference-order.ts';
export type { ClassedSite } from './reference-order.ts';
export { packInts, unpackInts } from './varint.ts';
export type { DeltaBase } from './varint.ts';
export { encodeSymbolShard, SymbolShard } from './symbol-shard.ts';
export type { SymbolShardData } from './symbol-shard.ts';
export { encodeFileRecord, encodeFileShard, encodeFileShardOf, FileShard } from './file-shard.ts';
export type { FileShardData } from './file-shard.ts';
export { diffFileTables, encodeFileTable, FileTable, problemsChangedPaths, problemsDigest } from './file-table.ts';
export type { FileTableChange, FileTableEntry } from './file-table.ts';
export type { EncodedRecord } from './packed-records.ts';
export { ChangeShard, encodeChangeRecord, encodeChangeShard, encodeChangeShardOf } from './change-shard.ts';
export type { ChangeShardData } from './change-shard.ts';
export { encodeNameShard, entryAt, NAME_SEPARATOR, NameShard } from './name-shard.ts';
export type { JoinedColumn, NameEntryData, NameShardData } from './name-shard.ts';
export { encodeUnresolvedShard, UnresolvedShard } from './unresolved-shard.ts';
export type { UnresolvedShardData, UnresolvedSite, UnresolvedSiteData } from './unresolved-shard.ts';
export { GRAPH_MAX_BUCKET_BITS, graphBucketOf, GraphShard, graphStarts, layoutGraph } from './graph-shard.ts';
export type { GraphEdge, GraphNode, GraphNodeData } from './graph-shard.ts';
export { encodeTextShard, TextShard } from './text-shard.ts';
export { caseGramOf, collectGrams, encodeGramShard, EXACT_GRAM, foldByte, followBit, GRAM_BYTES, gramBucketOf, gramOf, GramShard, gramShardsOf, gramsOfBytes, regrammed } from './gram-shard.ts';
export type { GramPostings, GramShardData } from './gram-shard.ts';
export {
  contextLineOf, decodeText, dominantEol, encodeText, lineStarts, offsetAt, positionAt, previewOf, splitLines, withEol,
} from './text-positions.ts';
export { shardView } from './shard-view.ts';
export {
  bucketOfShardName, changeShardName, FILE_TABLE_SHARD, fileShardName, FORMAT_VERSION, graphShardName, gramShardName, impliedShardNames, MANIFEST_DIGEST_FILE,
  MANIFEST_FILE, NAMES_SHARD, PRECISIONS, SKIPPED_REASONS, symbolShardName, textShardName, unresolvedShardName,
} from './manifest.ts';
export type { BuildMode, LanguageSummary, LibraryModelRef, Manifest, Precision, ShardEntry, SkippedFile } from './manifest.ts';
export { ShardLayout } from './shard-layout.ts';
export { compileCamelCase, compileGlob, compileGlobSet, compileRepositoryGlob, compileWildcard, matcherSteps, MAX_PATTERN_STATES, type GlobSet, type WorkBudget } from './pattern-matcher.ts';
export type { PatternMatcher } from './pattern-matcher.ts';
export { manifestSchema } from './manifest-schema.ts';
export {
  checkShardHolds, graphRecords, manifestDigestLine, manifestSha256, parseManifest, parseManifestDigestLine, recordsOf,
} from './manifest-check.ts';
export type { RecordedDigest } from './manifest-check.ts';
export { PATH_MATCH_BUDGET, pathFilter } from './glob.ts';
export { unaddressablePathReason } from './repo-path.ts';
export { TS_JS_EXTENSIONS } from './ts-js-extensions.ts';
export type { TsJsExtension } from './ts-js-extensions.ts';
export {
  commitFromKey, commitsPrefix, isCommitPrefix, isFullCommit, isValidRepoName, manifestKey, normalizeCommit, normalizeRefName, objectOfKey,
  parseRefRecord, parseRepoName, parseRepoRecord, refKey, refNameFromKey, refsPrefix, repoRecordKey, REPOS_PREFIX, serializeRecord, shardKey,
  SHARDS_PREFIX,
} from './object-layout.ts';
export type { RefRecord, RepoRecord } from './object-layout.ts';
export type { R2BucketLike, R2ObjectLike } from './r2-bucket.ts';
export { BRIDGE_SCRIPT, httpBucket, type BridgeFetch } from './r2-http-bridge.ts';
