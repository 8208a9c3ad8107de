// The file table (every tracked file with its blob): what a writer encodes a reader gets back sorted
// by path and found by binary search; two tables compare into added, removed, modified and exactly
// renamed files; stored bytes of the wrong shape are INDEX_CORRUPT naming the shard.
import { describe, expect, it } from 'vitest';
import { decodeShard, diffFileTables, encodeFileTable, FileTable, problemsChangedPaths, problemsDigest, type FileTableEntry } from '../src/index.ts';
import { openShard } from './support/open-shard.ts';
import { thrown } from './support/thrown.ts';

const blob = (c: string) => c.repeat(40);

function table(entries: FileTableEntry[]): FileTable {
  return openShard<FileTable>('filetable', encodeFileTable(entries));
}

describe('file table', () => {
  it('gives back every entry sorted by path, each found by path', () => {
    const entries: FileTableEntry[] = [
      { path: 'src/b.ts', blob: blob('b'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'README.md', blob: blob('a'), status: 'unindexed', flags: 0 },
      { path: 'src/ünïcødé/😀.kt', blob: blob('c'), status: 'indexed', lang: 'kotlin', flags: 0 },
      { path: 'assets/logo.png', blob: blob('d'), status: 'skipped', flags: 0 },
    ];
    const t = table(entries);
    expect(t).toBeInstanceOf(FileTable);
    expect(t.size).toBe(4);
    expect(t.paths).toEqual(['README.md', 'assets/logo.png', 'src/b.ts', 'src/ünïcødé/😀.kt']);
    for (const e of entries) expect(t.entry(t.indexOf(e.path))).toEqual(e);
    expect(t.indexOf('src/a.ts')).toBe(-1);
    expect(t.indexOf('zzz')).toBe(-1);
    expect(encodeFileTable(entries)).toEqual(encodeFileTable([...entries].reverse()));
    expect(FileTable.empty().size).toBe(0);
  });

  it('names the files whose blob is the same but whose problems differ, by a digest of the problem list', () => {
    const error = { source: 'compiler', severity: 'error', code: 2305, message: "Module './codes' has no exported member 'NotFound'.", line: 1, column: 10, endLine: 1, endColumn: 18 } as const;
    expect(problemsDigest([])).toBe('');
    expect(problemsDigest([error])).toMatch(/^[0-9a-z]{8}$/);
    expect(problemsDigest([error])).not.toBe(problemsDigest([{ ...error, line: 2 }]));
    const base = table([
      { path: 'src/app.ts', blob: blob('1'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'src/index.ts', blob: blob('2'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'src/same.ts', blob: blob('3'), status: 'indexed', lang: 'typescript', flags: 0, problems: problemsDigest([error]) },
    ]);
    const head = table([
      { path: 'src/app.ts', blob: blob('1'), status: 'indexed', lang: 'typescript', flags: 0, problems: problemsDigest([error]) },
      { path: 'src/index.ts', blob: blob('9'), status: 'indexed', lang: 'typescript', flags: 0, problems: problemsDigest([error]) },
      { path: 'src/same.ts', blob: blob('3'), status: 'indexed', lang: 'typescript', flags: 0, problems: problemsDigest([error]) },
    ]);
    // src/index.ts changed (diffFileTables names it); src/app.ts did not, yet gained an error.
    expect(problemsChangedPaths(base, head)).toEqual(['src/app.ts']);
    expect(diffFileTables(base, head).map((c) => c.path)).toEqual(['src/index.ts']);
    expect(head.entry(head.indexOf('src/app.ts')).problems).toBe(problemsDigest([error]));
  });

  it('compares two tables: added, removed, modified (content or status) and exact renames', () => {
    const base = table([
      { path: 'a.ts', blob: blob('1'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'gone.ts', blob: blob('2'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'old/name.ts', blob: blob('3'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'same.ts', blob: blob('4'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'big.ts', blob: blob('5'), status: 'indexed', lang: 'typescript', flags: 0 },
      // Two files with one blob: neither removal pairs with an addition of that blob.
      { path: 'twin1.txt', blob: blob('6'), status: 'unindexed', flags: 0 },
      { path: 'twin2.txt', blob: blob('6'), status: 'unindexed', flags: 0 },
    ]);
    const head = table([
      { path: 'a.ts', blob: blob('7'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'new.ts', blob: blob('8'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'new/name.ts', blob: blob('3'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'same.ts', blob: blob('4'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'big.ts', blob: blob('5'), status: 'skipped', flags: 0 },
      { path: 'twin3.txt', blob: blob('6'), status: 'unindexed', flags: 0 },
    ]);
    const changes = diffFileTables(base, head).map((c) => `${c.change} ${c.from ? `${c.from} -> ` : ''}${c.path}`);
    expect(changes.sort()).toEqual([
      'added new.ts', 'added twin3.txt', 'modified a.ts', 'modified big.ts', 'removed gone.ts',
      'removed twin1.txt', 'removed twin2.txt', 'renamed old/name.ts -> new/name.ts',
    ]);
    const renamed = diffFileTables(base, head).find((c) => c.change === 'renamed')!;
    expect(renamed.base?.path).toBe('old/name.ts');
    expect(renamed.head?.path).toBe('new/name.ts');
    expect(diffFileTables(base, base)).toEqual([]);
  });

  it('is INDEX_CORRUPT when stored in another shape, with columns that disagree, or unsorted', () => {
    const stored = decodeShard<Record<string, unknown>>('raw', encodeFileTable([
      { path: 'a.ts', blob: blob('1'), status: 'indexed', lang: 'typescript', flags: 0 },
      { path: 'b.md', blob: blob('2'), status: 'unindexed', flags: 0 },
    ])).value;
    const view = (value: unknown) => new FileTable('filetable', value);
    expect(view(stored).size).toBe(2);
    expect(thrown(() => view({ ...stored, v: 1 })).message).toMatch(/filetable is not a version 2 file table/);
    expect(thrown(() => view({ ...stored, problems: [''] })).message).toMatch(/columns of different lengths/);
    expect(thrown(() => view({ ...stored, problems: ['', 'abc'] })).message).toMatch(/malformed problems digest/);
    expect(thrown(() => view({ v: 1, files: [] })).code).toBe('INDEX_CORRUPT');
    expect(thrown(() => view({ ...stored, blobs: (stored.blobs as string).slice(0, 40) })).message).toMatch(/columns of different lengths/);
    expect(thrown(() => view({ ...stored, statuses: new Uint8Array(1) })).message).toMatch(/columns of different lengths/);
    expect(thrown(() => view({ ...stored, paths: ['b.md', 'a.ts'] })).message).toMatch(/not sorted by path/);
    expect(thrown(() => view({ ...stored, paths: ['a.ts', 'a.ts'] })).data).toEqual({ shard: 'filetable' });
  });
});
