// goto_definition and find_references over the shop index: every target form resolves to one
// symbol or fails with the error a caller can act on (ambiguity lists candidates with symbolIds, a
// symbolId of another commit is STALE_SYMBOL naming that commit), and reference lists are complete,
// ordered and pageable.
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE_FLAGS, formatSymbolId, refAt, SextantError, shortCommit } from '@sextant/format';
import { findReferences, gotoDefinition, RELATED_BOUND, type IndexReader, type ReferencesAnswer, type Target } from '../src/index.ts';
import { buildMemoryIndex, openMemoryIndex, sharedNameSpec, shopSpec, type MemoryIndex, type MemoryIndexSpec } from './support/memory-index.ts';

let index: MemoryIndex;
let shop: IndexReader;
beforeAll(async () => {
  index = buildMemoryIndex(shopSpec({ skipped: [{ path: 'assets/logo.png', reason: 'binary', detail: 'binary file' }] }));
  shop = await openMemoryIndex(index);
});

const idOf = (id: string) => formatSymbolId(index.keys.get(id)!, index.manifest.commit);

async function failure(run: () => Promise<unknown>): Promise<SextantError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SextantError);
  return error as SextantError;
}

describe('goto_definition', () => {
  it('resolves a use site, with the caret anywhere on the identifier or just past it', async () => {
    // src/main.ts line 7: `  service.submit(readFileSync('order.json', 'utf8'));`; submit is columns 11-16.
    for (const column of [11, 13, 16, 17]) {
      const answer = await gotoDefinition(shop, { path: 'src/main.ts', line: 7, column });
      expect(answer.symbol.qualifiedName, `column ${column}`).toBe('OrderService.submit');
      expect(answer.definitions).toMatchObject([{ path: 'src/orders/order-service.ts', line: 6, column: 3, endLine: 6, endColumn: 9 }]);
      expect(answer).toMatchObject({ repo: 'acme/shop', commit: index.manifest.commit, external: false });
    }
  });

  it('accepts the path spellings ./src/… and src\\…', async () => {
    for (const path of ['./src/main.ts', 'src\\main.ts']) {
      expect((await gotoDefinition(shop, { path, line: 7, column: 11 })).symbol.name).toBe('submit');
    }
  });

  it('resolves by symbolId, qualifiedName, path-qualified name and unique name to the same symbol', async () => {
    const targets: Target[] = [
      { symbolId: idOf('ImageCache.save') },
      { qualifiedName: 'ImageCache.save' },
      { qualifiedName: 'src/images/image-cache.ts:ImageCache.save' },
    ];
    for (const target of targets) {
      expect((await gotoDefinition(shop, target)).symbol.symbolId).toBe(idOf('ImageCache.save'));
    }
    expect((await gotoDefinition(shop, { name: 'createImageCache' })).symbol.symbolId).toBe(idOf('createImageCache'));
  });

  it('marks an external symbol, with its package and no definitions in the repository', async () => {
    const answer = await gotoDefinition(shop, { path: 'src/main.ts', line: 7, column: 18 });
    expect(answer.external).toBe(true);
    expect(answer.definitions).toEqual([]);
    expect(answer.symbol.external).toEqual({ package: '@types/node', version: '20.19.43' });
    expect(answer.symbol).not.toHaveProperty('path');
  });

  it('reaches a local by position, though search never lists it', async () => {
    expect((await gotoDefinition(shop, { path: 'src/main.ts', line: 7, column: 3 })).symbol).toMatchObject({ name: 'service', kind: 'local' });
  });

  it('gives AMBIGUOUS_SYMBOL for a shared name, with candidates that resolve', async () => {
    const error = await failure(() => gotoDefinition(shop, { name: 'save' }));
    expect(error.code).toBe('AMBIGUOUS_SYMBOL');
    expect(error.message).toContain('3 symbols');
    const candidates = error.data!.candidates as { symbolId: string; qualifiedName: string; path: string }[];
    expect(candidates.map((c) => c.qualifiedName).sort()).toEqual(['ImageCache.save', 'OrderRepository.save', 'OrderRepositoryImpl.save']);
    expect(error.data!.totalCandidates).toBe(3);
    for (const candidate of candidates) {
      expect((await gotoDefinition(shop, { symbolId: candidate.symbolId })).symbol.qualifiedName).toBe(candidate.qualifiedName);
    }
  });

  it('lists the repository\'s own candidates first, production before tests, by path and position, and externals after with package and version', async () => {
    const built = buildMemoryIndex(sharedNameSpec());
    const error = await failure(async () => gotoDefinition(await openMemoryIndex(built), { name: 'open' }));
    expect(error.code).toBe('AMBIGUOUS_SYMBOL');
    const id = (handle: string) => formatSymbolId(built.keys.get(handle)!, built.manifest.commit);
    expect(error.data!.candidates).toEqual([
      { symbolId: id('db.open'), name: 'open', qualifiedName: 'open', kind: 'function', path: 'src/db.ts', line: 2, column: 17 },
      { symbolId: id('files.open'), name: 'open', qualifiedName: 'open', kind: 'function', path: 'src/files.ts', line: 1, column: 17 },
      { symbolId: id('test.open'), name: 'open', qualifiedName: 'open', kind: 'function', path: '__tests__/open.test.ts', line: 1, column: 10 },
      { symbolId: id('fs.open'), name: 'open', qualifiedName: 'open', kind: 'function', external: { package: '@types/node', version: '20.19.43' } },
      { symbolId: id('window.open'), name: 'open', qualifiedName: 'Window.open', kind: 'method', external: { package: 'typescript/lib' } },
    ]);
  });

  it('says when a position is on an identifier the indexer did not resolve, and where resolution is syntactic lists the declarations of that name', async () => {
    const built = buildMemoryIndex({
      files: [
        { path: 'src/app.ts', text: "import { render } from './view.mjs';\nrender();" },
        { path: 'retrofit/Retrofit.java', lang: 'java', text: 'class Retrofit {\n  static class Builder { Builder baseUrl(String url) { return this; } }\n}' },
        { path: 'retrofit/Mock.kt', lang: 'kotlin', text: 'class Mock(val baseUrl: String)' },
        { path: 'test/SuspendTest.kt', lang: 'kotlin', flags: FILE_FLAGS.test, text: '// baseUrl\nval r = builder.baseUrl(url)' },
      ],
      symbols: [
        { name: 'baseUrl', qname: 'retrofit.Retrofit.Builder#baseUrl(String)', kind: 'method', lang: 'java', defs: [{ path: 'retrofit/Retrofit.java', line: 2 }] },
        { name: 'baseUrl', qname: 'retrofit.Mock.baseUrl', kind: 'property', lang: 'kotlin', defs: [{ path: 'retrofit/Mock.kt', line: 1 }] },
      ],
    });
    const reader = await openMemoryIndex(built);
    const id = (qname: string) => formatSymbolId(built.keys.get(qname)!, built.manifest.commit);
    const kotlin = await failure(() => gotoDefinition(reader, { path: 'test/SuspendTest.kt', line: 2, column: 17 }));
    expect(kotlin.code).toBe('NO_SYMBOL_AT_POSITION');
    expect(kotlin.message).toBe('No symbol at test/SuspendTest.kt:2:17: an identifier `baseUrl` that no declaration in the index matches (not resolved by the indexer);'
      + ' 2 declarations named baseUrl, matched by name only: retrofit.Mock.baseUrl, retrofit.Retrofit.Builder#baseUrl(String).');
    expect(kotlin.data).toEqual({
      identifier: 'baseUrl', match: 'name-only', totalCandidates: 2, candidates: [
        { symbolId: id('retrofit.Mock.baseUrl'), name: 'baseUrl', qualifiedName: 'retrofit.Mock.baseUrl', kind: 'property', path: 'retrofit/Mock.kt', line: 1, column: 16 },
        { symbolId: id('retrofit.Retrofit.Builder#baseUrl(String)'), name: 'baseUrl', qualifiedName: 'retrofit.Retrofit.Builder#baseUrl(String)', kind: 'method', path: 'retrofit/Retrofit.java', line: 2, column: 34 },
      ],
    });
    const typescript = await failure(() => gotoDefinition(reader, { path: 'src/app.ts', line: 2, column: 1 }));
    expect(typescript.message).toBe('No symbol at src/app.ts:2:1: an identifier `render` that no declaration in the index matches (not resolved by the indexer).');
    expect(typescript.data).toEqual({ identifier: 'render' });
    for (const [line, column] of [[1, 4], [2, 1], [2, 7]] as const) {
      const elsewhere = await failure(() => gotoDefinition(reader, { path: 'test/SuspendTest.kt', line, column }));
      expect(elsewhere.message, `${line}:${column}`).toBe(`No symbol at test/SuspendTest.kt:${line}:${column} (whitespace, a comment, a literal or a keyword).`);
    }
  });

  it('gives STALE_SYMBOL for a symbolId of another commit, naming it and the id at this commit', async () => {
    const [key] = idOf('OrderService').split('@');
    const error = await failure(() => gotoDefinition(shop, { symbolId: `${key}@0123456789ab` }));
    expect(error.code).toBe('STALE_SYMBOL');
    expect(error.message).toContain('0123456789ab');
    expect(error.message).toContain(shortCommit(index.manifest.commit));
    expect(error.data).toMatchObject({ symbolCommit: '0123456789ab', indexCommit: index.manifest.commit, currentSymbolId: idOf('OrderService') });
    expect(error.hint).toContain(idOf('OrderService'));
  });

  it('gives STALE_SYMBOL without a replacement when the key is unknown here', async () => {
    const error = await failure(() => gotoDefinition(shop, { symbolId: 'zzzzzzzzzzzzzzzz@0123456789ab' }));
    expect(error.code).toBe('STALE_SYMBOL');
    expect(error.data).not.toHaveProperty('currentSymbolId');
  });

  it.each([
    [{ symbolId: 'zzzzzzzzzzzzzzzz@c0ffee000000' }, 'SYMBOL_NOT_FOUND'],
    [{ symbolId: 'not-an-id' }, 'INVALID_SYMBOL_ID'],
    [{ name: 'Nope' }, 'SYMBOL_NOT_FOUND'],
    [{ name: 'service' }, 'SYMBOL_NOT_FOUND'],
    [{ qualifiedName: 'OrderService.nope' }, 'SYMBOL_NOT_FOUND'],
    [{ path: 'src/main.ts', line: 6, column: 1 }, 'NO_SYMBOL_AT_POSITION'],
    [{ path: 'src/main.ts', line: 99, column: 1 }, 'POSITION_OUT_OF_RANGE'],
    [{ path: 'src/main.ts', line: 1, column: 200 }, 'POSITION_OUT_OF_RANGE'],
    [{ path: 'src/nowhere.ts', line: 1, column: 1 }, 'FILE_NOT_FOUND'],
    [{ path: 'src/main.ts', line: 1 }, 'INVALID_ARGUMENT'],
    [{}, 'INVALID_ARGUMENT'],
  ] as [Target, string][])('%j fails with %s', async (target, code) => {
    const error = await failure(() => gotoDefinition(shop, target));
    expect(error.code).toBe(code);
    expect(error.hint.length).toBeGreaterThan(10);
  });

  it('says why a skipped file cannot be answered from', async () => {
    const error = await failure(() => gotoDefinition(shop, { path: 'assets/logo.png', line: 1, column: 1 }));
    expect(error.code).toBe('FILE_NOT_FOUND');
    expect(error.message).toContain('binary file');
    expect(error.hint).toMatch(/index_status/);
  });
});

