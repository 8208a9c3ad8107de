// Golden tests: each fixture repository under test/fixtures is committed to a temporary git
// repository, indexed, and its decoded shards rendered as annotated source and compared with the
// committed rendering next to this file. A fixture pair (a `base` and a `head` directory, the two
// commits a review compares) is two repositories, rendered as <name>-base and <name>-head.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/build-command.ts';
import { Progress } from '../../src/progress.ts';
import { fixtureRepo } from '../support/fixture-repo.ts';
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
        await buildIndex({ repo: repo.dir, commit: 'HEAD', out, repoName: `fixtures/${name}`, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
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
