// A ShardSource over an index directory written by `indexer build`: manifest.json, the sha256 of it
// in manifest.sha256 (the directory's record of which manifest was built, compared on open), and
// one file per shard, checked with Node's native SHA-256 and inflated with its zlib (the portable
// code hashes in JavaScript, seconds for a large index's texts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { MANIFEST_DIGEST_FILE, MANIFEST_FILE, parseManifestDigestLine, SextantError, storedPayload, type ShardEntry } from '@sextant/format';
import { checksumMismatch, REPUBLISH_HINT, type ShardSource } from '../shard-source.ts';

export class DirShardSource implements ShardSource {
  readonly where: string;

  /** `missingHint`: what to do when the directory holds no index (by default, as a reader's --index names it). */
  constructor(directory: string, private readonly missingHint = 'Build one with `indexer build --out <dir>` and pass that directory with --index.') {
    this.where = resolve(directory);
  }

  async readManifest(): Promise<string> {
    try {
      return await readFile(join(this.where, MANIFEST_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SextantError('INDEX_NOT_FOUND', `No index at ${this.where} (no ${MANIFEST_FILE}).`, this.missingHint);
      }
      throw error;
    }
  }

  async recordedManifestSha256(): Promise<{ expected: string | undefined; recordedIn: string }> {
    const recordedIn = join(this.where, MANIFEST_DIGEST_FILE);
    try {
      return { expected: parseManifestDigestLine(await readFile(recordedIn, 'utf8')), recordedIn };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { expected: undefined, recordedIn };
      throw error;
    }
  }

  async readInflatedShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    const bytes = await this.readShard(name, entry);
    return bytes && checkedInflate(name, this.where, entry, bytes, REPUBLISH_HINT);
  }

  async readShard(name: string, _entry: ShardEntry): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(join(this.where, name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

/** Whether bytes are the shard a manifest entry names: its size and sha256 (native). */
export function isEntryBytes(bytes: Uint8Array, entry: ShardEntry): boolean {
  return bytes.byteLength === entry.bytes && createHash('sha256').update(bytes).digest('hex') === entry.sha256;
}

/** Checks a shard's bytes against its manifest entry: INDEX_CORRUPT naming the shard, with `hint`, when they are not that shard. */
export function checkBytes(name: string, where: string, entry: ShardEntry, bytes: Uint8Array, hint: string): void {
  if (!isEntryBytes(bytes, entry)) throw checksumMismatch(name, where, entry, bytes, hint);
}

/**
 * A shard's bytes checked against its manifest entry and inflated (stored blocks copied out), in
 * native code; INDEX_CORRUPT naming the shard, with `hint`, when they are not that shard.
 */
export function checkedInflate(name: string, where: string, entry: ShardEntry, bytes: Uint8Array, hint: string): Uint8Array {
  checkBytes(name, where, entry, bytes, hint);
  try {
    return storedPayload(bytes) ?? new Uint8Array(inflateRawSync(bytes));
  } catch (error) {
    throw new SextantError('INDEX_CORRUPT', `Shard ${name} of ${where} cannot be inflated: ${(error as Error).message}`, hint, { shard: name });
  }
}
