// Resolving what a tool call is about. Exactly one of: a symbolId, a position, a qualified name or
// a name. Never an arbitrary pick: several matches are an AMBIGUOUS_SYMBOL error with candidates.
import {
  abbreviatesCommit, formatSymbolId, NAME_FLAG_EXTERNAL, occurrencesOf, parseSymbolId, SextantError, shortCommit, siteClass, type ExternalOrigin, type FileRecord, type SymbolKind,
} from '@sextant/format';
import { fileLines } from './file-tools.ts';
import { identifierAt } from './identifier-at.ts';
import { isNameMatched } from './name-matched.ts';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { nameEntry, type NameEntry } from './symbols.ts';

export interface Target {
  symbolId?: string;
  path?: string;
  line?: number;
  column?: number;
  qualifiedName?: string;
  name?: string;
}

/** How the target was given, echoed in answers so a caller sees what was resolved from what. */
type TargetForm = 'symbolId' | 'position' | 'qualifiedName' | 'name';

export function targetForm(target: Target): TargetForm {
  const forms: TargetForm[] = [];
  if (target.symbolId !== undefined) forms.push('symbolId');
  if (target.path !== undefined || target.line !== undefined || target.column !== undefined) forms.push('position');
  if (target.qualifiedName !== undefined) forms.push('qualifiedName');
  if (target.name !== undefined) forms.push('name');
  if (forms.length !== 1) {
    throw new SextantError('INVALID_ARGUMENT',
      forms.length === 0 ? 'No target given.' : `Several targets given (${forms.join(', ')}).`,
      'Give exactly one of: symbolId; path + line + column; qualifiedName; name.');
  }
  const form = forms[0]!;
  if (form === 'position' && (target.path === undefined || target.line === undefined || target.column === undefined)) {
    throw new SextantError('INVALID_ARGUMENT', 'A position needs path, line and column together.',
      'Pass path (repository-relative), line and column (1-based; column in UTF-16 code units).');
  }
  return form;
}

export async function resolveTarget(reader: IndexReader, target: Target): Promise<LoadedSymbol> {
  switch (targetForm(target)) {
    case 'symbolId':
      return bySymbolId(reader, target.symbolId!);
    case 'position':
      return byPosition(reader, target.path!, target.line!, target.column!);
    case 'qualifiedName':
      return byNames(reader, target.qualifiedName!, 'qualifiedName');
    case 'name':
      return byNames(reader, target.name!, 'name');
  }
}

async function bySymbolId(reader: IndexReader, symbolId: string): Promise<LoadedSymbol> {
  const { key, commit } = parseSymbolId(symbolId);
  if (!abbreviatesCommit(commit, reader.commit)) {
    const current = await reader.symbol(key);
    throw new SextantError('STALE_SYMBOL',
      `symbolId ${symbolId} belongs to commit ${commit}; this index is commit ${shortCommit(reader.commit)} of ${reader.repo}.`,
      current
        ? `The same symbol exists at ${shortCommit(reader.commit)} as ${formatSymbolId(key, reader.commit)}; use that id, or ask for commit ${commit} explicitly.`
        : `Ask for commit ${commit} explicitly, or look the symbol up again by name at this commit.`,
      { symbolCommit: commit, indexCommit: reader.commit, ...(current ? { currentSymbolId: formatSymbolId(key, reader.commit) } : {}) });
  }
  const loaded = await reader.symbol(key);
  if (!loaded) {
    throw new SextantError('SYMBOL_NOT_FOUND', `No symbol ${symbolId} in ${reader.repo}@${shortCommit(reader.commit)}.`,
      'Look the symbol up again with search_symbols.');
  }
  return loaded;
}

export async function fileOrThrow(reader: IndexReader, path: string): Promise<FileRecord> {
  const file = await reader.file(normalizePath(path));
  if (file) return file;
  // A skipped name is matched as given too: `back\\slash.ts` is skipped as unaddressable under its own name.
  const skipped = reader.manifest.skipped.find((entry) => entry.path === normalizePath(path) || entry.path === path);
  throw new SextantError('FILE_NOT_FOUND',
    skipped
      ? `${path} is tracked at ${shortCommit(reader.commit)} but was not indexed: ${skipped.detail}.`
      : `${path} is not an indexed file of ${reader.repo}@${shortCommit(reader.commit)}.`,
    skipped
      ? 'Nothing can be answered from this file; see index_status for every skipped file.'
      : 'Use a repository-relative path with forward slashes, of a file tracked at this commit in an indexed language.');
}

