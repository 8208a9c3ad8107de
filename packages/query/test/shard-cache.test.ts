// ShardCache: an LRU bounded by the inflated bytes of what it holds. The worker shares one per
// isolate across requests and repositories, so the bound must hold exactly and recency must follow
// reads, not only writes.
import { describe, expect, it } from 'vitest';
import { ShardCache } from '../src/index.ts';

function keys(cache: ShardCache, candidates: string[]): string[] {
  // Probing with get() would refresh recency and count hits; a fresh probe per key keeps tests honest.
  return candidates.filter((key) => cache.get(key) !== undefined);
}

describe('ShardCache', () => {
  it('counts a miss, then a hit once set', () => {
    const cache = new ShardCache(100);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.misses).toBe(1);
    const value = { v: 1 };
    cache.set('a', value, 10);
    expect(cache.get('a')).toBe(value);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(1);
  });

  it('charges bytes, not entries, and evicts the least recently set first', () => {
    const cache = new ShardCache(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.size).toBe(80);
    cache.set('c', 'C', 40);
    expect(cache.size).toBe(80);
    expect(keys(cache, ['a', 'b', 'c'])).toEqual(['b', 'c']);
  });

  it('treats a read as use: the entry read survives, the one not read goes', () => {
    const cache = new ShardCache(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    cache.get('a');
    cache.set('c', 'C', 40);
    expect(keys(cache, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('evicts as many small entries as one large one needs', () => {
    const cache = new ShardCache(100);
    for (const key of ['a', 'b', 'c', 'd', 'e']) cache.set(key, key, 20);
    cache.set('big', 'BIG', 70);
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(keys(cache, ['a', 'b', 'c', 'd', 'e', 'big'])).toEqual(['e', 'big']);
    expect(cache.size).toBe(90);
  });

  it('holds an entry of exactly maxBytes, alone', () => {
    const cache = new ShardCache(100);
    cache.set('a', 'A', 30);
    cache.set('full', 'FULL', 100);
    expect(cache.size).toBe(100);
    expect(keys(cache, ['a', 'full'])).toEqual(['full']);
  });

  it('never caches an entry larger than the whole cache, and keeps what it had', () => {
    const cache = new ShardCache(100);
    cache.set('a', 'A', 50);
    cache.set('huge', 'HUGE', 101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.size).toBe(50);
  });

  it('replaces an entry set twice without charging it twice', () => {
    const cache = new ShardCache(100);
    cache.set('a', 'A1', 60);
    cache.set('a', 'A2', 30);
    expect(cache.size).toBe(30);
    expect(cache.get('a')).toBe('A2');
  });

  it('stays within its bound under a long random workload', () => {
    const cache = new ShardCache(1000);
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 5000; i++) {
      const key = `k${next() % 200}`;
      if (next() % 3 === 0) cache.get(key);
      else cache.set(key, key, 1 + (next() % 300));
      expect(cache.size).toBeLessThanOrEqual(cache.maxBytes);
    }
    expect(cache.hits + cache.misses).toBeGreaterThan(0);
  });
});
