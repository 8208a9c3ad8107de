// A least-recently-used cache of decoded shards, bounded by the bytes the shards inflate to.
// Keyed by content hash: a shard's bytes never change, so an entry is valid for every commit
// and repository that shares it, and nothing is ever assumed present.

export class ShardCache {
  readonly maxBytes: number;
  private readonly entries = new Map<string, { value: unknown; bytes: number }>();
  private used = 0;
  hits = 0;
  misses = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get<T>(hash: string): T | undefined {
    const entry = this.entries.get(hash);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return entry.value as T;
  }

  set(hash: string, value: unknown, bytes: number): void {
    if (bytes > this.maxBytes) return;
    const previous = this.entries.get(hash);
    if (previous) {
      this.used -= previous.bytes;
      this.entries.delete(hash);
    }
    this.entries.set(hash, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  get size(): number {
    return this.used;
  }
}
