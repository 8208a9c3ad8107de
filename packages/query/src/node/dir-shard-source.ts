// A ShardSource over an index directory written by `indexer build`: manifest.json, the sha256 of it
// in manifest.sha256 (the directory's record of which manifest was built, compared on open), and
// one file per shard.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MANIFEST_DIGEST_FILE, MANIFEST_FILE, parseManifestDigestLine, SextantError, type ShardEntry } from '@sextant/format';
import type { ShardSource } from '../shard-source.ts';

export class DirShardSource implements ShardSource {
  readonly where: string;

  constructor(directory: string) {
    this.where = resolve(directory);
  }

  async readManifest(): Promise<string> {
    try {
      return await readFile(join(this.where, MANIFEST_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SextantError('INDEX_NOT_FOUND', `No index at ${this.where} (no ${MANIFEST_FILE}).`,
          'Build one with `indexer build --out <dir>` and pass that directory with --index.');
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

  async readShard(name: string, _entry: ShardEntry): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(join(this.where, name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
