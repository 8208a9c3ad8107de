// Stateless cursors and offset pages. A cursor must continue exactly where its page ended on any
// server, and must be refused (INVALID_CURSOR, with a hint) when it is garbage, belongs to another
// commit or to another query: misreading it would silently skip or repeat results.
import { describe, expect, it } from 'vitest';
import { shortCommit } from '@sextant/format';
import { canonicalJson } from '@sextant/format';
import { decodeCursor, encodeCursor, pageOf, queryFingerprint } from '../src/index.ts';
import { thrown } from '../../format/test/support/thrown.ts';

const COMMIT = 'c0ffee0000000000000000000000000000000001';
const OTHER_COMMIT = 'deadbeef00000000000000000000000000000002';
const QUERY = { tool: 'find_references', key: 'k37n0hzyjwz0t1c3', kinds: ['call'] };
const BOUNDS = { defaultLimit: 50, maxLimit: 500 };

/** base64url of arbitrary JSON: how someone would hand-craft a cursor. */
function craft(state: unknown): string {
  return btoa(JSON.stringify(state)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

describe('cursors', () => {
  const fingerprint = queryFingerprint(QUERY);

  it('round-trip an offset for the same commit and query', () => {
    for (const offset of [0, 1, 50, 123_456]) {
      expect(decodeCursor(encodeCursor(COMMIT, fingerprint, offset), COMMIT, fingerprint)).toBe(offset);
    }
  });

  it('are URL-safe opaque strings', () => {
    expect(encodeCursor(COMMIT, fingerprint, 999_999)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('fingerprint queries regardless of key order and undefined fields', () => {
    expect(queryFingerprint({ b: 1, a: [1, { y: 2, x: 1 }] })).toBe(queryFingerprint({ a: [1, { x: 1, y: 2 }], b: 1 }));
    expect(queryFingerprint({ a: 1, cursor: undefined })).toBe(queryFingerprint({ a: 1 }));
    expect(queryFingerprint({ a: 1 })).not.toBe(queryFingerprint({ a: 2 }));
    expect(canonicalJson({ b: 'x', a: null })).toBe('{"a":null,"b":"x"}');
  });

  const garbage: [string, string][] = [
    ['not base64 at all', 'this is not a cursor!'],
    ['base64 of text that is not JSON', btoa('hello world')],
    ['JSON null', craft(null)],
    ['a JSON number', craft(5)],
    ['another cursor version', craft({ v: 2, c: shortCommit(COMMIT), q: 'x', o: 1 })],
    ['a negative offset', craft({ v: 1, c: shortCommit(COMMIT), q: 'x', o: -1 })],
    ['a fractional offset', craft({ v: 1, c: shortCommit(COMMIT), q: 'x', o: 1.5 })],
    ['an offset that is a string', craft({ v: 1, c: shortCommit(COMMIT), q: 'x', o: '5' })],
  ];

  it.each(garbage)('refuse %s: INVALID_CURSOR with a hint', (_label, cursor) => {
    const error = thrown(() => decodeCursor(cursor, COMMIT, fingerprint));
    expect(error.code).toBe('INVALID_CURSOR');
    expect(error.message).toMatch(/not one this server issued/);
    expect(error.hint).toMatch(/nextCursor/);
  });

  it('refuse a tampered cursor whose structure no longer parses', () => {
    const cursor = encodeCursor(COMMIT, fingerprint, 100);
    for (const position of [0, 1, 2, 5, cursor.length - 1]) {
      const replacement = cursor[position] === 'A' ? 'B' : 'A';
      const tampered = cursor.slice(0, position) + replacement + cursor.slice(position + 1);
      const error = thrown(() => decodeCursor(tampered, COMMIT, fingerprint));
      expect(error.code).toBe('INVALID_CURSOR');
    }
    expect(thrown(() => decodeCursor(cursor.slice(0, cursor.length - 3), COMMIT, fingerprint)).code).toBe('INVALID_CURSOR');
  });

  it('honour a well-formed cursor with an edited offset: cursors are not signed and hide nothing', () => {
    // Documented trade-off: any server continues any cursor without a shared secret. Editing the
    // offset only reaches results the same query returns anyway, so it is not a leak.
    const edited = craft({ v: 1, c: shortCommit(COMMIT), q: fingerprint, o: 7 });
    expect(decodeCursor(edited, COMMIT, fingerprint)).toBe(7);
  });

  it('refuse a cursor of another commit, naming that commit', () => {
    const cursor = encodeCursor(OTHER_COMMIT, fingerprint, 50);
    const error = thrown(() => decodeCursor(cursor, COMMIT, fingerprint));
    expect(error.code).toBe('INVALID_CURSOR');
    expect(error.message).toContain(shortCommit(OTHER_COMMIT));
    expect(error.message).toContain(shortCommit(COMMIT));
    expect(error.hint).toContain(shortCommit(OTHER_COMMIT));
    expect(error.data).toEqual({ cursorCommit: shortCommit(OTHER_COMMIT) });
  });

  it('refuse a cursor of another query', () => {
    const cursor = encodeCursor(COMMIT, queryFingerprint({ ...QUERY, kinds: ['read'] }), 50);
    const error = thrown(() => decodeCursor(cursor, COMMIT, fingerprint));
    expect(error.code).toBe('INVALID_CURSOR');
    expect(error.message).toMatch(/different query/);
    expect(error.hint).toMatch(/exact arguments/);
  });
});

describe('pageOf', () => {
  const items = Array.from({ length: 120 }, (_, i) => i);

  it('uses the default limit and reports completeness', () => {
    const { items: page, page: info } = pageOf(items, COMMIT, QUERY, {}, BOUNDS);
    expect(page).toEqual(items.slice(0, 50));
    expect(info).toMatchObject({ total: 120, totalIsExact: true, hasMore: true, truncationReason: 'limit 50' });
    expect(typeof info.nextCursor).toBe('string');
  });

  it.each([0, -1, 1.5, 501, Number.NaN])('refuses limit %s as INVALID_ARGUMENT naming the maximum', (limit) => {
    const error = thrown(() => pageOf(items, COMMIT, QUERY, { limit }, BOUNDS));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('500');
    expect(error.hint).toMatch(/nextCursor/);
  });

  it('accepts limit 1 and the maximum', () => {
    expect(pageOf(items, COMMIT, QUERY, { limit: 1 }, BOUNDS).items).toEqual([0]);
    expect(pageOf(items, COMMIT, QUERY, { limit: 500 }, BOUNDS).items).toHaveLength(120);
  });

  it('gives the last page no nextCursor and no truncationReason, even when it ends exactly on a bound', () => {
    const first = pageOf(items, COMMIT, QUERY, { limit: 60 }, BOUNDS);
    const last = pageOf(items, COMMIT, QUERY, { limit: 60, cursor: first.page.nextCursor }, BOUNDS);
    expect(last.items).toEqual(items.slice(60));
    expect(last.page).toEqual({ total: 120, totalIsExact: true, hasMore: false });
    expect(last.page).not.toHaveProperty('nextCursor');
    expect(last.page).not.toHaveProperty('truncationReason');
  });

  it('answers an empty list as complete', () => {
    expect(pageOf([], COMMIT, QUERY, {}, BOUNDS)).toEqual({ items: [], page: { total: 0, totalIsExact: true, hasMore: false } });
  });

  it('pages 10,000 items to the end, seeing every item exactly once, in order', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `item-${i}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      // 73 divides nothing evenly, and the limit may change between pages (it is not part of the query).
      const limit = pages % 2 === 0 ? 73 : 500;
      const { items: page, page: info } = pageOf(many, COMMIT, QUERY, { limit, cursor }, BOUNDS);
      seen.push(...page);
      expect(info.total).toBe(10_000);
      expect(info.hasMore).toBe(seen.length < many.length);
      cursor = info.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(many);
    expect(new Set(seen).size).toBe(10_000);
    // 17 pairs of pages (73 + 500) hold 9,741 items; a page of 73 and the last 186 make 36.
    expect(pages).toBe(36);
  });

  it('refuses its own cursor for another commit or another query', () => {
    const { page } = pageOf(items, COMMIT, QUERY, { limit: 10 }, BOUNDS);
    expect(thrown(() => pageOf(items, OTHER_COMMIT, QUERY, { cursor: page.nextCursor }, BOUNDS)).code).toBe('INVALID_CURSOR');
    expect(thrown(() => pageOf(items, COMMIT, { ...QUERY, kinds: ['read'] }, { cursor: page.nextCursor }, BOUNDS)).code).toBe('INVALID_CURSOR');
  });
});
