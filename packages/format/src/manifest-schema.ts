// The manifest's schema as zod: what parseManifest checks every field against, and what
// schemas/manifest.schema.json is generated from (packages/mcp/scripts), so the published schema
// and the readers' check are one definition. What the Manifest interface cannot say (integers,
// lowercase hex, ISO 8601, owner/name, the one supported formatVersion) is stated here and only
// here; packages/mcp/scripts/manifest-schema.ts checks at compile time that both describe the same
// objects. Relations between fields (the shards a layout implies, counts that must agree) are not
// expressible here: manifest-check.ts checks them after this schema.
import * as z from 'zod';
import { GRAPH_MAX_BUCKET_BITS } from './graph-shard.ts';
import { FORMAT_VERSION, PRECISIONS, SKIPPED_REASONS } from './manifest.ts';
import { isValidRepoName } from './object-layout.ts';
import { LANGUAGES } from './records.ts';

/**
 * Built on first use, once: parseManifest checks fields by hand (manifest-fields.ts) and needs the
 * schema only to word a refusal, so a reader that meets only sound manifests never builds it.
 */
export const manifestSchema = once(() => {
  const count = z.number().int().min(0);
  const lowerHex = (digits: number) => z.string().regex(new RegExp(`^[0-9a-f]{${digits}}$`));
  // leadingBits (hash.ts) reads 20 bits of a key: the most buckets any reader can address.
  const bucketBits = z.number().int().min(0).max(20);
  // The object layout's rule (it becomes key segments); a refinement, so the JSON Schema says minLength only.
  const repoName = z.string().min(1).refine(isValidRepoName, { message: 'is not a repository name of the form owner/name' });
  return buildManifestSchema(count, lowerHex, bucketBits, repoName);
});

function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

const buildManifestSchema = (count: z.ZodNumber, lowerHex: (digits: number) => z.ZodString, bucketBits: z.ZodNumber, repoName: z.ZodString) => z.object({
  formatVersion: z.literal(FORMAT_VERSION)
    .describe('Format of the index. Readers refuse any other version (INDEX_VERSION_UNSUPPORTED).'),
  repo: repoName.describe('The repository, as owner/name.'),
  commit: lowerHex(40).describe('Full lowercase sha of the indexed commit.'),
  commitDate: z.iso.datetime({ offset: true }).describe('Committer date of the commit, ISO 8601.'),
  builtAt: z.iso.datetime({ offset: true }).describe('When the index was built, ISO 8601.'),
  indexer: z.object({ name: z.string(), version: z.string() }),
  parsers: z.record(z.string(), z.string()).describe('Version of each compiler or parser used, by name.'),
  libraryModels: z.array(z.object({ name: z.string(), version: z.string() })).optional()
    .describe('Models of library APIs (the JDK, the Kotlin stdlib) that syntactic resolution typed library members with, by name and library version.'),
  layout: z.object({
    symbolBucketBits: bucketBits, fileBucketBits: bucketBits, changeBucketBits: bucketBits, unresolvedBucketBits: bucketBits,
    graphBucketBits: z.number().int().min(0).max(GRAPH_MAX_BUCKET_BITS), gramBucketBits: bucketBits,
  })
    .describe('Symbols live in 2^symbolBucketBits shards by key, files and texts in 2^fileBucketBits shards by path, change records in 2^changeBucketBits shards by path, unresolved identifiers in 2^unresolvedBucketBits shards by name, the nodes of the graph (symbols with edges) in 2^graphBucketBits shards by ranges of their ordinals, the posting lists of the text index in 2^gramBucketBits shards by gram; every one of them is listed in shards.'),
  counts: z.object({
    files: count,
    texts: count.describe('Tracked text files, indexed or not, whose texts the text shards hold and the text index searches.'),
    symbols: count, references: count, edges: count,
    unresolved: count.describe('Identifiers in reference positions that the indexers resolved to nothing.'),
  }),
  languages: z.partialRecord(z.enum(LANGUAGES), z.object({
    files: count,
    precision: z.enum(PRECISIONS).describe('compiler: resolved by a compiler; scip: imported from a SCIP index its precise indexer wrote; syntactic: resolved on the syntax tree (by scope and imports for Java and Kotlin, by name alone where only tags queries cover the language).'),
  })),
  skipped: z.array(z.object({
    path: z.string(),
    reason: z.enum(SKIPPED_REASONS),
    detail: z.string(),
  })).describe('Tracked files that were not indexed, with the reason.'),
  warnings: z.array(z.string()),
  build: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('full'), reason: z.string().optional().describe('Why a build asked to be incremental was not.') }),
    z.object({
      mode: z.literal('incremental'), from: lowerHex(40).describe('The commit whose index it was built from.'),
      walked: count.describe('Files walked again.'), reused: count.describe('Files whose records came from that index.'),
    }),
  ]).optional().describe('How the index was built; an incremental index equals the full one but for this and builtAt.'),
  shards: z.record(z.string(), z.object({
    sha256: lowerHex(64).describe("sha256 of the shard's bytes; also its content address in object storage."),
    bytes: count,
    records: count.describe('Records the shard holds: symbols in a symbol shard, files in a file, text or change shard, entries in the name shard, names in an unresolved shard, nodes in a graph shard, grams in a gram shard (whose ranges of ordinals follow from these counts in bucket order).'),
  })).describe('Every shard of the index by name (every bucket the layout implies, names and filetable); readers verify each against its entry before decoding it.'),
});
