// A plan as a unified diff, for people and review bots. Built from the plan's own edits rather
// than by diffing texts: linear in the file size whatever the change, and it shows exactly what
// the apply will write.
import { lineStarts, offsetAt, positionAt, splitLines } from '@sextant/format';
import type { Plan, PlanFile } from './plan-document.ts';
import { applyEdits } from './plan-edits.ts';

const CONTEXT = 3;

interface Segment {
  /** 0-based index of the first old line the segment replaces. */
  oldStart: number;
  oldLines: string[];
  newLines: string[];
}

/** `before(path)` gives the text a file has before the plan (undefined for created files). */
export function renderPlanDiff(plan: Plan, before: (path: string) => string | undefined): string {
  return plan.files.map((file) => fileDiff(file, before(file.path) ?? '')).join('');
}

export function fileDiff(file: PlanFile, oldText: string): string {
  const header = `--- ${file.change === 'create' ? '/dev/null' : `a/${file.path}`}\n+++ ${file.change === 'delete' ? '/dev/null' : `b/${file.path}`}\n`;
  if (file.change === 'delete') return header + hunk(split(oldText), [], 0, 0);
  const segments = file.change === 'create'
    ? [{ oldStart: 0, oldLines: [], newLines: split(applyEdits('', file.edits)) }]
    : segmentsOf(oldText, file);
  const oldAll = split(oldText);
  let out = '';
  let shift = 0; // new line number minus old line number before the current group
  for (let i = 0; i < segments.length;) {
    // A group: segments whose unchanged gaps are short enough to share context.
    let j = i;
    while (j + 1 < segments.length && segments[j + 1]!.oldStart - (segments[j]!.oldStart + segments[j]!.oldLines.length) <= 2 * CONTEXT) j++;
    const first = segments[i]!;
    const last = segments[j]!;
    const from = Math.max(0, first.oldStart - CONTEXT);
    const to = Math.min(oldAll.length, last.oldStart + last.oldLines.length + CONTEXT);
    const lines: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let at = from;
    let groupShift = 0;
    for (let k = i; k <= j; k++) {
      const segment = segments[k]!;
      for (; at < segment.oldStart; at++, oldCount++, newCount++) lines.push(` ${oldAll[at]}`);
      for (const line of segment.oldLines) lines.push(`-${line}`);
      for (const line of segment.newLines) lines.push(`+${line}`);
      oldCount += segment.oldLines.length;
      newCount += segment.newLines.length;
      at += segment.oldLines.length;
      groupShift += segment.newLines.length - segment.oldLines.length;
    }
    for (; at < to; at++, oldCount++, newCount++) lines.push(` ${oldAll[at]}`);
    const oldFrom = oldCount === 0 ? from : from + 1;
    const newFrom = newCount === 0 ? from + shift : from + shift + 1;
    out += `@@ -${oldFrom},${oldCount} +${newFrom},${newCount} @@\n${lines.join('\n')}\n`;
    shift += groupShift;
    i = j + 1;
  }
  return segments.length ? header + out : '';
}

function hunk(oldLines: string[], newLines: string[], oldFrom: number, newFrom: number): string {
  return `@@ -${oldLines.length ? oldFrom + 1 : oldFrom},${oldLines.length} +${newLines.length ? newFrom + 1 : newFrom},${newLines.length} @@\n${[
    ...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`),
  ].join('\n')}\n`;
}

/** Edits widened to whole lines, merged where they share a line, with unchanged lines trimmed off. */
function segmentsOf(oldText: string, file: PlanFile): Segment[] {
  const starts = lineStarts(oldText);
  const spans = file.edits
    .map((e) => ({ start: offsetAt(oldText, starts, e.line, e.column), end: offsetAt(oldText, starts, e.endLine, e.endColumn), text: e.newText }))
    .sort((a, b) => a.start - b.start);
  const segments: Segment[] = [];
  // The lines being replaced ([lineFrom, lineTo)), their new text so far, and how far the old text is consumed.
  let current: { lineFrom: number; lineTo: number; text: string; consumed: number } | undefined;
  const flush = () => {
    if (!current) return;
    const end = starts[current.lineTo] ?? oldText.length;
    const oldLines = split(oldText.slice(starts[current.lineFrom]!, end));
    const newLines = split(current.text + oldText.slice(current.consumed, end));
    let head = 0;
    while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
    let tail = 0;
    while (tail < oldLines.length - head && tail < newLines.length - head
      && oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]) tail++;
    if (oldLines.length - head - tail > 0 || newLines.length - head - tail > 0) {
      segments.push({
        oldStart: current.lineFrom + head,
        oldLines: oldLines.slice(head, oldLines.length - tail),
        newLines: newLines.slice(head, newLines.length - tail),
      });
    }
    current = undefined;
  };
  for (const span of spans) {
    const lineFrom = positionAt(starts, span.start).line - 1;
    const lineTo = positionAt(starts, span.end).line;
    if (current && lineFrom < current.lineTo) {
      // Shares a line with the previous edit: one segment, with the old text between them kept.
      current.text += oldText.slice(current.consumed, span.start) + span.text;
      current.consumed = span.end;
      current.lineTo = Math.max(current.lineTo, lineTo);
      continue;
    }
    flush();
    current = { lineFrom, lineTo, text: oldText.slice(starts[lineFrom]!, span.start) + span.text, consumed: span.end };
  }
  flush();
  return segments;
}

/** Lines for display: without their breaks, and without the empty "line" after a final break. */
function split(text: string): string[] {
  if (text === '') return [];
  const lines = splitLines(text);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
