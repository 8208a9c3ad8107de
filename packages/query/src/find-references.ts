// find_references: every reference the index holds for the target, in (path, position) order,
// filtered and paged. For a member, the references of its related members (related-members.ts) are
// included too, as the TypeScript language service includes them, each marked with the member it
// names.
import {
  CONFIDENCES, DEF_STRIDE, FILE_FLAGS, pathFilter, REF_STRIDE, REFERENCE_KINDS, type Confidence, type ReferenceKind,
} from '@sextant/format';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, PeerSummary, ReferenceHit, SymbolSummary } from './results.ts';
import { RELATED_BOUND, relatedMembers, type RelatedMembers } from './related-members.ts';
import { defLocation, peerSummary, summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';

export interface ReferenceParams extends PageRequest {
  kinds?: ReferenceKind[];
  includeDeclaration?: boolean;
  /** Globs over the referencing file's path; `!` excludes. */
  paths?: string[];
  includeTests?: boolean;
  includeGenerated?: boolean;
  minConfidence?: Confidence;
  groupByFile?: boolean;
  /** Also the references of related members (related-members.ts); default true. */
  includeRelated?: boolean;
}

export interface ReferencesAnswer extends Answer, PageInfo {
  symbol: SymbolSummary;
  /** The other members whose references are included (includeRelated), in breadth-first order from the target. */
  related: PeerSummary[];
  references: ReferenceHit[];
  /** References that matched every other filter but were below minConfidence. */
  omittedBelowConfidence: number;
  /** With groupByFile: every file of the whole result (not only this page) with its count. */
  files?: { path: string; count: number }[];
}

export const REFERENCES_PAGE = { defaultLimit: 200, maxLimit: 2000 };

export async function findReferences(reader: IndexReader, target: Target, params: ReferenceParams): Promise<ReferencesAnswer> {
  const start = await resolveTarget(reader, target);
  const group: RelatedMembers = params.includeRelated === false ? { members: [start] } : await relatedMembers(reader, start, 'hierarchy');
  const { hits, omitted } = collectReferences(reader, group.members, params);
  const query = {
    tool: 'find_references', key: start.record.key, kinds: params.kinds, includeDeclaration: params.includeDeclaration ?? false,
    paths: params.paths, includeTests: params.includeTests, includeGenerated: params.includeGenerated, minConfidence: params.minConfidence,
    includeRelated: params.includeRelated ?? true,
  };
  const { items, page } = pageOf(hits, reader.commit, query, params, REFERENCES_PAGE);
  if (group.truncatedBy) {
    page.totalIsExact = false;
    page.truncationReason = `related members: more than ${RELATED_BOUND.maxNodes} overriding or overridden members; references of the rest are not included`
      + (page.truncationReason ? `; ${page.truncationReason}` : '');
  }
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, start.record, start.shard.paths),
    related: group.members.slice(1).map((m) => peerSummary(reader, m.record)),
    references: items,
    omittedBelowConfidence: omitted,
    ...(params.groupByFile ? { files: countByFile(hits) } : {}),
    ...page,
  };
}

/**
 * Declarations first (when asked for), then references, each in (path, position) order: pages rely
 * on it. `members[0]` is the target; hits of the others carry `via`.
 */
export function collectReferences(
  reader: IndexReader, members: LoadedSymbol[], params: ReferenceParams,
): { hits: ReferenceHit[]; omitted: number } {
  const kinds = params.kinds ? new Set<ReferenceKind>(params.kinds) : undefined;
  const inPaths = pathFilter(params.paths);
  const hidden = (params.includeTests === false ? FILE_FLAGS.test : 0) | (params.includeGenerated === false ? FILE_FLAGS.generated : 0);
  const worst = CONFIDENCES.indexOf(params.minConfidence ?? 'resolved');
  const declarations: ReferenceHit[] = [];
  const references: ReferenceHit[] = [];
  let omitted = 0;
  members.forEach(({ record, shard }, member) => {
    const keep = (pathIndex: number) => !(shard.pathFlags[pathIndex]! & hidden) && inPaths(shard.paths[pathIndex]!);
    const via = member > 0 ? { via: peerSummary(reader, record) } : {};
    if (params.includeDeclaration && (!kinds || kinds.has('definition'))) {
      for (let i = 0; i * DEF_STRIDE < record.defs.length; i++) {
        if (keep(record.defs[i * DEF_STRIDE]!)) declarations.push({ ...defLocation(record, i, shard.paths), kind: 'definition', confidence: 'exact', ...via });
      }
    }
    const refs = record.refs;
    for (let i = 0; i < refs.length; i += REF_STRIDE) {
      const kind = REFERENCE_KINDS[refs[i + 5]!]!;
      if (kinds && !kinds.has(kind)) continue;
      if (!keep(refs[i]!)) continue;
      const confidence = refs[i + 7]!;
      if (confidence > worst) {
        omitted++;
        continue;
      }
      const from = refs[i + 6]!;
      references.push({
        path: shard.paths[refs[i]!]!,
        line: refs[i + 1]!,
        column: refs[i + 2]!,
        endLine: refs[i + 3]!,
        endColumn: refs[i + 4]!,
        kind,
        confidence: CONFIDENCES[confidence]!,
        ...(from >= 0 ? { enclosing: peerSummary(reader, shard.peer(from)) } : {}),
        ...via,
      });
    }
  });
  if (members.length === 1) return { hits: [...declarations, ...references], omitted };
  return { hits: [...samePlaceOnce(declarations), ...samePlaceOnce(references)], omitted };
}

function byPosition(a: ReferenceHit, b: ReferenceHit): number {
  return (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || a.column - b.column || a.endLine - b.endLine || a.endColumn - b.endColumn;
}

/** Sorted, with a place that names two members of the group listed once (the target's hit first: the sort is stable). */
function samePlaceOnce(hits: ReferenceHit[]): ReferenceHit[] {
  return hits.sort(byPosition).filter((hit, i) => i === 0 || byPosition(hits[i - 1]!, hit) !== 0);
}

function countByFile(hits: ReferenceHit[]): { path: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const hit of hits) counts.set(hit.path, (counts.get(hit.path) ?? 0) + 1);
  return [...counts].map(([path, count]) => ({ path, count }));
}
