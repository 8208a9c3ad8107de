// parseManifest: the gate every reader passes before trusting an index. A manifest that is not
// JSON or lacks what readers use is INDEX_CORRUPT (naming where it is); one of another format
// version is INDEX_VERSION_UNSUPPORTED, and that check comes first, because a future format may
// legitimately lack today's fields.
import { describe, expect, it } from 'vitest';
import { FORMAT_VERSION, MANIFEST_FILE, parseManifest, SextantError, type Manifest } from '../src/index.ts';

const WHERE = 'repos/acme/shop/commits/c0ffee/manifest.json';

function sampleManifest(): Manifest {
  return {
    formatVersion: FORMAT_VERSION,
    repo: 'acme/shop',
    commit: 'c0ffee0000000000000000000000000000000001',
    commitDate: '2025-06-01T12:00:00+02:00',
    builtAt: '2025-06-01T10:05:00.000Z',
    indexer: { name: '@sextant/indexer', version: '0.1.0' },
    parsers: { typescript: '5.9.3' },
    layout: { symbolBucketBits: 2, fileBucketBits: 0 },
    counts: { files: 1, symbols: 2, references: 3, edges: 0 },
    languages: { typescript: { files: 1, precision: 'compiler' } },
    skipped: [{ path: 'assets/logo.png', reason: 'binary', detail: 'binary file' }],
    warnings: [],
    shards: { names: { sha256: 'a'.repeat(64), bytes: 10 } },
  };
}

function rejection(text: string): SextantError {
  try {
    parseManifest(text, WHERE);
  } catch (error) {
    expect(error).toBeInstanceOf(SextantError);
    return error as SextantError;
  }
  throw new Error(`parseManifest accepted ${text.slice(0, 80)}`);
}

function without(field: keyof Manifest): string {
  const { [field]: _dropped, ...rest } = sampleManifest();
  return JSON.stringify(rest);
}

describe('parseManifest', () => {
  it('returns a well-formed manifest unchanged', () => {
    expect(parseManifest(JSON.stringify(sampleManifest()), WHERE)).toEqual(sampleManifest());
  });

  it('ignores fields it does not know (a newer indexer of the same format may add some)', () => {
    const text = JSON.stringify({ ...sampleManifest(), futureField: { x: 1 } });
    expect(parseManifest(text, WHERE).repo).toBe('acme/shop');
  });

  it.each([
    ['empty text', ''],
    ['truncated JSON', JSON.stringify(sampleManifest()).slice(0, 40)],
    ['a shard’s binary bytes read as text', '\u0000\u00ff\u0001x'],
  ])('rejects %s as INDEX_CORRUPT naming where it is', (_label, text) => {
    const error = rejection(text);
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain(WHERE);
    expect(error.message).toMatch(/not JSON/);
    expect(error.data).toEqual({ shard: MANIFEST_FILE });
    expect(error.hint).toMatch(/indexer build/);
  });

  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"manifest"'],
    ['an array', '[1]'],
    ['an object without formatVersion', JSON.stringify(without('formatVersion'))],
    ['a formatVersion that is a string', JSON.stringify({ ...sampleManifest(), formatVersion: '1' })],
  ])('rejects %s as INDEX_CORRUPT: no formatVersion', (_label, text) => {
    const error = rejection(text);
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain(WHERE);
    expect(error.message).toMatch(/formatVersion/);
  });

  it.each([0, FORMAT_VERSION + 1, 99, 1.5])('rejects formatVersion %s as INDEX_VERSION_UNSUPPORTED', (version) => {
    const error = rejection(JSON.stringify({ ...sampleManifest(), formatVersion: version }));
    expect(error.code).toBe('INDEX_VERSION_UNSUPPORTED');
    expect(error.message).toContain(WHERE);
    expect(error.message).toContain(`format version ${version}`);
    expect(error.message).toContain(`version ${FORMAT_VERSION}`);
    expect(error.hint).toMatch(/Rebuild|upgrade/);
  });

  it('reports the version before any missing field: another format may have other fields', () => {
    const error = rejection(JSON.stringify({ formatVersion: FORMAT_VERSION + 1 }));
    expect(error.code).toBe('INDEX_VERSION_UNSUPPORTED');
  });

  it.each(['repo', 'commit', 'shards', 'layout', 'counts'] as const)('rejects a manifest without "%s" as INDEX_CORRUPT naming the field', (field) => {
    const error = rejection(without(field));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain(`"${field}"`);
    expect(error.message).toContain(WHERE);
    expect(error.data).toEqual({ shard: MANIFEST_FILE });
  });

  it.each(['skipped', 'warnings', 'languages', 'indexer', 'parsers', 'commitDate', 'builtAt'] as const)(
    'rejects a manifest without "%s" as INDEX_CORRUPT',
    (field) => {
      expect(rejection(without(field)).code).toBe('INDEX_CORRUPT');
    },
  );
});
