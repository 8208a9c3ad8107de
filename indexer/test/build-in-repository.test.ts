// What `indexer build` takes from and leaves in the repository it indexes, on real git
// repositories: the repository's name from its origin remote (local/<folder> when there is none or
// it is a path on this machine), `.sextant/` added once to the exclude file git reads (linked
// worktrees too), what it may replace (an earlier index; never another directory, a tracked
// .sextant/ or a link there), and the project-configuration warnings counted in one line unless --verbose.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Manifest } from '@sextant/format';
import { isLocalRemote, repoNameOf } from '../src/build-command.ts';
import { main } from '../src/cli.ts';
import { excludeSextantDir } from '../src/git/git-exclude.ts';
import { commitAll, fixtureRepo, git, type FixtureRepo } from './support/fixture-repo.ts';

const BAD_INPUTS = new URL('../../test/fixtures/ts-bad-inputs/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-build-repo-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const repos: FixtureRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup();
  vi.restoreAllMocks();
});

function repo(source?: string): FixtureRepo {
  const made = fixtureRepo(source);
  repos.push(made);
  return made;
}

/** Runs the CLI, returning its exit code and what it wrote to stderr. */
async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  const stderr: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { stderr.push(String(chunk)); return true; });
  try {
    return { code: await main(args), stderr: stderr.join('') };
  } finally {
    spy.mockRestore();
  }
}

function exclusions(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l === '.sextant/') : [];
}

