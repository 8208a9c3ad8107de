// Where a layout puts a key, a path and a name: always a shard the layout implies (the writer
// writes every one), of the right kind; a path's file record and text in buckets of the same
// number, its change record by its own (finer) bits; and a layout of 0 bits puts everything in bucket 0.
import { describe, expect, it } from 'vitest';
import { bucketOfShardName, impliedShardNames, ShardLayout, symbolKey } from '../src/index.ts';

const bits = { symbolBucketBits: 3, fileBucketBits: 2, changeBucketBits: 4, unresolvedBucketBits: 1, graphBucketBits: 0, gramBucketBits: 0 };
const layout = new ShardLayout(bits);
const implied = new Set(impliedShardNames(bits));
const keys = Array.from({ length: 200 }, (_, i) => symbolKey(`src/f${i}.ts|f${i}|function`));
const paths = Array.from({ length: 200 }, (_, i) => `src/dir${i % 7}/file${i}.ts`);
const names = Array.from({ length: 200 }, (_, i) => `name${i}`);

describe('ShardLayout', () => {
  it('counts the buckets of each kind', () => {
    expect([layout.symbolBuckets, layout.fileBuckets, layout.changeBuckets, layout.unresolvedBuckets]).toEqual([8, 4, 16, 2]);
  });

  it('names only shards the layout implies, of the kind asked for, covering every bucket', () => {
    const seen = new Map<string, Set<number>>();
    const check = (name: string, kind: string, bucket: number) => {
      expect(implied.has(name)).toBe(true);
      expect(bucketOfShardName(name, bits)).toEqual({ kind, bucket });
      (seen.get(kind) ?? seen.set(kind, new Set()).get(kind)!).add(bucket);
    };
    for (const key of keys) check(layout.symbolShardOf(key), 'symbols', layout.symbolBucketOf(key));
    for (const path of paths) {
      check(layout.fileShardOf(path), 'files', layout.fileBucketOf(path));
      check(layout.textShardOf(path), 'texts', layout.fileBucketOf(path));
      check(layout.changeShardOf(path), 'changes', layout.changeBucketOf(path));
    }
    for (const name of names) check(layout.unresolvedShardOf(name), 'unresolved', layout.unresolvedBucketOf(name));
    expect(Object.fromEntries([...seen].map(([kind, buckets]) => [kind, buckets.size])))
      .toEqual({ symbols: 8, files: 4, texts: 4, changes: 16, unresolved: 2 });
  });

  it('refines change buckets within file buckets: both hash the path, the change bits are a prefix extension', () => {
    for (const path of paths) expect(layout.changeBucketOf(path) >> 2).toBe(layout.fileBucketOf(path));
  });

  it('puts everything in bucket 0 with 0 bits', () => {
    const one = new ShardLayout({ symbolBucketBits: 0, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: 0, graphBucketBits: 0, gramBucketBits: 0 });
    expect([one.symbolShardOf(keys[0]!), one.fileShardOf(paths[0]!), one.textShardOf(paths[1]!), one.changeShardOf(paths[2]!), one.unresolvedShardOf('x')])
      .toEqual(['symbols/0000', 'files/0000', 'texts/0000', 'changes/0000', 'unresolved/0000']);
  });
});
