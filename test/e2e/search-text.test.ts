// End to end: search_text through the worker in workerd and through `runner mcp`, over a repository
// holding code, documentation, configuration and a binary file: a match in a file no language
// indexer parses, the declaration a match inside a method sits in, the symbol of an identifier
// match chaining into find_references, the binary file skipped and named, a rename plan listing the
// old name's mentions in Markdown and YAML, and a query with 10,000 matches paged to the end with
// each match seen once. The matches are those ripgrep 13 prints for
// the same tree (`rg --vimgrep`), listed below.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { answerFrom } from './support/mcp-client.ts';
import { BACKENDS, buildIndexOf, type Backend } from './support/servers.ts';

const REPO = 'fixtures/grep';
const MANY = 10_000;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-e2e-grep-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function grepRepo(): string {
  const dir = join(scratch, 'repo');
  const write = (path: string, text: string | Buffer) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('src/orders/order-service.ts', [
    'export class OrderService {',
    '  createOrder(id: string): string {',
    '    // TODO: reject an empty id',
    '    return `order-${id}`;',
    '  }',
    '}',
    'export const service = new OrderService();',
    "export const first = service.createOrder('a');",
    '',
  ].join('\n'));
  write('docs/orders.md', '# Orders\n\nCall `OrderService.createOrder` with an id. TODO: document refunds.\n');
  write('config/app.yaml', 'orders:\n  createOrder: enabled\n');
  write('assets/logo.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]), Buffer.from('createOrder TODO')]));
  write('data/needles.txt', `${Array.from({ length: MANY / 2 }, () => 'needle needle').join('\n')}\n`);
  write('tsconfig.json', '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n');
  return dir;
}

const index = buildIndexOf(grepRepo(), REPO, scratch);

for (const makeBackend of BACKENDS) {
  describe.sequential('', () => {
    let backend: Backend;
    let client: Client;
    beforeAll(async () => {
      backend = await makeBackend([index], scratch);
      client = await backend.connect(REPO);
    }, 180_000);
    afterAll(async () => backend?.close());
    const ask = (name: string, args: Record<string, unknown>) => answerFrom(client, index, name, args);

    describe(`search_text, through ${makeBackend === BACKENDS[0] ? 'the worker' : 'the runner'}`, () => {
      it('[TXT-1] finds a literal in every text file, code or not, as ripgrep does, and names the binary file it skipped', async () => {
        const answer = await ask('search_text', { query: 'createOrder' });
        // rg --vimgrep -s createOrder
        expect(answer.matches.map((m: any) => `${m.path}:${m.line}:${m.column}`)).toEqual([
          'config/app.yaml:2:3', 'docs/orders.md:3:20', 'src/orders/order-service.ts:2:3', 'src/orders/order-service.ts:8:30',
        ]);
        expect(answer).toMatchObject({ total: 4, files: 3, totalIsExact: true, hasMore: false, unsearched: { count: 1, examples: [{ path: 'assets/logo.png', reason: 'binary' }] } });
        expect(answer.matches[0].text).toBe('  createOrder: enabled');
      });

      it('[TXT-2] names the method a match inside it sits in, and the symbol of an identifier match, which chains into find_references', async () => {
        const todo = await ask('search_text', { query: 'TODO', paths: ['src/**'] });
        expect(todo.matches).toEqual([expect.objectContaining({ path: 'src/orders/order-service.ts', line: 3, column: 8, enclosing: expect.objectContaining({ name: 'createOrder', kind: 'method' }) })]);
        expect(todo.matches[0].symbol).toBeUndefined();
        const call = (await ask('search_text', { query: 'createOrder', paths: ['src/**'] })).matches.find((m: any) => m.line === 8);
        expect(call.symbol).toMatchObject({ name: 'createOrder' });
        expect(call.enclosing).toMatchObject({ name: 'first' });
        const references = await ask('find_references', { symbolId: call.symbol.symbolId });
        expect(references.references.map((r: any) => `${r.path}:${r.line}:${r.column}`)).toContain('src/orders/order-service.ts:8:30');
      });

      it('[TXT-3] runs RE2 patterns with smart case and whole words, and refuses what RE2 lacks by name', async () => {
        // rg --vimgrep -s 'todo|TODO' and rg --vimgrep -w -i 'order'
        expect((await ask('search_text', { query: 'todo|TODO', mode: 'regex' })).matches.map((m: any) => `${m.path}:${m.line}:${m.column}`))
          .toEqual(['docs/orders.md:3:45', 'src/orders/order-service.ts:3:8']);
        expect((await ask('search_text', { query: 'order', wholeWord: true })).matches.map((m: any) => `${m.path}:${m.line}:${m.column}`))
          .toEqual(['src/orders/order-service.ts:4:13']);
        const refused = await client.callTool({ name: 'search_text', arguments: { query: '(?<=x)y', mode: 'regex' } }) as any;
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent.error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('lookaround') });
      });

      it('[TXT-5] lists the old name\'s mentions a rename does not edit (Markdown, YAML) as textual-mention conflicts', async () => {
        const { plan } = await ask('plan_rename', { qualifiedName: 'OrderService.createOrder', newName: 'placeOrder' });
        expect(plan.files.map((f: any) => `${f.path} ${f.edits.map((e: any) => `${e.line}:${e.column}`).join(',')}`)).toEqual(['src/orders/order-service.ts 2:3,8:30']);
        expect(plan.conflicts.map((c: any) => `${c.kind} ${c.path}:${c.line}:${c.column}`)).toEqual(['textual-mention config/app.yaml:2:3', 'textual-mention docs/orders.md:3:20']);
      });

      it('[TXT-4] pages a query with 10,000 matches to the end, each match once, the total exact on every page', async () => {
        const seen = new Set<string>();
        let cursor: string | undefined;
        do {
          const page = await ask('search_text', { query: 'needle', limit: 1000, ...(cursor ? { cursor } : {}) });
          expect(page).toMatchObject({ total: MANY, totalIsExact: true, files: 1 });
          for (const m of page.matches) seen.add(`${m.path}:${m.line}:${m.column}`);
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen.size).toBe(MANY);
      });
    });
  });
}
