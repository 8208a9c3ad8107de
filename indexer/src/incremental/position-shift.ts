// Where a range of a changed file's previous text lies in its new text. An edit is taken as one
// span: the texts' common prefix and suffix are the same text, so a range wholly inside either has
// the same text now, at the same place (the prefix) or moved by the edit's length (the suffix). A
// range the span meets has no place to go. An incremental build uses it for the declaration a call
// chose (an overload, a call signature), which the index stores by position: a call in a file not
// walked again keeps its choice, now at the declaration's new place.
import { lineStarts, offsetAt, positionAt } from '@sextant/format';

/** A declaration's range, as a reference's chosen declaration holds it: path, line, column, endLine, endColumn (1-based, UTF-16). */
export type DefRange = readonly [string, number, number, number, number];

/** The range in the new text, or undefined when the edit meets it. */
export type PositionShift = (range: DefRange) => DefRange | undefined;

/** The edited span of two texts: the offset where they start to differ, and where the common suffix starts in each. */
export interface EditSpan {
  start: number;
  oldEnd: number;
  newEnd: number;
}

export function editSpan(before: string, after: string): EditSpan {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < shorter - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { start, oldEnd: before.length - tail, newEnd: after.length - tail };
}

export function positionShift(before: string, after: string): PositionShift {
  const { start, oldEnd } = editSpan(before, after);
  const delta = after.length - before.length;
  const oldStarts = lineStarts(before);
  const newStarts = lineStarts(after);
  const positionOf = (offset: number): [number, number] => {
    const { line, column } = positionAt(newStarts, offset);
    return [line, column];
  };
  return (range) => {
    let from: number;
    let to: number;
    try {
      from = offsetAt(before, oldStarts, range[1], range[2]);
      to = offsetAt(before, oldStarts, range[3], range[4]);
    } catch {
      return undefined;
    }
    // Strictly inside the prefix or the suffix: a range that touches the edit could be a name it extends.
    if (to < start) return range;
    if (from > oldEnd) return [range[0], ...positionOf(from + delta), ...positionOf(to + delta)];
    return undefined;
  };
}
