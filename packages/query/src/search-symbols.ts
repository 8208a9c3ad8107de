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
  // A dotted query matches qualified names: `OrderService.submit`.
  const column = /[.:#]/.test(query) ? names.qname : names.name;
  const matcher = makeMatcher(query, mode);
  const kinds = params.kinds ? new Set(params.kinds) : undefined;
  const inPaths = pathFilter(params.paths);
  // Every exact, prefix or substring match contains the lowercased query: scan for those first.
  const candidates = mode === 'camelCase' || mode === 'wildcard' ? undefined : entriesContaining(column, query.toLowerCase());
  const count = candidates ? candidates.length : column.length;
  const hits: { entry: NameEntry; rank: number; match: SearchHit['match'] }[] = [];
  for (let c = 0; c < count; c++) {
    const i = candidates ? candidates[c]! : c;
    const flags = names.flags[i]!;
    if (!params.includeTests && flags & FILE_FLAGS.test) continue;
    if (!params.includeGenerated && flags & FILE_FLAGS.generated) continue;
    if (!params.includeExternal && flags & NAME_FLAG_EXTERNAL) continue;
    const match = matcher(column[i]!);
    if (!match) continue;
    const entry = nameEntry(names, i);
    if (kinds && !kinds.has(entry.kind)) continue;
    if (params.language && entry.lang !== params.language) continue;
    if (params.paths && (flags & NAME_FLAG_EXTERNAL || !inPaths(entry.path))) continue;
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

type Matcher = (field: string) => SearchHit['match'] | undefined;

function makeMatcher(query: string, mode: MatchMode): Matcher {
  const lower = query.toLowerCase();
  switch (mode) {
    case 'exact':
      return (f) => (f === query ? 'exact' : undefined);
    case 'prefix':
      return (f) => (f === query ? 'exact' : f.toLowerCase().startsWith(lower) ? 'prefix' : undefined);
    case 'substring':
      return (f) => {
        if (f === query) return 'exact';
        const fl = f.toLowerCase();
        if (fl.startsWith(lower) || fl.endsWith(`.${lower}`)) return 'prefix';
        return fl.includes(lower) ? 'substring' : undefined;
      };
    case 'camelCase': {
      const pattern = camelCasePattern(query);
      return (f) => (f === query ? 'exact' : pattern.test(f) ? 'camelCase' : undefined);
    }
    case 'wildcard': {
      const pattern = new RegExp(`^${query.split('*').map(escapeRegExp).join('.*').replace(/\\\?/g, '.')}$`, 'i');
      return (f) => (f === query ? 'exact' : pattern.test(f) ? 'wildcard' : undefined);
    }
  }
}

/** A shard's column of names, lowercased and joined, with where each entry starts (and, last, the end). */
interface JoinedColumn {
  text: string;
  starts: Int32Array;
}

const SEPARATOR = '\0';
/** Built once per decoded shard (the cache keeps the shard, so the column array is the same object). */
const JOINED = new WeakMap<string[], JoinedColumn | null>();

/**
 * Indexes (ascending) of the entries whose lowercased name contains `lower`, found with one native
 * indexOf scan over the joined column instead of a toLowerCase and includes per symbol (150,000
 * symbols in effect). Undefined, meaning "scan every entry", when the column cannot be joined
 * faithfully (lowercasing changed a length) or the query holds the separator.
 */
function entriesContaining(column: string[], lower: string): number[] | undefined {
  const joined = joinedColumn(column);
  if (!joined || lower.includes(SEPARATOR)) return undefined;
  const found: number[] = [];
  for (let from = 0; ;) {
    const at = joined.text.indexOf(lower, from);
    if (at < 0) return found;
    const entry = entryAt(joined.starts, at);
    found.push(entry);
    from = joined.starts[entry + 1]!;
  }
}

function joinedColumn(column: string[]): JoinedColumn | null {
  let joined = JOINED.get(column);
  if (joined === undefined) {
    const text = column.join(SEPARATOR).toLowerCase();
    const starts = new Int32Array(column.length + 1);
    let at = 0;
    for (let i = 0; i < column.length; i++) {
      starts[i] = at;
      at += column[i]!.length + 1;
    }
    starts[column.length] = at;
    joined = column.length > 0 && text.length === at - 1 ? { text, starts } : null;
    JOINED.set(column, joined);
  }
  return joined;
}

/** The entry whose span holds `position`: the last start at or before it. */
function entryAt(starts: Int32Array, position: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= position) low = mid;
    else high = mid - 1;
  }
  return low;
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
