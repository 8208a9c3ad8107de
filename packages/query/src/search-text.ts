// search_text: grep at the indexed commit, over every tracked text file, for a bot with no checkout.
// The gram index (gram-shard.ts) names the files a query can match in (text-search-plan.ts); each
// of them is read from its text shard and matched line by line, as ripgrep matches: a match never
// spans lines, matches on a line do not overlap, a whole-word match has no word character on
// either side. Regular expressions run on RE2's linear-time engine (re2js), so no pattern can stall
// a call. Each hit names the innermost declaration around it, and the symbol when it is exactly an
// identifier the index resolved.
//
// The whole answer is counted on every call, so `total` is exact; what is kept between calls (in
// the shard cache) is only how many matches each matching file holds, so a page re-reads the few
// files it shows.
import { RE2JS } from 're2js';
import {
  canonicalJson, FILE_FLAGS, formatSymbolId, occurrencesOf, pathFilter, SextantError, shortCommit, type FileRecord, type FileTable, type FileTableEntry, type GramShard, type OutlineNode, type TextShard,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { pageWindow } from './paging.ts';
import type { Answer, Location, PageInfo, PeerSummary } from './results.ts';
import { withSiteLines, type SiteLines } from './site-lines.ts';
import { languageFilter } from './text-types.ts';
import { foldsAsAscii, planLiteral, planRegex, requiredRuns, type TextPlan } from './text-search-plan.ts';

export const SEARCH_TEXT_PAGE = { defaultLimit: 100, maxLimit: 1000 };
/** The longest query accepted (the hardening bound of every pattern argument). */
export const MAX_TEXT_QUERY = 1000;
/** Skipped files an answer names, at most (the count is always given). */
const UNSEARCHED_EXAMPLES = 10;

export interface SearchTextParams {
  query: string;
  mode?: 'literal' | 'regex';
  /** Default: smart case, sensitive when the query holds a capital letter. */
  caseSensitive?: boolean;
  wholeWord?: boolean;
  /** Globs. */
  paths?: string[];
  /** File types by ripgrep's names (ts, md, yaml, …; text-types.ts): a file of any of them. */
  languages?: string[];
  /** Default true: test files are searched. */
  includeTests?: boolean;
  /** Default true: generated and vendored files are searched. */
  includeGenerated?: boolean;
  context?: number;
  limit?: number;
  cursor?: string;
}

export interface TextMatch extends Location, SiteLines {
  /** The innermost declaration of the index around the match. */
  enclosing?: PeerSummary;
  /** Set when the match is exactly an identifier the index resolved: its symbol, to chain into find_references. */
  symbol?: { symbolId: string; name: string };
}

export interface SearchTextAnswer extends Answer, PageInfo {
  matches: TextMatch[];
  /** Files with a match, in all. */
  files: number;
  /** Tracked files that are not searched (binary, too large, not UTF-8, links) that the path and language filters let through. */
  unsearched: { count: number; examples: { path: string; reason: string }[] };
}

/** Matches one line at a time: the match spans of a line, left to right, not overlapping. */
interface LineMatcher {
  /**
   * Where in the whole text, from `from`, the next match may start (-1: nowhere after it). Any match
   * of a line starts at or after the first such place on or before it, so the lines before that
   * place's line hold no match.
   */
  next(text: string, from: number): number;
  spans(line: string): [number, number][];
  /** The matches in a whole text (the sum of its lines' spans), without numbering its lines. */
  count(text: string): number;
}

/** The matches of a text's lines that hold one, counted line by line (the lines found by `next`, not by walking every line). */
function countByLine(text: string, matcher: Pick<LineMatcher, 'next' | 'spans'>): number {
  let count = 0;
  for (let at = matcher.next(text, 0); at >= 0;) {
    const lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    const nl = text.indexOf('\n', at);
    count += matcher.spans(text.slice(lineStart, nl < 0 ? text.length : nl)).length;
    if (nl < 0) break;
    at = matcher.next(text, nl + 1);
  }
  return count;
}

/** Visits the lines of a text that hold a match, with their spans, in order; stops when `visit` returns false. */
function scanLines(text: string, matcher: LineMatcher, visit: (line: number, lineText: string, spans: [number, number][]) => boolean | void): void {
  let lineStart = 0;
  let line = 1;
  for (let at = matcher.next(text, 0); at >= 0;) {
    // Advance to the line holding `at`, counting the line breaks passed in native code (split): a
    // loop over them runs in the interpreter on a cold call, a millisecond per thousand lines.
    const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    if (start > lineStart) {
      line += text.slice(lineStart, start).split('\n').length - 1;
      lineStart = start;
    }
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const lineText = text.slice(lineStart, lineEnd);
    const spans = matcher.spans(lineText);
    if (spans.length > 0 && visit(line, lineText, spans) === false) return;
    if (nl < 0) return;
    lineStart = nl + 1;
    line++;
    at = matcher.next(text, lineStart);
  }
}

interface FileCount {
  path: string;
  count: number;
}

export async function searchText(reader: IndexReader, params: SearchTextParams): Promise<SearchTextAnswer> {
  const query = params.query;
  if (query.length === 0 || query.length > MAX_TEXT_QUERY) {
    throw new SextantError('INVALID_ARGUMENT', `query must be 1 to ${MAX_TEXT_QUERY} characters; got ${query.length}.`, 'Search for a shorter literal or pattern.', { argument: 'query' });
  }
  if (/[\r\n]/.test(query)) {
    throw new SextantError('INVALID_ARGUMENT', 'query holds a line break, but matches are found within one line.', 'Search for one line of the text, or for each line apart.', { argument: 'query' });
  }
  const mode = params.mode ?? 'literal';
  const caseSensitive = params.caseSensitive ?? hasCapital(query, mode);
  const matcher = lineMatcher(query, mode, caseSensitive, params.wholeWord === true);
  const plan = mode === 'literal' ? planLiteral(query, !caseSensitive) : planRegex(query, !caseSensitive);
  const request = {
    tool: 'search_text', query, mode, caseSensitive, wholeWord: params.wholeWord === true, paths: params.paths,
    languages: params.languages && [...new Set(params.languages)].sort(),
    includeTests: params.includeTests ?? true, includeGenerated: params.includeGenerated ?? true,
  };
  const { offset, limit, info } = pageWindow(reader.commit, request, params, SEARCH_TEXT_PAGE);
  const whole = await reader.derived(`search-text:${reader.buildKey}:${canonicalJson(request)}`, async () => {
    const value = await countMatches(reader, request, plan, matcher);
    return { value, bytes: 64 + 48 * value.files.length };
  });

  // The page: skip the files whose matches all come before it, read the ones it shows.
  const matches: Omit<TextMatch, keyof SiteLines>[] = [];
  let before = 0;
  for (const file of whole.files) {
    if (matches.length >= limit) break;
    if (before + file.count <= offset) {
      before += file.count;
      continue;
    }
    const text = await searchableText(reader, file.path);
    const record = await reader.file(file.path);
    const occurrence = record && occurrenceFinder(record);
    scanLines(text, matcher, (line, lineText, spans) => {
      for (const [start, end] of spans) {
        if (before++ < offset) continue;
        if (matches.length >= limit) return false;
        matches.push(matchAt(reader, record, occurrence, file.path, line, start, end, lineText));
      }
      return matches.length < limit;
    });
  }
  return {
    repo: reader.repo,
    commit: reader.commit,
    matches: await withSiteLines(reader, matches, params.context),
    files: whole.files.length,
    unsearched: whole.unsearched,
    ...info(offset + matches.length, whole.total),
  };
}

/** A searchable file's text (from `shard`, when its name is known); its absence from its text shard is a corrupt index. */
async function searchableText(reader: IndexReader, path: string, shard = reader.textShardNameOf(path)): Promise<string> {
  const text = (await reader.shard<TextShard>(shard))?.text(path);
  if (text !== undefined) return text;
  throw new SextantError('INDEX_CORRUPT', `The file table of ${reader.repo}@${shortCommit(reader.commit)} lists ${path} as searchable, but shard ${shard} does not hold its text.`,
    'Rebuild the index with `indexer build` (and publish it again).', { shard });
}

/**
 * The text shard of a file of the table by ordinal: a path's shard is a hash of it, so each is
 * computed once per build (kept with the build's derived values), and only for files a query reads.
 */
async function textShardsOf(reader: IndexReader, table: FileTable): Promise<(ordinal: number) => string> {
  const names = await reader.derived(`text-shards:${reader.buildKey}`, async () => ({ value: new Array<string>(table.size), bytes: 64 + 16 * table.size }));
  return (ordinal) => (names[ordinal] ??= reader.textShardNameOf(table.entry(ordinal).path));
}

interface Counted {
  files: FileCount[];
  total: number;
  unsearched: SearchTextAnswer['unsearched'];
}

type Request = { paths?: string[]; languages?: string[]; includeTests: boolean; includeGenerated: boolean };

/** Every matching file of the commit with its count of matches, in path order. */
async function countMatches(reader: IndexReader, request: Request, plan: TextPlan, matcher: LineMatcher): Promise<Counted> {
  const table = await reader.fileTable();
  const inPaths = pathFilter(request.paths);
  const ofLanguage = languageFilter(request.languages);
  const selected = (path: string) => ofLanguage(path) && inPaths(path);
  const excluded = (request.includeTests ? 0 : FILE_FLAGS.test) | (request.includeGenerated ? 0 : FILE_FLAGS.generated | FILE_FLAGS.vendored);
  const wanted = (entry: FileTableEntry): boolean => entry.status !== 'skipped' && selected(entry.path) && (entry.flags & excluded) === 0;
  const unsearched: SearchTextAnswer['unsearched'] = { count: 0, examples: [] };
  for (const skipped of reader.manifest.skipped) {
    if (!selected(skipped.path)) continue;
    if (unsearched.count++ < UNSEARCHED_EXAMPLES) unsearched.examples.push({ path: skipped.path, reason: skipped.reason });
  }
  const chosen = await candidatesOf(reader, plan, table.size, (ordinal) => wanted(table.entry(ordinal)));
  const shardOf = await textShardsOf(reader, table);
  const files: FileCount[] = [];
  let total = 0;
  for (let from = 0; from < chosen.length; from += READ_AHEAD) {
    // The next files' shards are read together (one round trip, not one per shard), a window at a
    // time so that the shard cache holds what is about to be counted.
    const window = chosen.slice(from, from + READ_AHEAD);
    await reader.prefetch([...new Set(window.map(shardOf))]);
    for (const ordinal of window) {
      const path = table.entry(ordinal).path;
      const count = matcher.count(await searchableText(reader, path, shardOf(ordinal)));
      if (count === 0) continue;
      files.push({ path, count });
      total += count;
    }
  }
  return { files, total, unsearched };
}

/** Candidate files whose text shards are read in one round. */
const READ_AHEAD = 32;

/**
 * Candidate files under which a query looks up no more grams: a gram shard costs about what a text
 * shard does, so narrowing further would cost more than reading the candidates.
 */
const NARROW_ENOUGH = 4;
/** Gram shards one alternative of a query reads, at most. */
const MAX_GRAM_SHARDS = 12;

/**
 * The file ordinals a plan lets through that the request `wants` (its paths, languages and flags),
 * ascending: every such file, or the union over alternatives of the intersection of their grams'
 * postings. An alternative's first grams are looked up together with every other gram of their
 * shards (read anyway); when more than NARROW_ENOUGH wanted files hold them all, its remaining grams
 * are looked up in a second round (files outside the paths asked for are no reason to read more).
 */
async function candidatesOf(reader: IndexReader, plan: TextPlan, files: number, wants: (ordinal: number) => boolean): Promise<number[]> {
  if (plan.kind === 'all') return Array.from({ length: files }, (_, i) => i).filter(wants);
  const shardOf = (gram: number) => reader.gramShardNameOf(gram);
  await reader.prefetch([...new Set(plan.alternatives.flatMap((a) => a.first.map(shardOf)))]);
  const union = new Set<number>();
  for (const { first, rest, follows } of plan.alternatives) {
    const firstShards = new Set(first.map(shardOf));
    let set: Int32Array = (await postingsOfAll(reader, [...first, ...rest.filter((gram) => firstShards.has(shardOf(gram)))], follows)).filter(wants);
    // The other grams, from at most MAX_GRAM_SHARDS shards in all.
    const shards = new Set(firstShards);
    const more: number[] = [];
    for (const gram of rest) {
      const name = shardOf(gram);
      if (firstShards.has(name)) continue;
      if (!shards.has(name)) {
        if (shards.size >= MAX_GRAM_SHARDS) continue;
        shards.add(name);
      }
      more.push(gram);
    }
    if (set.length > NARROW_ENOUGH && more.length > 0) {
      await reader.prefetch([...new Set(more.map(shardOf))]);
      set = await postingsOfAll(reader, more, follows, set);
    }
    for (const ordinal of set) union.add(ordinal);
  }
  return [...union].sort((a, b) => a - b);
}

/** The files holding every one of the grams, each followed where `follows` says (and in `within`, when given). */
async function postingsOfAll(reader: IndexReader, grams: readonly number[], follows: ReadonlyMap<number, number>, within?: Int32Array): Promise<Int32Array> {
  let set = within;
  for (const gram of grams) {
    if (set?.length === 0) break;
    const shard = await reader.shard<GramShard>(reader.gramShardNameOf(gram));
    const postings = shard?.files(gram, follows.get(gram) ?? 0) ?? new Int32Array(0);
    set = set ? intersect(set, postings) : postings;
  }
  return set ?? new Int32Array(0);
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return Int32Array.from(out);
}

/** ripgrep's smart case: a capital letter in the query (in a pattern, not the letter of an escape such as \W) makes it case-sensitive. */
function hasCapital(query: string, mode: 'literal' | 'regex'): boolean {
  const text = mode === 'regex' ? query.replace(/\\[A-Za-z]/g, '') : query;
  return text !== text.toLowerCase();
}

/** Word characters as ripgrep's Unicode \w: letters, marks, decimal digits, connector punctuation, joiners. */
const WORD = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u;

/** Whether the character just before (`backwards`) or at `index` is a word character. */
function isWordAt(line: string, index: number, backwards: boolean): boolean {
  if (backwards ? index <= 0 : index >= line.length) return false;
  let at = backwards ? index - 1 : index;
  // Before a low surrogate, the character starts at its high surrogate.
  if (backwards && at > 0 && isLowSurrogate(line.charCodeAt(at)) && isHighSurrogate(line.charCodeAt(at - 1))) at--;
  return WORD.test(String.fromCodePoint(line.codePointAt(at)!));
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function lineMatcher(query: string, mode: 'literal' | 'regex', caseSensitive: boolean, wholeWord: boolean): LineMatcher {
  const bounded = (text: string, start: number, end: number) => !wholeWord || (!isWordAt(text, start, true) && !isWordAt(text, end, false));
  const literal = mode === 'literal' ? literalFinder(query, caseSensitive) : undefined;
  if (literal) {
    // The matches of a literal never span a line, so a whole text's are its lines' (a line break is no word character).
    const each = (text: string, visit: (start: number, end: number) => void) => {
      for (let at = literal.find(text, 0); at >= 0;) {
        const end = literal.end;
        if (bounded(text, at, end)) {
          visit(at, end);
          at = literal.find(text, end);
        } else at = literal.find(text, at + 1);
      }
    };
    return {
      next: (text, from) => literal.find(text, from),
      spans(line) {
        const spans: [number, number][] = [];
        each(line, (start, end) => spans.push([start, end]));
        return spans;
      },
      count(text) {
        let count = 0;
        each(text, () => count++);
        return count;
      },
    };
  }
  const pattern = mode === 'literal' ? RE2JS.quote(query) : query;
  const re = compile(pattern, caseSensitive);
  if (re.matcher('').find()) {
    throw new SextantError('INVALID_ARGUMENT', `The pattern "${query}" matches the empty string, so it would match every line.`,
      'Make the pattern require at least one character (`a+` rather than `a*`).', { argument: 'query' });
  }
  // A line holding a match holds the longest run of one of the alternatives (or, when it has no
  // literal, its longest run of characters and simple classes): lines without any are skipped by
  // finding those runs, RE2 runs on the others.
  const read = requiredRuns(query);
  const folded = !caseSensitive || read.caseInsensitive;
  const finders = read.alternatives.map((runs, i) => {
    const needle = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
    return (needle.length > 0 ? literalFinder(needle, !folded) : undefined) ?? sequenceFinder(read.sequences[i]!, folded);
  });
  const prefilter = finders.every((f) => f !== undefined) ? (finders as Finder[]) : undefined;
  const matcher: Pick<LineMatcher, 'next' | 'spans'> = {
    next(text, from) {
      if (!prefilter) {
        const m = re.matcher(text);
        return m.find(from) ? m.start() : -1;
      }
      let first = -1;
      for (const finder of prefilter) {
        const at = finder.find(text, from);
        if (at >= 0 && (first < 0 || at < first)) first = at;
      }
      return first;
    },
    spans(line) {
      const spans: [number, number][] = [];
      const m = re.matcher(line);
      for (let from = 0; from <= line.length && m.find(from);) {
        const start = m.start();
        const end = m.end();
        if (bounded(line, start, end)) {
          spans.push([start, end]);
          from = end;
        } else from = start + 1;
      }
      return spans;
    },
  };
  return { ...matcher, count: (text) => countByLine(text, matcher) };
}

/** Finds a literal: where its next occurrence starts at or after `from` (-1: none), and where that occurrence ends. */
interface Finder {
  find(text: string, from: number): number;
  /** The end of the occurrence the last find returned. */
  end: number;
}

/**
 * Needles up to this long are found case-insensitively by the platform's RegExp, whose cost per
 * position grows with the needle (it is linear in the text only for a bounded needle).
 */
const FOLDING_REGEXP_MAX = 16;

/**
 * The fastest exact finder of a literal, or undefined when there is none (RE2 finds it then): indexOf
 * when case matters. When it does not, a short needle by a RegExp with Unicode simple case folding
 * (flags iu: the folding ripgrep and RE2 use, ſ for s and K for k included); a longer one by indexOf
 * over the text folded to ASCII lower case, when ASCII folding is all case folding does to it.
 */
function literalFinder(needle: string, caseSensitive: boolean): Finder | undefined {
  if (caseSensitive) {
    return {
      end: 0,
      find(text, from) {
        const at = text.indexOf(needle, from);
        this.end = at + needle.length;
        return at;
      },
    };
  }
  if (needle.length <= FOLDING_REGEXP_MAX) return regExpFinder(new RegExp(needle.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'giu'));
  if (!foldsAsAscii(needle)) return undefined;
  const folded = foldAscii(needle);
  let last: { text: string; folded: string } | undefined;
  return {
    end: 0,
    find(text, from) {
      if (last?.text !== text) last = { text, folded: foldAscii(text) };
      const at = last.folded.indexOf(folded, from);
      this.end = at + folded.length;
      return at;
    },
  };
}

/**
 * Finds a run of characters and simple classes (RequiredRuns.sequences) with the platform's RegExp:
 * a concatenation of at most MAX_SEQUENCE single-character atoms, which a backtracking engine
 * matches in time linear in the text. Undefined when there is none, or the platform reads it
 * otherwise (RE2 then finds the lines).
 */
function sequenceFinder(source: string, caseInsensitive: boolean): Finder | undefined {
  if (source.length === 0) return undefined;
  try {
    return regExpFinder(new RegExp(source, caseInsensitive ? 'giu' : 'gu'));
  } catch {
    return undefined;
  }
}

/** A finder by a global RegExp of the platform's (one whose matching is linear in the text). */
function regExpFinder(re: RegExp): Finder {
  return {
    end: 0,
    find(text, from) {
      re.lastIndex = from;
      const m = re.exec(text);
      if (!m) return -1;
      this.end = m.index + m[0].length;
      return m.index;
    },
  };
}

/** ASCII capitals to lower case, nothing else: the text keeps its length, so offsets stay valid. */
function foldAscii(text: string): string {
  // All ASCII (most source files): the platform's toLowerCase is the same, and fastest.
  return NON_ASCII.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text.toLowerCase();
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Constructs RE2 does not have, by how a user writes them, for an error that names the one used. */
const UNSUPPORTED: [RegExp, string][] = [
  [/\(\?<?[=!]/, 'lookaround ((?=…), (?!…), (?<=…), (?<!…))'],
  [/\\[1-9]/, 'a backreference (\\1 …)'],
  [/\\k</, 'a named backreference (\\k<name>)'],
  [/\(\?>/, 'an atomic group ((?>…))'],
  [/[*+?}]\+/, 'a possessive quantifier (*+, ++, ?+)'],
];

function compile(pattern: string, caseSensitive: boolean): RE2JS {
  try {
    // MULTILINE: a whole text's ^ and $ are its lines', so the quick test over the text is a superset of the lines'.
    return RE2JS.compile(pattern, (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE) | RE2JS.MULTILINE);
  } catch (error) {
    const construct = UNSUPPORTED.find(([probe]) => probe.test(pattern))?.[1];
    throw new SextantError('INVALID_ARGUMENT',
      construct ? `The pattern uses ${construct}, which RE2 syntax does not have: matching stays linear in the text only without it.` : `The pattern is not RE2 syntax: ${(error as Error).message}.`,
      construct ? 'Rewrite the pattern without it, or search for a literal (mode "literal").' : 'Fix the pattern (RE2 syntax, as ripgrep reads it), or search for a literal (mode "literal").',
      { argument: 'query', ...(construct ? { construct } : {}) });
  }
}

/** A match as the answer shows it: its place, and the declaration and symbol it is in or is. */
function matchAt(reader: IndexReader, record: FileRecord | undefined, occurrence: OccurrenceFinder | undefined, path: string, line: number, start: number, end: number, text: string): Omit<TextMatch, keyof SiteLines> {
  const match: Omit<TextMatch, keyof SiteLines> = { path, line, column: start + 1, endLine: line, endColumn: end + 1 };
  if (!record) return match;
  const enclosing = innermost(record.outline, line, start + 1);
  if (enclosing && enclosing.sym >= 0) {
    match.enclosing = { symbolId: formatSymbolId(record.syms[enclosing.sym]!, reader.commit), name: enclosing.name, kind: enclosing.kind };
  }
  const key = occurrence?.(line, start + 1, end + 1);
  if (key !== undefined) match.symbol = { symbolId: formatSymbolId(key, reader.commit), name: text.slice(start, end) };
  return match;
}

/** The symbol key of the one-line occurrence spanning exactly `line:column-endColumn`, asked in position order. */
type OccurrenceFinder = (line: number, column: number, endColumn: number) => string | undefined;

/** Walks the file's occurrences (stored by position) once, alongside a page's matches, which come in position order. */
function occurrenceFinder(record: FileRecord): OccurrenceFinder {
  const cursor = occurrencesOf(record);
  let current = cursor.next();
  return (line, column, endColumn) => {
    while (!current.done && (current.value.line < line || (current.value.line === line && current.value.column < column))) current = cursor.next();
    // Several occurrences may start here (stored by symbol, then kind): the first that ends where the match does.
    while (!current.done && current.value.line === line && current.value.column === column) {
      const o = current.value;
      if (o.endLine === line && o.endColumn === endColumn) return record.syms[o.symbolIndex]!;
      current = cursor.next();
    }
    return undefined;
  };
}

function innermost(nodes: readonly OutlineNode[], line: number, column: number): OutlineNode | undefined {
  for (const node of nodes) {
    const [l0, c0, l1, c1] = node.range;
    const inside = (line > l0 || (line === l0 && column >= c0)) && (line < l1 || (line === l1 && column < c1));
    if (inside) return innermost(node.children, line, column) ?? node;
  }
  return undefined;
}
