// Grading an answer against its key. Both are sets of items (task-types.ts): equal sets are
// correct; an answer that gives only items of the key but not all of them is incomplete; an answer
// with any item outside the key is wrong, including an answer that lists several candidates because
// it could not tell same-name symbols apart.
import type { Answer, Grade } from './task-types.ts';

export interface Graded {
  grade: Grade;
  /** Items of the key the answer lacks. */
  missing: string[];
  /** Items of the answer the key does not have. */
  extra: string[];
}

export function gradeAnswer(answer: Answer, key: Answer): Graded {
  const want = new Set(key.items);
  const got = new Set(answer.items);
  const missing = [...want].filter((item) => !got.has(item)).sort();
  const extra = [...got].filter((item) => !want.has(item)).sort();
  const grade: Grade = extra.length > 0 ? 'wrong' : missing.length > 0 ? 'incomplete' : 'correct';
  return { grade, missing, extra };
}

/** What differed, in one line, for the report: `missing a, b; extra c` (at most `limit` items each). */
export function describeDifference(graded: Graded, limit = 5): string {
  const list = (items: string[]) => `${items.slice(0, limit).join(', ')}${items.length > limit ? `, ... (${items.length} in all)` : ''}`;
  return [
    graded.missing.length ? `missing ${list(graded.missing)}` : '',
    graded.extra.length ? `extra ${list(graded.extra)}` : '',
  ].filter(Boolean).join('; ');
}
