// Reading a symbol's edges, and walking them, over the graph shards alone (graph-shard.ts): a node
// carries what an answer says about a symbol, so a walk never reads the symbol shards of the nodes it
// passes, and it reads at most the 2^graphBucketBits graph shards (16 at most) however far it goes.
// Each step loads the next level's nodes together (one round of shard reads per level), and every
// node is visited once, so cycles end and a bound cuts the walk honestly.
import { SextantError, type EdgeKind, type GraphEdge, type GraphNode } from '@sextant/format';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import type { Location } from './results.ts';

interface EdgeView {
  kind: EdgeKind;
  /** true: from this symbol to the peer (this extends/implements/overrides/calls the peer). */
  out: boolean;
  peer: GraphNode;
  site?: Location;
}

/** The symbol's node in the graph, or undefined when it has no edges. */
export async function nodeOf(reader: IndexReader, symbol: LoadedSymbol): Promise<GraphNode | undefined> {
  const ordinal = symbol.record.graph;
  if (ordinal < 0) return undefined;
  const { node } = (await reader.graphNodes([ordinal]))[0]!;
  if (node.key !== symbol.record.key) {
    throw new SextantError('INDEX_CORRUPT',
      `Symbol ${symbol.record.key} names graph node ${ordinal}, which is ${node.key}: the index's graph and symbol shards disagree.`,
      'Rebuild the index for this commit with `indexer build` and publish it again.', { ordinal });
  }
  return node;
}

/** A node's edges as stored: peers by ordinal. */
export async function rawEdgesOf(reader: IndexReader, node: GraphNode): Promise<GraphEdge[]> {
  return (await reader.graphNodes([node.ordinal]))[0]!.shard.edges(node.ordinal);
}

/** A node's edges with their peers read (the peers' graph shards in one round). */
export async function edgesOf(reader: IndexReader, node: GraphNode): Promise<EdgeView[]> {
  const edges = await rawEdgesOf(reader, node);
  const peers = await reader.graphNodes(edges.map((e) => e.peer));
  return edges.map((e, i) => ({ kind: e.kind, out: e.out, peer: peers[i]!.node, ...(e.site ? { site: e.site } : {}) }));
}

/** The edges of a symbol (none when it has no node). */
export async function symbolEdges(reader: IndexReader, symbol: LoadedSymbol): Promise<EdgeView[]> {
  const node = await nodeOf(reader, symbol);
  return node ? edgesOf(reader, node) : [];
}

interface WalkStep {
  node: GraphNode;
  depth: number;
  /** The node one step closer to the start, and the edge that led here (from the parent's side). */
  parent?: GraphNode;
  edge?: GraphEdge;
}

export interface WalkResult {
  steps: WalkStep[];
  /** Which bound stopped the walk early, if one did. */
  truncatedBy?: 'depth' | 'maxNodes';
}

/**
 * Breadth-first over the edges `follow` picks, from `start` (depth 0, not included in steps; several
 * starts walk as one). A node reached twice is listed once, at its smallest depth; one that `keep`
 * rejects is neither listed nor walked through.
 */
export async function walk(
  reader: IndexReader, start: readonly GraphNode[], follow: (edge: GraphEdge) => boolean,
  bounds: { depth: number; maxNodes: number }, keep: (node: GraphNode) => boolean = () => true,
): Promise<WalkResult> {
  let frontier: GraphNode[] = [...start];
  const seen = new Set<number>(frontier.map((n) => n.ordinal));
  const steps: WalkStep[] = [];
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: { parent: GraphNode; edge: GraphEdge }[] = [];
    for (const current of frontier) {
      for (const edge of await rawEdgesOf(reader, current)) {
        if (!follow(edge) || seen.has(edge.peer)) continue;
        seen.add(edge.peer);
        next.push({ parent: current, edge });
      }
    }
    if (next.length === 0) break;
    if (depth > bounds.depth) return { steps, truncatedBy: 'depth' };
    const peers = await reader.graphNodes(next.map((n) => n.edge.peer));
    frontier = [];
    for (let i = 0; i < next.length; i++) {
      if (steps.length >= bounds.maxNodes) return { steps, truncatedBy: 'maxNodes' };
      const node = peers[i]!.node;
      if (!keep(node)) continue;
      steps.push({ node, depth, parent: next[i]!.parent, edge: next[i]!.edge });
      frontier.push(node);
    }
  }
  return { steps };
}

/** Loads the symbol records of nodes (their symbol shards in one round), for answers that need more than a node says. */
export async function symbolsOf(reader: IndexReader, nodes: readonly GraphNode[]): Promise<LoadedSymbol[]> {
  await reader.prefetch([...new Set(nodes.map((n) => reader.symbolShardNameOf(n.key)))]);
  const out: LoadedSymbol[] = [];
  for (const node of nodes) {
    const symbol = await reader.symbol(node.key);
    if (!symbol) {
      throw new SextantError('INDEX_CORRUPT', `Graph node ${node.ordinal} names symbol ${node.key}, which no symbol shard holds.`,
        'Rebuild the index for this commit with `indexer build` and publish it again.', { ordinal: node.ordinal });
    }
    out.push(symbol);
  }
  return out;
}

export const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum', 'component']);
