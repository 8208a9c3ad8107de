// The runner's write tools, served by `runner mcp --repo DIR` next to the read tools. Each is two
// phases: called without planHash it previews (the plan, its hash, the conflicts and a diff;
// nothing is written); called with the planHash of a preview it plans again from the tree as it is
// now and applies only if the plan is the very same one (same hash), else CONFLICT. `force`
// applies a plan that has conflicts; nothing applies over a file that changed. Previews are signed
// with the server's key (this user's runner key); apply_plan applies only a plan a trusted key signed.
import * as z from 'zod';
import { SextantError } from '@sextant/format';
import { renderPlan, type Plan } from '@sextant/plan';
import { defineTool, planSchemas, schemaParts, type ToolContext, type ToolDefinition } from '@sextant/mcp';
import { applyPlan, checkPlan } from '../apply/apply-plan.ts';
import type { OperationRequest } from '../planning/operation-request.ts';
import { planOperation } from '../planning/plan-operation.ts';
import { previewOf } from '../planning/plan-preview.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import { planTrust, requireTrusted } from '../trust/plan-trust.ts';

const WRITE_ANNOTATIONS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false };

const phaseInput = {
  planHash: z.string().regex(/^[0-9a-f]{64}$/).optional()
    .describe('Apply: the planHash of the preview you reviewed. Absent: preview only, nothing is written.'),
  force: z.boolean().optional().describe('Apply although the plan has conflicts (default false). Never applies over a file that changed.'),
};

const output = z.object({
  repo: z.string(),
  commit: z.string().describe('The commit the plan was made against (the index\'s).'),
  ...planSchemas().planAnswerOutput,
  applied: z.boolean().describe('True when the files were written; false for a preview.'),
  files: z.array(z.object({ path: z.string(), change: z.string() })).optional().describe('What was written, when applied.'),
});

type Output = z.infer<typeof output>;

const PHASES = 'Two phases: call without planHash to preview (returns the plan, its planHash, the conflicts that block it and a unified diff; nothing is written), then call again with the same arguments and that planHash to apply it. The apply plans again from the working tree and fails with CONFLICT if anything changed since the preview; it writes all files or none (crash-safe).';
const TARGETS = 'Target by symbolId, path + line + column, qualifiedName or exact name (resolved through the index).';

async function twoPhase(
  ctx: RefactorContext, tool: ToolContext, request: OperationRequest, planHash: string | undefined, force: boolean | undefined,
): Promise<Output> {
  const preview = await previewOf(ctx, await tool.signPlan(await planOperation(ctx, request)));
  const answer = { repo: preview.plan.repo, commit: preview.plan.commit, ...preview };
  if (planHash === undefined) return { ...answer, applied: false };
  if (planHash !== preview.plan.planHash) {
    throw new SextantError('CONFLICT', `The plan is no longer the one previewed (planHash ${planHash.slice(0, 12)}…, now ${preview.plan.planHash.slice(0, 12)}…): the working tree or the index changed.`,
      'Review the new preview (call without planHash) and apply its planHash.', { previewed: planHash, current: preview.plan.planHash });
  }
  const result = await applyPlan(ctx.root, preview.plan, { force: force ?? false });
  return { ...answer, applied: true, files: result.files };
}

function render(a: Output): string {
  return renderPlan(a.plan as Plan, a.diff, a.applied);
}

