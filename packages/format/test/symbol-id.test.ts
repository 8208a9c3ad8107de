// symbolIds and keys. Keys are persisted by callers (a symbolId from yesterday's answer is passed
// back today), so the key function is pinned to known values; bucketOf decides which shard holds a
// key, so its range and spread are checked for every layout the indexer can write (0..16 bits).
import { describe, expect, it } from 'vitest';
import {
  abbreviatesCommit, bucketOf, COMMIT_PREFIX_LENGTH, fileShardName, formatSymbolId, isBase32, KEY_LENGTH, parseSymbolId, pathKey,
  localSymbolKey, sameCommit, SextantError, shortCommit, symbolKey, symbolShardName,
} from '../src/index.ts';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const KEY = symbolKey('typescript\0src/orders.ts\0OrderService\0class\0');

function invalidId(symbolId: string): SextantError {
  try {
    parseSymbolId(symbolId);
  } catch (error) {
    expect(error).toBeInstanceOf(SextantError);
    return error as SextantError;
  }
  throw new Error(`parseSymbolId accepted ${JSON.stringify(symbolId)}`);
}

describe('formatSymbolId / parseSymbolId', () => {
  it('formats <key>@<12 hex of the commit> and parses it back', () => {
    const id = formatSymbolId(KEY, COMMIT);
    expect(id).toBe(`${KEY}@${COMMIT.slice(0, COMMIT_PREFIX_LENGTH)}`);
    expect(parseSymbolId(id)).toEqual({ key: KEY, commit: '0123456789ab' });
  });

  it('round-trips every key shape the indexer produces', () => {
    for (let i = 0; i < 200; i++) {
      const key = symbolKey(`identity ${i}`);
      expect(parseSymbolId(formatSymbolId(key, COMMIT))).toEqual({ key, commit: COMMIT.slice(0, 12) });
    }
  });

  const invalid: [string, string][] = [
    ['a key one character short', `${KEY.slice(1)}@0123456789ab`],
    ['a key one character long', `${KEY}0@0123456789ab`],
    ['an uppercase key', `${KEY.toUpperCase()}@0123456789ab`],
    ['a key with a letter Crockford excludes', `${KEY.slice(0, 15)}u@0123456789ab`],
    ['a key with punctuation', `${KEY.slice(0, 15)}-@0123456789ab`],
    ['no commit part', KEY],
    ['an empty commit part', `${KEY}@`],
    ['a commit part of 11 hex digits', `${KEY}@0123456789a`],
    ['a full 40-digit commit', `${KEY}@${COMMIT}`],
    ['an uppercase commit', `${KEY}@0123456789AB`],
    ['a non-hex commit', `${KEY}@0123456789ag`],
    ['two @', `${KEY}@0123456789ab@0123456789ab`],
    ['an empty string', ''],
    ['only the separator', '@'],
  ];

  it.each(invalid)('%s is INVALID_SYMBOL_ID with a hint', (_label, symbolId) => {
    const error = invalidId(symbolId);
    expect(error.code).toBe('INVALID_SYMBOL_ID');
    expect(error.message).toContain(JSON.stringify(symbolId));
    expect(error.message).toMatch(/16 base32 chars.*12 hex chars/);
    // The hint says what to do instead: reuse an id verbatim or target another way.
    expect(error.hint).toMatch(/symbolId/);
    expect(error.hint).toMatch(/name/);
  });
});

describe('symbolKey', () => {
  it('is 16 base32 characters (80 bits)', () => {
    expect(KEY).toHaveLength(KEY_LENGTH);
    expect(isBase32(KEY)).toBe(true);
  });

  it('is stable: the same identity always gives the same key', () => {
    const identity = 'typescript\0src/orders.ts\0OrderService.submit\0method\0';
    expect(symbolKey(identity)).toBe(symbolKey(identity));
    expect(symbolKey(['typescript', 'src/orders.ts', 'OrderService.submit', 'method', ''].join('\0'))).toBe(symbolKey(identity));
  });

  it('is pinned: changing it would invalidate every symbolId callers hold', () => {
    // If this fails, the key function changed; that is a format change (FORMAT_VERSION), not a refactor.
    // sha256('') = e3b0c442…: 11100 01110 11000 01100 01000 … = w e r c 8 …
    expect(symbolKey('')).toBe('werc8gmrzge196qv');
    expect(KEY).toBe('k37n0hzyjwz0t1c3');
  });

  it('differs for different identities, and path keys live in their own domain', () => {
    const keys = new Set(Array.from({ length: 5000 }, (_, i) => symbolKey(`typescript\0src/f${i}.ts\0x\0variable\0`)));
    expect(keys.size).toBe(5000);
    expect(pathKey('src/a.ts')).not.toBe(symbolKey('src/a.ts'));
    expect(pathKey('src/a.ts')).toBe(pathKey('src/a.ts'));
    expect(pathKey('src/a.ts')).not.toBe(pathKey('src/A.ts'));
  });
});

