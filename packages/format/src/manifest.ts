// The manifest: what an index is (repo, commit, tool versions), what it holds (counts, languages,
// skipped files) and, per shard, the checksum every reader verifies before decoding.
import { SextantError } from './errors.ts';
import type { Language } from './records.ts';

export const FORMAT_VERSION = 3;
export const MANIFEST_FILE = 'manifest.json';
export const NAMES_SHARD = 'names';

export interface ShardEntry {
  /** sha256 of the shard's bytes, lowercase hex; also its content address in object storage. */
  sha256: string;
  bytes: number;
}

export interface SkippedFile {
  path: string;
  reason: 'too-large' | 'binary' | 'not-utf8' | 'unreadable' | 'symlink' | 'submodule';
  detail: string;
}

export interface LanguageSummary {
  files: number;
  /** compiler: resolved by a compiler; syntactic: resolved on the syntax tree. */
  precision: 'compiler' | 'syntactic';
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
  /** Shard layout: symbols live in 2^symbolBucketBits buckets by key, files in 2^fileBucketBits by path. */
  layout: { symbolBucketBits: number; fileBucketBits: number };
  counts: { files: number; symbols: number; references: number; edges: number };
  languages: Partial<Record<Language, LanguageSummary>>;
  skipped: SkippedFile[];
  warnings: string[];
  shards: Record<string, ShardEntry>;
}

export function symbolShardName(bucket: number): string {
  return `symbols/${bucket.toString(16).padStart(4, '0')}`;
}

export function fileShardName(bucket: number): string {
  return `files/${bucket.toString(16).padStart(4, '0')}`;
}

export function textShardName(bucket: number): string {
  return `texts/${bucket.toString(16).padStart(4, '0')}`;
}

/** Parses and checks a manifest; anything unexpected is INDEX_CORRUPT or INDEX_VERSION_UNSUPPORTED. */
export function parseManifest(text: string, where: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SextantError('INDEX_CORRUPT', `The manifest at ${where} is not JSON: ${(error as Error).message}`,
      'Rebuild the index with `indexer build`.', { shard: MANIFEST_FILE });
  }
  const manifest = value as Manifest;
  if (typeof manifest !== 'object' || manifest === null || typeof manifest.formatVersion !== 'number') {
    throw new SextantError('INDEX_CORRUPT', `The manifest at ${where} has no formatVersion.`,
      'Rebuild the index with `indexer build`.', { shard: MANIFEST_FILE });
  }
  if (manifest.formatVersion !== FORMAT_VERSION) {
    throw new SextantError('INDEX_VERSION_UNSUPPORTED',
      `The index at ${where} has format version ${manifest.formatVersion}; this reader understands version ${FORMAT_VERSION}.`,
      'Rebuild the index with the indexer that matches this server, or upgrade the server.');
  }
  const required: (keyof Manifest)[] = [
    'repo', 'commit', 'commitDate', 'builtAt', 'indexer', 'parsers', 'layout', 'counts', 'languages', 'skipped', 'warnings', 'shards',
  ];
  for (const field of required) {
    if (manifest[field] === undefined || manifest[field] === null) {
      throw new SextantError('INDEX_CORRUPT', `The manifest at ${where} lacks "${field}".`,
        'Rebuild the index with `indexer build`.', { shard: MANIFEST_FILE });
    }
  }
  return manifest;
}