export function writeTools(ctx: RefactorContext): ToolDefinition[] {
  const symbolTool = <S extends z.ZodRawShape>(
    name: string, title: string, description: string, extra: S, request: (args: Record<string, any>) => OperationRequest,
  ) => defineTool({
    name, title, description, annotations: WRITE_ANNOTATIONS,
    schemas: () => ({ input: z.strictObject({ ...schemaParts().targetInput, ...extra, ...phaseInput }), output }),
    run: async (_provider, args, tool) => {
      const { planHash, force, ...rest } = args as Record<string, any>;
      return twoPhase(ctx, tool, request(rest), planHash, force);
    },
    render,
  });
  const target = ({ symbolId, path, line, column, qualifiedName, name }: Record<string, any>) => ({ symbolId, path, line, column, qualifiedName, name });
  const code = { text: z.string().max(1_000_000).describe('The code, with any line endings (they are made the file\'s own).') };
  const fileTool = (name: string, title: string, description: string, operation: 'reformat_file' | 'organize_imports') => defineTool({
    name, title, description, annotations: WRITE_ANNOTATIONS,
    schemas: () => ({ input: z.strictObject({ path: z.string().min(1).max(4096).describe('Repository-relative path of a TypeScript or JavaScript file.'), ...phaseInput }), output }),
    run: async (_provider, { path, planHash, force }, tool) => twoPhase(ctx, tool, { operation, path }, planHash, force),
    render,
  });
  return [
    symbolTool('rename', 'Rename',
      `Renames a symbol everywhere. TypeScript and JavaScript are renamed by the TypeScript language service over the working tree: through imports and re-exports (an explicit alias keeps its name), shorthand properties expanded (\`{ total }\` → \`{ total: sum }\`), string-literal property names, and every member it overrides or that overrides it, interface declarations included. Other languages are renamed from the index's references; a reference the index matched by name only is a conflict. Conflicts: the new name collides or shadows in an affected scope, the change would introduce compiler errors, an edit lands in a generated or vendored file, a file differs from the indexed commit. ${PHASES} ${TARGETS}`,
      { newName: z.string().min(1).max(512).describe('The new name.') },
      (a) => ({ operation: 'rename', target: target(a), newName: a.newName })),
    symbolTool('safe_delete', 'Safe delete',
      `Deletes a symbol's declarations (with their doc comments) only if nothing uses it: every reference (from the TypeScript language service, or the index for other languages) is listed as a usage conflict in the preview, and the apply refuses unless forced. ${PHASES} ${TARGETS}`,
      {}, (a) => ({ operation: 'safe_delete', target: target(a) })),
    symbolTool('move_symbol', 'Move to module',
      `Moves a top-level TypeScript or JavaScript declaration (function, class, interface, type, enum, variable) to another module, created if it does not exist (its directory must), with the imports it needs, rewriting the imports and re-exports of every module that used it. ${PHASES} ${TARGETS}`,
      { toFile: z.string().min(1).max(4096).describe('Repository-relative path of the module to move it to.') },
      (a) => ({ operation: 'move_symbol', target: target(a), toFile: a.toFile })),
    symbolTool('inline', 'Inline',
      `Inlines a TypeScript or JavaScript symbol where the TypeScript language service can (a variable initialized once and never reassigned: every use gets its initializer and the declaration goes). Anything else is INVALID_ARGUMENT naming what TypeScript offers there. ${PHASES} ${TARGETS}`,
      {}, (a) => ({ operation: 'inline', target: target(a) })),
    symbolTool('replace_symbol_body', 'Replace symbol',
      `Replaces a symbol's whole declaration (from its first decorator or modifier to its end; the doc comment above it stays) with the given code. ${PHASES} ${TARGETS}`,
      code, (a) => ({ operation: 'replace_symbol_body', target: target(a), text: a.text })),
    symbolTool('insert_before_symbol', 'Insert before symbol',
      `Inserts code on lines of its own before a symbol's declaration and its doc comment. ${PHASES} ${TARGETS}`,
      code, (a) => ({ operation: 'insert_before_symbol', target: target(a), text: a.text })),
    symbolTool('insert_after_symbol', 'Insert after symbol',
      `Inserts code on lines of its own after a symbol's declaration. ${PHASES} ${TARGETS}`,
      code, (a) => ({ operation: 'insert_after_symbol', target: target(a), text: a.text })),
    fileTool('reformat_file', 'Reformat file',
      `Formats a TypeScript or JavaScript file with the TypeScript formatter, keeping the file's indentation style and line endings. ${PHASES}`, 'reformat_file'),
    fileTool('organize_imports', 'Organize imports',
      `Sorts and merges a TypeScript or JavaScript file's imports and removes unused ones, as the TypeScript language service does. ${PHASES}`, 'organize_imports'),
    defineTool({
      name: 'apply_plan',
      title: 'Apply a plan',
      description: 'Applies a plan exactly as plan_rename, plan_safe_delete or a preview returned it (for example one attached to a pull request by a review bot): it must be signed by this user\'s runner key or a key the user trusts (`runner trust add`), else PLAN_UNTRUSTED; the planHash must match the plan, every file must still have the content the plan expects (BLAKE3), and a plan with conflicts needs force. All files or none are written.',
      annotations: WRITE_ANNOTATIONS,
      schemas: () => ({ input: z.strictObject({ plan: planSchemas().planSchema.describe('The plan, unchanged.'), force: phaseInput.force }), output }),
      async run(_provider, { plan, force }) {
        const checked = checkPlan(plan, force);
        // No override here: whoever calls the tool is not necessarily the user who would vouch for the plan.
        requireTrusted(checked, await planTrust(checked));
        const preview = await previewOf(ctx, checked);
        const result = await applyPlan(ctx.root, checked, { force: force ?? false });
        return { repo: checked.repo, commit: checked.commit, ...preview, applied: true, files: result.files };
      },
      render,
    }),
  ];
}
