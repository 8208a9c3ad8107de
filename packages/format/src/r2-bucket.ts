// The slice of Cloudflare's R2Bucket binding that Sextant uses: the worker reads with it, the
// publisher (`indexer publish`, `indexer gc`) writes and deletes with it. Typed structurally, so
// that the code needs no @cloudflare/workers-types and runs unchanged over the binding wrangler's
// getPlatformProxy hands to Node (tests, the publisher). Types only: runtime-neutral.

export interface R2ObjectLike {
  key: string;
  size: number;
  /** Changes whenever the object is written with other bytes; what a conditional put compares. */
  etag: string;
  uploaded: Date;
  /** checksums.sha256 is there when the upload gave one. */
  checksums?: { sha256?: ArrayBuffer };
}

interface R2ObjectBodyLike extends R2ObjectLike {
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface R2ListOptionsLike {
  prefix?: string;
  delimiter?: string;
  limit?: number;
  cursor?: string;
}

interface R2ObjectsLike {
  objects: R2ObjectLike[];
  delimitedPrefixes: string[];
  truncated: boolean;
  cursor?: string;
}

interface R2PutOptionsLike {
  /** R2 verifies the body against it and refuses a mismatch. */
  sha256?: string;
  httpMetadata?: { contentType?: string };
  onlyIf?: { etagMatches?: string; etagDoesNotMatch?: string };
}

export interface R2BucketLike {
  get(key: string): Promise<R2ObjectBodyLike | null>;
  head(key: string): Promise<R2ObjectLike | null>;
  list(options?: R2ListOptionsLike): Promise<R2ObjectsLike>;
  /** The stored object, or null when `onlyIf` did not hold and nothing was written. */
  put(key: string, body: Uint8Array | string, options?: R2PutOptionsLike): Promise<R2ObjectLike | null>;
  /** A missing key is not an error; R2 takes up to 1000 keys a call. */
  delete(keys: string | string[]): Promise<void>;
}
