// find_references: every reference the index holds for the target, in REFERENCE_ORDER (production,
// then tests, then generated; each by path and position: the order the shard writer stores them in),
// filtered and paged. For a member, the references of its related members (member-group.ts) are
// included too, as the TypeScript language service includes them, each marked with the member it
// names.
import {
  compareInReferenceOrder, CONFIDENCES, defsOf, FILE_FLAGS, pathFilter, refAt, REFERENCE_ORDER, refsOf, siteClass,
  type Confidence, type ReferenceKind,
} from '@sextant/format';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { isNameMatched } from './name-matched.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, Location, PageInfo, ReferenceHit, SymbolSummary } from './results.ts';
import { RELATED_BOUND, relatedMembers, type RelatedMembers } from './member-group.ts';
import { defLocation, peerSummary, summarize } from './symbols.ts';
import { withSiteLines, type SiteLines } from './site-lines.ts';
import { resolveTarget, type Target } from './target.ts';
import { reportOf, unresolvedReason, unresolvedUsesOf, type UnresolvedReport } from './unresolved.ts';

interface ReferenceParams extends PageRequest {
  kinds?: ReferenceKind[];
  includeDeclaration?: boolean;
  /** Globs over the referencing file's path; `!` excludes. */
  paths?: string[];
  includeTests?: boolean;
  includeGenerated?: boolean;
  minConfidence?: Confidence;
  groupByFile?: boolean;
  /** Also the references of related members (member-group.ts); default true. */
  includeRelated?: boolean;
  /** Lines before and after each reference (site-lines.ts); every reference has its own line. */
  context?: number;
}

export interface ReferencesAnswer extends Answer, PageInfo {
  symbol: SymbolSummary;
  /** The other members whose references are included (includeRelated), in the order they were reached from the target. */
  related: SymbolSummary[];
  references: (ReferenceHit & SiteLines)[];
  /** The order of references (REFERENCE_ORDER), declarations (includeDeclaration) before them. */
  order: typeof REFERENCE_ORDER;
  /** References that matched every other filter but were below minConfidence. */
  omittedBelowConfidence: number;
  /**
   * Identifiers named like the symbol (or a related member), used as it could be, in files the
   * filters keep, that the indexer resolved to nothing: each may be a reference this list lacks.
   * With any, totalIsExact is false.
   */
  unresolved: UnresolvedReport;
  /** With groupByFile: every file of the whole result (not only this page) with its count. */
  files?: { path: string; count: number }[];
}

export const REFERENCES_PAGE = { defaultLimit: 200, maxLimit: 2000 };

/** Names the relation member-group.ts follows for find_references; change it when the relation changes. */
const RELATION = 'hierarchy+sameProperty';

export async function findReferences(reader: IndexReader, target: Target, params: ReferenceParams): Promise<ReferencesAnswer> {
  const start = await resolveTarget(reader, target);
  const group: RelatedMembers = params.includeRelated === false ? { members: [start] } : await relatedMembers(reader, start, 'hierarchy');
  // A name-matched language has nothing but candidates: leaving them out by default would answer nothing.
  const nameMatched = isNameMatched(reader, start.record.lang);
  const minConfidence = params.minConfidence ?? (nameMatched ? 'candidate' : 'resolved');
  const { found, omitted, candidates, hit } = collectReferences(reader, group.members, { ...params, minConfidence });
  const query = {
    tool: 'find_references', key: start.record.key, kinds: params.kinds, includeDeclaration: params.includeDeclaration ?? false,
    paths: params.paths, includeTests: params.includeTests, includeGenerated: params.includeGenerated, minConfidence,
    // Which relation `related` follows: a cursor minted under another one would page a different list.
    includeRelated: params.includeRelated === false ? false : RELATION,
    // A cursor of a server that answered in (path, position) order would page another list.
    order: REFERENCE_ORDER,
  };
  const { items, page } = pageOf(found, reader.commit, query, params, REFERENCES_PAGE);
  const cuts: string[] = [];
  if (group.truncatedBy) cuts.push(`related members: more than ${RELATED_BOUND.maxNodes}; references of the rest are not included`);
  const { kinds, inPaths, hidden } = siteFilters(params);
  const unresolved = reportOf(await unresolvedUsesOf(reader, group.members,
    (site) => (!kinds || kinds.has(site.kind)) && !(site.flags & hidden) && inPaths(site.path)));
  if (unresolved.count > 0) cuts.push(unresolvedReason(unresolved));
  if (candidates > 0) {
    cuts.push(`${candidates} reference${candidates === 1 ? ' is a candidate' : 's are candidates'} matched by name only${nameMatched ? ` (${start.record.lang} is indexed syntactically)` : ''}: any may name another declaration called ${start.record.name}`);
  }
  if (cuts.length) {
    page.totalIsExact = false;
    page.truncationReason = [...cuts, ...(page.truncationReason ? [page.truncationReason] : [])].join('; ');
  }
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, start.record, start.shard.paths),
    related: group.members.slice(1).map((m) => summarize(reader, m.record, m.shard.paths)),
    references: await withSiteLines(reader, items.map(hit), params.context),
    order: REFERENCE_ORDER,
    omittedBelowConfidence: omitted,
    unresolved,
    ...(params.groupByFile ? { files: countByFile(found) } : {}),
    ...page,
  };
}

