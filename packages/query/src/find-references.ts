// find_references: every reference the index holds for the target, in (path, position) order,
// filtered and paged; all of it comes from the target's one symbol shard.
import {
  CONFIDENCES, DEF_STRIDE, FILE_FLAGS, pathFilter, REF_STRIDE, REFERENCE_KINDS,
  type Confidence, type ReferenceKind, type SymbolRecord, type SymbolShard,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, ReferenceHit, SymbolSummary } from './results.ts';
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
}

export interface ReferencesAnswer extends Answer, PageInfo {
  symbol: SymbolSummary;
  references: ReferenceHit[];
  /** References that matched every other filter but were below minConfidence. */
  omittedBelowConfidence: number;
  /** With groupByFile: every file of the whole result (not only this page) with its count. */
  files?: { path: string; count: number }[];
}

export const REFERENCES_PAGE = { defaultLimit: 200, maxLimit: 2000 };

export async function findReferences(reader: IndexReader, target: Target, params: ReferenceParams): Promise<ReferencesAnswer> {
  const { record, shard } = await resolveTarget(reader, target);
  const { hits, omitted } = collectReferences(reader, record, shard, params);
  const query = {
    tool: 'find_references', key: record.key, kinds: params.kinds, includeDeclaration: params.includeDeclaration ?? false,
    paths: params.paths, includeTests: params.includeTests, includeGenerated: params.includeGenerated, minConfidence: params.minConfidence,
  };
  const { items, page } = pageOf(hits, reader.commit, query, params, REFERENCES_PAGE);
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, record, shard.paths),
    references: items,
    omittedBelowConfidence: omitted,
    ...(params.groupByFile ? { files: countByFile(hits) } : {}),
    ...page,
  };
}

/** Declarations first (when asked for), then references, each in (path, position) order: pages rely on it. */
export function collectReferences(
  reader: IndexReader, record: SymbolRecord, shard: SymbolShard, params: ReferenceParams,
): { hits: ReferenceHit[]; omitted: number } {
  const kinds = params.kinds ? new Set<ReferenceKind>(params.kinds) : undefined;
  const inPaths = pathFilter(params.paths);
  const hidden = (params.includeTests === false ? FILE_FLAGS.test : 0) | (params.includeGenerated === false ? FILE_FLAGS.generated : 0);
  const keep = (pathIndex: number) => !(shard.pathFlags[pathIndex]! & hidden) && inPaths(shard.paths[pathIndex]!);
  const worst = CONFIDENCES.indexOf(params.minConfidence ?? 'resolved');
  const hits: ReferenceHit[] = [];
  let omitted = 0;
  if (params.includeDeclaration && (!kinds || kinds.has('definition'))) {
    for (let i = 0; i * DEF_STRIDE < record.defs.length; i++) {
      if (keep(record.defs[i * DEF_STRIDE]!)) hits.push({ ...defLocation(record, i, shard.paths), kind: 'definition', confidence: 'exact' });
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
    hits.push({
      path: shard.paths[refs[i]!]!,
      line: refs[i + 1]!,
      column: refs[i + 2]!,
      endLine: refs[i + 3]!,
      endColumn: refs[i + 4]!,
      kind,
      confidence: CONFIDENCES[confidence]!,
      ...(from >= 0 ? { enclosing: peerSummary(reader, shard.peers[from]!) } : {}),
    });
  }
  return { hits, omitted };
}

function countByFile(hits: ReferenceHit[]): { path: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const hit of hits) counts.set(hit.path, (counts.get(hit.path) ?? 0) + 1);
  return [...counts].map(([path, count]) => ({ path, count }));
}
