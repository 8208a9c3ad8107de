// search_symbols: ranked name search over the name index (one shard). Locals and parameters are
// not in it; tests and generated code are filtered unless asked for.
import {
  compileCamelCase, compileWildcard, entryAt, FILE_FLAGS, NAME_FLAG_EXTERNAL, NAME_SEPARATOR, pathFilter, SextantError,
  type JoinedColumn, type Language, type SymbolKind,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, SymbolSummary } from './results.ts';
import { entrySummary, nameEntry, type NameEntry } from './symbols.ts';

export const MATCH_MODES = ['substring', 'prefix', 'exact', 'camelCase', 'wildcard'] as const;
type MatchMode = (typeof MATCH_MODES)[number];

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

interface SearchHit extends SymbolSummary {
  match: 'exact' | 'prefix' | 'substring' | 'camelCase' | 'wildcard';
}

interface SearchAnswer extends Answer, PageInfo {
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
  // Compiled before any shard is read, so a pattern past the matcher's budget costs no read.
  const matcher = makeMatcher(query, mode);
  const inPaths = pathFilter(params.paths);
  const names = await reader.names();
  // A dotted query matches qualified names: `OrderService.submit`.
  const qualified = /[.:#]/.test(query);
  const column = qualified ? names.qnames : names.names;
  const field = (i: number) => (qualified ? names.qname(i) : names.name(i));
  const kinds = params.kinds ? new Set(params.kinds) : undefined;
  // Every exact, prefix or substring match contains the lowercased query: scan for those first.
  const candidates = mode === 'camelCase' || mode === 'wildcard' ? undefined : entriesContaining(column, query.toLowerCase());
  const count = candidates ? candidates.length : names.size;
  const hits: { entry: NameEntry; rank: number; match: SearchHit['match'] }[] = [];
  for (let c = 0; c < count; c++) {
    const i = candidates ? candidates[c]! : c;
    const flags = names.flags(i);
    if (!params.includeTests && flags & FILE_FLAGS.test) continue;
    if (!params.includeGenerated && flags & FILE_FLAGS.generated) continue;
    if (!params.includeExternal && flags & NAME_FLAG_EXTERNAL) continue;
    const match = matcher(field(i));
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
      const pattern = compileCamelCase(query);
      return (f) => (f === query ? 'exact' : pattern.test(f) ? 'camelCase' : undefined);
    }
    case 'wildcard': {
      const pattern = compileWildcard(query);
      return (f) => (f === query ? 'exact' : pattern.test(f) ? 'wildcard' : undefined);
    }
  }
}

/** A joined column lowercased, built once per decoded shard (the cache keeps the shard, so the column is the same object). */
const LOWERCASED = new WeakMap<JoinedColumn, JoinedColumn | null>();

/**
 * Indexes (ascending) of the entries whose lowercased name contains `lower`, found with one native
 * indexOf scan over the joined column instead of a toLowerCase and includes per symbol (150,000
 * symbols in effect). Undefined, meaning "scan every entry", when lowercasing changed the column's
 * length (so offsets no longer line up) or the query holds the separator.
 */
function entriesContaining(column: JoinedColumn, lower: string): number[] | undefined {
  let lowered = LOWERCASED.get(column);
  if (lowered === undefined) {
    const text = column.text.toLowerCase();
    lowered = text.length === column.text.length ? { text, starts: column.starts } : null;
    LOWERCASED.set(column, lowered);
  }
  if (!lowered || lower.includes(NAME_SEPARATOR)) return undefined;
  const found: number[] = [];
  for (let from = 0; ;) {
    const at = lowered.text.indexOf(lower, from);
    if (at < 0) return found;
    const entry = entryAt(lowered.starts, at);
    found.push(entry);
    from = lowered.starts[entry + 1]!;
  }
}
