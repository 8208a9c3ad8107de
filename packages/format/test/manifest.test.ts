// parseManifest: the gate every reader passes before trusting an index. A manifest that is not
// JSON or lacks what readers use is INDEX_CORRUPT (naming where it is); one of another format
// version is INDEX_VERSION_UNSUPPORTED, and that check comes first, because a future format may
// legitimately lack today's fields.
import { describe, expect, it } from 'vitest';
import {
  FORMAT_VERSION, MANIFEST_FILE, manifestDigestLine, manifestSha256, parseManifest, parseManifestDigestLine, SextantError, sha256Hex,
  type Manifest, type RecordedDigest,
} from '../src/index.ts';

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
    layout: { symbolBucketBits: 1, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: 0, graphBucketBits: 0, gramBucketBits: 0 },
    counts: { files: 1, texts: 1, symbols: 2, references: 3, edges: 0, unresolved: 0 },
    languages: { typescript: { files: 1, precision: 'compiler' } },
    skipped: [{ path: 'assets/logo.png', reason: 'binary', detail: 'binary file' }],
    warnings: [],
    shards: {
      'files/0000': { sha256: 'b'.repeat(64), bytes: 20, records: 1 },
      filetable: { sha256: 'f'.repeat(64), bytes: 60, records: 3 },
      names: { sha256: 'a'.repeat(64), bytes: 10, records: 2 },
      'symbols/0000': { sha256: 'c'.repeat(64), bytes: 30, records: 0 },
      'symbols/0001': { sha256: 'd'.repeat(64), bytes: 40, records: 2 },
      'texts/0000': { sha256: 'e'.repeat(64), bytes: 50, records: 1 },
      'changes/0000': { sha256: 'c'.repeat(64), bytes: 40, records: 1 },
      'unresolved/0000': { sha256: 'c'.repeat(64), bytes: 30, records: 0 },
      'graph/0000': { sha256: 'c'.repeat(64), bytes: 30, records: 0 },
      'grams/0000': { sha256: 'c'.repeat(64), bytes: 30, records: 0 },
    },
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
    expect(error.message).toContain(`"${field}": it is missing`);
    expect(error.message).toContain(WHERE);
    expect(error.data).toEqual({ shard: MANIFEST_FILE, field });
  });

  it.each(['skipped', 'warnings', 'languages', 'indexer', 'parsers', 'commitDate', 'builtAt'] as const)(
    'rejects a manifest without "%s" as INDEX_CORRUPT',
    (field) => {
      expect(rejection(without(field)).code).toBe('INDEX_CORRUPT');
    },
  );
});

