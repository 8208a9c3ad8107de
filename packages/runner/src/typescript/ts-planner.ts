// Plans for TypeScript and JavaScript, from the language service over the working tree: the
// operation's edits, then the compiler's verdict on them (errors the change would introduce).
// Loaded only when a plan needs TypeScript, so applying a plan never pays for the compiler.
import { SextantError } from '@sextant/format';
import type { PlanConflict } from '@sextant/plan';
import type { LoadedSymbol } from '@sextant/query';
import { declarationSite } from '../planning/declaration-site.ts';
import type { FileDraft } from '../planning/file-draft.ts';
import type { OperationRequest } from '../planning/operation-request.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import { introducedErrors } from './ts-checks.ts';
import { planTsDeclarationEdit } from './ts-declaration-text.ts';
import { planTsFileEdit } from './ts-file-format.ts';
import { planTsInline } from './ts-inline.ts';
import { planTsMove } from './ts-move.ts';
import { planTsRename } from './ts-rename.ts';
import { planTsSafeDelete } from './ts-safe-delete.ts';
import { TypeScriptWorkspace } from './ts-workspace.ts';

interface Planned {
  drafts: FileDraft[];
  conflicts: PlanConflict[];
}

export async function planWithTypeScript(ctx: RefactorContext, request: OperationRequest, symbol?: LoadedSymbol): Promise<Planned> {
  const workspace = await TypeScriptWorkspace.open(ctx.root);
  let planned: Planned;
  if (request.operation === 'reformat_file' || request.operation === 'organize_imports') {
    const file = await ctx.read(request.path);
    if (!file) throw new SextantError('FILE_NOT_FOUND', `${request.path} is not in the working tree.`, 'Pass a repository-relative path of an existing file.');
    planned = planTsFileEdit(workspace, file, request.operation);
  } else {
    const { name, qname } = symbol!.record;
    const site = await declarationSite(ctx, symbol!);
    switch (request.operation) {
      case 'rename': planned = await planTsRename(ctx, workspace, site, name, request.newName); break;
      case 'safe_delete': planned = await planTsSafeDelete(ctx, workspace, site, qname); break;
      case 'move_symbol': planned = await planTsMove(ctx, workspace, site, name, request.toFile); break;
      case 'inline': planned = await planTsInline(ctx, workspace, site, name); break;
      case 'replace_symbol_body':
      case 'insert_before_symbol':
      case 'insert_after_symbol':
        planned = { drafts: [planTsDeclarationEdit(site, name, request.operation, request.text)], conflicts: [] };
        break;
      default:
        throw new SextantError('INVALID_ARGUMENT', `${request.operation} is not a symbol operation.`, 'Pass a symbol operation.');
    }
  }
  const touched = planned.drafts.filter((d) => d.change !== 'create').map((d) => d.path);
  const projects = [...new Set(touched.flatMap((path) => workspace.projectsOf(path)))];
  return { drafts: planned.drafts, conflicts: [...planned.conflicts, ...introducedErrors(workspace, projects, planned.drafts)] };
}
