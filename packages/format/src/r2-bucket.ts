// The slice of Cloudflare's R2Bucket binding that the worker uses, typed structurally so that the
// code needs no @cloudflare/workers-types and runs unchanged over the binding wrangler's
// getPlatformProxy hands to Node (tests, the publisher).

export interface R2ObjectLike {
  key: string;
  size: number;
}

export interface R2ObjectBodyLike extends R2ObjectLike {
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface R2ListOptionsLike {
  prefix?: string;
  delimiter?: string;
  limit?: number;
  cursor?: string;
}

export interface R2ObjectsLike {
  objects: R2ObjectLike[];
  delimitedPrefixes: string[];
  truncated: boolean;
  cursor?: string;
}

export interface R2BucketLike {
  get(key: string): Promise<R2ObjectBodyLike | null>;
  head(key: string): Promise<R2ObjectLike | null>;
  list(options?: R2ListOptionsLike): Promise<R2ObjectsLike>;
}
