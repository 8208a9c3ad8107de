// What a preview shows besides the plan: whether it is blocked, and its diff against the working
// tree as it is now.
import { renderPlanDiff, type Plan } from '@sextant/plan';
import type { RefactorContext } from './refactor-context.ts';

export interface Preview {
  plan: Plan;
  blocked: boolean;
  diff: string;
}

export async function previewOf(ctx: RefactorContext, plan: Plan): Promise<Preview> {
  const texts = new Map<string, string>();
  for (const file of plan.files) {
    if (file.change === 'create') continue;
    const current = await ctx.read(file.path);
    if (current) texts.set(file.path, current.text);
  }
  return { plan, blocked: plan.conflicts.length > 0, diff: renderPlanDiff(plan, (path) => texts.get(path)) };
}
