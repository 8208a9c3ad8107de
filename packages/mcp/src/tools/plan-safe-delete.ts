// plan_safe_delete: deleting a symbol's declaration as a plan, blocked by every usage the index holds.
import * as z from 'zod';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { answerOutput, commitInput, targetInput } from '../schema-parts.ts';
import { indexDiff } from './plan-index-diff.ts';
import { planSafeDeleteFromIndex } from './plan-from-index.ts';
import { renderPlan } from './plan-render.ts';
import { planAnswerOutput } from './plan-schema.ts';

export const planSafeDeleteTool = defineTool({
  name: 'plan_safe_delete',
  title: 'Plan a safe delete',
  description:
    'Plans deleting a symbol\'s declarations (with the comments directly above them) and says whether that is safe: every reference the index holds (calls, reads, types, imports, re-exports, name-only candidates) and every member that overrides it is listed as a usage conflict, so "blocked: true" with the list means the delete would break those places, and "blocked: false" means nothing the index knows uses it. Returns the plan with per-file BLAKE3 hashes at the indexed commit, its planHash and a unified diff; nothing is written (apply locally with `runner apply plan.json`; a blocked plan needs --force). Target by symbolId, path + line + column, qualifiedName or exact name.',
  input: z.strictObject({ ...targetInput, ...commitInput }),
  output: z.object({ ...answerOutput, ...planAnswerOutput }),
  async run(provider, { repo, commit, ...target }, context) {
    const reader = await openIndex(provider, { repo, commit });
    const plan = await context.signPlan(await planSafeDeleteFromIndex(reader, target));
    return { repo: reader.repo, commit: reader.commit, plan, blocked: plan.conflicts.length > 0, diff: await indexDiff(reader, plan) };
  },
  render(a) {
    return renderPlan(a.plan, a.diff);
  },
});
