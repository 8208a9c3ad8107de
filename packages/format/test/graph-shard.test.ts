// Graph shards: nodes numbered in declaration-path order, split into contiguous ranges, edges naming
// peers by ordinal; read back field for field, and refused when their bytes or placement are wrong.
import { describe, expect, it } from 'vitest';
import {
  checkShardHolds, decodeShard, encodeShard, GRAPH_MAX_BUCKET_BITS, graphBucketOf, graphShardName, graphStarts,
  GraphShard, layoutGraph, type GraphNodeData,
} from '../src/index.ts';
import { openShard } from './support/open-shard.ts';
import { thrown } from './support/thrown.ts';


const key = (n: number) => n.toString(16).padStart(16, '0');

function node(n: number, path: string | undefined, edges: GraphNodeData['edges'] = []): GraphNodeData {
  return {
    key: key(n), name: `f${n}`, kind: 'function', qname: `mod.f${n}`, lang: 'typescript', mods: 1,
    ...(path ? { def: [path, n + 1, 3, n + 1, 5] as const } : { external: { package: 'react', version: '19.2.0' } }),
    edges,
  };
}

describe('graph shards', () => {
  const small = [
    node(2, 'src/b.ts', [
      { kind: 'calls', out: true, peer: key(1), site: ['src/b.ts', 9, 4, 9, 6] }, { kind: 'extends', out: true, peer: key(9) },
      { kind: 'calls', out: true, peer: key(1), site: ['src/b.ts', 12, 4, 12, 6] },
    ]),
    node(1, 'src/a.ts', [
      { kind: 'calls', out: false, peer: key(2), site: ['src/b.ts', 12, 4, 12, 6] }, { kind: 'calls', out: false, peer: key(2), site: ['src/b.ts', 9, 4, 9, 6] },
    ]),
    node(9, undefined, [{ kind: 'extends', out: false, peer: key(2) }]),
    { ...node(3, 'src/c.ts', [{ kind: 'calls', out: true, peer: key(1) }]), local: true },
  ];

  it('number nodes by declaration path, externals last, and read back every field and edge', () => {
    const graph = layoutGraph(small);
    expect(graph.bits).toBe(0);
    expect([...graph.ordinalOf]).toEqual([[key(1), 0], [key(2), 1], [key(3), 2], [key(9), 3]]);
    const shard = openShard<GraphShard>('graph/0000', graph.shards[0]!);
    expect(shard.start).toBe(0);
    expect(shard.size).toBe(4);
    expect(shard.node(2).local).toBe(true);
    expect(shard.node(1).local).toBeUndefined();
    expect(shard.node(1)).toEqual({
      ordinal: 1, key: key(2), name: 'f2', kind: 'function', qname: 'mod.f2', lang: 'typescript', mods: 1,
      def: { path: 'src/b.ts', line: 3, column: 3, endLine: 3, endColumn: 5 },
    });
    expect(shard.node(3).external).toEqual({ package: 'react', version: '19.2.0' });
    expect(shard.node(3).def).toBeUndefined();
    // Sorted by kind, then direction, then peer, then site; a caller names its callee once, without
    // sites, which the callee's incoming edges hold.
    expect(shard.edges(1)).toEqual([{ kind: 'calls', out: true, peer: 0 }, { kind: 'extends', out: true, peer: 3 }]);
    expect(shard.edges(0)).toEqual([
      { kind: 'calls', out: false, peer: 1, site: { path: 'src/b.ts', line: 9, column: 4, endLine: 9, endColumn: 6 } },
      { kind: 'calls', out: false, peer: 1, site: { path: 'src/b.ts', line: 12, column: 4, endLine: 12, endColumn: 6 } },
    ]);
    expect(thrown(() => shard.node(4)).message).toMatch(/does not hold graph node 4/);
  });

  it('split a large graph into at most 2^GRAPH_MAX_BUCKET_BITS contiguous ranges that graphStarts and graphBucketOf find', () => {
    const perBucket = 8;
    const count = perBucket * 2 ** GRAPH_MAX_BUCKET_BITS * 3 + 5;
    const path = (i: number) => `src/${String(i >> 3).padStart(4, '0')}.ts`;
    const nodes = Array.from({ length: count }, (_, i) => node(i, path(i), [{ kind: 'calls', out: true, peer: key((i + 1) % count), site: [path(i), 2, 1, 2, 4] }]));
    const graph = layoutGraph(nodes, perBucket);
    expect(graph.bits).toBe(GRAPH_MAX_BUCKET_BITS);
    expect(layoutGraph(nodes.slice(0, perBucket * 4).map((n) => ({ ...n, edges: [] })), perBucket).bits).toBe(2);
    expect(graph.records.reduce((a, b) => a + b, 0)).toBe(count);
    const starts = graphStarts(graph.records);
    for (const ordinal of [0, 1, starts[1]! - 1, starts[1]!, count - 1]) {
      const bucket = graphBucketOf(ordinal, starts);
      const shard = openShard<GraphShard>(graphShardName(bucket), graph.shards[bucket]!);
      expect(shard.holds(ordinal)).toBe(true);
      expect(shard.key(ordinal)).toBe(key(ordinal));
      expect(shard.edges(ordinal)[0]!.peer).toBe((ordinal + 1) % count);
    }
    expect(graphBucketOf(count, starts)).toBe(-1);
    expect(graphBucketOf(-1, starts)).toBe(-1);
  });

  it('takes the bytes the caller keeps for a bucket instead of encoding it, and is told each bucket\'s nodes and every ordinal', () => {
    const path = (i: number) => `src/${String(i).padStart(2, '0')}.ts`;
    const nodes = Array.from({ length: 32 }, (_, i) => node(i, path(i), [{ kind: 'calls', out: true, peer: key((i + 1) % 32), site: [path(i), 2, 1, 2, 4] }]));
    const whole = layoutGraph(nodes, 8);
    const asked: [number, string[], number][] = [];
    const kept = new Uint8Array([1, 2, 3]);
    const layout = layoutGraph(nodes, 8, (bucket, bucketNodes, ordinalOf) => {
      asked.push([bucket, bucketNodes.map((n) => n.key), ordinalOf.size]);
      return bucket === 2 ? kept : undefined;
    });
    expect(asked.map(([bucket, keys, size]) => [bucket, keys.length, keys[0], size])).toEqual([[0, 8, key(0), 32], [1, 8, key(8), 32], [2, 8, key(16), 32], [3, 8, key(24), 32]]);
    expect(layout.shards[2]).toBe(kept);
    expect(layout.shards.filter((_, bucket) => bucket !== 2)).toEqual(whole.shards.filter((_, bucket) => bucket !== 2));
    expect(layout.records).toEqual(whole.records);
  });

  it('are refused when an edge names no node', () => {
    expect(() => layoutGraph([node(1, 'a.ts', [{ kind: 'calls', out: true, peer: key(5) }])])).toThrow(/names 0000000000000005, which is no node/);
  });

  it('are INDEX_CORRUPT when stored in another shape or with columns that disagree', () => {
    const stored = decodeShard<Record<string, unknown>>('graph/0000', layoutGraph(small).shards[0]!).value;
    const view = (value: unknown) => new GraphShard('graph/0000', value);
    expect(thrown(() => view({ ...stored, v: 2 })).message).toMatch(/graph\/0000 is not a version 1 graph shard/);
    expect(thrown(() => view({ ...stored, names: ['x'] })).message).toMatch(/columns of different lengths/);
    expect(thrown(() => view({ ...stored, edges: new Uint8Array(8) })).message).toMatch(/edges of the wrong total count/);
    expect(thrown(() => view({ ...stored, paths: [] }).node(0)).message).toMatch(/names a path it does not list/);
    expect(thrown(() => openShard('graph/0000', encodeShard({ ...stored, externals: [0, 'react'] }))).message).toMatch(/malformed external origin/);
  });

  it('are refused under a name whose range of ordinals they do not start', () => {
    const graph = layoutGraph(Array.from({ length: 20 }, (_, i) => node(i, 'src/a.ts')), 10);
    expect(graph.bits).toBe(1);
    const layout = { symbolBucketBits: 0, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: 0, graphBucketBits: 1, gramBucketBits: 0 };
    const entry = (g: number) => ({ sha256: 'a'.repeat(64), bytes: 1, records: graph.records[g]! });
    const shards = { 'graph/0000': entry(0), 'graph/0001': entry(1) };
    const second = openShard<GraphShard>('graph/0001', graph.shards[1]!);
    expect(() => checkShardHolds('graph/0001', second, entry(1), { layout, shards }, 'here')).not.toThrow();
    expect(thrown(() => checkShardHolds('graph/0000', second, entry(0), { layout, shards }, 'here')).message)
      .toMatch(/holds graph nodes from 10, but the manifest's graph shards place 0 first/);
  });
});
