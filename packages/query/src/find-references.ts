// find_references: every reference the index holds for the target, in (path, position) order,
// filtered by kind and paged; all of it comes from the target's one symbol shard.
import { CONFIDENCES, REF_STRIDE, REFERENCE_KINDS, type ReferenceKind, type SymbolRecord, type SymbolShard } from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, ReferenceHit, SymbolSummary } from './results.ts';
import { defLocation, peerSummary, summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';
import { DEF_STRIDE } from '@sextant/format';

export interface ReferenceParams extends PageRequest {
  kinds?: ReferenceKind[];
  includeDeclaration?: boolean;
}

export interface ReferencesAnswer extends Answer, PageInfo {
  symbol: SymbolSummary;
  references: ReferenceHit[];
}

export const REFERENCES_PAGE = { defaultLimit: 200, maxLimit: 2000 };

export async function findReferences(
  reader: IndexReader, target: Target, params: ReferenceParams,
): Promise<ReferencesAnswer> {
  const { record, shard } = await resolveTarget(reader, target);
  const all = collect(reader, record, shard, params);
  const query = { tool: 'find_references', key: record.key, kinds: params.kinds, includeDeclaration: params.includeDeclaration ?? false };
  const { items, page } = pageOf(all, reader.commit, query, params, REFERENCES_PAGE);
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, record, shard.paths),
    references: items,
    ...page,
  };
}

function collect(reader: IndexReader, record: SymbolRecord, shard: SymbolShard, params: ReferenceParams): ReferenceHit[] {
  const kinds = params.kinds ? new Set<ReferenceKind>(params.kinds) : undefined;
  const hits: ReferenceHit[] = [];
  if (params.includeDeclaration && (!kinds || kinds.has('definition'))) {
    for (let i = 0; i * DEF_STRIDE < record.defs.length; i++) {
      hits.push({ ...defLocation(record, i, shard.paths), kind: 'definition', confidence: 'exact' });
    }
  }
  const refs = record.refs;
  for (let i = 0; i < refs.length; i += REF_STRIDE) {
    const kind = REFERENCE_KINDS[refs[i + 5]!]!;
    if (kinds && !kinds.has(kind)) continue;
    const from = refs[i + 6]!;
    hits.push({
      path: shard.paths[refs[i]!]!,
      line: refs[i + 1]!,
      column: refs[i + 2]!,
      endLine: refs[i + 3]!,
      endColumn: refs[i + 4]!,
      kind,
      confidence: CONFIDENCES[refs[i + 7]!]!,
      ...(from >= 0 ? { enclosing: peerSummary(reader, shard.peers[from]!) } : {}),
    });
  }
  // Declarations first, then references, each in (path, position) order: a stable order pages rely on.
  return hits;
}
