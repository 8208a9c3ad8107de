// The collector's packed references: each list reads back what was pushed on it, in order, however
// the lists' pushes interleave in their store; an analysis undone takes back the last ones stored.
import { describe, expect, it } from 'vitest';
import { RefList, RefStore, type CollectedRef } from '../src/ref-list.ts';

const ref = (path: string, line: number, extra: Partial<CollectedRef> = {}): CollectedRef => ({
  site: { path, line, column: line + 1, endLine: line + 2, endColumn: line + 3 }, kind: 'call', confidence: 'exact', ...extra,
});

describe('RefList', () => {
  it('reads back every field of what was pushed, in push order, with lists interleaved in one store', () => {
    const store = new RefStore();
    const a = new RefList(store);
    const b = new RefList(store);
    const decl = { def: ['d.ts', 4, 5, 4, 9] as const, signature: true as const };
    const pushed: [RefList, CollectedRef][] = [
      [a, ref('a.ts', 1)],
      [b, ref('b.ts', 2, { kind: 'import', from: 'sym-b' })],
      [a, ref('b.ts', 3, { confidence: 'candidate', from: 'sym-a' })],
      [a, ref('c.ts', 70000, { kind: 'type', decl })],
      [b, ref('a.ts', 5, { kind: 'new', decl: { def: ['e.ts', 1, 1, 1, 2] } })],
    ];
    for (const [list, r] of pushed) list.push(r);
    const expected = (list: RefList) => pushed.filter(([l]) => l === list).map(([, r]) => ({ ...r, from: r.from }));
    expect(Array.from(a)).toEqual(expected(a));
    expect(Array.from(b)).toEqual(expected(b));
    expect([a.length, b.length, store.size]).toEqual([3, 2, 5]);
    expect(JSON.parse(JSON.stringify(a))).toEqual(JSON.parse(JSON.stringify(expected(a))));
    expect(a.some((r) => r.kind === 'type')).toBe(true);
    expect(b.some((r) => r.kind === 'type')).toBe(false);
  });

  it('grows past its first chunk (65,536 references), and takes back across the chunks', () => {
    const store = new RefStore();
    const lists = [new RefList(store), new RefList(store), new RefList(store)];
    const nth = (i: number) => ({ ...ref(`f${i % 7}.ts`, i, i % 11 === 0 ? { from: `k${i % 13}` } : {}), from: i % 11 === 0 ? `k${i % 13}` : undefined });
    for (let i = 0; i < 70_000; i++) lists[i % 3]!.push(nth(i));
    const expected = (list: number, below: number) => Array.from({ length: below }, (_, i) => i).filter((i) => i % 3 === list).map(nth);
    for (let l = 0; l < 3; l++) expect(Array.from(lists[l]!)).toEqual(expected(l, 70_000));
    for (let i = 69_999; i >= 65_000; i--) lists[i % 3]!.pop();
    expect(store.size).toBe(65_000);
    for (let l = 0; l < 3; l++) expect(Array.from(lists[l]!)).toEqual(expected(l, 65_000));
    lists[2]!.push(nth(70_001));
    expect(Array.from(lists[2]!).at(-1)).toEqual(nth(70_001));
  });

  it('takes back the last references stored, and refuses to take back one stored before another', () => {
    const store = new RefStore();
    const a = new RefList(store);
    const b = new RefList(store);
    a.push(ref('a.ts', 1));
    b.push(ref('b.ts', 2));
    a.push(ref('a.ts', 3));
    expect(() => b.pop()).toThrow(/not the last stored/);
    a.pop();
    b.pop();
    a.push(ref('a.ts', 9));
    expect(Array.from(a, (r) => r.site.line)).toEqual([1, 9]);
    expect(b.length).toBe(0);
    expect(Array.from(b)).toEqual([]);
    expect(store.size).toBe(2);
  });

  it('refuses a kind or confidence it has no code for', () => {
    expect(() => new RefList(new RefStore()).push(ref('a.ts', 1, { kind: 'nonsense' as CollectedRef['kind'] }))).toThrow(/no such reference kind/);
  });
});
