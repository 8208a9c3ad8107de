// The collector takes back everything a file's analysis added when that analysis throws, so a file
// skipped as analysis-failed leaves no reference, edge or symbol of its own behind. A walk on another
// thread records its calls on a collector that starts from the build's state; replayed, they leave the
// build's collector as the same walk on it would.
import { describe, expect, it } from 'vitest';
import { collectorState, RecordingCollector, replay } from '../src/collector-ops.ts';
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
    expect(Array.from(collector.symbols.get('a')!.refs, (r) => r.site.path)).toEqual(['b.ts', 'd.ts']);
    expect(collector.has('d')).toBe(true);
  });
});

describe('a recording collector, replayed', () => {
  // What a walk does: it declares what the collector does not know (or holds stale), then refers to it.
  const walk = (collector: IndexCollector) => {
    for (const key of ['a', 'stale', 'new']) if (!collector.has(key)) collector.addSymbol({ ...symbol(key, `${key}.ts`), doc: `walked ${key}` });
    collector.addReference('a', site('w.ts', 1), 'call', 'new', 'exact', { def: ['a.ts', 1, 1, 1, 2] });
    collector.addEdge('new', 'calls', 'a', site('w.ts', 1));
    expect(() => collector.atomically(() => {
      collector.addSymbol(symbol('failed', 'f.ts'));
      collector.addReference('failed', site('f.ts', 1), 'read', undefined, 'exact');
      throw new Error('analysis failed');
    })).toThrow('analysis failed');
    collector.atomically(() => collector.addReference('stale', site('w.ts', 2), 'read', 'new', 'exact'));
  };
  /** A build's collector after its reused files: `a` known, `stale` known but declared in a changed file. */
  const reused = () => {
    const collector = new IndexCollector();
    collector.addSymbol(symbol('a', 'a.ts'));
    collector.addSymbol(symbol('stale', 'stale.ts'));
    collector.touched = new Set();
    collector.stale = new Set(['stale']);
    return collector;
  };

  it('leaves the build collector as the walk made on it would', () => {
    const direct = reused();
    walk(direct);
    const replayed = reused();
    const recording = new RecordingCollector();
    recording.start(collectorState(replayed));
    walk(recording);
    replay(recording.take(), replayed);
    expect(snapshot(replayed)).toEqual(snapshot(direct));
    // What a failed analysis named stays touched in process, not in the replay: an incremental build with a failed file is built again in full.
    expect([...replayed.touched!]).toEqual([...direct.touched!].filter((key) => key !== 'failed'));
    expect([...replayed.stale!]).toEqual([]);
    expect(replayed.symbols.get('stale')!.info.doc).toBe('walked stale');
    expect(recording.take()).toEqual([]);
  });
});
