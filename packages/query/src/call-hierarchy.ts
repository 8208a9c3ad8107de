// call_hierarchy: a graph of callers (or callees) around one symbol, each symbol once, every
// edge with its call sites. A call made through a super method (an interface member, an overridden
// method) is a caller of its implementations too, and is marked with the member it went through.
import { SextantError } from '@sextant/format';
import { edgesOf, walk, type EdgeView } from './edges.ts';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import type { Answer, Location, PeerSummary, SymbolSummary } from './results.ts';
import { withSiteLinesOf, type SiteLines } from './site-lines.ts';
import { summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';
import { reportOf, unresolvedCallsIn, unresolvedReason, unresolvedUsesOf, type UnresolvedReport } from './unresolved.ts';

export interface CallHierarchyParams {
  direction?: 'callers' | 'callees';
  depth?: number;
  maxNodes?: number;
  /** Lines before and after each call site (site-lines.ts); every site has its own line. */
  context?: number;
}

export interface CallNode extends SymbolSummary {
  depth: number;
}

export interface CallEdge<Site extends Location = Location & SiteLines> {
  /** The calling symbol. */
  from: string;
  /** The called symbol. */
  to: string;
  sites: Site[];
  /** The call resolved to this member, a super method of `to` (an interface or base method). */
  through?: PeerSummary;
}

export interface CallHierarchyAnswer<Site extends Location = Location & SiteLines> extends Answer {
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

export interface CallHierarchyToolAnswer extends CallHierarchyAnswer {
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
    ? await unresolvedUsesOf(reader, visited.map((s) => ({ record: s.record, paths: s.shard.paths })), (site) => CALLS.has(site.kind))
    : await unresolvedCallsIn(reader, visited.map((s) => s.record)));
  const cut = unresolved.count > 0
    ? { totalIsExact: false, truncationReason: [unresolvedReason(unresolved), ...(graph.truncationReason ? [graph.truncationReason] : [])].join('; ') }
    : {};
  return { ...graph, ...cut, edges: await withSiteLinesOf(reader, graph.edges, params.context), unresolved };
}

/** The graph alone, its sites as locations: what change_impact walks for callers. */
export async function callGraph(reader: IndexReader, target: Target, params: CallHierarchyParams): Promise<CallHierarchyAnswer<Location>> {
  return (await walkCalls(reader, target, params)).graph;
}

/** The graph, and the symbols of its nodes as loaded. */
async function walkCalls(reader: IndexReader, target: Target, params: CallHierarchyParams): Promise<{ graph: CallHierarchyAnswer<Location>; visited: LoadedSymbol[] }> {
  const start = await resolveTarget(reader, target);
  if (NOT_CALLABLE.has(start.record.kind)) {
    throw new SextantError('INVALID_ARGUMENT', `${start.record.qname} is a ${start.record.kind}; nothing calls it and it calls nothing.`,
      'Pass a function, method, constructor, accessor or class (calls to a class are its constructions).');
  }
  const direction = params.direction ?? 'callers';
  const depthBound = params.depth ?? CALL_HIERARCHY_BOUNDS.depth.default;
  const maxNodes = params.maxNodes ?? CALL_HIERARCHY_BOUNDS.maxNodes.default;
  const id = (s: LoadedSymbol) => summarize(reader, s.record, s.shard.paths).symbolId;
  const nodes = new Map<string, CallNode>([[start.record.key, { ...summarize(reader, start.record, start.shard.paths), depth: 0 }]]);
  const edges = new Map<string, CallEdge<Location>>();
  const visited: LoadedSymbol[] = [start];
  let truncation: string | undefined;

  let frontier: LoadedSymbol[] = [start];
  for (let depth = 1; frontier.length > 0; depth++) {
    const pending: { key: string; from: LoadedSymbol; site?: Location; through?: LoadedSymbol }[] = [];
    for (const symbol of frontier) {
      if (direction === 'callees') {
        for (const e of edgesOf(symbol.record, symbol.shard)) if (e.out && e.kind === 'calls') pending.push({ key: e.peer.key, from: symbol, site: e.site });
      } else {
        for (const e of edgesOf(symbol.record, symbol.shard)) if (!e.out && e.kind === 'calls') pending.push({ key: e.peer.key, from: symbol, site: e.site });
        for (const superMethod of await superMethods(reader, symbol)) {
          for (const e of edgesOf(superMethod.record, superMethod.shard)) {
            if (!e.out && e.kind === 'calls') pending.push({ key: e.peer.key, from: symbol, site: e.site, through: superMethod });
          }
        }
      }
    }
    if (pending.length === 0) break;
    if (depth > depthBound) {
      truncation = `depth ${depthBound}`;
      break;
    }
    await reader.prefetch([...new Set(pending.map((p) => reader.symbolShardNameOf(p.key)))]);
    const next: LoadedSymbol[] = [];
    for (const p of pending) {
      const peer = await reader.symbol(p.key);
      if (!peer) continue;
      if (!nodes.has(p.key)) {
        if (nodes.size >= maxNodes) {
          truncation = `maxNodes ${maxNodes}`;
          continue;
        }
        nodes.set(p.key, { ...summarize(reader, peer.record, peer.shard.paths), depth });
        next.push(peer);
        visited.push(peer);
      }
      const [from, to] = direction === 'callers' ? [id(peer), id(p.from)] : [id(p.from), id(peer)];
      const edgeKey = `${from}>${to}>${p.through?.record.key ?? ''}`;
      const edge = edges.get(edgeKey) ?? { from, to, sites: [], ...(p.through ? { through: { symbolId: id(p.through), name: p.through.record.name, kind: p.through.record.kind } } : {}) };
      if (p.site) edge.sites.push(p.site);
      edges.set(edgeKey, edge);
    }
    frontier = next;
  }
  const nodeList = [...nodes.values()];
  const graph: CallHierarchyAnswer<Location> = {
    repo: reader.repo, commit: reader.commit, symbol: summarize(reader, start.record, start.shard.paths), direction, nodes: nodeList, edges: [...edges.values()],
    total: nodeList.length, totalIsExact: !truncation, hasMore: Boolean(truncation), ...(truncation ? { truncationReason: truncation } : {}),
  };
  return { graph, visited };
}

async function superMethods(reader: IndexReader, symbol: LoadedSymbol): Promise<LoadedSymbol[]> {
  const result = await walk(reader, symbol, (e: EdgeView) => e.out && e.kind === 'overrides', { depth: 64, maxNodes: 256 });
  return result.steps.map((s) => s.symbol);
}
