// A plan's edits over a file's text: made from offsets, applied all at once, and widened so that a
// deletion leaves no blank remains and takes the declaration's comments with it. Positions as @sextant/format's text-positions.ts counts them.
// Runtime-neutral.
import { lineStarts, offsetAt, positionAt, SextantError } from '@sextant/format';
import type { PlanEdit } from './plan-document.ts';

/** An edit over [start, end) of `text` as plan coordinates. */
export function editAt(starts: number[], start: number, end: number, newText: string): PlanEdit {
  const from = positionAt(starts, start);
  const to = positionAt(starts, end);
  return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column, newText };
}

/** Applies non-overlapping edits; overlapping or out-of-range edits are refused, never guessed at. */
export function applyEdits(text: string, edits: readonly PlanEdit[]): string {
  const starts = lineStarts(text);
  const spans = edits
    .map((edit) => ({ start: offsetAt(text, starts, edit.line, edit.column), end: offsetAt(text, starts, edit.endLine, edit.endColumn), text: edit.newText }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end < span.start || span.start < at) {
      throw new SextantError('INVALID_ARGUMENT', 'The plan has overlapping or inverted edits.',
        'Make the plan again; plans from Sextant never overlap.');
    }
    out += text.slice(at, span.start) + span.text;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Widens [start, end) to whole lines when nothing but whitespace shares a line with it, taking the
 * line break after it too, so deleting a declaration leaves no blank remains. Otherwise unchanged.
 */
export function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  while (from > 0 && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
  if (from > 0 && text[from - 1] !== '\n' && text[from - 1] !== '\r') return { start, end };
  let to = end;
  while (to < text.length && (text[to] === ' ' || text[to] === '\t')) to++;
  if (to < text.length && text[to] !== '\n' && text[to] !== '\r') return { start, end };
  if (text[to] === '\r') to++;
  if (text[to] === '\n') to++;
  return { start: from, end: to };
}

/**
 * The start of the comment, annotation and decorator lines directly above the line of `start`
 * (`start` itself when there are none), so a declaration's doc comment goes with it: deleted with
 * it, or kept above what is inserted before it.
 */
export function withCommentsAbove(text: string, starts: number[], start: number): number {
  const own = positionAt(starts, start).line - 1;
  let line = own;
  while (line > 0) {
    const above = text.slice(starts[line - 1]!, starts[line]!).trim();
    if (!/^(\/\/|\/\*|\*|@)/.test(above)) break;
    line--;
  }
  return line === own ? start : starts[line]!;
}

/**
 * A deletion of whole lines that would leave two blank lines meeting (one above it, one below)
 * takes the one below with it; one that would leave a blank line before a closing bracket or at
 * the end of the file takes the blank line above.
 */
export function withoutDoubleBlank(text: string, span: { start: number; end: number }): { start: number; end: number } {
  const before = text.slice(0, span.start);
  if (!/(^|\n)$/.test(before)) return span;
  const blankAbove = /(^|\n)([ \t]*\r?\n)$/.exec(before);
  const after = text.slice(span.end);
  const blankBelow = /^[ \t]*\r?\n/.exec(after);
  if ((blankAbove || before === '') && blankBelow) return { start: span.start, end: span.end + blankBelow[0].length };
  if (blankAbove && (after === '' || /^[ \t]*[}\])]/.test(after))) return { start: span.start - blankAbove[2]!.length, end: span.end };
  return span;
}