describe('localSymbolKey', () => {
  const local = (path: string, name: string) => localSymbolKey(path, `${path}|f.${name}|parameter`);

  it('is a key like any other: 16 base32 characters, stable, distinct per identity', () => {
    expect(local('src/a.ts', 'x')).toHaveLength(KEY_LENGTH);
    expect(isBase32(local('src/a.ts', 'x'))).toBe(true);
    expect(local('src/a.ts', 'x')).toBe(local('src/a.ts', 'x'));
    expect(new Set(Array.from({ length: 5000 }, (_, i) => local('src/a.ts', `p${i}`))).size).toBe(5000);
    // Pinned like symbolKey: the path's key leads, the identity's follows.
    expect(local('src/a.ts', 'x')).toBe('1yhrtebna70be9j1');
    expect(local('src/a.ts', 'x').slice(0, 8)).toBe(pathKey('src/a.ts').slice(0, 8));
  });

  it('leads with the path of each call when paths alternate (the path hash is remembered for one path only)', () => {
    for (const path of ['src/a.ts', 'src/b.ts', 'src/a.ts', 'src/c.ts', 'src/c.ts', 'src/b.ts']) {
      expect(local(path, 'y')).toBe(pathKey(path).slice(0, 8) + symbolKey(`${path}|f.y|parameter`).slice(8));
    }
  });

  it('puts the locals of one file in one bucket (the path\'s) at every layout, and those of different files apart', () => {
    for (const bits of [0, 1, 4, 9, 16]) {
      const buckets = new Set(Array.from({ length: 200 }, (_, i) => bucketOf(local('src/a.ts', `p${i}`), bits)));
      expect([...buckets]).toEqual([bucketOf(pathKey('src/a.ts'), bits)]);
    }
    const files = new Set(Array.from({ length: 64 }, (_, i) => bucketOf(local(`src/f${i}.ts`, 'x'), 9)));
    expect(files.size).toBeGreaterThan(40);
  });
});

describe('bucketOf', () => {
  const keys = Array.from({ length: 4096 }, (_, i) => symbolKey(`typescript\0src/file${i % 97}.ts\0Name${i}\0class\0`));

  it('puts every key in [0, 2^bits) for bits 0..16', () => {
    for (let bits = 0; bits <= 16; bits++) {
      // One assertion per layout, listing offenders, rather than 70,000 expect calls.
      const outside = keys.filter((key) => {
        const bucket = bucketOf(key, bits);
        return !Number.isInteger(bucket) || bucket < 0 || bucket >= 2 ** bits;
      });
      expect(outside, `bits ${bits}`).toEqual([]);
    }
  });

  it('reaches both ends of the range', () => {
    for (let bits = 1; bits <= 16; bits++) {
      expect(bucketOf('0000000000000000', bits)).toBe(0);
      expect(bucketOf('zzzzzzzzzzzzzzzz', bits)).toBe(2 ** bits - 1);
    }
    expect(bucketOf('zzzzzzzzzzzzzzzz', 0)).toBe(0);
  });

  it('is a prefix: one more bit splits a bucket in two', () => {
    const broken = keys.filter((key) => Array.from({ length: 16 }, (_, bits) => bits)
      .some((bits) => bucketOf(key, bits + 1) >> 1 !== bucketOf(key, bits)));
    expect(broken).toEqual([]);
  });

  it('spreads keys evenly (sanity, not a statistical proof)', () => {
    for (const bits of [1, 4, 6]) {
      const counts = new Array<number>(2 ** bits).fill(0);
      for (const key of keys) counts[bucketOf(key, bits)]!++;
      const mean = keys.length / counts.length;
      // 4096 keys: at 6 bits a bucket holds 64 ± 8 (one sigma); ±50% is far outside chance.
      expect(Math.min(...counts)).toBeGreaterThan(mean * 0.5);
      expect(Math.max(...counts)).toBeLessThan(mean * 1.5);
    }
  });

  it('names shards with four hex digits, so every 16-bit bucket has a distinct name', () => {
    expect(symbolShardName(0)).toBe('symbols/0000');
    expect(symbolShardName(0xabc)).toBe('symbols/0abc');
    expect(fileShardName(0xffff)).toBe('files/ffff');
    const names = new Set(Array.from({ length: 2 ** 16 }, (_, b) => symbolShardName(b)));
    expect(names.size).toBe(2 ** 16);
  });
});

describe('commits', () => {
  it('are shown by their first 12 hex digits, as a symbolId carries them', () => {
    expect(shortCommit(COMMIT)).toBe(COMMIT.slice(0, COMMIT_PREFIX_LENGTH));
    expect(formatSymbolId(KEY, COMMIT).endsWith(`@${shortCommit(COMMIT)}`)).toBe(true);
  });

  it('are the same only as the same full lowercase sha: an abbreviation or another case is not compared here', () => {
    expect(sameCommit(COMMIT, COMMIT)).toBe(true);
    expect(sameCommit(COMMIT, `${COMMIT.slice(0, 39)}0`)).toBe(false);
    expect(sameCommit(COMMIT, COMMIT.slice(0, 12))).toBe(false);
    expect(sameCommit(COMMIT.slice(0, 12), COMMIT.slice(0, 12))).toBe(false);
    expect(sameCommit(COMMIT.toUpperCase(), COMMIT.toUpperCase())).toBe(false);
  });

  it('are abbreviated by 7 to 40 of their leading hex digits, in any case', () => {
    expect(abbreviatesCommit(COMMIT, COMMIT)).toBe(true);
    expect(abbreviatesCommit(COMMIT.slice(0, 7), COMMIT)).toBe(true);
    expect(abbreviatesCommit(COMMIT.slice(0, 16).toUpperCase(), COMMIT)).toBe(true);
    expect(abbreviatesCommit(COMMIT.slice(0, 6), COMMIT)).toBe(false);
    expect(abbreviatesCommit(`1${COMMIT.slice(1, 10)}`, COMMIT)).toBe(false);
    expect(abbreviatesCommit('main', COMMIT)).toBe(false);
    // Against an abbreviation, nothing: `full` is what an index holds.
    expect(abbreviatesCommit(COMMIT.slice(0, 7), COMMIT.slice(0, 12))).toBe(false);
  });
});
