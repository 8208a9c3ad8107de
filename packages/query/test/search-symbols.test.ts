// search_symbols over a real IndexReader on encoded shards (test/support/memory-index.ts): the
// five match modes, the ranking (match class first, production before tests and generated code
// within a class), the filters, and paging.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSymbolId, SextantError, shortCommit } from '@sextant/format';
import { gotoDefinition, searchSymbols, type IndexReader, type SearchParams } from '../src/index.ts';
import { buildMemoryIndex, openMemoryIndex, shopSpec, type MemoryIndexSpec } from './support/memory-index.ts';

async function names(reader: IndexReader, params: SearchParams): Promise<string[]> {
  return (await searchSymbols(reader, { limit: 500, ...params })).results.map((r) => r.qualifiedName);
}

async function searchError(reader: IndexReader, params: SearchParams): Promise<SextantError> {
  const error = await searchSymbols(reader, params).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SextantError);
  return error as SextantError;
}

describe('searchSymbols on the shop index', () => {
  let shop: IndexReader;
  beforeAll(async () => {
    shop = await openMemoryIndex(buildMemoryIndex(shopSpec()));
  });

  it('defaults to case-insensitive substring, leaving out tests, generated code and externals', async () => {
    const answer = await searchSymbols(shop, { query: 'order' });
    expect(answer.matchMode).toBe('substring');
    expect(answer.results.map((r) => r.name)).toEqual(['OrderService', 'OrderRepository', 'OrderRepositoryImpl']);
    expect(answer.results.every((r) => r.match === 'prefix')).toBe(true);
    expect(answer).toMatchObject({ repo: 'acme/shop', commit: shop.commit, total: 3, totalIsExact: true, hasMore: false });
  });

  it('includes tests, generated code and externals only when asked', async () => {
    expect(await names(shop, { query: 'order', includeTests: true })).toContain('OrderStub');
    expect(await names(shop, { query: 'order', includeGenerated: true })).toContain('OrderDto');
    expect(await names(shop, { query: 'readFile' })).toEqual([]);
    const external = await searchSymbols(shop, { query: 'readFile', includeExternal: true });
    expect(external.results).toHaveLength(1);
    // An external symbol has no location in this repository.
    expect(external.results[0]).not.toHaveProperty('path');
    expect(external.results[0]).not.toHaveProperty('line');
  });

  it('matches substrings anywhere in the name', async () => {
    expect(await names(shop, { query: 'repository' })).toEqual(['OrderRepository', 'OrderRepositoryImpl']);
    const cache = await searchSymbols(shop, { query: 'cache' });
    expect(cache.results.map((r) => [r.name, r.match])).toEqual([['ImageCache', 'substring'], ['createImageCache', 'substring']]);
  });

  it('exact is exact and case-sensitive', async () => {
    const answer = await searchSymbols(shop, { query: 'OrderService', matchMode: 'exact' });
    expect(answer.results.map((r) => [r.name, r.match])).toEqual([['OrderService', 'exact']]);
    expect(await names(shop, { query: 'orderservice', matchMode: 'exact' })).toEqual([]);
  });

  it('prefix matches the start of the name, case-insensitively', async () => {
    expect(await names(shop, { query: 'orderrep', matchMode: 'prefix' })).toEqual(['OrderRepository', 'OrderRepositoryImpl']);
    expect(await names(shop, { query: 'Cache', matchMode: 'prefix' })).toEqual([]);
  });

  it('camelCase matches humps: OSvc finds OrderService', async () => {
    const answer = await searchSymbols(shop, { query: 'OSvc', matchMode: 'camelCase' });
    expect(answer.results.map((r) => [r.name, r.match])).toEqual([['OrderService', 'camelCase']]);
    expect(await names(shop, { query: 'ORI', matchMode: 'camelCase' })).toEqual(['OrderRepositoryImpl']);
    expect(await names(shop, { query: 'ORep', matchMode: 'camelCase' })).toEqual(['OrderRepository', 'OrderRepositoryImpl']);
    expect(await names(shop, { query: 'OSx', matchMode: 'camelCase' })).toEqual([]);
  });

  it('wildcard matches * (any run) and ? (one character) over the whole name', async () => {
    const answer = await searchSymbols(shop, { query: 'Order*Impl', matchMode: 'wildcard' });
    expect(answer.results.map((r) => [r.name, r.match])).toEqual([['OrderRepositoryImpl', 'wildcard']]);
    expect(await names(shop, { query: '*cache', matchMode: 'wildcard' })).toEqual(['ImageCache', 'createImageCache']);
    expect(await names(shop, { query: 'OrderServic?', matchMode: 'wildcard' })).toEqual(['OrderService']);
    expect(await names(shop, { query: 'Order', matchMode: 'wildcard' })).toEqual([]); // anchored at both ends
  });

  it('matches a dotted query against qualified names', async () => {
    expect(await names(shop, { query: 'OrderService.sub' })).toEqual(['OrderService.submit']);
    expect(await names(shop, { query: 'OrderRepository.save', matchMode: 'exact' })).toEqual(['OrderRepository.save']);
    expect(await names(shop, { query: '*.save', matchMode: 'wildcard' })).toHaveLength(3);
  });

  it('filters by kind', async () => {
    expect(await names(shop, { query: 'Order', kinds: ['interface'] })).toEqual(['OrderRepository']);
    expect(await names(shop, { query: 'save', kinds: ['method'] })).toHaveLength(3);
    expect(await names(shop, { query: 'save', kinds: ['class'] })).toEqual([]);
  });

  it('never returns locals or parameters', async () => {
    expect(await names(shop, { query: 'service', matchMode: 'exact' })).toEqual([]);
    expect(await names(shop, { query: 'service' })).toEqual(['OrderService']);
  });

  it('gives symbolIds that other tools resolve to the same symbol', async () => {
    for (const result of (await searchSymbols(shop, { query: 'e' })).results) {
      expect(parseSymbolId(result.symbolId).commit).toBe(shortCommit(shop.commit));
      const definition = await gotoDefinition(shop, { symbolId: result.symbolId });
      expect(definition.symbol).toMatchObject({ symbolId: result.symbolId, qualifiedName: result.qualifiedName });
      expect([definition.symbol.path, definition.symbol.line, definition.symbol.column]).toEqual([result.path, result.line, result.column]);
    }
  });

  it('refuses an empty or blank query', async () => {
    for (const query of ['', '   ']) {
      const error = await searchError(shop, { query });
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.hint).toMatch(/part of a symbol name/);
    }
  });
});

