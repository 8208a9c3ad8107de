// plan_rename: the complete rename of a symbol as a plan, from the index. Read-only: the plan is
// applied locally with `runner apply`.
import * as z from 'zod';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { answerOutput, commitInput, targetInput } from '../schema-parts.ts';
import { indexDiff } from './plan-index-diff.ts';
import { planRenameFromIndex } from './plan-from-index.ts';
import { renderPlan } from './plan-render.ts';
import { planAnswerOutput } from './plan-schema.ts';

export const planRenameTool = defineTool({
  name: 'plan_rename',
  title: 'Plan a rename',
  description:
    'Plans renaming a symbol everywhere the index sees it: its declarations, every reference (through imports, re-exports and aliases: an alias such as `export { A as B }` keeps its own name), and the members it overrides or that override it (interface and base declarations included). Returns the plan (per file the BLAKE3 hash of the content at the indexed commit and the edits), its planHash, the conflicts that block it (the new name collides or shadows, an edit lands in a generated or vendored file, a reference the index only matched by name), and a unified diff, so a review bot can attach the complete rename to a pull request. Nothing is written: apply the plan locally with `runner apply plan.json`, which refuses it if any file changed since the commit. Target by symbolId, path + line + column, qualifiedName or exact name.',
  input: z.strictObject({
    ...targetInput,
    newName: z.string().min(1).max(512).describe('The new name: an identifier, not a reserved word.'),
    ...commitInput,
  }),
  output: z.object({ ...answerOutput, ...planAnswerOutput }),
  async run(provider, { repo, commit, newName, ...target }, context) {
    const reader = await openIndex(provider, { repo, commit });
    const plan = await context.signPlan(await planRenameFromIndex(reader, target, newName));
    return { repo: reader.repo, commit: reader.commit, plan, blocked: plan.conflicts.length > 0, diff: await indexDiff(reader, plan) };
  },
  render(a) {
    return renderPlan(a.plan, a.diff);
  },
});
