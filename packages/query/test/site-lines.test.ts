// Sites carry their source: every list of sites (references here; call sites, problems and
// change-impact sites end to end in test/e2e) gives each site its own line, and with context N the
// N lines around it, clipped at the file's edges, read from the text shards of the page's files only.
import { beforeAll, describe, expect, it } from 'vitest';
import { findReferences, withSiteLines, type IndexReader } from '../src/index.ts';
import { buildMemoryIndex, openMemoryIndex, shopSpec } from './support/memory-index.ts';

let shop: IndexReader;
beforeAll(async () => {
  shop = await openMemoryIndex(buildMemoryIndex(shopSpec()));
});

describe('site lines', () => {
  it('give each reference its own line as in the file, and no context unless asked', async () => {
    const { references } = await findReferences(shop, { qualifiedName: 'OrderService.submit' }, {});
    expect(references).toEqual([expect.objectContaining({ path: 'src/main.ts', line: 7, text: '  service.submit(readFileSync(\'order.json\', \'utf8\'));' })]);
    expect(references[0]).not.toHaveProperty('before');
    expect(references[0]).not.toHaveProperty('after');
  });

  it('give context lines before and after, clipped at the start of the file', async () => {
    const { references } = await findReferences(shop, { name: 'OrderService' }, { context: 2, paths: ['src/**'] });
    const imported = references.find((r) => r.kind === 'import')!;
    expect(imported).toMatchObject({ line: 2, before: ['import { readFileSync } from \'node:fs\';'], after: [
      'import { OrderRepositoryImpl } from \'./orders/order-repository\';', '',
    ] });
    const constructed = references.find((r) => r.kind === 'new')!;
    expect(constructed.before).toEqual(['', 'export function main(): void {']);
    expect(constructed.after).toEqual(['  service.submit(readFileSync(\'order.json\', \'utf8\'));', '}']);
  });

  it('are read for the page only', async () => {
    const before = shop.shardsRead.length;
    await findReferences(shop, { name: 'OrderService' }, { limit: 1 });
    const read = shop.shardsRead.slice(before).filter((name) => name.startsWith('text/'));
    expect(read.length).toBeLessThanOrEqual(1);
  });

  it('clip context at the end of the file, and cap context at what was asked', async () => {
    const [last] = await withSiteLines(shop, [{ path: 'src/main.ts', line: 8 }], 3);
    expect(last).toMatchObject({ text: '}', after: [] });
    expect(last!.before).toHaveLength(3);
  });
});
