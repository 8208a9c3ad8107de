// What the files an incremental build does not walk again contribute, taken from the previous index
// into the collector before the walk: their file and change records, their unresolved identifiers,
// the references and edges written in them, and every symbol those name (occurring in them, or at the
// other end of one of their edges, or containing one). Not every symbol declared in them: a module's
// own symbol exists only while an import names it, from a file that may be walked. A reference or edge belongs to the file it is
// written in; an edge without a site (an override, a union's same property) to the file declaring
// its source, which incremental-plan.ts walks together with every other file of such a symbol.
import type { FileRecord } from '@sextant/format';
import type { IndexCollector, ResolvedDeclaration } from '../index-collector.ts';
import { gramsOfShards } from '../shards/gram-job.ts';
import type { GramReuse, LayoutReuse } from '../shards/shard-writer.ts';
import type { UnresolvedName } from '../language-indexer.ts';
import type { PositionShift } from './position-shift.ts';
import type { PreviousIndex } from './previous-index.ts';

/** The file an edge was found in: its site's, else the first declaration's of its source. */
export function edgeFile(previous: PreviousIndex, from: string, site: { path: string } | undefined): string | undefined {
  return site?.path ?? previous.symbols.get(from)?.info.defs[0]?.[0];
}

/**
 * Adds to `collector` everything `reused` (paths of files not walked again) contributed to `previous`,
 * in two steps: at once every symbol they name, then, when the function returned is called, their
 * references, edges and file records (which it returns). A walk reads only which symbols are known,
 * so one on another thread may start between the two. A reused call that chose a declaration of a
 * changed file chooses it at its place in the new text (`moved`, incremental-plan.ts: the plan walked
 * every call whose choice it could not place).
 */
export function reuseFiles(previous: PreviousIndex, reused: ReadonlySet<string>, collector: IndexCollector, moved: ReadonlyMap<string, PositionShift>): () => FileRecord[] {
  const kept = new Set<string>();
  const edges: { from: string; kind: Parameters<IndexCollector['addEdge']>[1]; to: string; site?: Parameters<IndexCollector['addEdge']>[3] }[] = [];
  for (const path of reused) for (const key of previous.files.get(path)?.syms ?? []) kept.add(key);
  for (const [key, symbol] of previous.symbols) {
    // Not every reference has an occurrence in its file's syms (the constructor at `new C` beside the class).
    for (const ref of symbol.refs) {
      if (!reused.has(ref.site.path)) continue;
      kept.add(key);
      if (ref.from) kept.add(ref.from);
    }
    for (const edge of symbol.edges) {
      if (edge.out && reused.has(edgeFile(previous, key, edge.site) ?? '')) {
        edges.push({ from: key, kind: edge.kind, to: edge.peer, ...(edge.site ? { site: edge.site } : {}) });
        kept.add(key);
        kept.add(edge.peer);
      }
    }
  }
  const unresolved = new Map<string, UnresolvedName[]>();
  for (const [name, sites] of previous.unresolved) {
    for (const { path, ...site } of sites) {
      if (!reused.has(path)) continue;
      if (site.from !== undefined) kept.add(site.from);
      (unresolved.get(path) ?? unresolved.set(path, []).get(path)!).push({ name, ...site });
    }
  }
  // A kept symbol's container is named by its record, so it is kept too (and its container).
  for (const [key, { info }] of previous.symbols) {
    if (!kept.has(key)) continue;
    for (let container = info.container; container !== undefined && !kept.has(container); container = previous.symbols.get(container)?.info.container) kept.add(container);
  }
  for (const [key, { info }] of previous.symbols) if (kept.has(key)) collector.addSymbol(info);

  return () => {
    for (const [key, { refs }] of previous.symbols) {
      if (!kept.has(key)) continue;
      for (const ref of refs) if (reused.has(ref.site.path)) collector.addReference(key, ref.site, ref.kind, ref.from, ref.confidence, ref.decl && placed(ref.decl, moved));
    }
    for (const edge of edges) collector.addEdge(edge.from, edge.kind, edge.to, edge.site);
    const files: FileRecord[] = [];
    for (const path of reused) {
      const file = previous.files.get(path);
      const change = previous.changes.get(path);
      if (!file || !change) continue;
      collector.addFile(file, change, unresolved.get(path) ?? []);
      files.push(file);
    }
    return files;
  };
}

/** A reused call's chosen declaration where it lies now. */
function placed(decl: ResolvedDeclaration, moved: ReadonlyMap<string, PositionShift>): ResolvedDeclaration {
  const shift = moved.get(decl.def[0]);
  if (!shift) return decl;
  const def = shift(decl.def);
  if (!def) throw new Error(`incremental build: a reused call chose ${decl.def.join(':')}, which the edit moved to no known place, and its file was not walked`);
  return { ...decl, def };
}

/**
 * What the shard writer may keep of the previous index once the walk is done (`collector.touched`
 * set since the reused files went in): every record of a file in `paths` (walked again, changed,
 * added or removed) may differ, and so may every symbol the walk touched, that such a file declared,
 * referenced or found an edge of, or that is gone. What the previous index alone decides is worked
 * out at once (before the walk, while it runs on another thread); the rest by the function returned,
 * called once the walk is done.
 */
export function layoutReuseOf(previous: PreviousIndex, collector: IndexCollector, paths: ReadonlySet<string>): () => LayoutReuse {
  const inPaths = new Set<string>();
  for (const [key, symbol] of previous.symbols) {
    const dirty = symbol.info.defs.some((d) => paths.has(d[0])) || symbol.refs.some((r) => paths.has(r.site.path))
      || symbol.edges.some((e) => paths.has(edgeFile(previous, e.out ? key : e.peer, e.site) ?? ''));
    if (dirty) inPaths.add(key);
  }
  return () => {
    const dirtySymbols = new Set([...collector.touched ?? [], ...inPaths]);
    for (const key of previous.symbols.keys()) if (!collector.has(key)) dirtySymbols.add(key);
    return {
      layout: previous.manifest.layout,
      shard: (name) => {
        const bytes = previous.shardBytes(name);
        const entry = previous.manifest.shards[name];
        return bytes && entry ? { bytes, records: entry.records } : undefined;
      },
      dirtySymbols,
      graphOrdinals: previous.graphOrdinals,
      dirtyPaths: paths,
      grams: gramReuseOf(previous, paths),
    };
  };
}

/** What the gram shards keep of the previous index: the postings of every file but those in `paths` (layoutGrams). */
function gramReuseOf(previous: PreviousIndex, paths: ReadonlySet<string>): GramReuse {
  return { earlier: () => gramsOfShards(previous.gramShards), paths: previous.entries.map((entry) => entry.path), dirtyPaths: paths };
}
