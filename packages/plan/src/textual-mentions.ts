// The textual mentions of a renamed symbol's old name: every whole-word, case-sensitive occurrence
// of it at the commit (search_text, over every tracked text file) that the plan does not edit and
// that is no identifier of another symbol: comments, strings, documentation, Markdown, YAML, JSON.
// A path segment (`'../geometry/distance'`, `docs/distance.md`) names a file, not the symbol: left out.
// A rename lists them as `textual-mention` conflicts, so that no stale name is left in the
// documentation unnoticed; it never edits them (a mention may mean something else).
import { searchText, type IndexReader } from '@sextant/query';
import type { PlanConflict, PlanFile } from './plan-document.ts';

/** Mentions listed one by one, at most; past it one more conflict counts the rest. */
export const MAX_TEXTUAL_MENTIONS = 200;
const PAGE = 1000;

export async function textualMentions(reader: IndexReader, oldName: string, files: readonly PlanFile[], listed: readonly PlanConflict[]): Promise<PlanConflict[]> {
  const skip = new Set<string>();
  for (const file of files) {
    for (const edit of file.edits) {
      // A quoted name the plan renames inside its quotes is edited one column in.
      for (const column of [edit.column, edit.column - 1]) skip.add(`${file.path}:${edit.line}:${column}`);
    }
  }
  for (const c of listed) if (c.path && c.line !== undefined && c.column !== undefined) skip.add(`${c.path}:${c.line}:${c.column}`);
  const conflicts: PlanConflict[] = [];
  let more = 0;
  let cursor: string | undefined;
  do {
    const page = await searchText(reader, { query: oldName, mode: 'literal', caseSensitive: true, wholeWord: true, limit: PAGE, ...(cursor ? { cursor } : {}) });
    for (const m of page.matches) {
      if (skip.has(`${m.path}:${m.line}:${m.column}`) || m.symbol || m.text[m.column - 2] === '/') continue;
      if (conflicts.length >= MAX_TEXTUAL_MENTIONS) {
        more++;
        continue;
      }
      conflicts.push({
        kind: 'textual-mention', path: m.path, line: m.line, column: m.column,
        message: `${m.path}:${m.line}:${m.column} mentions ${oldName} in text the rename does not edit (a comment, a string, documentation): "${m.text.trim().slice(0, 120)}".`,
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (more > 0) {
    conflicts.push({ kind: 'textual-mention', message: `${more} more textual mentions of ${oldName} are not listed; search_text with wholeWord and caseSensitive lists them all.` });
  }
  return conflicts;
}