describe('the repository name', () => {
  it('is owner/name of a hosted origin, and local/<folder> without an origin or with a local one', () => {
    const checkout = repo();
    const folder = basename(checkout.dir);
    expect(repoNameOf(checkout.dir)).toBe(`local/${folder}`);
    git(checkout.dir, 'remote', 'add', 'origin', '/some/path/upstream.git');
    expect(repoNameOf(checkout.dir)).toBe(`local/${folder}`);
    for (const [url, name] of [
      ['file:///x/y.git', `local/${folder}`],
      ['../siblings/upstream', `local/${folder}`],
      ['C:/work/upstream.git', `local/${folder}`],
      ['git@github.com:a/b.git', 'a/b'],
      ['https://github.com/a/b.git', 'a/b'],
      ['ssh://git@example.com:2222/team/tool', 'team/tool'],
    ] as const) {
      git(checkout.dir, 'remote', 'set-url', 'origin', url);
      expect(repoNameOf(checkout.dir), url).toBe(name);
    }
  });

  it('reads remotes as git does', () => {
    expect(isLocalRemote('/srv/git/project.git')).toBe(true);
    expect(isLocalRemote('./dir:with-colon')).toBe(true);
    expect(isLocalRemote('FILE:///x')).toBe(true);
    expect(isLocalRemote('host:project.git')).toBe(false);
    expect(isLocalRemote('git://example.com/a/b')).toBe(false);
  });

  it('is what `indexer build` writes in the manifest', async () => {
    const checkout = repo();
    writeFileSync(join(checkout.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(checkout.dir, 'a file');
    git(checkout.dir, 'remote', 'add', 'origin', `file://${scratch}/elsewhere.git`);
    expect((await cli(['build', '--repo', checkout.dir, '--quiet'])).code).toBe(0);
    const manifest: Manifest = JSON.parse(readFileSync(join(checkout.dir, '.sextant/index/manifest.json'), 'utf8'));
    expect(manifest.repo).toBe(`local/${basename(checkout.dir)}`);
  });
});

describe('.sextant/ and git status', () => {
  it('adds .sextant/ to .git/info/exclude on the first build into .sextant/index, once', async () => {
    const checkout = repo();
    writeFileSync(join(checkout.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(checkout.dir, 'a file');
    rmSync(join(checkout.dir, '.git/info'), { recursive: true, force: true });
    expect((await cli(['build', '--repo', checkout.dir, '--quiet'])).code).toBe(0);
    expect(existsSync(join(checkout.dir, '.sextant/index/manifest.json'))).toBe(true);
    expect(git(checkout.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect((await cli(['build', '--repo', checkout.dir, '--quiet'])).code).toBe(0);
    await excludeSextantDir(checkout.dir);
    expect(exclusions(join(checkout.dir, '.git/info/exclude'))).toEqual(['.sextant/']);
  });

  it('writes the exclude file of the repository a linked worktree belongs to', async () => {
    const main = repo();
    writeFileSync(join(main.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(main.dir, 'a file');
    const worktree = join(scratch, 'linked');
    git(main.dir, 'worktree', 'add', '-q', worktree, '-b', 'linked');
    expect(readFileSync(join(worktree, '.git'), 'utf8')).toMatch(/^gitdir: /);
    expect((await cli(['build', '--repo', worktree, '--quiet'])).code).toBe(0);
    expect(exclusions(join(main.dir, '.git/info/exclude'))).toEqual(['.sextant/']);
    expect(git(worktree, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(git(main.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('leaves the exclude file alone when the index is written elsewhere, or git ignores .sextant/ already', async () => {
    const checkout = repo();
    writeFileSync(join(checkout.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(checkout.dir, 'a file');
    const exclude = join(checkout.dir, '.git/info/exclude');
    const before = existsSync(exclude) ? readFileSync(exclude, 'utf8') : undefined;
    expect((await cli(['build', '--repo', checkout.dir, '--out', join(scratch, 'outside'), '--quiet'])).code).toBe(0);
    expect(existsSync(exclude) ? readFileSync(exclude, 'utf8') : undefined).toBe(before);

    writeFileSync(join(checkout.dir, '.gitignore'), '.sextant\n');
    commitAll(checkout.dir, 'ignores .sextant');
    expect((await cli(['build', '--repo', checkout.dir, '--quiet'])).code).toBe(0);
    expect(existsSync(exclude) ? readFileSync(exclude, 'utf8') : undefined).toBe(before);
    expect(git(checkout.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('adds the line once even when a .gitignore negation keeps check-ignore from seeing it', async () => {
    const checkout = repo();
    mkdirSync(join(checkout.dir, '.git/info'), { recursive: true });
    writeFileSync(join(checkout.dir, '.git/info/exclude'), '# mine\n*.log');
    writeFileSync(join(checkout.dir, '.gitignore'), '!.sextant/\n');
    await excludeSextantDir(checkout.dir);
    await excludeSextantDir(checkout.dir);
    const text = readFileSync(join(checkout.dir, '.git/info/exclude'), 'utf8');
    expect(text.startsWith('# mine\n*.log\n')).toBe(true);
    expect(exclusions(join(checkout.dir, '.git/info/exclude'))).toEqual(['.sextant/']);
  });
});

describe('where a build may write', () => {
  it('replaces an earlier index at --out, and refuses a directory that is not one, changing nothing', async () => {
    const checkout = repo();
    writeFileSync(join(checkout.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(checkout.dir, 'a file');
    const out = join(scratch, 'replaced');
    expect((await cli(['build', '--repo', checkout.dir, '--out', out, '--quiet'])).code).toBe(0);
    expect((await cli(['build', '--repo', checkout.dir, '--out', out, '--quiet'])).code).toBe(0);
    expect(readdirSync(scratch).filter((name) => name.startsWith('replaced'))).toEqual(['replaced']);

    const mine = join(scratch, 'my-notes');
    mkdirSync(mine);
    writeFileSync(join(mine, 'todo.txt'), 'keep me\n');
    const refused = await cli(['build', '--repo', checkout.dir, '--out', mine, '--quiet']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error: ${mine} is not an index directory (it holds 1 entry and no manifest.json), so an index does not replace it: nothing was written or removed. To fix this, move it away, or write the index elsewhere: a new or empty directory`);
    expect(readdirSync(mine)).toEqual(['todo.txt']);
    expect(readdirSync(scratch).filter((name) => name.startsWith('my-notes'))).toEqual(['my-notes']);
  });

  it('refuses the default .sextant/index of a repository that tracks files under .sextant/, or whose .sextant/index is a link', async () => {
    const shipping = repo();
    mkdirSync(join(shipping.dir, '.sextant/index'), { recursive: true });
    writeFileSync(join(shipping.dir, '.sextant/index/manifest.json'), '{}\n');
    writeFileSync(join(shipping.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(shipping.dir, 'ships an index');
    const tracked = await cli(['build', '--repo', shipping.dir, '--quiet']);
    expect(tracked.code).toBe(1);
    expect(tracked.stderr).toMatch(/^error: .* tracks 1 file under \.sextant\/ \(\.sextant\/index\/manifest\.json\): .* To fix this, pass --out with a directory outside \.sextant\//);
    expect(readFileSync(join(shipping.dir, '.sextant/index/manifest.json'), 'utf8')).toBe('{}\n');

    const linked = repo();
    writeFileSync(join(linked.dir, 'a.ts'), 'export const a = 1;\n');
    commitAll(linked.dir, 'a file');
    const elsewhere = join(scratch, 'linked-target');
    mkdirSync(elsewhere);
    mkdirSync(join(linked.dir, '.sextant'));
    symlinkSync(elsewhere, join(linked.dir, '.sextant/index'));
    const link = await cli(['build', '--repo', linked.dir, '--quiet']);
    expect(link.code).toBe(1);
    expect(link.stderr).toMatch(/^error: \.sextant\/index in .* is a symbolic link to .*linked-target: .* To fix this, remove the link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('project-configuration warnings', () => {
  it('are one line with their count, each printed with --verbose, all kept in the manifest', async () => {
    const checkout = repo(BAD_INPUTS);
    const quiet = await cli(['build', '--repo', checkout.dir, '--out', join(scratch, 'bad-quiet')]);
    expect(quiet.code).toBe(0);
    const manifest: Manifest = JSON.parse(readFileSync(join(scratch, 'bad-quiet/manifest.json'), 'utf8'));
    expect(manifest.warnings.length).toBeGreaterThan(1);
    const warningLines = quiet.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warningLines).toEqual([expect.stringMatching(new RegExp(`^warning: ${manifest.warnings.length} warnings about project configuration .*\`indexer build --verbose\` lists them`))]);

    const verbose = await cli(['build', '--repo', checkout.dir, '--out', join(scratch, 'bad-verbose'), '--verbose']);
    expect(verbose.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual(manifest.warnings.map((w) => `warning: ${w}`));
  });
});
