// Turns a fixture directory into a real git repository in a temporary folder, committed with fixed
// dates so that builds of it are reproducible.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FIXED = { GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=fixture@sextant.dev', '-c', 'user.name=fixture', ...args], {
    cwd, encoding: 'utf8', env: { ...process.env, ...FIXED },
  }).trim();
}

export interface FixtureRepo {
  dir: string;
  commit: string;
  cleanup(): void;
}

export function fixtureRepo(source?: string): FixtureRepo {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-fixture-'));
  if (source) cpSync(source, dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'fixture');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}