describe('find_references', () => {
  it('lists references in reference order (here production, then a test), with kind, confidence and the enclosing symbol', async () => {
    const answer = await findReferences(shop, { name: 'OrderService' }, {});
    expect(answer.references.map((r) => `${r.path}:${r.line}:${r.column} ${r.kind} ${r.enclosing?.name ?? '-'}`)).toEqual([
      'src/main.ts:2:10 import -',
      'src/main.ts:6:23 new main',
      'test/order-service.test.ts:1:10 import -',
      'test/order-service.test.ts:3:32 inherit OrderStub',
    ]);
    expect(answer.references.every((r) => r.endColumn === r.column + 'OrderService'.length)).toBe(true);
    expect(answer).toMatchObject({ total: 4, totalIsExact: true, hasMore: false, symbol: { symbolId: idOf('OrderService') } });
  });

  // Paths that sort tests and generated code first: __tests__/ and generated/ before src/.
  const cartSpec = (pathOrderedRefs = false): MemoryIndexSpec => ({
    pathOrderedRefs,
    files: [
      { path: 'src/cart.ts', text: [
        'export interface Store { put(item: string): void }',
        'export class MemoryStore implements Store { put(item: string) {} }',
        "export function checkout(store: Store) { store.put('x'); }",
      ].join('\n') },
      { path: '__tests__/cart.test.ts', flags: FILE_FLAGS.test, text: [
        "import { Store, MemoryStore } from '../src/cart';",
        "new MemoryStore().put('a');",
        "const s: Store = new MemoryStore(); s.put('b');",
      ].join('\n') },
      { path: 'generated/api.ts', flags: FILE_FLAGS.generated, text: [
        "import { Store } from '../src/cart';",
        "export const put = (s: Store) => s.put('g');",
      ].join('\n') },
    ],
    symbols: [
      {
        name: 'Store', kind: 'interface', defs: [{ path: 'src/cart.ts', line: 1 }],
        refs: [
          { path: '__tests__/cart.test.ts', line: 1, kind: 'import' }, { path: '__tests__/cart.test.ts', line: 3, kind: 'type' },
          { path: 'generated/api.ts', line: 1, kind: 'import' }, { path: 'generated/api.ts', line: 2, kind: 'type' },
          { path: 'src/cart.ts', line: 3, kind: 'type' }, { path: 'src/cart.ts', line: 2, kind: 'inherit' },
        ],
      },
      {
        name: 'put', qname: 'Store.put', kind: 'method', container: 'Store', defs: [{ path: 'src/cart.ts', line: 1 }],
        refs: [
          { path: 'generated/api.ts', line: 2, nth: 2, kind: 'call' }, { path: '__tests__/cart.test.ts', line: 3, kind: 'call' },
          { path: 'src/cart.ts', line: 3, kind: 'call' },
        ],
      },
      {
        name: 'put', qname: 'MemoryStore.put', kind: 'method', defs: [{ path: 'src/cart.ts', line: 2 }], overrides: ['Store.put'],
        refs: [{ path: '__tests__/cart.test.ts', line: 2, kind: 'call' }],
      },
    ],
  });
  const sites = (answer: ReferencesAnswer) => answer.references.map((r) => `${r.path}:${r.line}${r.via ? ` via ${r.via.name}` : ''}`);

  it('lists production sites first, then tests, then generated code, each by path and position, and says so', async () => {
    const cart = await openMemoryIndex(buildMemoryIndex(cartSpec()));
    const answer = await findReferences(cart, { name: 'Store' }, { includeDeclaration: true });
    expect(sites(answer)).toEqual([
      'src/cart.ts:1', 'src/cart.ts:2', 'src/cart.ts:3',
      '__tests__/cart.test.ts:1', '__tests__/cart.test.ts:3', 'generated/api.ts:1', 'generated/api.ts:2',
    ]);
    expect(answer.order).toBe('production, then tests, then generated and vendored; each by path and position');
    expect((await findReferences(cart, { name: 'Store' }, { groupByFile: true })).files!.map((f) => f.path))
      .toEqual(['src/cart.ts', '__tests__/cart.test.ts', 'generated/api.ts']);
  });

  it('merges the references of related members in the same order', async () => {
    const cart = await openMemoryIndex(buildMemoryIndex(cartSpec()));
    expect(sites(await findReferences(cart, { qualifiedName: 'Store.put' }, {}))).toEqual([
      'src/cart.ts:3', '__tests__/cart.test.ts:2 via put', '__tests__/cart.test.ts:3', 'generated/api.ts:2',
    ]);
  });

  it('answers in the same order, and pages it, from an index that stored references by path', async () => {
    const built = buildMemoryIndex(cartSpec(true));
    const byPath = await openMemoryIndex(built);
    const stored = await openMemoryIndex(buildMemoryIndex(cartSpec()));
    const { record, shard } = (await byPath.symbol(built.keys.get('Store')!))!;
    expect(shard.paths[refAt(record, 0).pathIndex]).toBe('__tests__/cart.test.ts');
    const whole = await findReferences(stored, { name: 'Store' }, {});
    const paged: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await findReferences(byPath, { name: 'Store' }, { limit: 2, cursor });
      paged.push(...page.references);
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(whole.references);
  });

  it('says when a member has more related members than it follows, and how many it does follow', async () => {
    const count = RELATED_BOUND.maxNodes + 1;
    const text = ['interface Shape { area(): number }', ...Array.from({ length: count }, (_, i) => `class S${i} { area() { return ${i}; } }`)].join('\n');
    const overriders = Array.from({ length: count }, (_, i) => ({
      id: `S${i}.area`, name: 'area', kind: 'method' as const, qname: `S${i}.area`, defs: [{ path: 'src/shapes.ts', line: i + 2 }],
      overrides: ['Shape.area'],
    }));
    const crowd = await openMemoryIndex(buildMemoryIndex({
      files: [{ path: 'src/shapes.ts', text }],
      symbols: [{ name: 'area', kind: 'method', qname: 'Shape.area', defs: [{ path: 'src/shapes.ts', line: 1 }] }, ...overriders],
    }));
    const answer = await findReferences(crowd, { qualifiedName: 'Shape.area' }, { includeDeclaration: true, limit: 1 });
    expect(answer.related).toHaveLength(RELATED_BOUND.maxNodes);
    expect(answer).toMatchObject({ total: RELATED_BOUND.maxNodes + 1, totalIsExact: false, hasMore: true });
    expect(answer.truncationReason).toBe(`related members: more than ${RELATED_BOUND.maxNodes}; references of the rest are not included; limit 1`);
    const alone = await findReferences(crowd, { qualifiedName: 'S7.area' }, { includeDeclaration: true, includeRelated: false });
    expect(alone).toMatchObject({ related: [], total: 1, totalIsExact: true, hasMore: false });
    // Building and walking an index of 5,000 members takes seconds on a busy 2-core machine.
  }, 60_000);

  it('gives enclosing symbols symbolIds that chain to goto_definition', async () => {
    const answer = await findReferences(shop, { qualifiedName: 'OrderRepository.save' }, {});
    const [call] = answer.references;
    expect(call).toMatchObject({ path: 'src/orders/order-service.ts', line: 7, kind: 'call', enclosing: { name: 'submit' } });
    expect((await gotoDefinition(shop, { symbolId: call!.enclosing!.symbolId })).symbol.qualifiedName).toBe('OrderService.submit');
  });

  it('filters by kind, and lists declarations first when asked', async () => {
    expect((await findReferences(shop, { name: 'OrderService' }, { kinds: ['import'] })).references.map((r) => r.path))
      .toEqual(['src/main.ts', 'test/order-service.test.ts']);
    const withDeclaration = await findReferences(shop, { name: 'OrderService' }, { includeDeclaration: true });
    expect(withDeclaration.total).toBe(5);
    expect(withDeclaration.references[0]).toMatchObject({ kind: 'definition', path: 'src/orders/order-service.ts', line: 3 });
    expect((await findReferences(shop, { name: 'OrderService' }, { includeDeclaration: true, kinds: ['new'] })).references.map((r) => r.kind)).toEqual(['new']);
  });

  it('pages to the end without losing or repeating a reference', async () => {
    const all = (await findReferences(shop, { name: 'OrderService' }, { includeDeclaration: true })).references;
    const paged: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await findReferences(shop, { name: 'OrderService' }, { includeDeclaration: true, limit: 2, cursor });
      paged.push(...page.references);
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it('continues a cursor whichever target form names the same symbol, and refuses it for another filter', async () => {
    const first = await findReferences(shop, { name: 'OrderService' }, { limit: 1 });
    const next = await findReferences(shop, { symbolId: idOf('OrderService') }, { limit: 1, cursor: first.nextCursor });
    expect(next.references[0]).toMatchObject({ line: 6, kind: 'new' });
    const error = await failure(() => findReferences(shop, { name: 'OrderService' }, { kinds: ['new'], cursor: first.nextCursor }));
    expect(error.code).toBe('INVALID_CURSOR');
  });
});