async function byPosition(reader: IndexReader, path: string, line: number, column: number): Promise<LoadedSymbol> {
  const file = await fileOrThrow(reader, path);
  const lineCount = file.lineLengths.length;
  if (line < 1 || line > lineCount || column < 1 || column > file.lineLengths[line - 1]! + 1) {
    throw new SextantError('POSITION_OUT_OF_RANGE',
      `${path}:${line}:${column} is outside the file (${lineCount} lines${line >= 1 && line <= lineCount ? `; line ${line} has ${file.lineLengths[line - 1]} columns` : ''}).`,
      'Lines and columns are 1-based; columns count UTF-16 code units.');
  }
  const key = occurrenceAt(file, line, column);
  if (key === undefined) throw await noSymbolAt(reader, file, path, line, column);
  const loaded = await reader.symbol(key);
  if (!loaded) {
    throw new SextantError('INDEX_CORRUPT', `The occurrence at ${path}:${line}:${column} names symbol ${key}, which no shard holds.`,
      'Rebuild the index with `indexer build`.', { shard: reader.symbolShardNameOf(key) });
  }
  return loaded;
}

/**
 * Why a position names no symbol. On an identifier the indexer did not resolve (an import the
 * tsconfig cannot resolve, a name Java/Kotlin scope resolution did not find) it says so, and where
 * the language is resolved syntactically it lists the declarations of that name, as name-only
 * matches; elsewhere (whitespace, a comment, a literal, a keyword) it says that.
 */
async function noSymbolAt(reader: IndexReader, file: FileRecord, path: string, line: number, column: number): Promise<SextantError> {
  const word = identifierAt(await fileLines(reader, file.path), line, column);
  if (word === undefined) {
    return new SextantError('NO_SYMBOL_AT_POSITION',
      `No symbol at ${path}:${line}:${column} (whitespace, a comment, a literal or a keyword).`,
      'Point at an identifier: any column from its first character to its last, or use file symbols from search_symbols.');
  }
  const unresolved = `No symbol at ${path}:${line}:${column}: an identifier \`${word}\` that no declaration in the index matches (not resolved by the indexer)`;
  if (reader.manifest.languages[file.lang]?.precision === 'compiler') {
    return new SextantError('NO_SYMBOL_AT_POSITION', `${unresolved}.`,
      `The compiler resolved it to no declaration (an import it cannot resolve, a member of an untyped value, a global without types). Find declarations named ${word} with search_symbols.`,
      { identifier: word });
  }
  const names = await reader.names();
  const named = [...new Set(names.exactly(names.names, word))].map((i) => nameEntry(names, i));
  // A name-matched language's uses name its own declarations (where it has any of that name).
  const nameMatched = isNameMatched(reader, file.lang);
  const own = nameMatched ? named.filter((e) => e.lang === file.lang) : [];
  const entries = (own.length ? own : named).sort(candidateOrder);
  const candidates = await candidatesOf(reader, entries.slice(0, NAME_ONLY_CANDIDATES));
  const listed = candidates.map((c) => c.qualifiedName).join(', ');
  const what = nameMatched
    ? `No resolved symbol at ${path}:${line}:${column}: \`${word}\` is matched by name only (${file.lang} is indexed syntactically, by tags)`
    : unresolved;
  return new SextantError('NO_SYMBOL_AT_POSITION',
    entries.length
      ? `${what}; ${entries.length} declaration${entries.length === 1 ? '' : 's'} named ${word}, matched by name only: ${listed}${entries.length > candidates.length ? ', …' : ''}.`
      : `${what}; no declaration is named ${word} either.`,
    nameMatched
      ? `${file.lang} has no compiler or SCIP index here; a candidate may be the one meant (check the file's imports), or the declaration is outside the repository. A SCIP index (indexer build --scip) makes it precise.`
      : `${file.lang} is resolved by scope and imports, not by a compiler; a name-only candidate may be the one meant (check its imports), or the declaration is outside the repository.`,
    { identifier: word, match: 'name-only', candidates, totalCandidates: entries.length });
}

/** At most this many name-only candidates are listed for an unresolved identifier. */
const NAME_ONLY_CANDIDATES = 10;

/** Candidates as errors list them: symbolId, names and kind, and the declaration, or the package (and version) of an external. */
async function candidatesOf(reader: IndexReader, entries: NameEntry[]): Promise<SymbolCandidate[]> {
  // An external's version is in its record, not in the name shard: read the records of the few listed.
  const externals = entries.filter(isExternalEntry);
  await reader.prefetch([...new Set(externals.map((m) => reader.symbolShardNameOf(m.key)))]);
  const origins = new Map(await Promise.all(externals.map(async (m) => [m.key, (await reader.symbol(m.key))?.record.external ?? { package: m.pkg }] as const)));
  return entries.map((m) => ({
    symbolId: formatSymbolId(m.key, reader.commit), name: m.name, qualifiedName: m.qname, kind: m.kind,
    ...(origins.has(m.key) ? { external: origins.get(m.key)! } : { path: m.path, line: m.line, column: m.column }),
  }));
}

