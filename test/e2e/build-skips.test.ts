// End to end: files `indexer build` cannot index (the compiler overflows on them; a name with a
// backslash no tool could ask for) are listed with the reason by index_status on both backends,
// and the file beside them is fully there.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { answerFrom, where, type ToolResult } from './support/mcp-client.ts';
import { BACKENDS, buildIndexOf, type Backend } from './support/servers.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-skips-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function pathologicalRepo(): string {
  const dir = join(scratch, 'skips-src');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/good.ts'), "import { n } from './deep';\nexport function goodFunction(): number {\n  return 1;\n}\nexport const viaDeep = n;\n");
  writeFileSync(join(dir, 'src/deep.ts'), `export const n = ${'('.repeat(1000)}1${')'.repeat(1000)};\n`);
  writeFileSync(join(dir, 'src/deep.js'), `export const m = ${'['.repeat(100_000)}${']'.repeat(100_000)};\n`);
  writeFileSync(join(dir, 'back\\slash.ts'), 'export const behindBackslash = 1;\n');
  return dir;
}

const skips = buildIndexOf(pathologicalRepo(), 'fixtures/skips', scratch);

for (const makeBackend of BACKENDS) {
  describe.sequential('', () => {
    let backend: Backend;
    let client: Client;
    beforeAll(async () => {
      backend = await makeBackend([skips], scratch);
      client = await backend.connect(skips.repo);
    }, 180_000);
    afterAll(async () => backend?.close());

    describe(`files the build cannot index, through ${makeBackend === BACKENDS[0] ? 'the worker' : 'the runner'}`, () => {
      it('[STA-1] index_status lists each with its reason, and the file beside them is indexed', async () => {
        const status = await answerFrom(client, skips, 'index_status', {});
        expect(status.skipped).toEqual([
          { path: 'back\\slash.ts', reason: 'unaddressable-path', detail: 'its name cannot be addressed: it contains a backslash (paths use forward slashes)' },
          { path: 'src/deep.js', reason: 'analysis-failed', detail: 'RangeError: Maximum call stack size exceeded in the TypeScript parser' },
          { path: 'src/deep.ts', reason: 'analysis-failed', detail: 'RangeError: Maximum call stack size exceeded in the TypeScript parser' },
        ]);
        expect(status.counts.files).toBe(1);
        const good = await answerFrom(client, skips, 'goto_definition', { name: 'goodFunction' });
        expect(good.definitions.map(where)).toEqual(['src/good.ts:2:17']);
        const structure = await answerFrom(client, skips, 'file_structure', { path: 'src/good.ts' });
        expect(JSON.stringify(structure)).toContain('viaDeep');
      });

      it('a tool asked for a skipped file says why it is not there', async () => {
        for (const path of ['back\\slash.ts', 'src/deep.ts']) {
          const result = (await client.callTool({ name: 'file_structure', arguments: { path } })) as ToolResult;
          expect(result.isError).toBe(true);
          expect(result.structuredContent!.error).toMatchObject({ code: 'FILE_NOT_FOUND', message: expect.stringContaining('was not indexed') });
        }
      });
    });
  });
}