describe('ranking', () => {
  // Cart (exact), CartItem (prefix), ShoppingCart (substring) in production; Cart and CartX in a
  // test file. CartX is shorter than CartItem, so only the production-first rule puts it after.
  const spec: MemoryIndexSpec = {
    files: [
      { path: 'src/cart.ts', text: 'export class ShoppingCart {}\nexport class CartItem {}\nexport class Cart {}\n' },
      { path: 'test/cart.test.ts', text: 'class CartX {}\nclass Cart {}\n', flags: 1 },
    ],
    symbols: [
      { name: 'ShoppingCart', kind: 'class', defs: [{ path: 'src/cart.ts', line: 1 }] },
      { name: 'CartItem', kind: 'class', defs: [{ path: 'src/cart.ts', line: 2 }] },
      { id: 'Cart', name: 'Cart', kind: 'class', defs: [{ path: 'src/cart.ts', line: 3 }] },
      { name: 'CartX', kind: 'class', defs: [{ path: 'test/cart.test.ts', line: 1 }] },
      { id: 'TestCart', name: 'Cart', kind: 'class', defs: [{ path: 'test/cart.test.ts', line: 2 }] },
    ],
  };
  let cart: IndexReader;
  beforeAll(async () => {
    cart = await openMemoryIndex(buildMemoryIndex(spec));
  });

  it('ranks exact before prefix before substring', async () => {
    const answer = await searchSymbols(cart, { query: 'Cart' });
    expect(answer.results.map((r) => [r.name, r.match])).toEqual([['Cart', 'exact'], ['CartItem', 'prefix'], ['ShoppingCart', 'substring']]);
  });

  it('puts test code after production code within a match class', async () => {
    const answer = await searchSymbols(cart, { query: 'Cart', includeTests: true });
    expect(answer.results.map((r) => `${r.name} ${r.path}`)).toEqual([
      'Cart src/cart.ts',
      'Cart test/cart.test.ts',
      'CartItem src/cart.ts',
      'CartX test/cart.test.ts',
      'ShoppingCart src/cart.ts',
    ]);
  });

  it('is a stable order, so pages never overlap', async () => {
    const all = (await searchSymbols(cart, { query: 'Cart', includeTests: true })).results.map((r) => r.symbolId);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchSymbols(cart, { query: 'Cart', includeTests: true, limit: 2, cursor });
      paged.push(...page.results.map((r) => r.symbolId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it('refuses a cursor from another search', async () => {
    const first = await searchSymbols(cart, { query: 'Cart', limit: 1 });
    const error = await searchError(cart, { query: 'Item', cursor: first.nextCursor });
    expect(error.code).toBe('INVALID_CURSOR');
    // includeTests changes the result list, so it changes the query too.
    expect((await searchError(cart, { query: 'Cart', includeTests: true, cursor: first.nextCursor })).code).toBe('INVALID_CURSOR');
  });
});
