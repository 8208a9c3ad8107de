// search_text over an index in memory: what matches, as ripgrep matches (a match within one line,
// matches not overlapping, -w needing no word character on either side, smart case), which files
// are searched (every text file, the indexed and the others; not the skipped ones, which are named),
// exact totals and cursors that page to the end, the symbol an identifier match is, and patterns
// RE2 does not have refused by name. Patterns that make backtracking engines take exponential time
// answer here at all only because RE2 matches in linear time.
import { beforeAll, describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { FILE_FLAGS } from '@sextant/format';
import { searchText, type IndexReader, type SearchTextParams } from '../src/index.ts';
import { buildMemoryIndex, openMemoryIndex, type MemoryIndexSpec } from './support/memory-index.ts';

const MANY = 2500;
const spec: MemoryIndexSpec = {
  files: [
    { path: 'src/orders.ts', text: 'export function createOrder(id: string) {\n  return `order-${id}`; // order ORDER Order\n}\nconst x = createOrder(\'a\') + createOrder(\'b\');\n' },
    { path: 'src/orders.test.ts', flags: FILE_FLAGS.test, text: "import { createOrder } from './orders';\ncreateOrder('test');\n" },
    { path: 'src/many.ts', text: `${Array.from({ length: MANY }, (_, i) => `const v${i} = 'needle needle';`).join('\n')}\n` },
  ],
  unindexed: [
    { path: 'docs/README.md', text: '# Orders\n\nCall createOrder, not createOrders or precreateOrder.\nKelvin: \u212A\n' },
    { path: 'config.yaml', text: 'orders:\r\n  enabled: true\r\n' },
  ],
  skipped: [{ path: 'assets/logo.png', reason: 'binary', detail: 'binary content (a NUL byte)' }],
  symbols: [
    {
      id: 'createOrder', name: 'createOrder', kind: 'function', defs: [{ path: 'src/orders.ts', line: 1 }],
      refs: [{ path: 'src/orders.ts', line: 4, kind: 'call' }, { path: 'src/orders.ts', line: 4, nth: 2, kind: 'call' }, { path: 'src/orders.test.ts', line: 2, kind: 'call' }],
    },
  ],
};

let reader: IndexReader;
beforeAll(async () => {
  reader = await openMemoryIndex(buildMemoryIndex(spec));
});

const hits = async (params: SearchTextParams) => (await searchText(reader, params)).matches.map((m) => `${m.path}:${m.line}:${m.column}-${m.endColumn}`);

describe('search_text', () => {
  it('searches the indexed files and the text files no indexer reads, and names the skipped ones', async () => {
    const answer = await searchText(reader, { query: 'createOrder' });
    expect(answer.matches.map((m) => `${m.path}:${m.line}:${m.column}`)).toEqual([
      'docs/README.md:3:6', 'docs/README.md:3:23', 'docs/README.md:3:42',
      'src/orders.test.ts:1:10', 'src/orders.test.ts:2:1', 'src/orders.ts:1:17', 'src/orders.ts:4:11', 'src/orders.ts:4:30',
    ]);
    expect(answer).toMatchObject({ repo: 'acme/shop', total: 8, files: 3, totalIsExact: true, hasMore: false, unsearched: { count: 1, examples: [{ path: 'assets/logo.png', reason: 'binary' }] } });
    expect(answer.matches[0]!.text).toBe('Call createOrder, not createOrders or precreateOrder.');
  });

  it('names the symbol of a match that is exactly an identifier the index resolved', async () => {
    const answer = await searchText(reader, { query: 'createOrder', paths: ['src/orders.ts'] });
    expect(answer.matches.map((m) => m.symbol?.name)).toEqual(['createOrder', 'createOrder', 'createOrder']);
    expect(new Set(answer.matches.map((m) => m.symbol?.symbolId)).size).toBe(1);
    expect((await searchText(reader, { query: 'reateOrde', paths: ['src/orders.ts'] })).matches.every((m) => m.symbol === undefined)).toBe(true);
  });

  it('matches case as ripgrep\'s smart case does, and as asked', async () => {
    // As `rg --vimgrep -S` prints them (ripgrep 13).
    expect(await hits({ query: 'order', paths: ['src/orders.ts'] })).toEqual(['src/orders.ts:1:23-28', 'src/orders.ts:2:11-16', 'src/orders.ts:2:28-33', 'src/orders.ts:2:34-39', 'src/orders.ts:2:40-45', 'src/orders.ts:4:17-22', 'src/orders.ts:4:36-41']);
    expect(await hits({ query: 'Order', paths: ['src/orders.ts'] })).toEqual(['src/orders.ts:1:23-28', 'src/orders.ts:2:40-45', 'src/orders.ts:4:17-22', 'src/orders.ts:4:36-41']);
    expect(await hits({ query: 'Order', caseSensitive: false, paths: ['src/orders.ts'] })).toHaveLength(7);
    // Case-insensitively K is also the Kelvin sign, as in RE2 and ripgrep.
    expect(await hits({ query: 'kelvin: k', paths: ['docs/**'] })).toEqual(['docs/README.md:4:1-10']);
  });

  it('folds case as ripgrep -i does on every path a literal takes: short, long, and long with a letter Unicode folds', async () => {
    const folding = await openMemoryIndex(buildMemoryIndex({ ...spec, unindexed: [{ path: 'folding.txt', text: 'ſtream STREAM Stream streams\nCall createOrder, not createOrders or precreateOrder.\nStraße STRASSE straẞe\n' }] }));
    const found = async (query: string) => {
      const answer = await searchText(folding, { query, caseSensitive: false, paths: ['folding.txt'] });
      // Counted over whole texts, listed line by line: the two agree.
      expect(answer.total, query).toBe(answer.matches.length);
      return answer.matches.map((m) => `${m.line}:${m.column}-${m.endColumn}`);
    };
    // As `rg --vimgrep -i -F` finds them (ripgrep 13; its byte columns in UTF-16 code units).
    expect(await found('stream')).toEqual(['1:1-7', '1:8-14', '1:15-21', '1:22-28']);
    expect(await found('call createorder, not create')).toEqual(['2:1-29']);
    expect(await found('createorder, not createorders')).toEqual(['2:6-35']);
    expect(await found('straße')).toEqual(['3:1-7', '3:16-22']);
  });

  it('matches whole words as ripgrep -w: no word character on either side, trying past a match that has one', async () => {
    expect(await hits({ query: 'createOrder', wholeWord: true, paths: ['docs/**'] })).toEqual(['docs/README.md:3:6-17']);
    // `order-${id}`: a backquote and a hyphen are no word characters.
    expect(await hits({ query: 'order', wholeWord: true, mode: 'regex', caseSensitive: true, paths: ['src/orders.ts'] })).toEqual(['src/orders.ts:2:11-16', 'src/orders.ts:2:28-33']);
  });

  it('runs RE2 patterns line by line: classes, alternation, anchors; a line ends before \\r\\n', async () => {
    expect(await hits({ query: 'create(Order|Orders)\\b', mode: 'regex', paths: ['docs/**'] })).toEqual(['docs/README.md:3:6-17', 'docs/README.md:3:23-35', 'docs/README.md:3:42-53']);
    expect(await hits({ query: '^\\s+enabled', mode: 'regex' })).toEqual(['config.yaml:2:1-10']);
    // ripgrep leaves the \r in the line: `true$` does not match before it.
    expect(await hits({ query: 'true$', mode: 'regex' })).toEqual([]);
    expect(await hits({ query: 'true\\r$', mode: 'regex' })).toEqual(['config.yaml:2:12-17']);
    expect(await hits({ query: '[0-9]{4}', mode: 'regex', paths: ['src/many.ts'], limit: 2 })).toEqual(['src/many.ts:1001:8-12', 'src/many.ts:1002:8-12']);
  });

  it('leaves out tests, or files outside the paths, when asked', async () => {
    expect(await hits({ query: 'createOrder', includeTests: false, paths: ['src/**'] })).toEqual(['src/orders.ts:1:17-28', 'src/orders.ts:4:11-22', 'src/orders.ts:4:30-41']);
    expect(await hits({ query: 'createOrder', paths: ['**/*.md'] })).toHaveLength(3);
    expect(await hits({ query: 'createOrder', paths: ['src/**', '!**/*.test.ts'] })).toHaveLength(3);
  });

  it('looks up no more grams when the files the paths let through are few, whatever holds them elsewhere', async () => {
    // 64 gram buckets, so the literal's other grams are in shards of their own.
    const wide = await openMemoryIndex(buildMemoryIndex({
      files: Array.from({ length: 12 }, (_, i) => ({ path: `lib/m${i}.ts`, text: `export const parseOptionsQuickly${i} = ${i};\n` })),
      unindexed: [{ path: 'docs/options.md', text: 'Use parseOptionsQuickly.\n' }],
      symbols: [],
      layout: { symbolBucketBits: 2, fileBucketBits: 1, changeBucketBits: 2, unresolvedBucketBits: 1, gramBucketBits: 6 },
    }));
    const gramShardsRead = async (params: SearchTextParams) => {
      const before = wide.shardsRead.length;
      const answer = await searchText(wide, params);
      return { total: answer.total, grams: new Set(wide.shardsRead.slice(before).filter((name) => name.startsWith('grams/'))).size };
    };
    const everywhere = await gramShardsRead({ query: 'parseOptionsQuickly' });
    const inDocs = await gramShardsRead({ query: 'parseOptionsQuickly', paths: ['docs/**'] });
    expect(everywhere.total).toBe(13);
    expect(inDocs.total).toBe(1);
    expect(inDocs.grams).toBeLessThanOrEqual(4);
    expect(everywhere.grams).toBeGreaterThan(inDocs.grams);
  });

  it('selects files by ripgrep type names, as rg -t does, and refuses a name it does not know with the names it does', async () => {
    expect(await hits({ query: 'orders', languages: ['yaml'] })).toEqual(['config.yaml:1:1-7']);
    expect(await hits({ query: 'createOrder', languages: ['md', 'yaml'] })).toHaveLength(3);
    expect(await hits({ query: 'createOrder', languages: ['typescript'], includeTests: false })).toEqual(['src/orders.ts:1:17-28', 'src/orders.ts:4:11-22', 'src/orders.ts:4:30-41']);
    // With paths, a file must pass both.
    expect(await hits({ query: 'createOrder', languages: ['ts'], paths: ['docs/**'] })).toEqual([]);
    const answer = await searchText(reader, { query: 'logo', languages: ['md'] });
    expect(answer.unsearched.count).toBe(0);
    await expect(searchText(reader, { query: 'x', languages: ['cobol'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('"cobol"'), hint: expect.stringContaining('yaml') });
  });

  it('counts every match exactly and pages to the end with cursors, each match once', async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await searchText(reader, { query: 'needle', limit: 1000, ...(cursor ? { cursor } : {}) });
      expect(page).toMatchObject({ total: 2 * MANY, totalIsExact: true, files: 1 });
      for (const m of page.matches) seen.add(`${m.line}:${m.column}`);
      cursor = page.nextCursor;
      expect(page.hasMore).toBe(cursor !== undefined);
      pages++;
    } while (cursor);
    expect(seen.size).toBe(2 * MANY);
    expect(pages).toBe(5);
  });

  it('finds what RE2 finds line by line, whatever prefilters the lines (a literal, a run of classes, nothing)', async () => {
    const texts = [...spec.files, ...(spec.unindexed ?? [])];
    for (const query of ['\\d{2,}', '[A-Z]\\w+', 'e.{2}d', '\\s\\w+\\(', '(?i)O[a-z]DER', '\\bv\\d+\\b', '\\w+\\r$', '(x|[0-9]{4})', 'needle|\\d\\d\\d']) {
      const re = RE2JS.compile(query);
      let expected = 0;
      for (const { text = '' } of texts) {
        for (const line of text.split('\n')) {
          const m = re.matcher(line);
          for (let from = 0; from <= line.length && m.find(from); from = Math.max(m.end(), m.start() + 1)) expected++;
        }
      }
      expect((await searchText(reader, { query, mode: 'regex', caseSensitive: true, limit: 1 })).total, query).toBe(expected);
    }
  });

  it('refuses what RE2 does not have, naming it, and a pattern that matches the empty string', async () => {
    for (const [query, construct] of [['(?=x)y', 'lookaround'], ['(a)\\1', 'backreference'], ['(?>a)', 'atomic group'], ['a++', 'possessive']] as const) {
      await expect(searchText(reader, { query, mode: 'regex' }), query).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(construct) });
    }
    await expect(searchText(reader, { query: 'x*', mode: 'regex' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('empty string') });
    await expect(searchText(reader, { query: '(', mode: 'regex' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('not RE2 syntax') });
    await expect(searchText(reader, { query: 'a\nb' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('line break') });
  });

  it('answers the patterns that take backtracking engines exponential time', async () => {
    // (a+)+$ and friends over a line of 'a's that ends in a non-match: linear in RE2.
    const hard = { ...spec, files: [...spec.files, { path: 'src/aaa.ts', text: `const s = '${'a'.repeat(5000)}!';\n` }] };
    const local = await openMemoryIndex(buildMemoryIndex(hard));
    for (const query of ['(a+)+$', '(a|aa)+$', '(a*)*b', '(?:a|a)*z']) {
      const answer = await searchText(local, { query, mode: 'regex', paths: ['src/aaa.ts'] });
      expect(answer.total, query).toBe(0);
    }
  });
});
