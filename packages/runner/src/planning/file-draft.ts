// A file's part of a plan while it is being made: the working-tree file it starts from and the
// edits. Becomes a PlanFile with the hashes of the bytes before and after.
import { encodeText, lineStarts, withEol } from '@sextant/format';
import { applyEdits, contentHash, editAt, textHash, type FileChange, type PlanEdit, type PlanFile } from '@sextant/plan';
import type { WorkingFile } from './working-tree.ts';

export interface FileDraft {
  path: string;
  change: FileChange;
  /** The file as it is now; undefined when the plan creates it. */
  before?: WorkingFile;
  edits: PlanEdit[];
}

export function resultText(draft: FileDraft): string | undefined {
  return draft.change === 'delete' ? undefined : applyEdits(draft.before?.text ?? '', draft.edits);
}

export function toPlanFile(draft: FileDraft): PlanFile {
  const after = resultText(draft);
  return {
    path: draft.path,
    change: draft.change,
    expectedHash: draft.before?.hash ?? null,
    resultHash: after === undefined ? null : draft.before ? contentHash(encodeText({ text: after, bom: draft.before.bom })) : textHash(after),
    edits: [...draft.edits].sort((a, b) => a.line - b.line || a.column - b.column || a.endLine - b.endLine || a.endColumn - b.endColumn),
  };
}

/** Replacements by offset over a working file, with inserted line breaks made the file's own. */
export function offsetEdits(file: WorkingFile, spans: { start: number; end: number; newText: string }[]): PlanEdit[] {
  const starts = lineStarts(file.text);
  return spans.map((s) => editAt(starts, s.start, s.end, withEol(s.newText, file.eol)));
}

/** The one edit that creates a file with `text`. */
export function creation(text: string): PlanEdit[] {
  return [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: text }];
}
