// File-wide edits from the language service: formatting (with the file's own indentation and line
// endings) and organizing imports (sorted, merged, unused ones removed).
import type { PlanConflict } from '@sextant/plan';
import { offsetEdits, type FileDraft } from '../planning/file-draft.ts';
import type { WorkingFile } from '../planning/working-tree.ts';
import { formatSettingsFor, USER_PREFERENCES } from './ts-format-settings.ts';
import { collectChanges } from './ts-text-changes.ts';
import type { TypeScriptWorkspace } from './ts-workspace.ts';

export function planTsFileEdit(
  workspace: TypeScriptWorkspace, file: WorkingFile, operation: 'reformat_file' | 'organize_imports',
): { drafts: FileDraft[]; conflicts: PlanConflict[] } {
  const fileName = workspace.absolute(file.path);
  const { service } = workspace.projectOf(file.path);
  const settings = formatSettingsFor(file.text, file.eol);
  if (operation === 'reformat_file') {
    const changes = service.getFormattingEditsForDocument(fileName, settings);
    const spans = changes.map((c) => ({ start: c.span.start, end: c.span.start + c.span.length, newText: c.newText }));
    return { drafts: spans.length ? [{ path: file.path, change: 'modify', before: file, edits: offsetEdits(file, spans) }] : [], conflicts: [] };
  }
  const changes = service.organizeImports({ type: 'file', fileName }, settings, USER_PREFERENCES);
  const spans = collectChanges(workspace, changes).spans.get(file.path) ?? [];
  return { drafts: spans.length ? [{ path: file.path, change: 'modify', before: file, edits: offsetEdits(file, spans) }] : [], conflicts: [] };
}
