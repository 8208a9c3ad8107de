// A repository that commits `.sextant` as a symbolic link (to `..`, or to an absolute directory
// the attacker prepared), cloned with real git and driven through the installed commands:
// `indexer build` and `indexer review` refuse it with PATH_OUTSIDE_ROOT naming the link and leave
// what the link leads to untouched, and an index reached through it (served by `runner mcp`, or
// planned from by `runner rename`) answers reads but never has its plans signed with the user's
// key, so `runner apply` takes them only with --allow-unsigned.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Plan } from '@sextant/plan';
import { INDEXER, RUNNER, runnerEnv } from './support/servers.ts';
import { runner } from './support/refactor-repo.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-cloned-link-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ENV = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd, encoding: 'utf8', env: ENV, stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Runs the indexer CLI to completion; a non-zero exit is an outcome. */
function indexer(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  try {
    return { code: 0, stdout: execFileSync(process.execPath, [INDEXER, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: runnerEnv() }), stderr: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * A published repository whose tree commits `.sextant -> <target>`, cloned into `<parent>/clone`;
 * `<parent>` (and the absolute target) already hold an `index/` of someone else's with a file in it.
 */
function clonedWithLink(name: string, target: (parent: string) => string): { clone: string; victim: string } {
  const origin = join(scratch, `${name}-origin`);
  mkdirSync(join(origin, 'src'), { recursive: true });
  writeFileSync(join(origin, 'src/a.ts'), 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
  writeFileSync(join(origin, 'src/b.ts'), "import { greet } from './a';\nexport const line = greet('b');\n");
  const parent = join(scratch, `${name}-parent`);
  mkdirSync(parent);
  const victim = target(parent);
  symlinkSync(victim === parent ? '..' : victim, join(origin, '.sextant'));
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'add', '-A');
  git(origin, 'commit', '-q', '-m', 'ships a .sextant link');
  expect(git(origin, 'ls-files', '-s', '.sextant')).toMatch(/^120000 /);
  mkdirSync(join(victim, 'index'), { recursive: true });
  writeFileSync(join(victim, 'index/keep.txt'), 'not Sextant\'s\n');
  const clone = join(parent, 'clone');
  git(scratch, 'clone', '-q', origin, clone);
  return { clone, victim };
}

const LINKS = [
  { name: 'relative', target: (parent: string) => parent, shows: '..' },
  { name: 'absolute', target: () => join(scratch, 'prepared'), shows: join(scratch, 'prepared') },
];

describe.each(LINKS)('a clone that commits .sextant as a $name symbolic link', ({ name, target, shows }) => {
  const { clone, victim } = clonedWithLink(name, target);
  const untouched = () => {
    expect(readFileSync(join(victim, 'index/keep.txt'), 'utf8')).toBe('not Sextant\'s\n');
    expect(existsSync(join(victim, 'index/manifest.json'))).toBe(false);
    expect(existsSync(join(victim, 'indexes'))).toBe(false);
    expect(git(clone, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  };

  it('indexer build refuses it with PATH_OUTSIDE_ROOT naming the link, and writes or deletes nothing there', () => {
    const result = indexer(['build', '--quiet'], clone);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: .sextant in ${clone} is a symbolic link to ${shows}: Sextant writes its indexes only into a real .sextant directory`);
    expect(result.stderr).toContain(`To fix this, remove the link (rm ${join(clone, '.sextant')})`);
    untouched();
  });

  it('indexer review refuses it the same way', () => {
    const result = indexer(['review', '--base', 'HEAD', '--quiet'], clone);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: .sextant in ${clone} is a symbolic link to ${shows}:`);
    expect(result.stderr).toContain('or pass --out-root with a directory of your choice');
    untouched();
  });

  it('an index the link leads to is served, but plans made from it are unsigned and runner apply refuses them', async () => {
    // What an attacker prepares where the link leads: here a real index of the clone, at <target>/index.
    rmSync(join(victim, 'index'), { recursive: true, force: true });
    expect(indexer(['build', '--repo', clone, '--out', join(victim, 'index'), '--quiet'], clone).code).toBe(0);
    try {
      const transport = new StdioClientTransport({ command: process.execPath, args: [RUNNER, 'mcp'], cwd: clone, env: runnerEnv(), stderr: 'pipe' });
      const stderr: string[] = [];
      transport.stderr?.on('data', (chunk: Buffer) => stderr.push(String(chunk)));
      const client = new Client({ name: 'e2e', version: '0' });
      await client.connect(transport);
      try {
        const answer = await client.callTool({ name: 'plan_rename', arguments: { name: 'greet', newName: 'welcome' } });
        expect(answer.isError, JSON.stringify(answer.structuredContent)).toBeFalsy();
        const plan = (answer.structuredContent as { plan: Plan }).plan;
        expect(plan.signature).toBeUndefined();
        expect(stderr.join('')).toContain(`the index ${join(clone, '.sextant/index')} is reached through the symbolic link ${join(clone, '.sextant')} in the working tree ${clone}`);
      } finally {
        await client.close();
      }

      const planFile = join(scratch, `${name}-plan.json`);
      const made = await runner(['rename', '--name', 'greet', '--to', 'welcome', '--out', planFile], clone);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stderr).toContain('is reached through the symbolic link');
      expect((JSON.parse(readFileSync(planFile, 'utf8')) as Plan).signature).toBeUndefined();
      const refused = await runner(['apply', planFile], clone);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: Plan [0-9a-f]{12} is not signed/);
      expect(readFileSync(join(clone, 'src/a.ts'), 'utf8')).toContain('function greet(');
      const forced = await runner(['apply', planFile, '--allow-unsigned'], clone);
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(join(clone, 'src/a.ts'), 'utf8')).toContain('function welcome(');
    } finally {
      git(clone, 'checkout', '-q', '--', '.');
    }
  });
});
