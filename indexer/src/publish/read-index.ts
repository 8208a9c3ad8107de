// Reads and verifies an index directory as `indexer build` writes it (manifest.json plus one file
// per shard at `<dir>/<shard name>`) before anything is uploaded: a publish never spreads an index
// whose bytes disagree with its manifest.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  digestSha256Hex, isFullCommit, MANIFEST_DIGEST_FILE, MANIFEST_FILE, manifestSha256, parseManifest, parseManifestDigestLine, SextantError, type Manifest,
} from '@sextant/format';

export interface IndexShard {
  name: string;
  sha256: string;
  bytes: number;
  file: string;
}

export interface IndexDirectory {
  dir: string;
  manifest: Manifest;
  /** The manifest file's text, uploaded as is unless the repository is renamed. */
  manifestText: string;
  shards: IndexShard[];
  totalBytes: number;
}

/** Shard names become file paths: letters, digits, `-`, `_`, `.` in `/`-separated parts, no `..`. */
const SHARD_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

export async function readIndexDirectory(dir: string): Promise<IndexDirectory> {
  const manifestFile = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestFile, 'utf8');
  } catch {
    throw new SextantError('INDEX_NOT_FOUND', `There is no index at ${dir} (no ${MANIFEST_FILE}).`,
      'Build one with `indexer build --out <dir>`, or pass the directory it was built into with --out.');
  }
  // The directory's record of the manifest it built: a publish never spreads an edited one.
  const digestFile = join(dir, MANIFEST_DIGEST_FILE);
  const digest = await readFile(digestFile, 'utf8').then(parseManifestDigestLine, () => undefined);
  const manifest = parseManifest(text, manifestFile, { actual: manifestSha256(text), expected: digest, recordedIn: digestFile });
  if (!isFullCommit(manifest.commit)) {
    throw new SextantError('INDEX_CORRUPT', `The manifest at ${manifestFile} names commit "${manifest.commit}", not a full sha.`,
      'Rebuild the index with `indexer build`.', { shard: MANIFEST_FILE });
  }
  const shards: IndexShard[] = [];
  let totalBytes = 0;
  for (const [name, entry] of Object.entries(manifest.shards)) {
    if (!SHARD_NAME.test(name) || name.split('/').includes('..')) {
      throw new SextantError('INDEX_CORRUPT', `The manifest at ${manifestFile} lists a shard named "${name}", which is not a valid shard name.`,
        'Rebuild the index with `indexer build`.', { shard: name });
    }
    const file = join(dir, name);
    await verifyShardFile(name, entry.sha256, entry.bytes, file);
    shards.push({ name, sha256: entry.sha256, bytes: entry.bytes, file });
    totalBytes += entry.bytes;
  }
  return { dir, manifest, manifestText: text, shards, totalBytes };
}

/** Reads a shard file and checks it against its manifest entry; returns its bytes. */
export async function verifyShardFile(name: string, sha256: string, bytes: number, file: string): Promise<Uint8Array> {
  let data: Uint8Array;
  try {
    data = await readFile(file);
  } catch (error) {
    throw new SextantError('INDEX_CORRUPT', `Shard ${name} listed in the manifest is missing (${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      'Rebuild the index with `indexer build`; do not edit the index directory by hand.', { shard: name });
  }
  const actual = await digestSha256Hex(data);
  if (data.byteLength !== bytes || actual !== sha256) {
    throw new SextantError('INDEX_CORRUPT',
      `Shard ${name} (${file}) does not match the manifest: expected ${bytes} bytes with sha256 ${sha256}, found ${data.byteLength} bytes with sha256 ${actual}.`,
      'Rebuild the index with `indexer build`; do not edit the index directory by hand.', { shard: name });
  }
  return data;
}

