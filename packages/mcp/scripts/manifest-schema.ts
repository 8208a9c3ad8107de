// The index manifest as a zod schema, from which schemas/manifest.schema.json is generated.
//
// The source of truth stays the `Manifest` interface in @sextant/format. This schema restates it
// (zod cannot be derived from a TypeScript interface, and @sextant/format has no zod dependency to
// define it there), so the restatement is *checked* against the interface at the bottom of this
// file: `tsc --noEmit -p packages/mcp` fails when a field is added, removed, renamed, made optional
// or given another type on either side. What the interface cannot say (integers, lowercase hex,
// ISO 8601, the one supported formatVersion) is added here and only here.
//
// Alternatives considered: generating from the interface with the TypeScript compiler API would be
// one source, but a hand-rolled type-to-schema converter is more code than the schema and loses
// these constraints; a hand-written JSON file is a second source that nothing checks.
import * as z from 'zod';
import { FORMAT_VERSION, LANGUAGES, type Manifest } from '@sextant/format';
import type { Check, MutuallyAssignable, SameKeys } from '../src/schema-type-checks.ts';

const count = z.number().int().min(0);
const lowerHex = (digits: number) => z.string().regex(new RegExp(`^[0-9a-f]{${digits}}$`));
// leadingBits (format/src/hash.ts) reads 20 bits of a key: the most buckets any reader can address.
const bucketBits = z.number().int().min(0).max(20);

export const manifestSchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION)
    .describe('Format of the index. Readers refuse any other version (INDEX_VERSION_UNSUPPORTED).'),
  repo: z.string().min(1).describe('The repository, as owner/name.'),
  commit: lowerHex(40).describe('Full lowercase sha of the indexed commit.'),
  commitDate: z.iso.datetime({ offset: true }).describe('Committer date of the commit, ISO 8601.'),
  builtAt: z.iso.datetime({ offset: true }).describe('When the index was built, ISO 8601.'),
  indexer: z.object({ name: z.string(), version: z.string() }),
  parsers: z.record(z.string(), z.string()).describe('Version of each compiler or parser used, by name.'),
  layout: z.object({ symbolBucketBits: bucketBits, fileBucketBits: bucketBits })
    .describe('Symbols live in 2^symbolBucketBits shards by key, files in 2^fileBucketBits shards by path.'),
  counts: z.object({ files: count, symbols: count, references: count, edges: count }),
  languages: z.partialRecord(z.enum(LANGUAGES), z.object({
    files: count,
    precision: z.enum(['compiler', 'syntactic']).describe('compiler: resolved by a compiler; syntactic: resolved on the syntax tree.'),
  })),
  skipped: z.array(z.object({
    path: z.string(),
    reason: z.enum(['too-large', 'binary', 'not-utf8', 'unreadable', 'symlink', 'submodule']),
    detail: z.string(),
  })).describe('Tracked files that were not indexed, with the reason.'),
  warnings: z.array(z.string()),
  shards: z.record(z.string(), z.object({
    sha256: lowerHex(64).describe("sha256 of the shard's bytes; also its content address in object storage."),
    bytes: count,
  })).describe('Every shard of the index by name; readers verify each against its entry before decoding it.'),
});

// ---- Compile-time checks: the schema and the interface describe the same objects. ----
type Parsed = z.output<typeof manifestSchema>;

/** Never used at run time: it only compiles while the schema matches the Manifest interface. */
export type ManifestSchemaMatchesInterface = [
  // Same top-level fields, so an optional field added to Manifest cannot go unnoticed.
  Check<SameKeys<Manifest, Parsed>>,
  // Same shapes throughout (formatVersion aside: the schema narrows number to the one it supports).
  Check<MutuallyAssignable<Omit<Manifest, 'formatVersion'>, Omit<Parsed, 'formatVersion'>>>,
  Check<Parsed['formatVersion'] extends Manifest['formatVersion'] ? true : false>,
];
