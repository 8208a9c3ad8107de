// Syntactic layer of the indexer: parses one TypeScript/JavaScript file with tree-sitter (wasm)
// and returns its outline (nested declarations) and syntax errors. It needs no project context, so
// it also covers files the compiler layer cannot load. What counts as a declaration is declared in
// indexer/queries/*/outline.scm; this module only runs those queries and shapes their results.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser, Query, type Language, type Node } from 'web-tree-sitter';
import { lineStarts, positionAt, SYMBOL_KINDS, type ProblemRecord, type SymbolKind } from '@sextant/format';
import type { TsJsExtension } from '@sextant/format';
import { ensureParserInit, loadGrammar } from './tree-sitter-runtime.ts';

export type SyntaxLanguage = 'typescript' | 'tsx' | 'javascript';

/** An OutlineNode before the compiler layer links it to a symbol (no `sym`). */
export interface SyntaxOutlineNode {
  name: string;
  kind: SymbolKind;
  /** Whole declaration (including `export`/`declare`): line, column, endLine, endColumn (exclusive). */
  range: [number, number, number, number];
  /** Name: line, column. */
  at: [number, number];
  children: SyntaxOutlineNode[];
}

export interface SyntaxResult {
  outline: SyntaxOutlineNode[];
  problems: ProblemRecord[];
}

export interface SyntaxParser {
  /** Never throws: a file tree-sitter cannot handle yields a single problem saying so. */
  parse(language: SyntaxLanguage, text: string): SyntaxResult;
  readonly grammarVersions: Record<string, string>;
}

