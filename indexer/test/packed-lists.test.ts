// The collector's packed references and edges: each list reads back what was pushed on it, in order,
// however the lists' pushes interleave in their store; an analysis undone takes back the last ones stored.
import { describe, expect, it } from 'vitest';
import { EdgeList, PackedStore, RefList, type CollectedRef } from '../src/packed-lists.ts';

const ref = (path: string, line: number, extra: Partial<CollectedRef> = {}): CollectedRef => ({
  site: { path, line, column: line + 1, endLine: line + 2, endColumn: line + 3 }, kind: 'call', confidence: 'exact', ...extra,
});

describe('RefList', () => {
  it('reads back every field of what was pushed, in push order, with lists interleaved in one store', () => {
    const store = new PackedStore();
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
    let read = 0;
    expect(a.some((r) => (read++, r.kind === 'type'))).toBe(true);
    expect(read).toBe(1); // the last one pushed, read first: no more are made
  });

  it('grows past its first chunk (65,536 references), and takes back across the chunks', () => {
    const store = new PackedStore();
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
    const store = new PackedStore();
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
    expect(() => new RefList(new PackedStore()).push(ref('a.ts', 1, { kind: 'nonsense' as CollectedRef['kind'] }))).toThrow(/no such reference kind/);
  });
});

describe('EdgeList', () => {
  it('reads back both ends of edges, with and without a site, beside references in one store', () => {
    const store = new PackedStore();
    const refs = new RefList(store);
    const from = new EdgeList(store);
    const to = new EdgeList(store);
    const site = { path: 'src/a.kt', line: 3, column: 5, endLine: 3, endColumn: 9 };
    refs.push(ref('src/a.kt', 1));
    from.push({ kind: 'calls', out: true, peer: 'kto', site });
    to.push({ kind: 'calls', out: false, peer: 'kfrom', site });
    refs.push(ref('src/b.kt', 2, { from: 'kfrom' }));
    from.push({ kind: 'overrides', out: true, peer: 'kbase' });
    expect(Array.from(from)).toEqual([{ kind: 'calls', out: true, peer: 'kto', site }, { kind: 'overrides', out: true, peer: 'kbase' }]);
    expect(Array.from(to)).toEqual([{ kind: 'calls', out: false, peer: 'kfrom', site }]);
    expect(Array.from(from)[1]).not.toHaveProperty('site');
    expect(Array.from(refs, (r) => [r.site.path, r.from])).toEqual([['src/a.kt', undefined], ['src/b.kt', 'kfrom']]);
    from.pop();
    refs.pop();
    expect(() => from.pop()).toThrow(/not the last stored/);
    to.pop();
    from.pop();
    expect([from.length, to.length, refs.length, store.size]).toEqual([0, 0, 1, 1]);
  });

  it('refuses a kind it has no code for', () => {
    expect(() => new EdgeList(new PackedStore()).push({ kind: 'nonsense' as 'calls', out: true, peer: 'k' })).toThrow(/no such edge kind/);
  });
});
