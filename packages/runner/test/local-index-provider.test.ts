// The runner serving several commits: indexes of a real git repository built by the real indexer,
// found by full sha, abbreviated sha and ref; an ambiguous abbreviation, a commit not indexed, an
// index added to the root while serving, and sets no server can serve (two repositories, one
// commit twice).
import { cpSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SextantError } from '@sextant/format';
import { main } from '../src/cli.ts';
import { LocalIndexProvider } from '../src/local-index-provider.ts';
import { scratchDir, testRepo, type TestRepo } from './support/indexed-repo.ts';

let repo: TestRepo;
let scratch: string;
let root: string;
/** Commits of main, oldest first; twins share their first 7 hex digits. */
let first: string, second: string, third: string;
let twins: [string, string];
let later: string;

function rejection(promise: Promise<unknown>): Promise<SextantError> {
  return promise.then(() => { throw new Error('expected a rejection'); }, (error: unknown) => error as SextantError);
}

beforeAll(() => {
  repo = testRepo();
  scratch = scratchDir();
  root = join(scratch, 'root');
  first = repo.commit({ 'src/a.ts': 'export function a(): number { return 1; }\n' }, '2026-01-01T00:00:00Z');
  second = repo.commit({ 'src/b.ts': 'export function b(): number { return 2; }\n' }, '2026-02-01T00:00:00Z');
  third = repo.commit({ 'src/c.ts': 'export function c(): number { return 3; }\n' }, '2026-03-01T00:00:00Z');
  repo.index(first, join(root, first));
  repo.index(second, join(root, second));
  twins = repo.twins(7);
  repo.index(twins[0], join(scratch, 'twin-a'));
  repo.index(twins[1], join(scratch, 'twin-b'));
  later = repo.commit({ 'src/d.ts': 'export function d(): number { return 4; }\n' }, '2026-04-01T00:00:00Z');
  repo.index(later, join(scratch, 'later'));
  repo.index(first, join(scratch, 'other-repo'), 'someone/else');
}, 180_000);

