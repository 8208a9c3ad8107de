// One SCIP document checked against the commit's text of its file, its ranges converted to
// Sextant's positions (1-based lines, 1-based columns in UTF-16 code units). A document that does
// not match its file (edited since it was indexed, or positions in another encoding than assumed)
// gives the reason instead, and its file is left to Sextant's own indexers.
import { splitLines, type Language } from '@sextant/format';
import { PositionEncoding, SymbolRole, type Document, type SymbolInformation } from './scip_pb.ts';
import { isSourceName, lastDescriptor, parseScipSymbol } from './scip-symbol.ts';

export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface CheckedOccurrence {
  range: Span;
  symbol: string;
  roles: number;
  enclosing?: Span;
}

export interface CheckedDocument {
  path: string;
  lang: Language;
  lines: string[];
  occurrences: CheckedOccurrence[];
  /** SymbolInformation of the symbols the document defines, by symbol. */
  symbols: Map<string, SymbolInformation>;
}

/** Document.language as scip.proto's Language enum spells it, lower-cased, and file extensions: to Sextant's languages. */
const LANGUAGE_NAMES: Record<string, Language> = {
  typescript: 'typescript', typescriptreact: 'typescript', javascript: 'javascript', javascriptreact: 'javascript',
  java: 'java', kotlin: 'kotlin', python: 'python', go: 'go', rust: 'rust', csharp: 'csharp', ruby: 'ruby', php: 'php',
  c: 'c', cpp: 'cpp', swift: 'swift', scala: 'scala', shellscript: 'bash', bash: 'bash',
};
const EXTENSIONS: Record<string, Language> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  java: 'java', kt: 'kotlin', kts: 'kotlin', py: 'python', pyi: 'python', go: 'go', rs: 'rust', cs: 'csharp', rb: 'ruby', php: 'php',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hh: 'cpp', hpp: 'cpp', hxx: 'cpp', swift: 'swift', scala: 'scala', sc: 'scala', sh: 'bash', bash: 'bash',
};

