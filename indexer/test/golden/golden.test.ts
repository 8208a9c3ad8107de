// Golden tests: each fixture repository under test/fixtures is committed to a temporary git
// repository, indexed, and its decoded shards rendered as annotated source and compared with the
// committed rendering next to this file. A fixture pair (a `base` and a `head` directory, the two
// commits a review compares) is two repositories, rendered as <name>-base and <name>-head, and one
// repository of two commits whose `indexer review --format markdown` is compared with <name>.review.md.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildIndex } from '../../src/build-command.ts';
import { Progress } from '../../src/progress.ts';
import { main } from '../../src/cli.ts';
import { commitAll, fixtureRepo, git } from '../support/fixture-repo.ts';
import { readTree, renderIndex } from '../support/render-index.ts';

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url).pathname;
const GOLDEN = new URL('./', import.meta.url).pathname;
const ACCEPT = 'cd indexer && UPDATE_GOLDEN=1 npx vitest run test/golden';
const scratch = mkdtempSync(join(tmpdir(), 'sextant-golden-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('golden annotated indexes', () => {
  const fixtures = readdirSync(FIXTURES).sort().flatMap((name) => {
    const dir = join(FIXTURES, name);
    const pair = ['base', 'head'].every((side) => existsSync(join(dir, side)));
    return pair ? ['base', 'head'].map((side) => ({ name: `${name}-${side}`, dir: join(dir, side) })) : [{ name, dir }];
  });
  for (const { name, dir } of fixtures) {
    it(name, async () => {
      const repo = fixtureRepo(dir);
      try {
        const out = join(scratch, name);
        await buildIndex({ repo: repo.dir, commit: 'HEAD', out, repoName: `fixtures/${name}`, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true), autoScip: false });
        const actual = renderIndex(out, readTree(dir));
        const file = join(GOLDEN, `${name}.golden`);
        if (process.env.UPDATE_GOLDEN) writeFileSync(file, actual);
        const expected = existsSync(file) ? readFileSync(file, 'utf8') : '';
        expect(actual, `golden rendering of ${name} changed; review the diff, then accept it with:\n  ${ACCEPT}\n`).toBe(expected);
      } finally {
        repo.cleanup();
      }
    });
  }
});

describe('golden review comments', () => {
  const pairs = readdirSync(FIXTURES).sort().filter((name) => ['base', 'head'].every((side) => existsSync(join(FIXTURES, name, side))));
  for (const name of pairs) {
    it(`${name}.review.md`, async () => {
      const repo = fixtureRepo(join(FIXTURES, name, 'base'));
      try {
        // A hosted repository's name, so that the comment links its sites.
        git(repo.dir, 'remote', 'add', 'origin', `https://github.com/fixtures/${name}.git`);
        for (const entry of readdirSync(repo.dir)) if (entry !== '.git') rmSync(join(repo.dir, entry), { recursive: true, force: true });
        cpSync(join(FIXTURES, name, 'head'), repo.dir, { recursive: true });
        commitAll(repo.dir, 'head');
        const out: string[] = [];
        vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { out.push(String(chunk)); return true; });
        vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
        let code: number;
        try {
          code = await main(['review', '--repo', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'markdown', '--out-root', join(scratch, `${name}-review`), '--quiet']);
        } finally {
          vi.restoreAllMocks();
        }
        expect(code).toBe(0);
        const actual = out.join('');
        const file = join(GOLDEN, `${name}.review.md`);
        if (process.env.UPDATE_GOLDEN) writeFileSync(file, actual);
        const expected = existsSync(file) ? readFileSync(file, 'utf8') : '';
        expect(actual, `golden review comment of ${name} changed; review the diff, then accept it with:\n  ${ACCEPT}\n`).toBe(expected);
      } finally {
        repo.cleanup();
      }
    }, 120_000);
  }
});