describe('parseManifest: every field and the relations between them', () => {
  const tampered: [string, (m: any) => void, RegExp][] = [
    ['a shard entry dropped', (m) => { delete m.shards['symbols/0001']; }, /lacks shard symbols\/0001, which its layout \(symbolBucketBits 1, fileBucketBits 0, changeBucketBits 0, unresolvedBucketBits 0, graphBucketBits 0, gramBucketBits 0\) implies/],
    ['the name shard dropped', (m) => { delete m.shards.names; }, /lacks shard names/],
    ['the file table dropped', (m) => { delete m.shards.filetable; }, /lacks shard filetable/],
    ['a file table listing fewer files than indexed and skipped', (m) => { m.shards.filetable.records = 1; }, /lists 1 tracked files in its file table but counts 1 files and 1 skipped/],
    ['a shard its layout does not imply', (m) => { m.shards['files/0001'] = m.shards['files/0000']; }, /lists shard files\/0001, which its layout .* does not imply/],
    ['a shard of no known kind', (m) => { m.shards['extra'] = m.shards['files/0000']; }, /lists shard extra/],
    ['a non-canonical bucket name', (m) => { m.shards['symbols/01'] = m.shards['symbols/0001']; delete m.shards['symbols/0001']; }, /lists shard symbols\/01/],
    ['layout bits edited up', (m) => { m.layout.fileBucketBits = 1; }, /lacks shard files\/0001/],
    ['layout bits edited down', (m) => { m.layout.symbolBucketBits = 0; }, /lists shard symbols\/0001, which its layout \(symbolBucketBits 0/],
    ['layout bits beyond what a reader addresses', (m) => { m.layout.symbolBucketBits = 21; }, /"layout.symbolBucketBits"/],
    ['an entry nulled', (m) => { m.shards.names = null; }, /"shards\[names\]": invalid input: expected object, received null/],
    ['an entry without a size', (m) => { delete m.shards['files/0000'].bytes; }, /"shards\[files\/0000\].bytes": it is missing/],
    ['a negative size', (m) => { m.shards['files/0000'].bytes = -1; }, /"shards\[files\/0000\].bytes"/],
    ['a checksum that is not 64 lowercase hex digits', (m) => { m.shards['files/0000'].sha256 = 'B'.repeat(64); }, /"shards\[files\/0000\].sha256"/],
    ['a record count edited', (m) => { m.shards['symbols/0001'].records = 3; }, /counts 2 symbols, but its symbol shards hold 3/],
    ['a file count edited', (m) => { m.counts.files = 2; m.languages.typescript.files = 2; }, /counts 2 files, but its file shards hold 1/],
    ['a text shard holding fewer texts than its file shard files', (m) => { m.shards['texts/0000'].records = 0; }, /files\/0000 holds 1 files but texts\/0000 the texts of only 0/],
    ['text shards disagreeing with the count of text files', (m) => { m.shards['texts/0000'].records = 2; }, /counts 1 text files, but its text shards hold 2/],
    ['a change shard disagreeing with its file shard', (m) => { m.shards['changes/0000'].records = 2; }, /counts 1 files, but its change shards hold 2/],
    ['more names than symbols', (m) => { m.shards.names.records = 3; }, /3 searchable names but counts only 2 symbols/],
    ['files by language disagreeing with the count', (m) => { m.languages.typescript.files = 3; }, /counts 1 files, but 3 by language/],
    ['a repo that is not owner/name', (m) => { m.repo = '../etc'; }, /"repo": is not a repository name of the form owner\/name/],
    ['an abbreviated commit', (m) => { m.commit = 'c0ffee'; }, /"commit"/],
    ['an unknown skip reason', (m) => { m.skipped[0].reason = 'boring'; }, /"skipped\[0\].reason"/],
    ['a date that is not ISO 8601', (m) => { m.builtAt = 'yesterday'; }, /"builtAt"/],
  ];

  it.each(tampered)('rejects %s as INDEX_CORRUPT saying what is wrong', (_label, tamper, message) => {
    const manifest = sampleManifest();
    tamper(manifest);
    const error = rejection(JSON.stringify(manifest));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain(WHERE);
    expect(error.message).toMatch(message);
  });

  it('compares the manifest with the sha256 a record holds, after the version and before the fields', () => {
    const text = JSON.stringify(sampleManifest());
    const recordedIn = 'r2://sextant-index/repos/acme/shop/refs/main.json';
    expect(parseManifest(text, WHERE, { actual: manifestSha256(text), expected: manifestSha256(text), recordedIn }).repo).toBe('acme/shop');
    const edited = JSON.stringify({ ...sampleManifest(), repo: 'evil/shop' });
    const mismatch = rejectionWith(edited, { actual: manifestSha256(edited), expected: manifestSha256(text), recordedIn });
    expect(mismatch).toMatchObject({ code: 'INDEX_CORRUPT', data: { field: 'manifestSha256', expected: manifestSha256(text), actual: manifestSha256(edited) } });
    expect(mismatch.message).toContain(`but ${recordedIn} records ${manifestSha256(text)}`);
    const unrecorded = rejectionWith(text, { actual: manifestSha256(text), expected: undefined, recordedIn });
    expect(unrecorded.message).toContain(`${recordedIn} records no sha256 of the manifest`);
    const older = JSON.stringify({ formatVersion: FORMAT_VERSION - 1 });
    expect(rejectionWith(older, { actual: manifestSha256(older), expected: undefined, recordedIn }).code).toBe('INDEX_VERSION_UNSUPPORTED');
  });

  it('writes and reads manifest.sha256 as sha256sum does', () => {
    const text = '{"formatVersion":4}\n';
    expect(manifestDigestLine(text)).toBe(`${sha256Hex(new TextEncoder().encode(text))}  manifest.json\n`);
    expect(parseManifestDigestLine(manifestDigestLine(text))).toBe(manifestSha256(text));
    expect(parseManifestDigestLine('not a digest\n')).toBeUndefined();
  });
});

function rejectionWith(text: string, recorded: RecordedDigest): SextantError {
  try {
    parseManifest(text, WHERE, recorded);
  } catch (error) {
    expect(error).toBeInstanceOf(SextantError);
    return error as SextantError;
  }
  throw new Error('parseManifest accepted it');
}
