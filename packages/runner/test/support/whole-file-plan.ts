// Plans that replace, create or delete whole files: the smallest real plans, for tests of the
// applier that do not need a planner.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, encodeText, lineStarts, positionAt } from '@sextant/format';
import { contentHash, sealPlan, textHash, type Plan, type PlanConflict, type PlanFile } from '@sextant/plan';

/** `changes`: path → new text (null deletes the file). Files that do not exist are created. */
export function wholeFilePlan(root: string, changes: Record<string, string | null>, conflicts: PlanConflict[] = []): Plan {
  const files: PlanFile[] = Object.entries(changes).map(([path, text]) => {
    let bytes: Uint8Array | undefined;
    try {
      bytes = new Uint8Array(readFileSync(join(root, path)));
    } catch {
      bytes = undefined;
    }
    if (!bytes) return { path, change: 'create', expectedHash: null, resultHash: textHash(text!), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: text! }] };
    const before = decodeText(bytes, path);
    const end = positionAt(lineStarts(before.text), before.text.length);
    if (text === null) return { path, change: 'delete', expectedHash: contentHash(bytes), resultHash: null, edits: [] };
    return {
      path, change: 'modify', expectedHash: contentHash(bytes), resultHash: contentHash(encodeText({ text, bom: before.bom })),
      edits: [{ line: 1, column: 1, endLine: end.line, endColumn: end.column, newText: text }],
    };
  });
  return sealPlan({ format: 1, operation: 'rename', arguments: { test: true }, repo: 'acme/test', commit: 'c'.repeat(40), planner: 'index', files, conflicts });
}
