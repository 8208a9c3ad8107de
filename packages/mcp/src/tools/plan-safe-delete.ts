// plan_safe_delete: deleting a symbol's declaration as a plan, blocked by every usage the index holds.
import * as z from 'zod';
import { indexDiff, planSafeDeleteFromIndex, renderPlan } from '@sextant/plan';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { schemaParts } from '../schema-parts.ts';
import { planSchemas } from './plan-schema.ts';

export const planSafeDeleteTool = defineTool({
  name: 'plan_safe_delete',
  title: 'Plan a safe delete',
  description:
    'Plans deleting a symbol; each use or override is a conflict (blocked false: nothing known uses it). Writes nothing (`runner apply`).',
  schemas: () => {
    const { answerOutput, commitInput, targetInput } = schemaParts();
    const { planAnswerOutput } = planSchemas();
    return {
      input: z.strictObject({ ...targetInput, ...commitInput }),
      output: z.object({ ...answerOutput, ...planAnswerOutput }),
    };
  },
  async run(provider, { repo, commit, ...target }, context) {
    const reader = await openIndex(provider, { repo, commit });
    const plan = await context.signPlan(await planSafeDeleteFromIndex(reader, target));
    return { repo: reader.repo, commit: reader.commit, plan, blocked: plan.conflicts.length > 0, diff: await indexDiff(reader, plan) };
  },
  render(a) {
    return renderPlan(a.plan, a.diff);
  },
});
