// The diff of an index-made plan, against the files as they are at the indexed commit.
import type { Plan } from './plan-document.ts';
import { fileText, type IndexReader } from '@sextant/query';
import { renderPlanDiff } from './plan-diff.ts';

export async function indexDiff(reader: IndexReader, plan: Plan): Promise<string> {
  const texts = new Map<string, string>();
  for (const file of plan.files) if (file.change !== 'create') texts.set(file.path, await fileText(reader, file.path));
  return renderPlanDiff(plan, (path) => texts.get(path));
}
