// A plan in a few lines of text: what it does, to how many files, what blocks it, then its diff.
import { shortCommit } from '@sextant/format';
import type { Plan } from './plan-document.ts';

/** Rendered diffs are cut here; the structured plan is always complete. */
const MAX_DIFF_LINES = 400;

export function renderPlan(plan: Plan, diff: string, applied = false): string {
  const edits = plan.files.reduce((n, f) => n + f.edits.length, 0);
  const what = plan.symbol ? `${plan.operation} ${plan.symbol.kind} ${plan.symbol.qualifiedName}` : `${plan.operation} ${Object.values(plan.arguments).join(' ')}`;
  const lines = [
    `${applied ? 'applied' : 'plan'} ${what}${typeof plan.arguments.newName === 'string' ? ` to ${plan.arguments.newName}` : ''}: ${edits} edits in ${plan.files.length} files (planner ${plan.planner}, ${plan.repo}@${shortCommit(plan.commit)})`,
    `planHash ${plan.planHash}`,
  ];
  if (plan.conflicts.length) {
    lines.push(`blocked by ${plan.conflicts.length} conflicts${applied ? ' (forced)' : ' (apply with force to override)'}:`);
    for (const c of plan.conflicts) lines.push(`  ${c.kind}: ${c.message}`);
  }
  const diffLines = diff.split('\n');
  if (diffLines.length > MAX_DIFF_LINES) {
    lines.push(...diffLines.slice(0, MAX_DIFF_LINES), `… ${diffLines.length - MAX_DIFF_LINES} more diff lines; the structured plan has every edit`);
  } else if (diff) {
    lines.push(diff.trimEnd());
  }
  return lines.join('\n');
}
