// Record columns through their accessors: what the builders lay out, a shard stores and decodes,
// the accessors read back field by field (iterating and by index, counts included); an iteration's cursor is one object moved along, its `index` the
// entry's ordinal.
import { describe, expect, it } from 'vitest';
import {
  callsChoseDeclarations, canonicalSymbolOrder, defAt, defColumn, defCount, defsOf, encodeChangeShard, encodeFileShard,
  encodeSymbolShard, occurrenceCount, occurrencesOf, pushOccurrence, refAt, refColumn, refCount, refDeclColumn, refsOf,
  signatureAt, signatureCount, signaturesOf, sortedOccurrences, unresolvedColumn, unresolvedCount, unresolvedOf,
  type ChangeShard, type DefFields, type FileShard, type OccurrenceFields, type RefFields, type SymbolRecord, type SymbolShard,
  type UnresolvedFields,
} from '../src/index.ts';
import { openShard } from './support/open-shard.ts';

const defs: DefFields[] = [
  { pathIndex: 0, line: 4, column: 3, endLine: 4, endColumn: 9 },
  { pathIndex: 1, line: 70000, column: 1, endLine: 70001, endColumn: 2 },
];
const refs: Omit<RefFields, 'decl'>[] = [
  { pathIndex: 1, line: 9, column: 5, endLine: 9, endColumn: 11, kind: 'call', fromIndex: 0, confidence: 'exact' },
  { pathIndex: 0, line: 12, column: 1, endLine: 13, endColumn: 2, kind: 'jsx', fromIndex: -1, confidence: 'candidate' },
  { pathIndex: 0, line: 12, column: 7, endLine: 12, endColumn: 8, kind: 'decorator', fromIndex: 1, confidence: 'resolved' },
];
const decls = [-1, 2, 0];
const signatures: DefFields[] = [{ pathIndex: 1, line: 20, column: 2, endLine: 20, endColumn: 30 }];

function storedSymbol() {
  const bytes = encodeSymbolShard({
    paths: ['src/a.ts', 'src/b.ts'], pathFlags: [0, 0],
    peers: [{ key: 'p'.repeat(16), name: 'P', kind: 'function' }, { key: 'q'.repeat(16), name: 'Q', kind: 'class' }],
    symbols: [{
      key: 'k'.repeat(16), name: 'f', kind: 'function', qname: 'f', lang: 'typescript', mods: 0,
      defs: defColumn(defs, (d) => d),
      refs: refColumn(refs, (r) => r),
      refDecls: refDeclColumn(decls, (d) => d),
      signatures: defColumn(signatures, (s) => s),
      graph: -1,
    }],
  });
  return openShard<SymbolShard>('symbols/000', bytes).record(0);
}

describe('symbol record columns', () => {
  it('reads back what the builders laid out, through a stored shard', () => {
    const record = storedSymbol();
    expect(defCount(record)).toBe(2);
    expect([...defsOf(record)].length).toBe(2);
    expect(Array.from(defsOf(record), ({ pathIndex, line, column, endLine, endColumn }) => ({ pathIndex, line, column, endLine, endColumn }))).toEqual(defs);
    expect(defAt(record, 1)).toEqual(defs[1]);
    expect(refCount(record)).toBe(3);
    expect(Array.from(refsOf(record), (r) => ({ ...r }))).toEqual(refs.map((r, i) => ({ ...r, decl: decls[i], index: i })));
    expect(refAt(record, 2)).toEqual({ ...refs[2], decl: 0 });
    expect(callsChoseDeclarations(record)).toBe(true);
    expect(signatureCount(record)).toBe(1);
    expect(signatureAt(record, 0)).toEqual(signatures[0]);
    expect(Array.from(signaturesOf(record), (s) => s.line)).toEqual([20]);
  });

  it('says -1 for the decl of a symbol whose calls chose nothing, and refuses an entry past the end', () => {
    const record: Pick<SymbolRecord, 'defs' | 'refs' | 'refDecls' | 'signatures'> = { defs: defColumn(defs, (d) => d), refs: refColumn(refs, (r) => r) };
    expect(callsChoseDeclarations(record)).toBe(false);
    expect(Array.from(refsOf(record), (r) => r.decl)).toEqual([-1, -1, -1]);
    expect(() => refAt(record, 3)).toThrow(RangeError);
    expect(() => defAt(record, -1)).toThrow(RangeError);
    expect(() => signatureAt(record, 0)).toThrow(RangeError);
  });

  it('moves one cursor along: read it in the step, copy what must outlive it', () => {
    const record = storedSymbol();
    const seen = [...refsOf(record)];
    expect(new Set(seen).size).toBe(1);
    expect(seen[0]!.index).toBe(2);
    const lines: number[] = [];
    for (const ref of refsOf(record)) lines.push(ref.line);
    expect(lines).toEqual([9, 12, 12]);
  });

  it('refuses a kind or confidence the format does not know', () => {
    expect(() => refColumn([{ ...refs[0]!, kind: 'poke' as 'call' }], (r) => r)).toThrow(RangeError);
    expect(() => refColumn([{ ...refs[0]!, confidence: 'hunch' as 'exact' }], (r) => r)).toThrow(RangeError);
  });
});

