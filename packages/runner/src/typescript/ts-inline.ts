// Inline with the TypeScript language service: wherever TypeScript offers an inline refactoring at
// the declaration ("Inline variable" in TypeScript 5.4 and later), its edits are the plan.
import { SextantError } from '@sextant/format';
import type { PlanConflict } from '@sextant/plan';
import type { FileDraft } from '../planning/file-draft.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import type { DeclarationSite } from '../planning/declaration-site.ts';
import { formatSettingsFor, USER_PREFERENCES } from './ts-format-settings.ts';
import { collectChanges, draftsOf } from './ts-text-changes.ts';
import type { TypeScriptWorkspace } from './ts-workspace.ts';

export async function planTsInline(
  ctx: RefactorContext, workspace: TypeScriptWorkspace, site: DeclarationSite, name: string,
): Promise<{ drafts: FileDraft[]; conflicts: PlanConflict[] }> {
  const fileName = workspace.absolute(site.path);
  const { service } = workspace.projectOf(site.path);
  const refactors = service.getApplicableRefactors(fileName, site.offset, USER_PREFERENCES, 'invoked');
  const inline = refactors.flatMap((r) => r.actions.map((a) => ({ refactor: r.name, action: a })))
    .find(({ refactor, action }) => /^Inline/i.test(refactor) && !action.notApplicableReason);
  if (!inline) {
    throw new SextantError('INVALID_ARGUMENT', `TypeScript cannot inline ${name} (it inlines variables initialized once and never reassigned).`,
      `Offered here: ${refactors.map((r) => r.name).join(', ') || 'nothing'}.`);
  }
  const edits = service.getEditsForRefactor(fileName, formatSettingsFor(site.file.text, site.file.eol), site.offset, inline.refactor, inline.action.name, USER_PREFERENCES);
  if (!edits || edits.edits.length === 0) throw new SextantError('INVALID_ARGUMENT', `TypeScript produced no edits to inline ${name}.`, 'Inline it by hand.');
  const { spans, created } = collectChanges(workspace, edits.edits);
  return { drafts: await draftsOf(ctx, spans, created), conflicts: [] };
}
