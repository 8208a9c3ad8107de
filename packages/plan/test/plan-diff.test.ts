// The diff of a plan is a real unified diff: `git apply` takes it and turns the old text into
// exactly the text the plan's edits produce, for edits close together, far apart, on one line, at
// the start and the end of a file, and for created and deleted files.
/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineStarts } from '@sextant/format';
import { applyEdits, editAt, fileDiff, renderPlanDiff, sealPlan, textHash, type PlanEdit, type PlanFile } from '../src/index.ts';

const OLD = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

function modify(text: string, spans: [number, number, string][]): PlanFile {
  const starts = lineStarts(text);
  const edits: PlanEdit[] = spans.map(([start, end, newText]) => editAt(starts, start, end, newText));
  return { path: 'src/file.txt', change: 'modify', expectedHash: textHash(text), resultHash: textHash(applyEdits(text, edits)), edits };
}

/** Applies a diff with git to `files` (path → text) in a scratch directory; returns the texts after. */
function gitApply(files: Record<string, string>, diff: string): Record<string, string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-diff-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, 'change.diff'), diff);
    execFileSync('git', ['apply', 'change.diff'], { cwd: dir, stdio: 'pipe' });
    const out: Record<string, string | undefined> = {};
    for (const path of [...Object.keys(files), 'src/new.txt']) out[path] = existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : undefined;
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = (line: number, column = 1) => lineStarts(OLD)[line - 1]! + column - 1;

describe('renderPlanDiff', () => {
  it.each([
    ['one changed line', [[at(10, 6), at(10, 8), 'ten']]],
    ['two edits on one line', [[at(5, 1), at(5, 5), 'LINE'], [at(5, 6), at(5, 7), 'five']]],
    ['edits a few lines apart (one hunk)', [[at(10), at(10, 5), 'x'], [at(14), at(14, 5), 'y']]],
    ['edits far apart (two hunks)', [[at(2), at(2, 5), 'x'], [at(30), at(30, 5), 'y']]],
    ['lines deleted', [[at(20), at(23), '']]],
    ['lines inserted', [[at(20), at(20), 'new a\nnew b\n']]],
    ['an edit on the first line and one at the end', [[0, 4, 'first'], [OLD.length - 1, OLD.length, '\nappended\n']]],
    ['a replacement spanning lines', [[at(7, 3), at(9, 4), 'merged']]],
  ] as [string, [number, number, string][]][])('%s', (_label, spans) => {
    const file = modify(OLD, spans);
    const diff = fileDiff(file, OLD);
    expect(diff.startsWith('--- a/src/file.txt\n+++ b/src/file.txt\n@@ ')).toBe(true);
    expect(gitApply({ 'src/file.txt': OLD }, diff)['src/file.txt']).toBe(applyEdits(OLD, file.edits));
  });

  it('shows created and deleted files', () => {
    const plan = sealPlan({
      format: 1, operation: 'move_symbol', arguments: {}, repo: 'acme/x', commit: 'c'.repeat(40), planner: 'typescript', conflicts: [],
      files: [
        { path: 'src/new.txt', change: 'create', expectedHash: null, resultHash: textHash('a\nb\n'), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: 'a\nb\n' }] },
        { path: 'src/old.txt', change: 'delete', expectedHash: textHash('gone\n'), resultHash: null, edits: [] },
      ],
    });
    const diff = renderPlanDiff(plan, (path) => (path === 'src/old.txt' ? 'gone\n' : undefined));
    expect(diff).toBe('--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n--- a/src/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n');
    expect(gitApply({ 'src/old.txt': 'gone\n' }, diff)).toEqual({ 'src/old.txt': undefined, 'src/new.txt': 'a\nb\n' });
  });

  it('is empty for a file whose edits change nothing', () => {
    expect(fileDiff(modify(OLD, [[at(3), at(3, 5), 'line']]), OLD)).toBe('');
  });
});
