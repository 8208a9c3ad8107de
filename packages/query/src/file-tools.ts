// file_structure, read_file and file_problems: questions about one file (or a set of paths) at the
// indexed commit.
import {
  FILE_FLAGS, formatSymbolId, pathFilter, SextantError, splitLines, type FileShard,
  type FileRecord, type OutlineNode, type ProblemRecord, type SymbolKind, type TextShard,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo } from './results.ts';
import { fileOrThrow, normalizePath } from './target.ts';
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

export interface FileStructureAnswer extends Answer {
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

export interface ReadFileParams extends PageRequest {
  startLine?: number;
}

export interface ReadFileAnswer extends Answer, PageInfo {
  path: string;
  startLine: number;
  endLine: number;
  lines: { line: number; text: string }[];
}

export const READ_FILE_PAGE = { defaultLimit: 200, maxLimit: 2000 };
/** One line longer than this is cut, so a minified file cannot blow the answer up. */
const MAX_LINE_LENGTH = 2000;

export async function readFile(reader: IndexReader, path: string, params: ReadFileParams): Promise<ReadFileAnswer> {
  const lines = await fileLines(reader, path);
  const startLine = params.startLine ?? 1;
  if (startLine < 1 || startLine > lines.length) {
    throw new SextantError('POSITION_OUT_OF_RANGE', `${path} has ${lines.length} lines; startLine ${startLine} is outside it.`,
      `Pass a startLine from 1 to ${lines.length}.`);
  }
  // Paged over line numbers; only the page's lines become objects.
  const numbers = Array.from({ length: lines.length - startLine + 1 }, (_, i) => startLine + i);
  const { items, page } = pageOf(numbers, reader.commit, { tool: 'read_file', path: normalizePath(path), startLine }, params, READ_FILE_PAGE);
  const shown = items.map((line) => {
    const t = lines[line - 1]!;
    return { line, text: t.length > MAX_LINE_LENGTH ? `${t.slice(0, MAX_LINE_LENGTH)}… (${t.length - MAX_LINE_LENGTH} more characters)` : t };
  });
  return {
    repo: reader.repo, commit: reader.commit, path: normalizePath(path),
    startLine: shown[0]?.line ?? startLine, endLine: shown[shown.length - 1]?.line ?? startLine,
    lines: shown, ...page, total: lines.length,
  };
}

export interface ProblemParams extends PageRequest {
  path?: string;
  paths?: string[];
  severity?: 'error' | 'warning';
  source?: 'syntax' | 'compiler';
  /** Lines before and after each problem (site-lines.ts); every problem has its own line. */
  context?: number;
}

export interface ProblemHit extends Omit<ProblemRecord, 'code'> {
  path: string;
  code?: number;
}

export interface ProblemsAnswer extends Answer, PageInfo {
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
    for (const p of file.problems) {
      if (params.severity && p.severity !== params.severity) continue;
      if (params.source && p.source !== params.source) continue;
      problems.push({ path: file.path, ...p });
    }
  }
  const { items, page } = pageOf(problems, reader.commit, { tool: 'file_problems', path: params.path, paths: params.paths, severity: params.severity, source: params.source }, params, PROBLEMS_PAGE);
  return { repo: reader.repo, commit: reader.commit, files: files.length, problems: await withSiteLines(reader, items, params.context), ...page };
}
