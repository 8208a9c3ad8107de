// Planning one operation in a working tree. The symbol is resolved through the index (so a plan
// names the index's commit and the same symbolIds as every other tool); TypeScript and JavaScript
// are planned by the language service over the working tree, other languages from the index's
// references. Every plan then gets the conflicts any planner must report: a file that differs
// from the commit, and a generated or vendored file.
import { defAt, lineStarts, offsetAt, SextantError, shortCommit } from '@sextant/format';
import {
  classificationConflicts, outlinePath, planRenameFromIndex, planSafeDeleteFromIndex, planSymbol, resolveOwnSymbol, sealPlan, textualMentions, withCommentsAbove,
  type Plan, type PlanArgument, type PlanConflict, type PlanFromIndexOptions, type Planner, type PlanOperation, type PlanSymbol,
} from '@sextant/plan';
import { fileText, type IndexReader, type LoadedSymbol } from '@sextant/query';
import { isTypeScriptPath } from '../typescript/ts-paths.ts';
import { declarationSite } from './declaration-site.ts';
import { declarationTextEdit } from './declaration-text-edit.ts';
import { offsetEdits, toPlanFile, type FileDraft } from './file-draft.ts';
import { isFileOperation, requestArguments, type OperationRequest } from './operation-request.ts';
import type { RefactorContext } from './refactor-context.ts';

const TS_LANGUAGES = new Set(['typescript', 'javascript']);

export async function planOperation(ctx: RefactorContext, request: OperationRequest): Promise<Plan> {
  const reader = await ctx.reader();
  const args = requestArguments(request);
  if (isFileOperation(request)) {
    await ctx.jail.resolve(request.path);
    if (!isTypeScriptPath(request.path)) {
      throw new SextantError('UNSUPPORTED_LANGUAGE', `${request.operation} needs the TypeScript language service; ${request.path} is not a TypeScript or JavaScript file.`,
        'Use the formatter of that language.');
    }
    const { planWithTypeScript } = await import('../typescript/ts-planner.ts');
    return finish(reader, request.operation, args, undefined, 'typescript', await planWithTypeScript(ctx, request));
  }
  const symbol = await resolveOwnSymbol(reader, request.target, 'refactored');
  const described = planSymbol(reader, symbol);
  if (TS_LANGUAGES.has(symbol.record.lang)) {
    const { planWithTypeScript } = await import('../typescript/ts-planner.ts');
    return finish(reader, request.operation, args, described, 'typescript', await planWithTypeScript(ctx, request, symbol), request.operation === 'rename' ? symbol.record.name : undefined);
  }
  switch (request.operation) {
    case 'rename':
      return planRenameFromIndex(reader, request.target, request.newName, workingTreeChecked(ctx, reader));
    case 'safe_delete':
      return planSafeDeleteFromIndex(reader, request.target, workingTreeChecked(ctx, reader));
    case 'replace_symbol_body':
    case 'insert_before_symbol':
    case 'insert_after_symbol': {
      const draft = await indexDeclarationEdit(ctx, reader, symbol, request.operation, request.text);
      return finish(reader, request.operation, args, described, 'index', { drafts: [draft], conflicts: [] });
    }
    default:
      throw new SextantError('UNSUPPORTED_LANGUAGE', `${request.operation} needs a compiler; Sextant has one for TypeScript and JavaScript, and ${symbol.record.qname} is ${symbol.record.lang}.`,
        'Use your IDE for this refactoring; rename and safe_delete work from the index in every language.');
  }
}

async function finish(
  reader: IndexReader, operation: PlanOperation, args: Record<string, PlanArgument>, symbol: PlanSymbol | undefined,
  planner: Planner, planned: { drafts: FileDraft[]; conflicts: PlanConflict[] }, renamedFrom?: string,
): Promise<Plan> {
  const conflicts = [...planned.conflicts];
  const files = planned.drafts.map(toPlanFile);
  for (const draft of planned.drafts) {
    if (!draft.before) continue;
    const record = await reader.file(draft.path);
    if (!record) {
      conflicts.push({ kind: 'working-tree-differs', path: draft.path, message: `${draft.path} is not in the index of ${shortCommit(reader.commit)} (new, untracked or not indexed).` });
      continue;
    }
    if (await fileText(reader, draft.path) !== draft.before.text) conflicts.push(differsFromCommit(draft.path, reader.commit));
    conflicts.push(...classificationConflicts(draft.path, record.flags));
  }
  // A rename leaves its old name in comments, strings and documentation: listed, not edited.
  if (renamedFrom !== undefined) conflicts.push(...await textualMentions(reader, renamedFrom, files, conflicts));
  return sealPlan({
    format: 1, operation, arguments: args, repo: reader.repo, commit: reader.commit, planner,
    ...(symbol ? { symbol } : {}), files, conflicts,
  });
}

/**
 * An index-made plan applies to the commit's content: each file that differs in the working tree is
 * a conflict, added by the index planner before it seals the plan (a plan is hashed once).
 */
function workingTreeChecked(ctx: RefactorContext, reader: IndexReader): PlanFromIndexOptions {
  return {
    async moreConflicts(files) {
      const conflicts: PlanConflict[] = [];
      for (const file of files) {
        const current = await ctx.read(file.path);
        if (current?.hash !== file.expectedHash) conflicts.push(differsFromCommit(file.path, reader.commit));
      }
      return conflicts;
    },
  };
}

function differsFromCommit(path: string, commit: string): PlanConflict {
  return { kind: 'working-tree-differs', path, message: `${path} in the working tree differs from commit ${shortCommit(commit)}, which the plan is made against.` };
}

/** Replace or insert around a declaration whose extent the index's outline gives (languages without a local compiler). */
async function indexDeclarationEdit(
  ctx: RefactorContext, reader: IndexReader, symbol: LoadedSymbol,
  operation: 'replace_symbol_body' | 'insert_before_symbol' | 'insert_after_symbol', text: string,
): Promise<FileDraft> {
  const site = await declarationSite(ctx, symbol);
  const record = await reader.file(site.path);
  const { line, column } = defAt(symbol.record, 0);
  const node = record ? outlinePath(record.outline, line, column)?.at(-1) : undefined;
  if (!node || await fileText(reader, site.path) !== site.file.text) {
    throw new SextantError('CONFLICT', `The index has no current extent of ${symbol.record.qname} (${site.path} changed since it was indexed, or has no outline).`,
      'Rebuild the index (`indexer build`) and plan again.');
  }
  const starts = lineStarts(site.file.text);
  const start = offsetAt(site.file.text, starts, node.range[0], node.range[1]);
  const end = offsetAt(site.file.text, starts, node.range[2], node.range[3]);
  const span = declarationTextEdit(site.file.text, site.file.eol, { start, end, startWithComments: withCommentsAbove(site.file.text, starts, start) }, operation, text);
  return { path: site.path, change: 'modify', before: site.file, edits: offsetEdits(site.file, [span]) };
}
