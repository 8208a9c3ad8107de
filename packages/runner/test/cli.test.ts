// The runner's command line without a server: usage errors, and a clear refusal to start with no index.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.ts';
import { DirShardSource } from '@sextant/query/node';
import { LocalIndexProvider } from '../src/local-index-provider.ts';

function captureStderr() {
  const chunks: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return () => chunks.join('');
}

afterEach(() => vi.restoreAllMocks());

describe('runner cli', () => {
  it('rejects an unknown command and an unknown flag with usage', async () => {
    const stderr = captureStderr();
    expect(await main(['frobnicate'])).toBe(2);
    expect(await main(['mcp', '--nope'])).toBe(2);
    expect(stderr()).toMatch(/unknown command "frobnicate"[\s\S]*usage:[\s\S]*--nope/);
  });

  it('refuses to serve a directory without an index, saying how to build one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-runner-'));
    try {
      const stderr = captureStderr();
      expect(await main(['mcp', '--index', dir])).toBe(1);
      expect(stderr()).toMatch(/No index at .* To fix this, build one with `indexer build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a corrupt manifest and an index from another format version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-runner-'));
    try {
      writeFileSync(join(dir, 'manifest.json'), '{ not json');
      await expect(new LocalIndexProvider(dir).open()).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ formatVersion: 99 }));
      await expect(new LocalIndexProvider(dir).open()).rejects.toMatchObject({ code: 'INDEX_VERSION_UNSUPPORTED' });
      expect(await new DirShardSource(dir).readShard('symbols/0000', { sha256: '', bytes: 0, records: 0 })).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