/** A candidate of AMBIGUOUS_SYMBOL or of an unresolved identifier (error.data.candidates). */
interface SymbolCandidate {
  symbolId: string;
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  path?: string;
  line?: number;
  column?: number;
  external?: ExternalOrigin;
}

/** The symbol key of the occurrence covering the position; a caret just past an identifier also counts. */
export function occurrenceAt(file: FileRecord, line: number, column: number): string | undefined {
  return occurrenceSiteAt(file, line, column)?.key;
}

/** The occurrence a position is on (or, failing that, ends at): its symbol's key and where it starts. */
export function occurrenceSiteAt(file: FileRecord, line: number, column: number): { key: string; line: number; column: number } | undefined {
  let touching: { key: string; line: number; column: number } | undefined;
  for (const o of occurrencesOf(file)) {
    if (o.line > line) break;
    const after = o.line < line || (o.line === line && o.column <= column);
    const before = o.endLine > line || (o.endLine === line && column < o.endColumn);
    if (after && before) return { key: file.syms[o.symbolIndex]!, line: o.line, column: o.column };
    if (after && o.endLine === line && column === o.endColumn) touching = { key: file.syms[o.symbolIndex]!, line: o.line, column: o.column };
  }
  return touching;
}

async function byNames(reader: IndexReader, query: string, field: 'name' | 'qualifiedName'): Promise<LoadedSymbol> {
  const names = await reader.names();
  const found = field === 'name' ? names.exactly(names.names, query) : names.exactly(names.qnames, query);
  if (field === 'qualifiedName') {
    // `path:qualified.name`: the qualified name after any colon, declared in the path before it.
    for (let colon = query.indexOf(':'); colon > 0; colon = query.indexOf(':', colon + 1)) {
      const path = query.slice(0, colon);
      found.push(...names.exactly(names.qnames, query.slice(colon + 1)).filter((i) => !names.isExternal(i) && names.loc(i).path === path));
    }
  }
  const matches = [...new Set(found)].sort((a, b) => a - b).map((i) => nameEntry(names, i));
  const unique = [...new Map(matches.map((m) => [m.key, m])).values()].sort(candidateOrder);
  if (unique.length === 0) {
    throw new SextantError('SYMBOL_NOT_FOUND', `No symbol with ${field === 'name' ? 'name' : 'qualified name'} "${query}" in ${reader.repo}@${shortCommit(reader.commit)}.`,
      field === 'name'
        ? 'Names match exactly and case-sensitively here; use search_symbols for fuzzy matching. Locals and parameters are found by position only.'
        : 'Qualified names are dotted inside their module (OrderService.submit), optionally prefixed by the path and a colon (src/orders.ts:OrderService.submit).');
  }
  if (unique.length > 1) {
    throw new SextantError('AMBIGUOUS_SYMBOL',
      `${unique.length} symbols are named "${query}"; say which one.`,
      'Call again with one of the candidates\' symbolId (or a path + line + column, or a qualifiedName with its path).',
      { candidates: await candidatesOf(reader, unique.slice(0, 50)), totalCandidates: unique.length });
  }
  const loaded = await reader.symbol(unique[0]!.key);
  if (!loaded) {
    throw new SextantError('INDEX_CORRUPT', `The name index lists ${unique[0]!.key}, which no shard holds.`,
      'Rebuild the index with `indexer build`.', { shard: reader.symbolShardNameOf(unique[0]!.key) });
  }
  return loaded;
}

function isExternalEntry(entry: NameEntry): boolean {
  return (entry.flags & NAME_FLAG_EXTERNAL) !== 0;
}

/**
 * The repository's own symbols first, by where they are declared (production code before tests and
 * generated code, as references are ordered); externals (dependencies, the standard library) after,
 * by package.
 */
function candidateOrder(a: NameEntry, b: NameEntry): number {
  return Number(isExternalEntry(a)) - Number(isExternalEntry(b)) || siteClass(a.flags) - siteClass(b.flags)
    || compareText(a.path, b.path) || a.line - b.line || a.column - b.column
    || compareText(a.pkg, b.pkg) || compareText(a.qname, b.qname) || compareText(a.key, b.key);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function normalizePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');
}
