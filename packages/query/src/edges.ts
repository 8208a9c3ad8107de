// Reading a symbol's edges, and walking them across shards: each step loads the next level's
// symbols together (one round of shard reads per level), and every symbol is visited once, so
// cycles end and a bound cuts the walk honestly.
import { edgeFieldsOf, type EdgeKind, type PeerRecord, type SymbolRecord, type SymbolShard } from '@sextant/format';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import type { Location } from './results.ts';

export interface EdgeView {
  kind: EdgeKind;
  /** true: from this symbol to the peer (this extends/implements/overrides/calls the peer). */
  out: boolean;
  peer: PeerRecord;
  site?: Location;
}

export function edgesOf(record: SymbolRecord, shard: SymbolShard): EdgeView[] {
  const edges: EdgeView[] = [];
  for (const e of edgeFieldsOf(record)) {
    edges.push({
      kind: e.kind,
      out: e.out,
      peer: shard.peer(e.peerIndex),
      ...(e.pathIndex >= 0
        ? { site: { path: shard.paths[e.pathIndex]!, line: e.line, column: e.column, endLine: e.endLine, endColumn: e.endColumn } }
        : {}),
    });
  }
  return edges;
}

export interface WalkStep {
  symbol: LoadedSymbol;
  depth: number;
  /** The symbol one step closer to the start, and the edge that led here. */
  parent?: LoadedSymbol;
  edge?: EdgeView;
}

export interface WalkResult {
  steps: WalkStep[];
  /** Which bound stopped the walk early, if one did. */
  truncatedBy?: 'depth' | 'maxNodes';
}

/**
 * Breadth-first over the edges `follow` picks, from `start` (depth 0, not included in steps; several
 * starts walk as one). A symbol reached twice is listed once, at its smallest depth; one that `keep`
 * rejects is neither listed nor walked through.
 */
export async function walk(
  reader: IndexReader, start: LoadedSymbol | readonly LoadedSymbol[], follow: (edge: EdgeView) => boolean,
  bounds: { depth: number; maxNodes: number }, keep: (symbol: LoadedSymbol) => boolean = () => true,
): Promise<WalkResult> {
  let frontier: LoadedSymbol[] = Array.isArray(start) ? [...start] : [start as LoadedSymbol];
  const seen = new Set<string>(frontier.map((s) => s.record.key));
  const steps: WalkStep[] = [];
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: { key: string; parent: LoadedSymbol; edge: EdgeView }[] = [];
    for (const current of frontier) {
      for (const edge of edgesOf(current.record, current.shard)) {
        if (!follow(edge) || seen.has(edge.peer.key)) continue;
        seen.add(edge.peer.key);
        next.push({ key: edge.peer.key, parent: current, edge });
      }
    }
    if (next.length === 0) break;
    if (depth > bounds.depth) return { steps, truncatedBy: 'depth' };
    await reader.prefetch([...new Set(next.map((n) => reader.symbolShardNameOf(n.key)))]);
    frontier = [];
    for (const { key, parent, edge } of next) {
      if (steps.length >= bounds.maxNodes) return { steps, truncatedBy: 'maxNodes' };
      const symbol = await reader.symbol(key);
      if (!symbol || !keep(symbol)) continue; // a peer always has a record; a missing one would be INDEX_CORRUPT upstream
      steps.push({ symbol, depth, parent, edge });
      frontier.push(symbol);
    }
  }
  return { steps };
}

export const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum', 'component']);
