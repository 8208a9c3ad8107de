// find_implementations (both directions) and type_hierarchy: walks over inheritance edges.
import { SextantError } from '@sextant/format';
import type { GraphEdge, GraphNode } from '@sextant/format';
import { nodeOf, TYPE_KINDS, walk, type WalkResult } from './edges.ts';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { isNameMatched, unresolvedGraphReason } from './name-matched.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, PeerSummary, SymbolSummary } from './results.ts';
import { nodeSummary, peerSummary, summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';
import { reportOf, undecidedMembers, unresolvedReason, unresolvedUsesOf, type UnresolvedReport } from './unresolved.ts';

const INHERIT = new Set(['extends', 'implements']);

interface RelatedSymbol extends SymbolSummary {
  depth: number;
  /** How it relates to the symbol one step closer to the target. */
  relation: 'extends' | 'implements' | 'overrides';
  /** That closer symbol (for depth > 1). */
  via?: PeerSummary;
}

interface RelatedAnswer extends Answer, PageInfo {
  symbol: SymbolSummary;
  results: RelatedSymbol[];
  /**
   * What might be one more result but could not be decided: for a type, supertypes named like it
   * (or like a subtype found) that resolved to nothing; for a member, members named like it in the
   * types walked, with as many parameters, that no override links (their signatures could not be
   * matched). With any, totalIsExact is false.
   */
  unresolved: UnresolvedReport;
}

export const IMPLEMENTATIONS_PAGE = { defaultLimit: 100, maxLimit: 1000 };
const WALK_BOUND = { depth: 64, maxNodes: 5000 };

/** Nearest first; within a depth by qualified name, so lists read like an outline. */
function related(reader: IndexReader, result: WalkResult): RelatedSymbol[] {
  const steps = [...result.steps].sort((a, b) => a.depth - b.depth || (a.node.qname < b.node.qname ? -1 : a.node.qname > b.node.qname ? 1 : 0));
  return steps.map((step) => ({
    ...nodeSummary(reader, step.node),
    depth: step.depth,
    relation: step.edge!.kind as RelatedSymbol['relation'],
    ...(step.depth > 1 ? { via: peerSummary(reader, step.parent!) } : {}),
  }));
}

/** A walk from the symbol's node; none when it has no edges. */
async function walkFrom(
  reader: IndexReader, start: LoadedSymbol, follow: (edge: GraphEdge) => boolean, bounds: { depth: number; maxNodes: number },
): Promise<WalkResult> {
  const node = await nodeOf(reader, start);
  return node ? walk(reader, [node], follow, bounds) : { steps: [] };
}

function isType(symbol: LoadedSymbol): boolean {
  return TYPE_KINDS.has(symbol.record.kind);
}

/** Subtypes of a type, or overriding members of a member, transitively. */
export async function findImplementations(reader: IndexReader, target: Target, page: PageRequest): Promise<RelatedAnswer> {
  const start = await resolveTarget(reader, target);
  const follow = isType(start)
    ? (e: GraphEdge) => !e.out && INHERIT.has(e.kind)
    : (e: GraphEdge) => !e.out && e.kind === 'overrides';
  return answer(reader, start, await walkFrom(reader, start, follow, WALK_BOUND), page, 'find_implementations', 'subs');
}

/** Members a method overrides or implements, up the whole chain. */
export async function findSuperMethods(reader: IndexReader, target: Target, page: PageRequest): Promise<RelatedAnswer> {
  const start = await resolveTarget(reader, target);
  if (isType(start)) {
    throw new SextantError('INVALID_ARGUMENT', `${start.record.qname} is a ${start.record.kind}, not a member.`,
      'Pass a method, property or accessor; for the supertypes of a type use type_hierarchy with direction "supertypes".');
  }
  return answer(reader, start, await walkFrom(reader, start, (e) => e.out && e.kind === 'overrides', WALK_BOUND), page, 'find_super_methods', 'supers');
}

async function answer(
  reader: IndexReader, start: LoadedSymbol, result: WalkResult, request: PageRequest, tool: string, direction: 'supers' | 'subs',
): Promise<RelatedAnswer> {
  const results = related(reader, result);
  const { items, page } = pageOf(results, reader.commit, { tool, key: start.record.key }, request, IMPLEMENTATIONS_PAGE);
  const unresolved = await undecided(reader, start, result, direction);
  const cuts = [
    ...(isNameMatched(reader, start.record.lang) ? [unresolvedGraphReason(start.record.lang, isType(start) ? 'subtypes' : 'overrides')] : []),
    ...(result.truncatedBy ? [`walk bound ${result.truncatedBy} (${WALK_BOUND[result.truncatedBy]})`] : []),
    ...(unresolved.count > 0 ? [unresolvedReason(unresolved)] : []),
  ];
  const cut = cuts.length ? { totalIsExact: false, truncationReason: [...cuts, ...(page.truncationReason ? [page.truncationReason] : [])].join('; ') } : {};
  return { repo: reader.repo, commit: reader.commit, symbol: summarize(reader, start.record, start.shard.paths), results: items, ...page, ...cut, unresolved };
}

async function undecided(reader: IndexReader, start: LoadedSymbol, result: WalkResult, direction: 'supers' | 'subs'): Promise<UnresolvedReport> {
  const found: GraphNode[] = result.steps.map((s) => s.node);
  if (isType(start)) {
    if (direction === 'supers') return { count: 0, examples: [] };
    return reportOf(await unresolvedUsesOf(reader, [start, ...found], (site) => site.kind === 'inherit'));
  }
  return reportOf(await undecidedMembers(reader, start, direction, new Set([start.record.key, ...found.map((n) => n.key)])));
}

interface HierarchyParams {
  direction?: 'supertypes' | 'subtypes' | 'both';
  depth?: number;
  maxNodes?: number;
}

interface HierarchyNode extends SymbolSummary {
  /** Steps from the target: negative for supertypes, positive for subtypes. */
  depth: number;
}

interface HierarchyEdge {
  from: string;
  to: string;
  kind: 'extends' | 'implements';
}

interface TypeHierarchyAnswer extends Answer {
  symbol: SymbolSummary;
  direction: 'supertypes' | 'subtypes' | 'both';
  nodes: HierarchyNode[];
  edges: HierarchyEdge[];
  total: number;
  totalIsExact: boolean;
  hasMore: boolean;
  truncationReason?: string;
}

export const TYPE_HIERARCHY_BOUNDS = { depth: { default: 5, max: 32 }, maxNodes: { default: 200, max: 2000 } };

export async function typeHierarchy(reader: IndexReader, target: Target, params: HierarchyParams): Promise<TypeHierarchyAnswer> {
  const start = await resolveTarget(reader, target);
  if (!isType(start)) {
    throw new SextantError('INVALID_ARGUMENT', `${start.record.qname} is a ${start.record.kind}, not a type.`,
      'Pass a class, interface, type or enum; for members use find_implementations (direction supers for what they override).');
  }
  const direction = params.direction ?? 'both';
  const depth = params.depth ?? TYPE_HIERARCHY_BOUNDS.depth.default;
  const maxNodes = params.maxNodes ?? TYPE_HIERARCHY_BOUNDS.maxNodes.default;
  const root = summarize(reader, start.record, start.shard.paths);
  const nodes: HierarchyNode[] = [{ ...root, depth: 0 }];
  const edges: HierarchyEdge[] = [];
  const cuts: string[] = [];
  for (const [up, sign] of [[true, -1], [false, 1]] as const) {
    if (direction === (up ? 'subtypes' : 'supertypes')) continue;
    const result = await walkFrom(reader, start, (e) => e.out === up && INHERIT.has(e.kind), { depth, maxNodes: maxNodes - (nodes.length - 1) });
    for (const step of result.steps) {
      const node = nodeSummary(reader, step.node);
      const parent = nodeSummary(reader, step.parent!);
      nodes.push({ ...node, depth: sign * step.depth });
      edges.push(up
        ? { from: parent.symbolId, to: node.symbolId, kind: step.edge!.kind as HierarchyEdge['kind'] }
        : { from: node.symbolId, to: parent.symbolId, kind: step.edge!.kind as HierarchyEdge['kind'] });
    }
    if (result.truncatedBy) cuts.push(result.truncatedBy === 'depth' ? `depth ${depth}` : `maxNodes ${maxNodes}`);
  }
  const unknown = isNameMatched(reader, start.record.lang) ? [unresolvedGraphReason(start.record.lang, 'supertypes and subtypes')] : [];
  return {
    repo: reader.repo, commit: reader.commit, symbol: root, direction, nodes, edges,
    total: nodes.length, totalIsExact: cuts.length + unknown.length === 0, hasMore: cuts.length > 0,
    ...(cuts.length + unknown.length ? { truncationReason: [...unknown, cuts.join(', ')].filter(Boolean).join('; ') } : {}),
  };
}
