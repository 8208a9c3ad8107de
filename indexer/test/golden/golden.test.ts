// Golden tests: each fixture repository under test/fixtures is committed to a temporary git
// repository, indexed, and its decoded shards rendered as annotated source and compared with the
// committed rendering next to this file.
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
  for (const name of readdirSync(FIXTURES).sort()) {
    it(name, async () => {
      const repo = fixtureRepo(join(FIXTURES, name));
      try {
        const out = join(scratch, name);
        await buildIndex({ repo: repo.dir, commit: 'HEAD', out, repoName: `fixtures/${name}`, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
        const actual = renderIndex(out, readTree(join(FIXTURES, name)));
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
