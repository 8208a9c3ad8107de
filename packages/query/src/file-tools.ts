// file_structure, read_file and file_problems: questions about one file (or a set of paths) at the
// indexed commit; read_file also reads one symbol's declaration.
import {
  defCount, FILE_FLAGS, formatSymbolId, pathFilter, SextantError, shortCommit, splitLines, type FileShard,
  type FileRecord, type OutlineNode, type ProblemRecord, type SymbolKind, type SymbolRecord, type TextShard,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { leadingCommentStart } from './leading-comments.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, Location, PageInfo, SymbolSummary } from './results.ts';
import { defLocations, summarize } from './symbols.ts';
import { fileOrThrow, normalizePath, resolveTarget, type Target } from './target.ts';
import { withSiteLines, type SiteLines } from './site-lines.ts';

export interface StructureNode {
  name: string;
  kind: SymbolKind;
  /** Absent when the compiler did not see this declaration (syntax errors). */
  symbolId?: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  nameLine: number;
  nameColumn: number;
  children: StructureNode[];
}

interface FileStructureAnswer extends Answer {
  path: string;
  language: FileRecord['lang'];
  classification: string[];
  lines: number;
  outline: StructureNode[];
  total: number;
  totalIsExact: true;
  hasMore: false;
}

export function classification(flags: number): string[] {
  return Object.entries(FILE_FLAGS).filter(([, bit]) => flags & bit).map(([name]) => name);
}

export async function fileStructure(reader: IndexReader, path: string): Promise<FileStructureAnswer> {
  const file = await fileOrThrow(reader, path);
  let total = 0;
  const convert = (node: OutlineNode): StructureNode => {
    total++;
    const key = node.sym >= 0 ? file.syms[node.sym] : undefined;
    return {
      name: node.name, kind: node.kind, ...(key ? { symbolId: formatSymbolId(key, reader.commit) } : {}),
      line: node.range[0], column: node.range[1], endLine: node.range[2], endColumn: node.range[3],
      nameLine: node.at[0], nameColumn: node.at[1], children: node.children.map(convert),
    };
  };
  const outline = file.outline.map(convert);
  return {
    repo: reader.repo, commit: reader.commit, path: file.path, language: file.lang, classification: classification(file.flags),
    lines: file.lineLengths.length, outline, total, totalIsExact: true, hasMore: false,
  };
}

export async function fileText(reader: IndexReader, path: string): Promise<string> {
  return (await textOf(reader, path)).text;
}

/**
 * The file's lines, split once per decoded text shard: a server that keeps shards decoded (the
 * worker's isolate) would otherwise split a whole file again on every preview or page.
 */
export async function fileLines(reader: IndexReader, path: string): Promise<string[]> {
  const { shard, path: stored, text } = await textOf(reader, path);
  let byPath = LINES.get(shard);
  if (!byPath) LINES.set(shard, byPath = new Map());
  let lines = byPath.get(stored);
  if (!lines) byPath.set(stored, lines = splitLines(text));
  return lines;
}

const LINES = new WeakMap<TextShard, Map<string, string[]>>();

/** A file's text, from its text shard alone; the file shard is read only to say why a text is missing. */
async function textOf(reader: IndexReader, path: string): Promise<{ shard: TextShard; path: string; text: string }> {
  const stored = normalizePath(path);
  const name = reader.textShardNameOf(stored);
  const shard = await reader.shard<TextShard>(name);
  const text = shard?.text(stored);
  if (shard !== undefined && text !== undefined) return { shard, path: stored, text };
  const file = await fileOrThrow(reader, path);
  throw new SextantError('INDEX_CORRUPT', `The text of ${file.path} is missing from ${name}.`,
    'Rebuild the index with `indexer build`.', { shard: name });
}

export interface ReadFileParams extends Target, PageRequest {
  startLine?: number;
  /** Last line to return, inclusive; `limit` still bounds one page. */
  endLine?: number;
}

/** The declaration a read by symbol covers: its doc comment and decorators, then the declaration itself. */
interface DeclarationSpan {
  startLine: number;
  endLine: number;
}

export interface ReadFileAnswer extends Answer, PageInfo {
  path: string;
  startLine: number;
  endLine: number;
  lines: { line: number; text: string }[];
  /** Read by symbol: the symbol whose declaration is read. */
  symbol?: SymbolSummary;
  /** Read by symbol: the lines of the whole declaration, so a cut answer says where it ends. */
  declaration?: DeclarationSpan;
  /** Read by symbol: the symbol's other declarations (overloads, merged declarations), not read. */
  otherDeclarations?: Location[];
}

export const READ_FILE_PAGE = { defaultLimit: 200, maxLimit: 2000 };
/** One line longer than this is cut, so a minified file cannot blow the answer up. */
const MAX_LINE_LENGTH = 2000;

/**
 * Lines of a file, or of a symbol's declaration. A symbol (any target form: symbolId, qualifiedName,
 * name, or path + line + column) reads one declaration (chooseDeclaration) from the first line of
 * its leading doc comment and decorators to its last line, and lists the symbol's other
 * declarations. Without a symbol, path alone reads the file from line 1, path + startLine (or line,
 * without column) from there, to endLine when given.
 */
export async function readFile(reader: IndexReader, params: ReadFileParams): Promise<ReadFileAnswer> {
  const bySymbol = params.symbolId !== undefined || params.qualifiedName !== undefined || params.name !== undefined || params.column !== undefined;
  if (bySymbol) return readDeclaration(reader, params);
  if (params.path === undefined) {
    throw new SextantError('INVALID_ARGUMENT', 'Nothing to read: give a path, or a symbol.',
      'Pass path (optionally startLine, endLine), or symbolId, qualifiedName, name, or path + line + column for a symbol.');
  }
  if (params.line !== undefined && params.startLine !== undefined) {
    throw new SextantError('INVALID_ARGUMENT', `Both line (${params.line}) and startLine (${params.startLine}) given.`,
      'Without column, line is the first line to read, the same as startLine: give one of them; add column to read the symbol at path:line:column.');
  }
  const path = normalizePath(params.path);
  const lines = await fileLines(reader, path);
  const startLine = params.startLine ?? params.line ?? 1;
  if (startLine < 1 || startLine > lines.length) {
    throw new SextantError('POSITION_OUT_OF_RANGE', `${path} has ${lines.length} lines; startLine ${startLine} is outside it.`,
      `Pass a startLine from 1 to ${lines.length}.`);
  }
  if (params.endLine !== undefined) {
    if (params.endLine < startLine) {
      throw new SextantError('INVALID_ARGUMENT', `endLine ${params.endLine} is before startLine ${startLine}.`,
        'endLine is the last line to read, inclusive: pass one at or after startLine.');
    }
    if (params.limit !== undefined && params.limit !== params.endLine - startLine + 1) {
      throw new SextantError('INVALID_ARGUMENT',
        `limit ${params.limit} and endLine ${params.endLine} disagree: lines ${startLine}-${params.endLine} are ${params.endLine - startLine + 1} lines.`,
        'Give endLine (the last line, inclusive) or limit (a number of lines), not both.');
    }
  }
  // An endLine past the end reads to the end: total says how long the file is.
  const endLine = params.endLine === undefined ? lines.length : Math.min(params.endLine, lines.length);
  return linesOf(reader, path, lines, startLine, endLine, params.endLine === undefined ? {} : { endLine }, params);
}

async function readDeclaration(reader: IndexReader, params: ReadFileParams): Promise<ReadFileAnswer> {
  if (params.startLine !== undefined || params.endLine !== undefined) {
    throw new SextantError('INVALID_ARGUMENT', 'A read by symbol reads its declaration; startLine and endLine are for reading by path.',
      'Drop startLine/endLine (limit still bounds the page), or read by path with startLine and endLine.');
  }
  const { record, shard } = await resolveTarget(reader, params);
  const symbol = summarize(reader, record, shard.paths);
  if (record.external || defCount(record) === 0) {
    const origin = record.external ? `${record.external.package}${record.external.version ? `@${record.external.version}` : ''}` : undefined;
    throw new SextantError('FILE_NOT_FOUND',
      origin
        ? `${record.qname} is external: it is declared in ${origin}, whose source is not in ${reader.repo}.`
        : `${record.qname} has no declaration in ${reader.repo}@${shortCommit(reader.commit)}.`,
      'Only declarations in the repository can be read; symbol_info gives an external symbol\'s signature and doc.',
      { symbol: symbol.symbolId, ...(record.external ? { external: record.external } : {}) });
  }
  const defs = defLocations(record, shard.paths);
  const { chosen, range } = await chooseDeclaration(reader, record, defs, params);
  const lines = await fileLines(reader, chosen.path);
  const endLine = Math.min(range[2]!, lines.length);
  const startLine = leadingCommentStart(lines, range[0]!, record.lang);
  const others = defs.filter((d) => d.path !== chosen.path || d.line !== chosen.line || d.column !== chosen.column);
  const answer = await linesOf(reader, chosen.path, lines, startLine, endLine, { endLine }, params);
  return {
    ...answer, symbol, declaration: { startLine, endLine },
    ...(others.length > 0 ? { otherDeclarations: others } : {}),
  };
}

/** Files whose change records are read to choose among a symbol's declarations in several files. */
const MAX_DECLARING_FILES = 8;

/**
 * Which declaration a read by symbol reads, and its whole range. A position on one of the symbol's
 * declarations reads that one. Otherwise, of the files declaring it (a class and its merged
 * interface or module augmentation), the one whose first declaration is longest: the body, not an
 * augmentation. The range is the change record's DeclRecord.range, which covers a symbol's first
 * declaration in each file (one change-shard read per declaring file, at most MAX_DECLARING_FILES).
 * Overloads in one file read the first (the others are listed); a position on a later one reads it,
 * its range from the file record's outline. Locals have no DeclRecord: their name's lines are read.
 */
async function chooseDeclaration(
  reader: IndexReader, record: SymbolRecord, defs: readonly Location[], target: Target,
): Promise<{ chosen: Location; range: readonly number[] }> {
  const nameRange = (d: Location) => [d.line, d.column, d.endLine, d.endColumn];
  const at = target.column !== undefined ? defs.find((d) => d.path === normalizePath(target.path!) && d.line === target.line
    && d.column <= target.column! && target.column! <= d.endColumn) : undefined;
  const firstPerFile = defs.filter((d, i) => i === 0 || defs[i - 1]!.path !== d.path);
  const candidates = at ? [at] : firstPerFile.slice(0, MAX_DECLARING_FILES);
  // One declaring file (the usual case): its text shard is fetched in the same round.
  const texts = candidates.length === 1 ? [reader.textShardNameOf(candidates[0]!.path)] : [];
  await reader.prefetch([...new Set(candidates.map((d) => reader.changeShardNameOf(d.path))), ...texts]);
  let best: { chosen: Location; range: readonly number[] } | undefined;
  for (const d of candidates) {
    const decl = (await reader.change(d.path))?.decls.find((x) => x.key === record.key);
    // A later declaration in the file (an overload, a merged interface) is not the DeclRecord's:
    // its range is its outline node's, from the file record (one more shard read, only then).
    const range = decl && decl.at[0] === d.line && decl.at[1] === d.column ? decl.range
      : decl ? outlineRange((await reader.file(d.path))?.outline ?? [], d) ?? nameRange(d) : nameRange(d);
    if (!best || range[2]! - range[0]! > best.range[2]! - best.range[0]!) best = { chosen: d, range };
  }
  return best!;
}

/** The range of the outline node whose name is at the location. */
function outlineRange(nodes: readonly OutlineNode[], at: Location): readonly number[] | undefined {
  for (const node of nodes) {
    if (node.at[0] === at.line && node.at[1] === at.column) return node.range;
    const inner = outlineRange(node.children, at);
    if (inner) return inner;
  }
  return undefined;
}

/** Lines startLine..endLine of a file, paged; the cursor is keyed by the span, so any target form reading it continues it. */
async function linesOf(
  reader: IndexReader, path: string, lines: string[], startLine: number, endLine: number, query: { endLine?: number }, request: PageRequest,
): Promise<ReadFileAnswer> {
  // Paged over line numbers; only the page's lines become objects.
  const numbers = Array.from({ length: endLine - startLine + 1 }, (_, i) => startLine + i);
  const { items, page } = pageOf(numbers, reader.commit, { tool: 'read_file', path, startLine, ...query }, request, READ_FILE_PAGE);
  const shown = items.map((line) => {
    const t = lines[line - 1]!;
    return { line, text: t.length > MAX_LINE_LENGTH ? `${t.slice(0, MAX_LINE_LENGTH)}… (${t.length - MAX_LINE_LENGTH} more characters)` : t };
  });
  return {
    repo: reader.repo, commit: reader.commit, path,
    startLine: shown[0]?.line ?? startLine, endLine: shown[shown.length - 1]?.line ?? startLine,
    lines: shown, ...page, total: lines.length,
  };
}

interface ProblemParams extends PageRequest {
  path?: string;
  paths?: string[];
  severity?: 'error' | 'warning';
  source?: 'syntax' | 'compiler';
  /** Lines before and after each problem (site-lines.ts); every problem has its own line. */
  context?: number;
}

interface ProblemHit extends Omit<ProblemRecord, 'code'> {
  path: string;
  code?: number;
}

interface ProblemsAnswer extends Answer, PageInfo {
  files: number;
  problems: (ProblemHit & SiteLines)[];
}

export const PROBLEMS_PAGE = { defaultLimit: 200, maxLimit: 2000 };

export async function fileProblems(reader: IndexReader, params: ProblemParams): Promise<ProblemsAnswer> {
  if ((params.path === undefined) === (params.paths === undefined)) {
    throw new SextantError('INVALID_ARGUMENT', 'Give exactly one of path (one file) or paths (globs).',
      'Pass path: "src/app.ts", or paths: ["src/**"] (a leading ! excludes).');
  }
  let files: FileRecord[];
  if (params.path !== undefined) {
    files = [await fileOrThrow(reader, params.path)];
  } else {
    const inPaths = pathFilter(params.paths);
    const names = Object.keys(reader.manifest.shards).filter((n) => n.startsWith('files/')).sort();
    await reader.prefetch(names);
    files = [];
    for (const name of names) {
      const shard = await reader.shard<FileShard>(name);
      for (const path of shard?.paths ?? []) if (inPaths(path)) files.push(shard!.file(path)!);
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  const problems: ProblemHit[] = [];
  for (const file of files) {
    for (const { blame: _blame, blameNames: _names, ...p } of file.problems) {
      if (params.severity && p.severity !== params.severity) continue;
      if (params.source && p.source !== params.source) continue;
      problems.push({ path: file.path, ...p });
    }
  }
  const { items, page } = pageOf(problems, reader.commit, { tool: 'file_problems', path: params.path, paths: params.paths, severity: params.severity, source: params.source }, params, PROBLEMS_PAGE);
  return { repo: reader.repo, commit: reader.commit, files: files.length, problems: await withSiteLines(reader, items, params.context), ...page };
}
