// A ShardSource over the R2 bucket for one (repo, commit): shards at shards/<sha256>, read through
// the Cache API when there is one (immutable objects: cached for a year), checked against their
// manifest entry with the platform's SHA-256 and inflated with its DecompressionStream, which cost
// a fraction of the CPU of the portable code in @sextant/format. Only checked bytes are put in the
// edge cache, so a corrupt object never outlives its repair there.
import { digestSha256Hex, SextantError, shardKey, storedPayload, type ShardEntry } from '@sextant/format';
import type { ShardSource } from '@sextant/query';
import type { R2BucketLike } from '@sextant/format';
import { IoMeter } from './io-meter.ts';

/** The slice of the Workers Cache API (caches.default) used here. */
export interface EdgeCacheLike {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
  delete(request: string): Promise<boolean>;
}

interface R2ShardSourceOptions {
  /** Bucket name, for messages and edge-cache keys. */
  bucketName?: string;
  edgeCache?: EdgeCacheLike;
  /** Keeps an edge-cache put alive after the response is sent (ExecutionContext.waitUntil). */
  waitUntil?: (promise: Promise<unknown>) => void;
  meter?: IoMeter;
}

/** Shards never change: let the edge keep them as long as it will. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export class R2ShardSource implements ShardSource {
  readonly where: string;
  private readonly bucket: R2BucketLike;
  private readonly bucketName: string;
  private readonly options: R2ShardSourceOptions;
  private readonly meter: IoMeter;

  constructor(bucket: R2BucketLike, repo: string, commit: string, options: R2ShardSourceOptions = {}) {
    this.bucket = bucket;
    this.bucketName = options.bucketName ?? 'sextant-index';
    this.where = `r2://${this.bucketName} (${repo}@${commit})`;
    this.options = options;
    this.meter = options.meter ?? new IoMeter();
  }

  /** R2IndexProvider reads and checks the manifest itself when it resolves the commit, and opens the reader from it. */
  async readManifest(): Promise<string> {
    throw new SextantError('INDEX_NOT_FOUND', `No manifest was read for ${this.where}.`,
      'Open the index through R2IndexProvider, which resolves the commit and reads its manifest.');
  }

  async readShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    return this.checkedBytes(name, entry);
  }

  async readInflatedShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    const bytes = await this.checkedBytes(name, entry);
    if (!bytes) return undefined;
    try {
      return await inflateRaw(bytes);
    } catch (error) {
      throw new SextantError('INDEX_CORRUPT', `Shard ${name} of ${this.where} (${this.objectOf(entry)}) cannot be inflated: ${(error as Error).message}`,
        'Rebuild the index for this commit with `indexer build` and publish it again.', { shard: name, object: this.objectOf(entry) });
    }
  }

  /** The shard's bytes, from the edge cache or R2, checked against the manifest; undefined when R2 has no such object. */
  private async checkedBytes(name: string, entry: ShardEntry): Promise<Uint8Array<ArrayBuffer> | undefined> {
    const cacheKey = `https://sextant.invalid/${this.bucketName}/${shardKey(entry.sha256)}`;
    const cache = this.options.edgeCache;
    if (cache) {
      const hit = await this.meter.wait(cache.match(cacheKey));
      if (hit) {
        const bytes = new Uint8Array(await this.meter.wait(hit.arrayBuffer()));
        if (await matches(bytes, entry)) {
          this.meter.edgeCacheHits++;
          this.meter.shardBytes += bytes.byteLength;
          return bytes;
        }
        // Cannot have been put unchecked; drop it anyway and read R2.
        await cache.delete(cacheKey);
      }
    }
    this.meter.r2Reads++;
    const object = await this.meter.wait(this.bucket.get(shardKey(entry.sha256)));
    if (!object) return undefined;
    const bytes = new Uint8Array(await this.meter.wait(object.arrayBuffer()));
    this.meter.shardBytes += bytes.byteLength;
    if (!(await matches(bytes, entry))) {
      throw new SextantError('INDEX_CORRUPT',
        `Shard ${name} of ${this.where}, object ${this.objectOf(entry)}, fails its checksum (expected ${entry.bytes} bytes with sha256 ${entry.sha256}; got ${bytes.byteLength} bytes).`,
        'Publish the index for this commit again with `indexer publish --verify`, which reads every shard of the commit back from R2 and uploads again the ones that fail their checksum; or rebuild it with `indexer build`.',
        { shard: name, object: this.objectOf(entry) });
    }
    if (cache) {
      const put = cache.put(cacheKey, new Response(bytes, { headers: { 'cache-control': IMMUTABLE, 'content-type': 'application/octet-stream' } }))
        .catch(() => { /* a missed put only costs a later R2 read */ });
      if (this.options.waitUntil) this.options.waitUntil(put);
      else await put;
    }
    return bytes;
  }

  objectOf(entry: ShardEntry): string {
    return `r2://${this.bucketName}/${shardKey(entry.sha256)}`;
  }
}

async function matches(bytes: Uint8Array<ArrayBuffer>, entry: ShardEntry): Promise<boolean> {
  return bytes.byteLength === entry.bytes && (await digestSha256Hex(bytes)) === entry.sha256;
}

async function inflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  // Text shards are stored blocks: copied out, which costs a small fraction of a stream's inflating.
  const stored = storedPayload(bytes);
  if (stored) return stored;
  const stream = new Response(bytes).body!.pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
