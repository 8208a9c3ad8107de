// What an isolate keeps between requests (module globals live until the isolate is evicted):
// decoded shards and parsed manifests in one LRU bounded in bytes, and ref resolutions for a few
// seconds. Shards and manifests are immutable (content-addressed, or one per commit), so caching
// them is always correct; a ref moves, so its resolution is kept only briefly.
import { ShardCache } from '@sextant/query';

/**
 * 32 MB of decoded shards and manifests per isolate, keyed by content hash or by repo@commit, so
 * entries are shared by every request for any repository. It leaves most of the isolate's 128 MB to
 * the request in flight.
 */
export const SHARD_CACHE_BYTES = 32 * 1024 * 1024;
export const SHARED_SHARD_CACHE = new ShardCache(SHARD_CACHE_BYTES);

/**
 * How long an isolate trusts what a ref (or the default ref) pointed at. A ref that was just moved
 * may therefore answer from its previous commit for up to this long on an isolate that resolved it
 * before; every answer names the commit it comes from, and a sha is never stale.
 */
export const REF_TTL_MS = 5_000;

interface Entry {
  commit: string;
  expires: number;
}

/** Ref name (or commit prefix) -> full commit, per repository, with an expiry; bounded in entries. */
export class RefCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly clock: () => number;

  constructor(maxEntries = 4096, clock: () => number = () => Date.now()) {
    this.maxEntries = maxEntries;
    this.clock = clock;
  }

  get(repo: string, name: string): string | undefined {
    const key = keyOf(repo, name);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.commit;
  }

  /** `ttlMs` Infinity for what cannot change (a long commit prefix resolved to its commit). */
  set(repo: string, name: string, commit: string, ttlMs: number): void {
    const key = keyOf(repo, name);
    this.entries.delete(key);
    this.entries.set(key, { commit, expires: this.clock() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

function keyOf(repo: string, name: string): string {
  return `${repo.toLowerCase()}\0${name}`;
}

export const SHARED_REF_CACHE = new RefCache();
