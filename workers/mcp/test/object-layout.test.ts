// The object-store layout: keys for repositories, refs, commits and shards, and the validation
// that keeps a repo or ref name from escaping its prefix.
import { describe, expect, it } from 'vitest';
import {
  commitFromKey, manifestKey, normalizeCommit, normalizeRefName, objectOfKey, parseRefRecord, parseRepoName,
  parseRepoRecord, refKey, refNameFromKey, repoRecordKey, serializeRecord, shardKey,
} from '@sextant/format';
import { thrown } from '../../../packages/format/test/support/thrown.ts';

const SHA = '0123456789abcdef0123456789abcdef01234567';

describe('object layout', () => {
  it('lays out one repository under repos/<owner>/<repo>/, lowercased', () => {
    expect(repoRecordKey('Acme/Widgets')).toBe('repos/acme/widgets/repo.json');
    expect(refKey('acme/widgets', 'main')).toBe('repos/acme/widgets/refs/main.json');
    expect(refKey('acme/widgets', 'refs/heads/release/1.2')).toBe('repos/acme/widgets/refs/release/1.2.json');
    expect(manifestKey('acme/widgets', SHA.toUpperCase())).toBe(`repos/acme/widgets/commits/${SHA}/manifest.json`);
    expect(shardKey('ab'.repeat(32))).toBe(`shards/${'ab'.repeat(32)}`);
  });

  it('reads commits and refs back from keys', () => {
    expect(commitFromKey('acme/widgets', `repos/acme/widgets/commits/${SHA}/`)).toBe(SHA);
    expect(commitFromKey('acme/widgets', `repos/acme/widgets/commits/${SHA}/manifest.json`)).toBe(SHA);
    expect(commitFromKey('acme/widgets', `repos/acme/other/commits/${SHA}/`)).toBeUndefined();
    expect(refNameFromKey('acme/widgets', 'repos/acme/widgets/refs/release/1.2.json')).toBe('release/1.2');
  });

  it.each(['acme/widgets', 'a.b/c-d_e', 'acme/.github', 'A1/B2'])('accepts the repository name %s', (name) => {
    expect(parseRepoName(name)).toEqual({ owner: name.split('/')[0], name: name.split('/')[1] });
  });

  it.each(['', 'acme', '/acme/widgets', 'acme/widgets/', 'a/b/c', '../widgets', 'acme/..', 'acme/.', 'ac me/x', 'a\\b/c', 'acme//w'])(
    'refuses the repository name %j with a hint', (name) => {
      const error = thrown(() => repoRecordKey(name));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.hint).toContain('owner/name');
    });

  it.each(['main', 'HEAD', 'v1.2.0', 'feature/x', 'deadbeef', 'release/1.2'])('accepts the ref name %s', (ref) => {
    expect(normalizeRefName(ref)).toBe(ref);
  });

  it.each(['', 'main~1', 'HEAD^', 'a..b', '.hidden', 'x/.y', 'x.lock', 'a//b', '/a', 'a/', '@', 'a@{1}', 'has space', 'ends.', 'a:b', SHA])(
    'refuses the ref name %j with a hint', (ref) => {
      const error = thrown(() => normalizeRefName(ref));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.hint.length).toBeGreaterThan(0);
    });

  it('refuses what is not a full sha or a shard checksum', () => {
    expect(thrown(() => normalizeCommit('abc1234')).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => manifestKey('acme/widgets', `${SHA}/../x`)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => shardKey('../repos/acme/widgets/repo.json')).code).toBe('INDEX_CORRUPT');
  });

  it('parses repo and ref records, and calls broken ones INDEX_CORRUPT', () => {
    expect(parseRepoRecord('{"defaultRef":"main"}', 'x')).toEqual({ defaultRef: 'main' });
    expect(parseRefRecord(`{"commit":"${SHA}","updatedAt":"t"}`, 'x')).toEqual({ commit: SHA, updatedAt: 't' });
    expect(thrown(() => parseRepoRecord('{}', 'x')).code).toBe('INDEX_CORRUPT');
    expect(thrown(() => parseRefRecord('{"commit":"abc"}', 'x')).code).toBe('INDEX_CORRUPT');
    expect(thrown(() => parseRefRecord('not json', 'x')).code).toBe('INDEX_CORRUPT');
  });

  it('carries the manifest in ref records and the default ref\'s record in repo.json, round trip', () => {
    const head = { commit: SHA, updatedAt: 't', manifest: '{"formatVersion":1}' };
    expect(parseRefRecord(serializeRecord(head), 'x')).toEqual(head);
    expect(parseRepoRecord(serializeRecord({ defaultRef: 'main', head }), 'x')).toEqual({ defaultRef: 'main', head });
    expect(thrown(() => parseRefRecord(`{"commit":"${SHA}","manifest":{}}`, 'x')).code).toBe('INDEX_CORRUPT');
    expect(thrown(() => parseRepoRecord('{"defaultRef":"main","head":{"commit":"abc"}}', 'x')).code).toBe('INDEX_CORRUPT');
    expect(serializeRecord(head).endsWith('}\n')).toBe(true);
  });

  it('tells what a key stands for, and nothing for keys outside the layout', () => {
    expect(objectOfKey('repos/acme/widgets/repo.json')).toEqual({ kind: 'repo', repo: 'acme/widgets' });
    expect(objectOfKey('repos/acme/widgets/refs/release/1.2.json')).toEqual({ kind: 'ref', repo: 'acme/widgets', ref: 'release/1.2' });
    expect(objectOfKey(`repos/acme/widgets/commits/${SHA}/manifest.json`)).toEqual({ kind: 'manifest', repo: 'acme/widgets', commit: SHA });
    expect(objectOfKey(`shards/${'ab'.repeat(32)}`)).toEqual({ kind: 'shard', sha256: 'ab'.repeat(32) });
    for (const key of ['shards/abc', 'repos/Acme/widgets/repo.json', 'repos/acme/widgets/other.json', `repos/acme/widgets/commits/${SHA}/x`, 'notes.txt', 'repos/acme/widgets/refs/a..b.json']) {
      expect(objectOfKey(key), key).toBeUndefined();
    }
  });
});