export interface SyntaxParserOptions {
  /**
   * Give up on a file after this many milliseconds of parsing. tree-sitter is linear in practice,
   * but one pathological (e.g. generated or minified) file must not stall a whole index run.
   */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_PROBLEMS = 100;
const MAX_SNIPPET = 40;

// A query is the concatenation of these files (queries/<layer>/outline.scm). JavaScript's patterns
// that also compile under the TypeScript grammars live in the shared `ecmascript` layer, because a
// few node types differ (e.g. field_definition vs public_field_definition).
const QUERY_LAYERS: Record<SyntaxLanguage, readonly string[]> = {
  javascript: ['ecmascript', 'javascript'],
  typescript: ['ecmascript', 'typescript'],
  tsx: ['ecmascript', 'typescript'],
};

const GRAMMARS: Record<SyntaxLanguage, { pkg: string; wasm: string }> = {
  javascript: { pkg: 'tree-sitter-javascript', wasm: 'tree-sitter-javascript.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', wasm: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', wasm: 'tree-sitter-tsx.wasm' },
};

const SYNTAX_LANGUAGES = Object.keys(GRAMMARS) as SyntaxLanguage[];

/** The grammar of each TypeScript and JavaScript extension (TS_JS_EXTENSIONS: the compiler checks the keys are that list). */
const EXTENSIONS: Record<TsJsExtension, SyntaxLanguage> = {
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'tsx',
  // The JavaScript grammar parses JSX, so .js files with JSX in them need no separate grammar.
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
};

export function syntaxLanguageOf(path: string): SyntaxLanguage | undefined {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = base.slice(dot).toLowerCase();
  return Object.hasOwn(EXTENSIONS, extension) ? EXTENSIONS[extension as TsJsExtension] : undefined;
}

interface OutlineQuery {
  query: Query;
  /** Capture name (`definition.<kind>`) to kind; `name` marks the name node. */
  kinds: Map<string, SymbolKind>;
}

interface Runtime {
  languages: Record<SyntaxLanguage, Language>;
  queries: Record<SyntaxLanguage, OutlineQuery>;
  grammarVersions: Record<string, string>;
}

const QUERY_DIR = fileURLToPath(new URL('../../queries/', import.meta.url));

// Process-wide: the wasm runtime, the grammars and the compiled queries are immutable once loaded
// and cost tens of milliseconds each, so every SyntaxParser shares them.
let runtime: Promise<Runtime> | undefined;

function loadRuntime(): Promise<Runtime> {
  runtime ??= initRuntime().catch((error: unknown) => {
    runtime = undefined; // let a later call retry instead of caching the failure forever
    throw error;
  });
  return runtime;
}

async function initRuntime(): Promise<Runtime> {
  const grammarVersions: Record<string, string> = { 'web-tree-sitter': await ensureParserInit() };
  const languages = {} as Record<SyntaxLanguage, Language>;
  const queries = {} as Record<SyntaxLanguage, OutlineQuery>;
  const layerText = new Map<string, Promise<string>>();
  for (const language of SYNTAX_LANGUAGES) {
    const { pkg, wasm } = GRAMMARS[language];
    const grammar = await loadGrammar(pkg, wasm);
    grammarVersions[pkg] ??= grammar.version;
    languages[language] = grammar.language;

    const texts: string[] = [];
    for (const layer of QUERY_LAYERS[language]) {
      if (!layerText.has(layer)) layerText.set(layer, readFile(join(QUERY_DIR, layer, 'outline.scm'), 'utf8'));
      texts.push(await layerText.get(layer)!);
    }
    queries[language] = compileOutlineQuery(languages[language], texts.join('\n'), `${language} (${QUERY_LAYERS[language].join(' + ')})`);
  }
  assertUtf16Offsets(languages.javascript);
  return { languages, queries, grammarVersions };
}

const KIND_SET: ReadonlySet<string> = new Set(SYMBOL_KINDS);

/** Compiles an outline query, rejecting capture names that are not `name` or `definition.<SymbolKind>`. */
function compileOutlineQuery(language: Language, source: string, label: string): OutlineQuery {
  let query: Query;
  try {
    query = new Query(language, source);
  } catch (error) {
    throw new Error(`Outline query for ${label} does not compile: ${errorMessage(error)}`);
  }
  const kinds = new Map<string, SymbolKind>();
  for (const capture of query.captureNames) {
    if (capture === 'name') continue;
    const kind = capture.startsWith('definition.') ? capture.slice('definition.'.length) : '';
    if (!KIND_SET.has(kind)) {
      query.delete();
      throw new Error(`Outline query for ${label} uses @${capture}; expected @name or @definition.<SymbolKind>.`);
    }
    kinds.set(capture, kind as SymbolKind);
  }
  return { query, kinds };
}

// Columns are computed from node offsets, which web-tree-sitter 0.27 reports in UTF-16 code units
// (it feeds the parser UTF-16 and halves byte offsets). A future version switching to UTF-8 bytes
// would silently shift every column after a non-ASCII character, so refuse to run instead.
function assertUtf16Offsets(language: Language): void {
  const probe = new Parser();
  try {
    probe.setLanguage(language);
    const text = '"é😀"';
    const tree = probe.parse(text);
    const end = tree?.rootNode.endIndex;
    tree?.delete();
    if (end !== text.length) {
      throw new Error(`web-tree-sitter reported end offset ${end} for ${JSON.stringify(text)} (${text.length} UTF-16 code units); columns would be wrong.`);
    }
  } finally {
    probe.delete();
  }
}

export async function createSyntaxParser(options: SyntaxParserOptions = {}): Promise<SyntaxParser> {
  const { languages, queries, grammarVersions } = await loadRuntime();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let parser: Parser | undefined;
  let parserLanguage: SyntaxLanguage | undefined;

  function parse(language: SyntaxLanguage, text: string): SyntaxResult {
    try {
      if (!Object.hasOwn(languages, language)) return failure(`unsupported language ${JSON.stringify(language)}`);
      if (typeof text !== 'string') return failure('input is not text');
      if (!parser) {
        parser = new Parser();
        parserLanguage = undefined;
      }
      if (parserLanguage !== language) {
        parser.setLanguage(languages[language]);
        parserLanguage = language;
      }
      const deadline = performance.now() + timeoutMs;
      // Returning true from the progress callback cancels the parse (web-tree-sitter's typings say void).
      const tree = parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
      if (!tree) {
        parser.reset(); // otherwise the next parse would resume this one
        return failure(`gave up after ${timeoutMs} ms`);
      }
      try {
        const lines = lineStarts(text);
        return {
          outline: outlineOf(tree.rootNode, queries[language], text, lines),
          problems: problemsOf(tree.rootNode, text, lines),
        };
      } finally {
        tree.delete();
      }
    } catch (error) {
      // The wasm instance may be in an odd state after a trap; start over with a fresh parser.
      try {
        parser?.delete();
      } catch {
        // already unusable; nothing more to release
      }
      parser = undefined;
      return failure(errorMessage(error));
    }
  }

  return { parse, grammarVersions: Object.freeze({ ...grammarVersions }) };
}

function failure(reason: string): SyntaxResult {
  return {
    outline: [],
    problems: [{
      source: 'syntax', severity: 'warning', message: `Syntax check failed: ${reason}`,
      line: 1, column: 1, endLine: 1, endColumn: 1,
    }],
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------------------------
// Positions

/** 1-based [line, column] of a UTF-16 offset, over line starts from the format's lineStarts (the compiler's line breaks). */
export function positionOf(lines: number[], offset: number): [number, number] {
  const { line, column } = positionAt(lines, offset);
  return [line, column];
}

// ---------------------------------------------------------------------------------------------
// Outline

interface Definition {
  kind: SymbolKind;
  declaration: Node;
  nameNode: Node;
  patternIndex: number;
}

interface Placed {
  start: number;
  end: number;
  node: SyntaxOutlineNode;
}

function outlineOf(root: Node, { query, kinds }: OutlineQuery, text: string, lines: number[]): SyntaxOutlineNode[] {
  // Several patterns may capture the same declaration (a getter is also a method); the later
  // pattern is the more specific one, see queries/ecmascript/outline.scm.
  const chosen = new Map<string, Definition>();
  for (const match of query.matches(root)) {
    let declaration: Node | undefined;
    let nameNode: Node | undefined;
    let kind: SymbolKind | undefined;
    for (const capture of match.captures) {
      if (capture.name === 'name') {
        nameNode = capture.node;
      } else {
        const captured = kinds.get(capture.name);
        if (captured) {
          kind = captured;
          declaration = capture.node;
        }
      }
    }
    if (!declaration || !nameNode || !kind) continue;
    const key = `${declaration.id}:${nameNode.id}`;
    const previous = chosen.get(key);
    if (previous && previous.patternIndex > match.patternIndex) continue;
    chosen.set(key, { kind, declaration, nameNode, patternIndex: match.patternIndex });
  }

  const placed: Placed[] = [];
  for (const { kind, declaration, nameNode } of chosen.values()) {
    const name = displayName(text.slice(nameNode.startIndex, nameNode.endIndex), nameNode.type, kind);
    if (!name) continue; // a MISSING identifier inserted by error recovery
    const extent = declarationExtent(declaration);
    const start = extent.startIndex;
    const end = extent.endIndex;
    placed.push({
      start,
      end,
      node: {
        name,
        kind,
        range: [...positionOf(lines, start), ...positionOf(lines, end)],
        at: positionOf(lines, nameNode.startIndex),
        children: [],
      },
    });
  }

  // Declaration extents nest like the syntax tree, so a stack of open containers suffices: each
  // definition becomes a child of the innermost one that strictly contains it.
  placed.sort((a, b) => a.start - b.start || b.end - a.end || compareAt(a.node, b.node));
  const roots: SyntaxOutlineNode[] = [];
  const open: Placed[] = [];
  for (const item of placed) {
    while (open.length > 0 && !strictlyContains(open[open.length - 1], item)) open.pop();
    (open.length > 0 ? open[open.length - 1].node.children : roots).push(item.node);
    open.push(item);
  }
  return roots;
}

function compareAt(a: SyntaxOutlineNode, b: SyntaxOutlineNode): number {
  return a.at[0] - b.at[0] || a.at[1] - b.at[1];
}

function strictlyContains(outer: Placed, inner: Placed): boolean {
  return outer.start <= inner.start && inner.end <= outer.end && (outer.start !== inner.start || outer.end !== inner.end);
}

/**
 * The statement a declaration is written as: `export`, `declare` and (for a lone declarator) the
 * `const`/`let`/`var` keyword belong to its range, as they do in the TypeScript compiler's nodes.
 */
function declarationExtent(declaration: Node): Node {
  let current = declaration;
  for (;;) {
    const parent = current.parent;
    if (!parent) return current;
    switch (parent.type) {
      case 'export_statement':
      case 'ambient_declaration':
        break;
      case 'lexical_declaration':
      case 'variable_declaration':
        if (countChildrenOfType(parent, 'variable_declarator') !== 1) return current;
        break;
      case 'expression_statement': // `namespace A {}` and `exports.f = ...` are wrapped in one
        if (parent.namedChildCount !== 1) return current;
        break;
      default:
        return current;
    }
    current = parent;
  }
}

function countChildrenOfType(node: Node, type: string): number {
  let count = 0;
  for (const child of node.namedChildren) if (child?.type === type) count++;
  return count;
}

function displayName(raw: string, nodeType: string, kind: SymbolKind): string {
  // String-named members (`'content-type': string`, enum `"a-b"`) are known to the compiler by
  // their value; ambient modules (`declare module "pkg"`) keep their quotes, as in TypeScript.
  if (nodeType === 'string' && kind !== 'module' && raw.length >= 2) raw = raw.slice(1, -1);
  return wellFormed(raw.replace(/\s+/g, ' ').trim());
}

// Lone surrogates (binary input, string keys) would not survive UTF-8 encoding of the shards.
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\ufffd');
}

// ---------------------------------------------------------------------------------------------
// Problems

export function problemsOf(root: Node, text: string, lines: number[]): ProblemRecord[] {
  const problems: ProblemRecord[] = [];
  if (!root.hasError) return problems;
  // Explicit stack: deeply nested input must not overflow the JS call stack. Only subtrees that
  // contain an error are entered. An ERROR node's subtree is one recovery, reported once.
  const pending: Node[] = [root];
  while (pending.length > 0 && problems.length < MAX_PROBLEMS) {
    const node = pending.pop()!;
    if (node.isMissing) {
      const what = node.isNamed ? node.type.replace(/_/g, ' ') : `\`${node.type}\``;
      problems.push(problemAt(`Syntax error: missing ${what}`, node, lines));
    } else if (node.isError) {
      problems.push(problemAt(unexpectedMessage(text, node), node, lines));
    } else if (node.hasError) {
      const children = node.children;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (child) pending.push(child);
      }
    }
  }
  return problems;
}

function problemAt(message: string, node: Node, lines: number[]): ProblemRecord {
  const [line, column] = positionOf(lines, node.startIndex);
  const [endLine, endColumn] = positionOf(lines, node.endIndex);
  return { source: 'syntax', severity: 'error', message, line, column, endLine, endColumn };
}

function unexpectedMessage(text: string, node: Node): string {
  const firstLine = text.slice(node.startIndex, node.endIndex).split(/\r\n|[\r\n\u2028\u2029]/, 1)[0].trim();
  if (!firstLine) return node.startIndex >= text.length ? 'Syntax error: unexpected end of file' : 'Syntax error: unexpected input';
  // Count code points so that truncation never splits a surrogate pair; control characters
  // (binary files) would garble the message, so they are shown as U+FFFD.
  const chars = Array.from(wellFormed(firstLine.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\ufffd')));
  const snippet = chars.length > MAX_SNIPPET ? `${chars.slice(0, MAX_SNIPPET).join('')}…` : chars.join('');
  return `Syntax error: unexpected \`${snippet}\``;
}
