// The field-by-field check of a manifest, by hand: exactly what manifestSchema accepts, and the
// same stripped copy its parse returns (known fields only, in the schema's order), without zod. A
// fresh worker isolate parses a manifest on its first call; zod spends tens of milliseconds of CPU
// there (building its parsers, then walking thousands of shard entries), more than the call's whole
// budget, where this loop costs well under one. When anything is wrong this answers undefined and
// parseManifest runs manifestSchema, which words the refusal. A test compares the two on valid
// manifests and on every field broken in turn (test/manifest-fields.test.ts).
import { regexes } from 'zod/v4/core';
import { GRAPH_MAX_BUCKET_BITS } from './graph-shard.ts';
import { FORMAT_VERSION, PRECISIONS, SKIPPED_REASONS, type Manifest } from './manifest.ts';
import { isValidRepoName } from './object-layout.ts';
import { LANGUAGES } from './records.ts';

type Json = Record<string, unknown>;

/** zod's own pattern for z.iso.datetime({ offset: true }), so both checks accept the same dates. */
const DATETIME = regexes.datetime({ offset: true, local: false, precision: null });
const COMMIT = /^[0-9a-f]{40}$/;
const HEX = /^[0-9a-f]*$/;
const MAX_BUCKET_BITS = 20;
const LANGUAGE_SET: ReadonlySet<string> = new Set(LANGUAGES);
const SKIPPED_SET: ReadonlySet<string> = new Set(SKIPPED_REASONS);
const PRECISION_SET: ReadonlySet<string> = new Set(PRECISIONS);

/** The manifest as manifestSchema's parse would return it, or undefined when manifestSchema would refuse it. */
export function readManifestFields(value: unknown): Manifest | undefined {
  if (!isRecord(value)) return undefined;
  const { formatVersion, repo, commit, commitDate, builtAt, indexer, parsers, libraryModels, layout, counts, languages, skipped, warnings, build, shards } = value;
  if (formatVersion !== FORMAT_VERSION) return undefined;
  if (typeof repo !== 'string' || repo.length === 0 || !isValidRepoName(repo)) return undefined;
  if (typeof commit !== 'string' || !COMMIT.test(commit)) return undefined;
  if (typeof commitDate !== 'string' || !DATETIME.test(commitDate) || typeof builtAt !== 'string' || !DATETIME.test(builtAt)) return undefined;
  const tool = nameVersion(indexer);
  if (!tool || !isRecord(parsers) || !Object.values(parsers).every((v) => typeof v === 'string')) return undefined;
  let models: { name: string; version: string }[] | undefined;
  if (libraryModels !== undefined) {
    if (!Array.isArray(libraryModels)) return undefined;
    models = [];
    for (const model of libraryModels) {
      const checked = nameVersion(model);
      if (!checked) return undefined;
      models.push(checked);
    }
  }
  if (!isRecord(layout)) return undefined;
  const { symbolBucketBits, fileBucketBits, changeBucketBits, unresolvedBucketBits, graphBucketBits, gramBucketBits } = layout;
  if (![symbolBucketBits, fileBucketBits, changeBucketBits, unresolvedBucketBits, gramBucketBits].every((bits) => isCount(bits) && bits <= MAX_BUCKET_BITS)) return undefined;
  if (!isCount(graphBucketBits) || graphBucketBits > GRAPH_MAX_BUCKET_BITS) return undefined;
  if (!isRecord(counts)) return undefined;
  const { files, texts, symbols, references, edges, unresolved } = counts;
  if (![files, texts, symbols, references, edges, unresolved].every(isCount)) return undefined;
  if (!isRecord(languages)) return undefined;
  const languageCopy: Json = {};
  for (const [language, entry] of Object.entries(languages)) {
    if (!LANGUAGE_SET.has(language) || !isRecord(entry) || !isCount(entry.files) || typeof entry.precision !== 'string' || !PRECISION_SET.has(entry.precision)) return undefined;
    languageCopy[language] = { files: entry.files, precision: entry.precision };
  }
  if (!Array.isArray(skipped)) return undefined;
  const skippedCopy: Json[] = [];
  for (const file of skipped) {
    if (!isRecord(file) || typeof file.path !== 'string' || typeof file.reason !== 'string' || !SKIPPED_SET.has(file.reason) || typeof file.detail !== 'string') return undefined;
    skippedCopy.push({ path: file.path, reason: file.reason, detail: file.detail });
  }
  if (!Array.isArray(warnings) || !warnings.every((w) => typeof w === 'string')) return undefined;
  const buildCopy = buildModeOf(build);
  if (buildCopy === null) return undefined;
  if (!isRecord(shards)) return undefined;
  const shardCopy: Json = {};
  const digests: string[] = [];
  // The hot loop of a cold isolate's first call (one pass per shard, thousands of them): no
  // destructuring, and the digests checked together after it.
  for (const name in shards) {
    if (!Object.hasOwn(shards, name)) continue;
    const entry = shards[name];
    if (!isRecord(entry)) return undefined;
    const sha256 = entry.sha256;
    const bytes = entry.bytes;
    const records = entry.records;
    if (typeof sha256 !== 'string' || sha256.length !== 64 || !isCount(bytes) || !isCount(records)) return undefined;
    digests.push(sha256);
    shardCopy[name] = { sha256, bytes, records };
  }
  // One pattern over all digests joined (each is 64 characters long), not one match per shard.
  if (!HEX.test(digests.join(''))) return undefined;
  return {
    formatVersion, repo, commit, commitDate, builtAt, indexer: tool, parsers: { ...parsers } as Record<string, string>,
    ...(models ? { libraryModels: models } : {}),
    layout: { symbolBucketBits, fileBucketBits, changeBucketBits, unresolvedBucketBits, graphBucketBits, gramBucketBits },
    counts: { files, texts, symbols, references, edges, unresolved },
    languages: languageCopy, skipped: skippedCopy, warnings: [...warnings], ...(buildCopy ? { build: buildCopy } : {}), shards: shardCopy,
  } as unknown as Manifest;
}

/** The build field as the schema reads it: undefined when absent, null when the schema would refuse it. */
function buildModeOf(value: unknown): Json | undefined | null {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return null;
  if (value.mode === 'full') {
    if (value.reason !== undefined && typeof value.reason !== 'string') return null;
    return { mode: 'full', ...(value.reason !== undefined ? { reason: value.reason } : {}) };
  }
  if (value.mode !== 'incremental' || typeof value.from !== 'string' || !COMMIT.test(value.from) || !isCount(value.walked) || !isCount(value.reused)) return null;
  return { mode: 'incremental', from: value.from, walked: value.walked, reused: value.reused };
}

function nameVersion(value: unknown): { name: string; version: string } | undefined {
  if (!isRecord(value) || typeof value.name !== 'string' || typeof value.version !== 'string') return undefined;
  return { name: value.name, version: value.version };
}

/** zod's int().min(0): a safe integer, not negative. */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A JSON object (zod's record and object accept no array, and nothing but plain objects). */
function isRecord(value: unknown): value is Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