afterAll(() => {
  rmSync(repo.dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('LocalIndexProvider over several commits', () => {
  it('finds an index by full sha, by an abbreviation of 7 digits and by a ref resolved with git', async () => {
    const provider = new LocalIndexProvider({ indexRoot: root, repoDir: repo.dir });
    expect((await provider.open({ commit: first })).commit).toBe(first);
    expect((await provider.open({ commit: second.slice(0, 7).toUpperCase() })).commit).toBe(second);
    // main is at `later` (the twins are branches off `third`).
    expect((await provider.open({ commit: 'main~2' })).commit).toBe(second);
    expect((await provider.open({ commit: 'main~3' })).commit).toBe(first);
    // Without a repository, a ref cannot be resolved: said so, with what is indexed.
    const noRepo = await rejection(new LocalIndexProvider({ indexRoot: root }).open({ commit: 'main~1' }));
    expect(noRepo).toMatchObject({ code: 'COMMIT_NOT_INDEXED', data: { requested: 'main~1', indexedCommits: [first, second].sort() } });
    expect(noRepo.message).toMatch(/Refs cannot be resolved here/);
  });

  it('refuses an abbreviation two indexed commits share, naming both', async () => {
    expect(twins[0].slice(0, 7)).toBe(twins[1].slice(0, 7));
    const provider = new LocalIndexProvider({ indexes: [join(scratch, 'twin-a'), join(scratch, 'twin-b')], repoDir: repo.dir });
    const error = await rejection(provider.open({ commit: twins[0].slice(0, 7) }));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { candidates: [...twins].sort() } });
    expect(error.message).toContain(twins[0]);
    expect(error.message).toContain(twins[1]);
    // One digit more (where they differ) and the branch names each pick one.
    const at = [...twins[0]].findIndex((c, i) => c !== twins[1][i]);
    expect((await provider.open({ commit: twins[1].slice(0, at + 1) })).commit).toBe(twins[1]);
    expect((await provider.open({ commit: 'twin-a' })).commit).toBe(twins[0]);
  });

  it('says a commit is not indexed, listing the indexed ones and how to build it', async () => {
    const provider = new LocalIndexProvider({ indexRoot: root, repoDir: repo.dir });
    for (const asked of [third, third.slice(0, 10), 'main']) {
      const error = await rejection(provider.open({ commit: asked }));
      expect(error).toMatchObject({ code: 'COMMIT_NOT_INDEXED', data: { requested: asked, indexedCommits: [first, second].sort() } });
      expect(error.hint).toMatch(/indexer build .*--commit/);
    }
    expect((await rejection(provider.open({ commit: 'no-such-branch' }))).code).toBe('COMMIT_NOT_INDEXED');
  });

  it('finds an index added to the root after it started, at the first call that names its commit', async () => {
    const growing = join(scratch, 'growing');
    cpSync(join(root, first), join(growing, first), { recursive: true });
    const provider = new LocalIndexProvider({ indexRoot: growing, repoDir: repo.dir });
    expect((await provider.start()).index.commit).toBe(first);
    expect((await rejection(provider.open({ commit: 'main' }))).code).toBe('COMMIT_NOT_INDEXED');
    // As `indexer review` does: built beside, moved into place whole (a dot-directory is never listed).
    cpSync(join(scratch, 'later'), join(growing, '.building'), { recursive: true });
    expect((await rejection(provider.open({ commit: later }))).code).toBe('COMMIT_NOT_INDEXED');
    renameSync(join(growing, '.building'), join(growing, later));
    expect((await provider.open({ commit: 'main' })).commit).toBe(later);
    expect((await provider.open({ commit: later.slice(0, 8) })).commit).toBe(later);
    // The default stays where it was chosen.
    expect((await provider.open()).commit).toBe(first);
  });

  it('answers a call naming no commit from the first --index, else HEAD of --repo, else the newest commit', async () => {
    const both = { indexes: [join(root, first), join(scratch, 'later')], indexRoot: root };
    expect(await new LocalIndexProvider(both).start()).toMatchObject({ index: { commit: first }, reason: 'the first --index' });
    expect((await new LocalIndexProvider({ indexRoot: root }).start()).index.commit).toBe(second);
    const headRoot = join(scratch, 'head-root');
    cpSync(join(root, first), join(headRoot, first), { recursive: true });
    cpSync(join(scratch, 'later'), join(headRoot, later), { recursive: true });
    repo.git('checkout', '-q', first);
    try {
      expect(await new LocalIndexProvider({ indexRoot: headRoot, repoDir: repo.dir }).start())
        .toMatchObject({ index: { commit: first }, reason: `HEAD of ${repo.dir}` });
      expect((await new LocalIndexProvider({ indexRoot: root, repoDir: repo.dir }).start()).index.commit).toBe(first);
    } finally {
      repo.git('checkout', '-q', 'main');
    }
    // HEAD (later) is not in root: the newest there, saying why.
    const fallback = await new LocalIndexProvider({ indexRoot: root, repoDir: repo.dir }).start();
    expect(fallback.index.commit).toBe(second);
    expect(fallback.reason).toMatch(/newest commit by commit date; HEAD of .* is not indexed/);
  });

  it('answers from an index rebuilt in place at another commit, never from the commit it had', async () => {
    const moving = join(scratch, 'moving');
    cpSync(join(root, first), moving, { recursive: true });
    const provider = new LocalIndexProvider({ indexes: [moving, join(root, second)] });
    expect((await provider.open({ commit: first })).commit).toBe(first);
    rmSync(moving, { recursive: true });
    cpSync(join(scratch, 'later'), moving, { recursive: true });
    expect((await provider.open()).commit).toBe(later);
    expect(await rejection(provider.open({ commit: first }))).toMatchObject({ code: 'COMMIT_NOT_INDEXED', data: { indexedCommits: [second, later].sort() } });
    expect((await provider.open({ commit: later })).commit).toBe(later);
  });
});

describe('runner mcp refuses a set of indexes no server can serve', () => {
  function captureStderr() {
    const chunks: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(String(chunk));
      return true;
    });
    return () => chunks.join('');
  }

  it('refuses indexes of two repositories', async () => {
    const other = join(scratch, 'other-repo');
    const stderr = captureStderr();
    try {
      expect(await main(['mcp', '--index', join(root, second), '--index', other])).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stderr()).toMatch(/error: The indexes are of 2 repositories \(acme\/widgets at .*; someone\/else at .*other-repo\)/);
  });

  it('refuses two indexes of one commit', async () => {
    const copy = join(scratch, 'copy-of-first');
    cpSync(join(root, first), copy, { recursive: true });
    const stderr = captureStderr();
    try {
      expect(await main(['mcp', '--index', copy, '--index-root', root])).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stderr()).toContain(`error: Two indexes are of commit ${first}`);
  });
});
