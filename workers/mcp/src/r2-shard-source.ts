// A ShardSource over the R2 bucket for one (repo, commit): the manifest at
// repos/<owner>/<repo>/commits/<sha>/manifest.json, shards at shards/<sha256>. Finding out whether
// the commit is indexed at all is the provider's job; a missing manifest here is INDEX_NOT_FOUND.
import { manifestKey, SextantError, shardKey, type ShardEntry } from '@sextant/format';
import type { ShardSource } from '@sextant/query';
import type { R2BucketLike } from './r2-bucket.ts';

export interface R2ShardSourceOptions {
  /** The manifest's text when the caller already fetched it (the provider does, to resolve the commit). */
  manifestText?: string;
  /** Bucket name, for messages only. */
  bucketName?: string;
}

export class R2ShardSource implements ShardSource {
  readonly where: string;
  private readonly bucket: R2BucketLike;
  private readonly key: string;
  private manifestText: string | undefined;

  constructor(bucket: R2BucketLike, repo: string, commit: string, options: R2ShardSourceOptions = {}) {
    this.bucket = bucket;
    this.key = manifestKey(repo, commit);
    this.where = `r2://${options.bucketName ?? 'sextant-index'}/${this.key}`;
    this.manifestText = options.manifestText;
  }

  async readManifest(): Promise<string> {
    if (this.manifestText !== undefined) return this.manifestText;
    const object = await this.bucket.get(this.key);
    if (!object) {
      throw new SextantError('INDEX_NOT_FOUND', `There is no manifest at ${this.where}.`,
        'Publish the index for this commit with `indexer build` and `indexer publish`.');
    }
    this.manifestText = await object.text();
    return this.manifestText;
  }

  async readShard(_name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    // The reader verifies size and checksum; a missing object is its INDEX_CORRUPT to report.
    const object = await this.bucket.get(shardKey(entry.sha256));
    return object ? new Uint8Array(await object.arrayBuffer()) : undefined;
  }
}