describe('file and change record columns', () => {
  const occurrences: OccurrenceFields[] = [
    { line: 3, column: 1, endLine: 3, endColumn: 4, symbolIndex: 1, kind: 'read' },
    { line: 1, column: 7, endLine: 1, endColumn: 9, symbolIndex: 0, kind: 'definition' },
    { line: 1, column: 7, endLine: 1, endColumn: 9, symbolIndex: 0, kind: 'call' },
  ];
  it('lays occurrences out in any order, sorts them by position, and reads them back from a stored file', () => {
    const occ: number[] = [];
    for (const o of occurrences) pushOccurrence(occ, o);
    expect(occurrenceCount({ occ })).toBe(3);
    const bytes = encodeFileShard({ files: [{
      path: 'a.ts', lang: 'typescript', blob: '0'.repeat(40), bytes: 0, lineLengths: [10, 0, 4], flags: 0, syms: ['a'.repeat(16), 'b'.repeat(16)],
      occ: sortedOccurrences(occ), outline: [], problems: [], problemsOmitted: 0,
    }] });
    const file = openShard<FileShard>('files/000', bytes).file('a.ts')!;
    expect(Array.from(occurrencesOf(file), ({ index: _, ...o }) => o)).toEqual([occurrences[1], occurrences[2], occurrences[0]]);
  });

  it('orders a file\'s symbols by first occurrence, then key, whatever order they were met in', () => {
    // Met as c, b, a; b and a first occur at one node (the members of a union, in the order the checker made them).
    const met = ['c', 'b', 'a'].map((k) => k.repeat(16));
    const occ: number[] = [];
    pushOccurrence(occ, { line: 5, column: 1, endLine: 5, endColumn: 2, symbolIndex: 0, kind: 'read' });
    pushOccurrence(occ, { line: 2, column: 3, endLine: 2, endColumn: 4, symbolIndex: 1, kind: 'write' });
    pushOccurrence(occ, { line: 2, column: 3, endLine: 2, endColumn: 4, symbolIndex: 2, kind: 'write' });
    pushOccurrence(occ, { line: 1, column: 9, endLine: 1, endColumn: 10, symbolIndex: 0, kind: 'read' });
    const { syms, occ: renumbered } = canonicalSymbolOrder(met, occ);
    expect(syms).toEqual(['c', 'a', 'b'].map((k) => k.repeat(16)));
    const keyed = (list: number[], keys: string[]) => Array.from(occurrencesOf({ occ: list }), (o) => `${o.line}:${o.column} ${keys[o.symbolIndex]![0]} ${o.kind}`);
    expect(keyed(renumbered, syms)).toEqual(keyed(occ, met));
  });

  it('reads unresolved identifiers, and tells none recorded from not recorded', () => {
    const sites: UnresolvedFields[] = [{ line: 2, column: 3, endLine: 2, endColumn: 8, kind: 'call' }, { line: 5, column: 1, endLine: 6, endColumn: 1, kind: 'type' }];
    const bytes = encodeChangeShard({ files: [
      { path: 'a.ts', decls: [], unresolved: unresolvedColumn(sites), reexports: [] },
      { path: 'b.ts', decls: [], unresolved: null, reexports: [] },
      { path: 'c.ts', decls: [], unresolved: [], reexports: [] },
    ] });
    const shard = openShard<ChangeShard>('changes/000', bytes);
    expect(Array.from(unresolvedOf(shard.file('a.ts')!), ({ index: _, ...u }) => u)).toEqual(sites);
    expect(unresolvedCount(shard.file('a.ts')!)).toBe(2);
    expect(unresolvedCount(shard.file('b.ts')!)).toBeNull();
    expect([...unresolvedOf(shard.file('b.ts')!)]).toEqual([]);
    expect(unresolvedCount(shard.file('c.ts')!)).toBe(0);
  });
});
