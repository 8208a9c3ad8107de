// The collector takes back everything a file's analysis added when that analysis throws, so a file
// skipped as analysis-failed leaves no reference, edge or symbol of its own behind.
import { describe, expect, it } from 'vitest';
import { IndexCollector, type SymbolInfo } from '../src/index-collector.ts';

const symbol = (key: string, path: string): SymbolInfo => ({ key, name: key, kind: 'function', qname: key, lang: 'typescript', path, mods: 0, defs: [[path, 1, 1, 1, 2]] });
const site = (path: string, line: number) => ({ path, line, column: 1, endLine: line, endColumn: 2 });

function snapshot(collector: IndexCollector) {
  return { references: collector.references, edges: collector.edges, symbols: JSON.stringify([...collector.symbols]) };
}

describe('IndexCollector.atomically', () => {
  it('takes back the symbols, references and edges of an analysis that throws, and keeps those of one that completes', () => {
    const collector = new IndexCollector();
    collector.addSymbol(symbol('a', 'a.ts'));
    collector.addSymbol(symbol('b', 'b.ts'));
    collector.addReference('a', site('b.ts', 1), 'call', 'b', 'exact');
    collector.addEdge('b', 'calls', 'a', site('b.ts', 1));
    const before = snapshot(collector);

    const overflow = new RangeError('Maximum call stack size exceeded');
    expect(() => collector.atomically(() => {
      collector.addSymbol(symbol('c', 'c.ts'));
      collector.addSymbol(symbol('a', 'a.ts')); // already there: nothing to take back
      collector.addReference('a', site('c.ts', 2), 'read', 'c', 'exact');
      collector.addReference('c', site('c.ts', 3), 'call', undefined, 'exact');
      collector.addEdge('c', 'calls', 'a', site('c.ts', 2));
      collector.addEdge('a', 'overrides', 'a');
      collector.addEdge('b', 'calls', 'c');
      throw overflow;
    })).toThrow(overflow);
    expect(snapshot(collector)).toEqual(before);

    expect(collector.atomically(() => {
      collector.addSymbol(symbol('d', 'd.ts'));
      collector.addReference('a', site('d.ts', 1), 'call', 'd', 'exact');
      return 'done';
    })).toBe('done');
    expect(collector.references).toBe(2);
    expect(collector.symbols.get('a')!.refs.map((r) => r.site.path)).toEqual(['b.ts', 'd.ts']);
    expect(collector.has('d')).toBe(true);
  });
});
