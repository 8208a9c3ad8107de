// Unresolved shards: what a writer encodes per name, a reader gets back for that name (sites in the
// stored order, paths, flags, languages and enclosing symbols resolved); names not held read as
// none; bytes of another shape are INDEX_CORRUPT naming the shard; the manifest entry's bucket
// check sees a shard listed under another bucket's name.
import { describe, expect, it } from 'vitest';
import {
  checkShardHolds, decodeShard, encodeUnresolvedShard, sha256Hex, ShardLayout, UnresolvedShard, type UnresolvedShardData,
} from '../src/index.ts';
import { openShard } from './support/open-shard.ts';
import { thrown } from './support/thrown.ts';

const FROM = 'aaaaaaaaaaaaaaaa';

function data(): UnresolvedShardData {
  return {
    paths: [{ path: 'src/A.java', flags: 0, lang: 'java' }, { path: 'test/ÄTest.kt', flags: 1, lang: 'kotlin' }],
    peers: [{ key: FROM, name: 'run', kind: 'method' }],
    names: [
      {
        name: 'create', sites: [
          { path: 'src/A.java', line: 3, column: 9, endLine: 3, endColumn: 15, kind: 'call', from: FROM },
          { path: 'test/ÄTest.kt', line: 70000, column: 1, endLine: 70001, endColumn: 2, kind: 'read' },
        ],
      },
      { name: 'Builder', sites: [{ path: 'src/A.java', line: 1, column: 1, endLine: 1, endColumn: 8, kind: 'new' }] },
    ],
  };
}

describe('unresolved shards', () => {
  it('give back the sites of a name as written, and none for a name not held', () => {
    const shard = openShard<UnresolvedShard>('unresolved/0000', encodeUnresolvedShard(data()));
    expect(shard.names).toEqual(['Builder', 'create']);
    expect(shard.sitesNamed('create')).toEqual([
      { path: 'src/A.java', flags: 0, lang: 'java', line: 3, column: 9, endLine: 3, endColumn: 15, kind: 'call', from: { key: FROM, name: 'run', kind: 'method' } },
      { path: 'test/ÄTest.kt', flags: 1, lang: 'kotlin', line: 70000, column: 1, endLine: 70001, endColumn: 2, kind: 'read' },
    ]);
    expect(shard.sitesNamed('Builder')).toHaveLength(1);
    expect(shard.sitesNamed('build')).toEqual([]);
    expect(shard.sitesNamed('')).toEqual([]);
    expect(openShard<UnresolvedShard>('unresolved/0000', encodeUnresolvedShard({ paths: [], peers: [], names: [] })).size).toBe(0);
  });

  it('are byte-identical for equal data, whatever order the names come in', () => {
    const reversed = { ...data(), names: [...data().names].reverse() };
    expect(sha256Hex(encodeUnresolvedShard(reversed))).toBe(sha256Hex(encodeUnresolvedShard(data())));
  });

  it('are INDEX_CORRUPT when stored in another shape or naming a path, kind or peer they lack', () => {
    const stored = decodeShard<Record<string, unknown>>('raw', encodeUnresolvedShard(data())).value;
    expect(thrown(() => new UnresolvedShard('unresolved/0002', { ...stored, v: 2 })).message).toMatch(/unresolved\/0002 is not a version 1 unresolved shard/);
    expect(thrown(() => new UnresolvedShard('unresolved/0002', { ...stored, pathLangs: new Uint8Array(1) })).code).toBe('INDEX_CORRUPT');
    const noPaths = new UnresolvedShard('unresolved/0002', { ...stored, paths: [], pathFlags: new Uint8Array(0), pathLangs: new Uint8Array(0) });
    expect(thrown(() => noPaths.sitesNamed('create')).message).toMatch(/unresolved\/0002 has a malformed site/);
    const noPeers = new UnresolvedShard('unresolved/0002', { ...stored, peerKeys: '', peerNames: [], peerKinds: new Uint8Array(0) });
    expect(thrown(() => noPeers.sitesNamed('create')).code).toBe('INDEX_CORRUPT');
  });

  it('are refused under a bucket their names do not hash to', () => {
    const bits = 4;
    const layout = { symbolBucketBits: 0, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: bits, graphBucketBits: 0, gramBucketBits: 0 };
    const bucket = new ShardLayout(layout).unresolvedBucketOf('create');
    const single = { ...data(), names: [data().names[0]!] };
    const shard = openShard<UnresolvedShard>('unresolved/0000', encodeUnresolvedShard(single));
    const entry = { sha256: 'a'.repeat(64), bytes: 1, records: 1 };
    const name = (b: number) => `unresolved/${b.toString(16).padStart(4, '0')}`;
    expect(() => checkShardHolds(name(bucket), shard, entry, { layout, shards: {} }, 'here')).not.toThrow();
    expect(thrown(() => checkShardHolds(name((bucket + 1) % 16), shard, entry, { layout, shards: {} }, 'here')).message).toMatch(/holds records of another bucket/);
  });
});
