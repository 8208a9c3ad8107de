// plan_rename: the complete rename of a symbol as a plan, from the index. Read-only: the plan is
// applied locally with `runner apply`.
import * as z from 'zod';
import { indexDiff, planRenameFromIndex, renderPlan } from '@sextant/plan';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { schemaParts } from '../schema-parts.ts';
import { planSchemas } from './plan-schema.ts';

export const planRenameTool = defineTool({
  name: 'plan_rename',
  title: 'Plan a rename',
  description:
    'Plans a rename everywhere, overriding members too: per-file hashes and edits, planHash, conflicts, diff. Writes nothing (`runner apply`).',
  schemas: () => {
    const { answerOutput, commitInput, targetInput } = schemaParts();
    const { planAnswerOutput } = planSchemas();
    return {
      input: z.strictObject({
        ...targetInput,
        newName: z.string().min(1).max(512),
        ...commitInput,
      }),
      output: z.object({ ...answerOutput, ...planAnswerOutput }),
    };
  },
  async run(provider, { repo, commit, newName, ...target }, context) {
    const reader = await openIndex(provider, { repo, commit });
    const plan = await context.signPlan(await planRenameFromIndex(reader, target, newName));
    return { repo: reader.repo, commit: reader.commit, plan, blocked: plan.conflicts.length > 0, diff: await indexDiff(reader, plan) };
  },
  render(a) {
    return renderPlan(a.plan, a.diff);
  },
});
