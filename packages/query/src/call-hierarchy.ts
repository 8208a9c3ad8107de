// call_hierarchy: a graph of callers (or callees) around one symbol, each symbol once, every
// edge with its call sites. A call made through a super method (an interface member, an overridden
// method) is a caller of its implementations too, and is marked with the member it went through.
import { formatSymbolId, SextantError, type GraphEdge, type GraphNode } from '@sextant/format';
import { nodeOf, rawEdgesOf, walk } from './edges.ts';
import type { IndexReader } from './index-reader.ts';
import { isNameMatched, unresolvedGraphReason } from './name-matched.ts';
import type { Answer, Location, PeerSummary, SymbolSummary } from './results.ts';
import { withSiteLinesOf, type SiteLines } from './site-lines.ts';
import { nodeSummary, peerSummary, summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';
import { reportOf, unresolvedCallsIn, unresolvedReason, unresolvedUsesOf, type SymbolOrNode, type UnresolvedReport } from './unresolved.ts';

interface CallHierarchyParams {
  direction?: 'callers' | 'callees';
  depth?: number;
  maxNodes?: number;
  /** Lines before and after each call site (site-lines.ts); every site has its own line. */
  context?: number;
}

interface CallNode extends SymbolSummary {
  depth: number;
}

interface CallEdge<Site extends Location = Location & SiteLines> {
  /** The calling symbol. */
  from: string;
  /** The called symbol. */
  to: string;
  sites: Site[];
  /** The call resolved to this member, a super method of `to` (an interface or base method). */
  through?: PeerSummary;
}

interface CallHierarchyAnswer<Site extends Location = Location & SiteLines> extends Answer {
  symbol: SymbolSummary;
  direction: 'callers' | 'callees';
  nodes: CallNode[];
  edges: CallEdge<Site>[];
  total: number;
  totalIsExact: boolean;
  hasMore: boolean;
  truncationReason?: string;
}

const NOT_CALLABLE = new Set(['interface', 'type', 'enum', 'enumMember', 'typeParameter', 'parameter', 'namespace', 'module']);

export const CALL_HIERARCHY_BOUNDS = { depth: { default: 3, max: 10 }, maxNodes: { default: 100, max: 1000 } };

interface CallHierarchyToolAnswer extends CallHierarchyAnswer {
  /**
   * Calls that resolved to nothing and might be edges of this graph: named like one of its nodes
   * (callers), or made inside one of them (callees). With any, totalIsExact is false.
   */
  unresolved: UnresolvedReport;
}

const CALLS: ReadonlySet<string> = new Set(['call', 'new']);

/** The call hierarchy tool's answer: the graph, each call site's lines, and the calls nobody could resolve. */
export async function callHierarchy(reader: IndexReader, target: Target, params: CallHierarchyParams): Promise<CallHierarchyToolAnswer> {
  const { graph, visited } = await walkCalls(reader, target, params);
  const unresolved = reportOf(graph.direction === 'callers'
    ? await unresolvedUsesOf(reader, visited, (site) => CALLS.has(site.kind))
    : await unresolvedCallsIn(reader, visited));
  const lang = graph.symbol.language;
  const cuts = [
    ...(isNameMatched(reader, lang) ? [unresolvedGraphReason(lang, 'calls')] : []),
    ...(unresolved.count > 0 ? [unresolvedReason(unresolved)] : []),
  ];
  const cut = cuts.length ? { totalIsExact: false, truncationReason: [...cuts, ...(graph.truncationReason ? [graph.truncationReason] : [])].join('; ') } : {};
  return { ...graph, ...cut, edges: await withSiteLinesOf(reader, graph.edges, params.context), unresolved };
}

/** The graph alone, its sites as locations: what change_impact walks for callers. */
export async function callGraph(reader: IndexReader, target: Target, params: CallHierarchyParams): Promise<CallHierarchyAnswer<Location>> {
  return (await walkCalls(reader, target, params)).graph;
}

/** The graph, and the nodes it visited (the start first). */
async function walkCalls(reader: IndexReader, target: Target, params: CallHierarchyParams): Promise<{ graph: CallHierarchyAnswer<Location>; visited: SymbolOrNode[] }> {
  const start = await resolveTarget(reader, target);
  if (NOT_CALLABLE.has(start.record.kind)) {
    throw new SextantError('INVALID_ARGUMENT', `${start.record.qname} is a ${start.record.kind}; nothing calls it and it calls nothing.`,
      'Pass a function, method, constructor, accessor or class (calls to a class are its constructions).');
  }
  const direction = params.direction ?? 'callers';
  const depthBound = params.depth ?? CALL_HIERARCHY_BOUNDS.depth.default;
  const maxNodes = params.maxNodes ?? CALL_HIERARCHY_BOUNDS.maxNodes.default;
  const root = summarize(reader, start.record, start.shard.paths);
  const nodes = new Map<string, CallNode>([[start.record.key, { ...root, depth: 0 }]]);
  const edges = new Map<string, CallEdge<Location>>();
  const visited: SymbolOrNode[] = [start];
  let truncation: string | undefined;
  const id = (n: GraphNode) => formatSymbolId(n.key, reader.commit);

  const startNode = await nodeOf(reader, start);
  let frontier: GraphNode[] = startNode ? [startNode] : [];
  for (let depth = 1; frontier.length > 0; depth++) {
    const pending: { peer: number; from: GraphNode; site?: Location; through?: GraphNode }[] = [];
    for (const node of frontier) {
      if (direction === 'callees') {
        for (const e of calls(await rawEdgesOf(reader, node), true)) pending.push({ peer: e.peer, from: node });
      } else {
        for (const e of calls(await rawEdgesOf(reader, node), false)) pending.push({ peer: e.peer, from: node, site: e.site });
        for (const superMethod of await superMethods(reader, node)) {
          for (const e of calls(await rawEdgesOf(reader, superMethod), false)) pending.push({ peer: e.peer, from: node, site: e.site, through: superMethod });
        }
      }
    }
    if (pending.length === 0) break;
    if (depth > depthBound) {
      truncation = `depth ${depthBound}`;
      break;
    }
    const peers = await reader.graphNodes(pending.map((p) => p.peer));
    const next: GraphNode[] = [];
    pending.forEach((p, i) => {
      const { node: peer, shard } = peers[i]!;
      if (!nodes.has(peer.key)) {
        if (nodes.size >= maxNodes) {
          truncation = `maxNodes ${maxNodes}`;
          return;
        }
        nodes.set(peer.key, { ...nodeSummary(reader, peer), depth });
        next.push(peer);
        visited.push(peer);
      }
      const [from, to] = direction === 'callers' ? [id(peer), id(p.from)] : [id(p.from), id(peer)];
      const edgeKey = `${from}>${to}>${p.through?.key ?? ''}`;
      const edge = edges.get(edgeKey) ?? { from, to, sites: [], ...(p.through ? { through: peerSummary(reader, p.through) } : {}) };
      if (p.site) edge.sites.push(p.site);
      // A callee's edge names no site: the calls are stored once, at the callee, from this caller.
      if (direction === 'callees') {
        for (const e of shard.edges(peer.ordinal)) if (!e.out && e.kind === 'calls' && e.peer === p.from.ordinal && e.site) edge.sites.push(e.site);
      }
      edges.set(edgeKey, edge);
    });
    frontier = next;
  }
  const nodeList = [...nodes.values()];
  const graph: CallHierarchyAnswer<Location> = {
    repo: reader.repo, commit: reader.commit, symbol: root, direction, nodes: nodeList, edges: [...edges.values()],
    total: nodeList.length, totalIsExact: !truncation, hasMore: Boolean(truncation), ...(truncation ? { truncationReason: truncation } : {}),
  };
  return { graph, visited };
}

/** A node's call edges in one direction. */
function calls(edges: readonly GraphEdge[], out: boolean): GraphEdge[] {
  return edges.filter((e) => e.out === out && e.kind === 'calls');
}

async function superMethods(reader: IndexReader, node: GraphNode): Promise<GraphNode[]> {
  const result = await walk(reader, [node], (e) => e.out && e.kind === 'overrides', { depth: 64, maxNodes: 256 });
  return result.steps.map((s) => s.node);
}
