// readManifestFields (the hand check parseManifest runs first) must accept exactly what
// manifestSchema accepts and return the same copy its parse returns: compared on a manifest with
// every optional shape, and on that manifest with each field, at every depth, replaced in turn by
// values of every JSON type and by near misses (bad hex, bad dates, out-of-range bits, unknown
// enum members, extra keys).
import { describe, expect, it } from 'vitest';
import { FORMAT_VERSION, type Manifest } from '../src/index.ts';
import { readManifestFields } from '../src/manifest-fields.ts';
import { manifestSchema } from '../src/manifest-schema.ts';

function complete(): Manifest {
  return {
    formatVersion: FORMAT_VERSION,
    repo: 'acme/shop',
    commit: 'c0ffee0000000000000000000000000000000001',
    commitDate: '2025-06-01T12:00:00+02:00',
    builtAt: '2025-06-01T10:05:00.000Z',
    indexer: { name: '@sextant/indexer', version: '0.1.0' },
    parsers: { typescript: '5.9.3', 'tree-sitter-java': '0.23.5' },
    libraryModels: [{ name: 'jdk', version: '21' }],
    layout: { symbolBucketBits: 1, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: 20, graphBucketBits: 4, gramBucketBits: 0 },
    counts: { files: 1, texts: 1, symbols: 2, references: 3, edges: 0, unresolved: 0 },
    languages: { typescript: { files: 1, precision: 'compiler' }, java: { files: 0, precision: 'syntactic' } },
    skipped: [{ path: 'assets/logo.png', reason: 'binary', detail: 'binary file' }],
    warnings: ['a warning'],
    shards: {
      'files/0000': { sha256: 'b'.repeat(64), bytes: 20, records: 1 },
      names: { sha256: 'a'.repeat(64), bytes: 10, records: 2 },
    },
  };
}

const JSON_VALUES: unknown[] = [null, true, 0, -1, 1.5, 21, 2 ** 53, '', 'x', [], {}, [1], { a: 1 }];
const NEAR_MISSES: unknown[] = [
  'C0FFEE0000000000000000000000000000000001', 'c0ffee', 'B'.repeat(64), 'b'.repeat(63), 'g'.repeat(64),
  '2025-06-01', '2025-06-01T12:00:00', '2025-06-01T12:00+02:00', '2025-06-01T25:00:00Z', '2025-06-01T12:00:00.5+02:00', '2025-13-01T12:00:00Z',
  'acme', 'acme/shop/x', 'Acme/Shop', '../x', 'too-large', 'compiler', 'syntactic', 'bogus', 'kotlin', 20, 0, 5,
];

/** Every path to a value in `value` (object keys and array indices). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...at, key]))];
}

function replaced(base: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(base) ? [...base] : { ...(base as object) }) as Record<string | number, unknown>;
  const [head, ...rest] = path;
  // undefined: the key left out, or the element removed (JSON has no holes).
  if (rest.length === 0 && replacement === undefined) {
    if (Array.isArray(copy)) (copy as unknown[]).splice(head as number, 1);
    else delete copy[head!];
  }
  else copy[head!] = replaced(copy[head!], rest, replacement);
  return copy;
}

describe('readManifestFields agrees with manifestSchema', () => {
  it('returns the copy the schema\'s parse returns, unknown fields left out, in the same order', () => {
    const manifest = { ...complete(), extra: 1, indexer: { name: 'i', version: '1', extra: true } } as unknown;
    const ours = readManifestFields(manifest);
    const zods = manifestSchema().parse(manifest);
    expect(ours).toStrictEqual(zods);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(zods));
    const minimal = replaced(complete(), ['libraryModels'], undefined);
    expect(JSON.stringify(readManifestFields(minimal))).toBe(JSON.stringify(manifestSchema().parse(minimal)));
  });

  it('accepts and refuses exactly what the schema does, with any field of any depth changed', () => {
    const base = complete();
    let refused = 0;
    let cases = 0;
    for (const path of paths(base)) {
      for (const value of [undefined, ...JSON_VALUES, ...NEAR_MISSES]) {
        const candidate = replaced(base, path, value);
        const zod = manifestSchema().safeParse(candidate);
        const ours = readManifestFields(candidate);
        expect(ours !== undefined, `${path.join('.') || '(root)'} = ${JSON.stringify(value)}: zod ${zod.success ? 'accepts' : 'refuses'}`).toBe(zod.success);
        if (zod.success) expect(JSON.stringify(ours)).toBe(JSON.stringify(zod.data));
        else refused++;
        cases++;
      }
      // A key the schema does not know, beside the value at this path.
      const extra = replaced(base, [...path, 'unknownKey'], 1);
      const zod = manifestSchema().safeParse(extra);
      expect(readManifestFields(extra) !== undefined, `${path.join('.')}.unknownKey`).toBe(zod.success);
    }
    expect(cases).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(cases / 2);
  });
});