/** The Sextant language of a document: its `language`, else its file's extension; undefined for any other. */
export function languageOfDocument(document: Document, path: string): Language | undefined {
  if (document.language) return LANGUAGE_NAMES[document.language.toLowerCase().replace(/[^a-z]/g, '')];
  const extension = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : EXTENSIONS[extension];
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * The document converted, or why it does not match `text`: a range outside the file or cutting a
 * character or a word in two, a definition whose text is not its symbol's name, a `text` of its
 * own that differs. Positions in no declared encoding are taken as UTF-16 code units (what
 * scip-typescript and scip-python write); a wrong guess shows as one of those mismatches.
 */
export function checkDocument(document: Document, path: string, lang: Language, text: string): CheckedDocument | string {
  if (document.text && document.text !== text) return 'its text differs from the file at this commit';
  const lines = splitLines(text);
  const columns = new ColumnMap(lines, document.positionEncoding);
  const symbols = new Map(document.symbols.map((s) => [s.symbol, s]));
  const occurrences: CheckedOccurrence[] = [];
  for (const occurrence of document.occurrences) {
    const range = columns.span(occurrence.range);
    const where = `${(occurrence.range[0] ?? 0) + 1}:${(occurrence.range[1] ?? 0) + 1}`;
    if (typeof range === 'string') return `the range at ${where} ${range}`;
    const enclosing = occurrence.enclosingRange.length ? columns.span(occurrence.enclosingRange) : undefined;
    if (typeof enclosing === 'string') return `the enclosing range of the occurrence at ${where} ${enclosing}`;
    if (!occurrence.symbol) continue; // highlighting only
    const found = textOf(lines, range);
    if (found !== undefined && found.length > 0) {
      const line = lines[range.line - 1]!;
      const endLine = lines[range.endLine - 1]!;
      if ((WORD.test(found[0]!) && WORD.test(line[range.column - 2] ?? '')) || (WORD.test(found[found.length - 1]!) && WORD.test(endLine[range.endColumn - 1] ?? ''))) {
        return `the range at ${where} cuts a word in two ("${excerpt(line, range.column)}")`;
      }
    }
    if ((occurrence.symbolRoles & (SymbolRole.Definition | SymbolRole.ForwardDefinition)) !== 0 && found !== undefined && found.length > 0) {
      const mismatch = definitionMismatch(occurrence.symbol, symbols.get(occurrence.symbol), found);
      if (mismatch) return `the definition at ${where} reads "${found}", not ${mismatch}`;
    }
    occurrences.push({ range, symbol: occurrence.symbol, roles: occurrence.symbolRoles, ...(enclosing ? { enclosing } : {}) });
  }
  return { path, lang, lines, occurrences, symbols };
}

/** The text of a span on one line; undefined for a span over several lines. */
export function textOf(lines: readonly string[], span: Span): string | undefined {
  return span.line === span.endLine ? lines[span.line - 1]!.slice(span.column - 1, span.endColumn - 1) : undefined;
}

function excerpt(line: string, column: number): string {
  return line.slice(Math.max(0, column - 11), column + 10).trim();
}

/**
 * What a definition's text should have been, when it is not its symbol's name (the last
 * descriptor's name, or the display name). Exceptions, each what a SCIP indexer writes:
 * - a local symbol has no name to compare (`local 3`);
 * - a synthetic name in angle brackets (scip-typescript's `<constructor>` on the `constructor`
 *   keyword, scip-java's `<init>` on the class name) names no text;
 * - scip-typescript's accessors (`<get>value`) and names it numbers apart (`next0`) stand for
 *   their text (isSourceName);
 * - a namespace or meta descriptor may be a path or dotted module name of which the text is the
 *   last segment (scip-go's `package foo` defines `github.com/x/foo/`);
 * - the text may quote the name (a string-literal property: `'a-b': 1`) or escape it (a Kotlin or
 *   Scala name in backticks, Rust's `r#type`, C#'s `@class`).
 * (Empty ranges, such as scip-typescript's and scip-python's module definitions at 0:0, are not
 * compared at all.)
 */
function definitionMismatch(symbol: string, info: SymbolInformation | undefined, text: string): string | undefined {
  const parsed = parseScipSymbol(symbol);
  if (!parsed || parsed.local) return undefined;
  const descriptor = lastDescriptor(parsed)!;
  const name = descriptor.name;
  if (/^<.*>$/.test(name)) return undefined;
  const bare = text.replace(/^(['"`])(.*)\1$/s, '$2').replace(/^(r#|@)/, '');
  if (isSourceName(name, bare) || (info?.displayName && (text === info.displayName || bare === info.displayName))) return undefined;
  if ((descriptor.suffix === 'namespace' || descriptor.suffix === 'meta') && name.split(/[/.]/).pop() === bare) return undefined;
  return `"${name}", the name of ${symbol}`;
}

/** Columns of a document's position encoding to UTF-16 columns, line by line. */
class ColumnMap {
  /** Per line, UTF-16 offset of each code-unit offset of the encoding (undefined inside a character); absent where they are equal. */
  private readonly maps = new Map<number, Int32Array>();

  constructor(private readonly lines: readonly string[], private readonly encoding: PositionEncoding) {}

  /** The 1-based UTF-16 span of a SCIP range, or what is wrong with it. */
  span(range: readonly number[]): Span | string {
    if (range.length !== 3 && range.length !== 4) return `has ${range.length} numbers, not 3 or 4`;
    const [line, start, endLine, end] = range.length === 3 ? [range[0]!, range[1]!, range[0]!, range[2]!] : (range as [number, number, number, number]);
    if (line < 0 || start < 0 || endLine < line || (endLine === line && end < start)) return 'is not a range';
    if (endLine >= this.lines.length) return `ends on line ${endLine + 1}, past the file's ${this.lines.length} lines`;
    const column = this.column(line, start);
    const endColumn = this.column(endLine, end);
    if (column === undefined || endColumn === undefined) return 'lies outside its line or inside a character';
    return { line: line + 1, column: column + 1, endLine: endLine + 1, endColumn: endColumn + 1 };
  }

  private column(line: number, offset: number): number | undefined {
    const text = this.lines[line]!;
    if (this.encoding === PositionEncoding.UTF16CodeUnitOffsetFromLineStart || this.encoding === PositionEncoding.UnspecifiedPositionEncoding || /^[\x00-\x7f]*$/.test(text)) {
      return offset <= text.length ? offset : undefined;
    }
    let map = this.maps.get(line);
    if (!map) {
      const utf8 = this.encoding === PositionEncoding.UTF8CodeUnitOffsetFromLineStart;
      const units: number[] = [];
      for (let i = 0; i < text.length;) {
        const point = text.codePointAt(i)!;
        const width = utf8 ? (point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4) : 1;
        units.push(i);
        for (let k = 1; k < width; k++) units.push(-1);
        i += point > 0xffff ? 2 : 1;
      }
      units.push(text.length);
      map = Int32Array.from(units);
      this.maps.set(line, map);
    }
    const column = map[offset];
    return column === undefined || column < 0 ? undefined : column;
  }
}
