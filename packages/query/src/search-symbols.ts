// search_symbols: ranked name search over the name index (one shard). Locals and parameters are
// not in it; tests and generated code are filtered unless asked for.
import { FILE_FLAGS, NAME_FLAG_EXTERNAL, pathFilter, SextantError, type Language, type SymbolKind } from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, SymbolSummary } from './results.ts';
import { entrySummary, nameEntry, type NameEntry } from './symbols.ts';

export const MATCH_MODES = ['substring', 'prefix', 'exact', 'camelCase', 'wildcard'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

export interface SearchParams extends PageRequest {
  query: string;
  matchMode?: MatchMode;
  kinds?: SymbolKind[];
  language?: Language;
  /** Globs over the declaring file's path; `!` excludes. */
  paths?: string[];
  includeTests?: boolean;
  includeGenerated?: boolean;
  includeExternal?: boolean;
}

export interface SearchHit extends SymbolSummary {
  match: 'exact' | 'prefix' | 'substring' | 'camelCase' | 'wildcard';
}

export interface SearchAnswer extends Answer, PageInfo {
  query: string;
  matchMode: MatchMode;
  results: SearchHit[];
}

export const SEARCH_PAGE = { defaultLimit: 50, maxLimit: 500 };

export async function searchSymbols(reader: IndexReader, params: SearchParams): Promise<SearchAnswer> {
  const query = params.query.trim();
  if (query.length === 0) {
    throw new SextantError('INVALID_ARGUMENT', 'query is empty.', 'Pass part of a symbol name, e.g. "OrderServ".');
  }
  const mode = params.matchMode ?? 'substring';
  const names = await reader.names();
  const matcher = makeMatcher(query, mode);
  const kinds = params.kinds ? new Set(params.kinds) : undefined;
  const inPaths = pathFilter(params.paths);
  const hits: { entry: NameEntry; rank: number; match: SearchHit['match'] }[] = [];
  for (let i = 0; i < names.name.length; i++) {
    const flags = names.flags[i]!;
    if (!params.includeTests && flags & FILE_FLAGS.test) continue;
    if (!params.includeGenerated && flags & FILE_FLAGS.generated) continue;
    if (!params.includeExternal && flags & NAME_FLAG_EXTERNAL) continue;
    const entry = nameEntry(names, i);
    if (kinds && !kinds.has(entry.kind)) continue;
    if (params.language && entry.lang !== params.language) continue;
    if (params.paths && (flags & NAME_FLAG_EXTERNAL || !inPaths(entry.path))) continue;
    const match = matcher(entry);
    if (!match) continue;
    const rank = MATCH_RANK[match] * 4 + (flags & (FILE_FLAGS.test | FILE_FLAGS.generated | FILE_FLAGS.vendored) ? 1 : 0);
    hits.push({ entry, rank, match });
  }
  hits.sort((a, b) => a.rank - b.rank || a.entry.name.length - b.entry.name.length || a.entry.index - b.entry.index);
  const { items, page } = pageOf(hits, reader.commit, { tool: 'search_symbols', ...params, cursor: undefined, limit: undefined }, params, SEARCH_PAGE);
  return {
    repo: reader.repo,
    commit: reader.commit,
    query,
    matchMode: mode,
    results: items.map(({ entry, match }) => ({ ...entrySummary(reader, entry), match })),
    ...page,
  };
}

const MATCH_RANK: Record<SearchHit['match'], number> = { exact: 0, prefix: 1, camelCase: 2, wildcard: 2, substring: 3 };

type Matcher = (entry: NameEntry) => SearchHit['match'] | undefined;

function makeMatcher(query: string, mode: MatchMode): Matcher {
  // A dotted query matches qualified names: `OrderService.submit`.
  const field = (entry: NameEntry) => (/[.:#]/.test(query) ? entry.qname : entry.name);
  const lower = query.toLowerCase();
  switch (mode) {
    case 'exact':
      return (e) => (field(e) === query ? 'exact' : undefined);
    case 'prefix':
      return (e) => {
        const f = field(e);
        return f === query ? 'exact' : f.toLowerCase().startsWith(lower) ? 'prefix' : undefined;
      };
    case 'substring':
      return (e) => {
        const f = field(e);
        if (f === query) return 'exact';
        const fl = f.toLowerCase();
        if (fl.startsWith(lower) || fl.endsWith(`.${lower}`)) return 'prefix';
        return fl.includes(lower) ? 'substring' : undefined;
      };
    case 'camelCase': {
      const pattern = camelCasePattern(query);
      return (e) => (field(e) === query ? 'exact' : pattern.test(field(e)) ? 'camelCase' : undefined);
    }
    case 'wildcard': {
      const pattern = new RegExp(`^${query.split('*').map(escapeRegExp).join('.*').replace(/\\\?/g, '.')}$`, 'i');
      return (e) => (field(e) === query ? 'exact' : pattern.test(field(e)) ? 'wildcard' : undefined);
    }
  }
}

/** `OSvc` matches `OrderService`: a capital starts a new hump, a lower-case letter stays in the current one. */
function camelCasePattern(query: string): RegExp {
  const body = [...query]
    .map((ch, i) => (i === 0 ? escapeRegExp(ch) : /[A-Z]/.test(ch) ? `.*?${ch}` : `[^A-Z]*?${escapeRegExp(ch)}`))
    .join('');
  return new RegExp(`^${body}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