/** A reference found, with what sorting and counting need; made into a ReferenceHit only when on the page. */
interface Found extends Location {
  /** siteClass of the file. */
  siteClass: number;
  /** Index into the members. */
  member: number;
  /** Index of the reference in the member's refs, or of the declaration in its defs (kind definition). */
  at: number;
  definition: boolean;
}

/**
 * Declarations first (when asked for), then references, each in REFERENCE_ORDER: pages rely on it.
 * `members[0]` is the target; hits of the others carry `via`. A place that names two members is
 * listed once, as the target's when it is one.
 */
function collectReferences(
  reader: IndexReader, members: LoadedSymbol[], params: ReferenceParams,
): { found: Found[]; omitted: number; candidates: number; hit: (found: Found) => ReferenceHit } {
  const { kinds, inPaths, hidden } = siteFilters(params);
  const allowed: ReadonlySet<Confidence> = new Set(CONFIDENCES.slice(0, CONFIDENCES.indexOf(params.minConfidence ?? 'resolved') + 1));
  const declarations: Found[] = [];
  const references: Found[] = [];
  let omitted = 0;
  let candidates = 0;
  members.forEach(({ record, shard }, member) => {
    const keep = (pathIndex: number) => !(shard.pathFlags[pathIndex]! & hidden) && inPaths(shard.paths[pathIndex]!);
    if (params.includeDeclaration && (!kinds || kinds.has('definition'))) {
      for (const def of defsOf(record)) {
        if (keep(def.pathIndex)) {
          declarations.push({ ...defLocation(record, def.index, shard.paths), siteClass: siteClass(shard.pathFlags[def.pathIndex]!), member, at: def.index, definition: true });
        }
      }
    }
    for (const ref of refsOf(record)) {
      if (kinds && !kinds.has(ref.kind)) continue;
      if (!keep(ref.pathIndex)) continue;
      if (!allowed.has(ref.confidence)) {
        omitted++;
        continue;
      }
      if (ref.confidence === 'candidate') candidates++;
      references.push({
        path: shard.paths[ref.pathIndex]!, line: ref.line, column: ref.column, endLine: ref.endLine, endColumn: ref.endColumn,
        siteClass: siteClass(shard.pathFlags[ref.pathIndex]!), member, at: ref.index, definition: false,
      });
    }
  });
  const hit = (found: Found): ReferenceHit => {
    const { record, shard } = members[found.member]!;
    const location = { path: found.path, line: found.line, column: found.column, endLine: found.endLine, endColumn: found.endColumn };
    const via = found.member > 0 ? { via: peerSummary(reader, record) } : {};
    if (found.definition) return { ...location, kind: 'definition', confidence: 'exact', ...via };
    const { kind, confidence, fromIndex } = refAt(record, found.at);
    return {
      ...location,
      kind,
      confidence,
      ...(fromIndex >= 0 ? { enclosing: peerSummary(reader, shard.peer(fromIndex)) } : {}),
      ...via,
    };
  };
  // Declarations are few and stored by path: ordered here. One member's references are stored in
  // order; merged members' are interleaved.
  const found = members.length === 1 ? [...inOrder(declarations), ...inOrder(references)] : [...samePlaceOnce(declarations), ...samePlaceOnce(references)];
  return { found, omitted, candidates, hit };
}

/** The filters a site must pass, for references and unresolved identifiers alike: kinds, path globs, and the FILE_FLAGS left out. */
function siteFilters(params: ReferenceParams): { kinds?: Set<ReferenceKind>; inPaths: (path: string) => boolean; hidden: number } {
  return {
    kinds: params.kinds ? new Set<ReferenceKind>(params.kinds) : undefined,
    inPaths: pathFilter(params.paths),
    hidden: (params.includeTests === false ? FILE_FLAGS.test : 0) | (params.includeGenerated === false ? FILE_FLAGS.generated : 0),
  };
}

/**
 * The list in REFERENCE_ORDER. Already so when read from one record of an index written in that
 * order (one pass checks it); an index written before it holds (path, position) order, which the
 * stable sort turns into the same answer.
 */
function inOrder(found: Found[]): Found[] {
  for (let i = 1; i < found.length; i++) if (compareInReferenceOrder(found[i - 1]!, found[i]!) > 0) return found.sort(compareInReferenceOrder);
  return found;
}

/** Sorted, with a place that names two members of the group listed once (the target's first: the sort is stable). */
function samePlaceOnce(found: Found[]): Found[] {
  return found.sort(compareInReferenceOrder).filter((f, i) => i === 0 || compareInReferenceOrder(found[i - 1]!, f) !== 0);
}

function countByFile(found: Location[]): { path: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const f of found) counts.set(f.path, (counts.get(f.path) ?? 0) + 1);
  return [...counts].map(([path, count]) => ({ path, count }));
}
