// Text positions: how every part of Sextant numbers the lines and columns of a file's text, and
// how that text is read from bytes. Positions are 1-based lines and UTF-16 columns; lines end at
// CR, LF, CRLF, U+2028 and U+2029, as the TypeScript compiler counts them. A file's text is UTF-8
// without its byte-order mark (kept aside, so it is written back). The shard writer, the readers,
// planning and the runner all count through here. Runtime-neutral.
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { SextantError } from './errors.ts';
import { lastAtOrBefore } from './sorted-search.ts';

// ---- Lines ----

/** A text's lines, as every tool numbers them (CRLF, LF, CR and the Unicode separators end a line). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u2028\u2029]/);
}

/** Offsets at which each line starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 /* CR */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (ch === 10 || ch === 0x2028 || ch === 0x2029) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The offset of a 1-based line and column; a column may point just past the line's last character. */
export function offsetAt(text: string, starts: number[], line: number, column: number): number {
  const start = starts[line - 1];
  if (start === undefined || column < 1) throw outOfRange(line, column, starts.length);
  const next = starts[line];
  const lineEnd = next === undefined ? text.length : contentEnd(text, start, next);
  if (start + column - 1 > lineEnd) throw outOfRange(line, column, starts.length);
  return start + column - 1;
}

function contentEnd(text: string, start: number, next: number): number {
  let end = next;
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && (text.charCodeAt(end - 1) === 13 || text.charCodeAt(end - 1) === 0x2028 || text.charCodeAt(end - 1) === 0x2029)) end--;
  return end;
}

function outOfRange(line: number, column: number, lines: number): SextantError {
  return new SextantError('POSITION_OUT_OF_RANGE', `${line}:${column} is outside the file (${lines} lines).`,
    'The plan does not fit this file; make the plan again from the current content.');
}

/** The 1-based line and column of an offset. */
export function positionAt(starts: number[], offset: number): { line: number; column: number } {
  const line = lastAtOrBefore(starts, offset);
  return { line: line + 1, column: offset - starts[line]! + 1 };
}

// ---- Lines shown to people ----

const MAX_PREVIEW = 240;

/** A one-line preview of a source line: trimmed, at most MAX_PREVIEW characters. */
export function previewOf(line: string): string {
  return cutPreview(line.trim());
}

/** A line shown around another (context): its indentation kept, trailing blanks removed, cut alike. */
export function contextLineOf(line: string): string {
  return cutPreview(line.trimEnd());
}

function cutPreview(line: string): string {
  return line.length > MAX_PREVIEW ? `${line.slice(0, MAX_PREVIEW)}…` : line;
}

// ---- Line endings ----

/** The line ending most lines of `text` use ('\n' when it has none). */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** `text` with every line break as `eol`, so inserted code matches the file it goes into. */
export function withEol(text: string, eol: '\n' | '\r\n'): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

// ---- Bytes of a file ----

const BOM = '\uFEFF';

/** A file's text as positions address it: UTF-8, without a byte-order mark (which is kept on write). */
interface DecodedText {
  text: string;
  bom: boolean;
}

export function decodeText(bytes: Uint8Array, path: string): DecodedText {
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new SextantError('INVALID_ARGUMENT', `${path} is not valid UTF-8.`, 'Sextant edits UTF-8 text files only.');
  }
  return decoded.startsWith(BOM) ? { text: decoded.slice(1), bom: true } : { text: decoded, bom: false };
}

export function encodeText({ text, bom }: DecodedText): Uint8Array {
  return utf8ToBytes(bom ? BOM + text : text);
}
