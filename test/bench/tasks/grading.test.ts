import { describe, expect, it } from 'vitest';
import { describeDifference, gradeAnswer } from './grading.ts';
import { summarize, type TaskResult } from './task-report.ts';

describe('gradeAnswer', () => {
  it('is correct when the answer is the key, in any order', () => {
    expect(gradeAnswer({ items: ['b:2', 'a:1'] }, { items: ['a:1', 'b:2'] })).toEqual({ grade: 'correct', missing: [], extra: [] });
  });

  it('is incomplete when items of the key are missing and nothing else is given', () => {
    expect(gradeAnswer({ items: ['a:1'] }, { items: ['a:1', 'b:2'] })).toEqual({ grade: 'incomplete', missing: ['b:2'], extra: [] });
    expect(gradeAnswer({ items: [] }, { items: ['yes'] }).grade).toBe('incomplete');
  });

  it('is wrong as soon as one item is not in the key, even with every item of the key (same-name candidates)', () => {
    expect(gradeAnswer({ items: ['a:1', 'c:3'] }, { items: ['a:1'] })).toEqual({ grade: 'wrong', missing: [], extra: ['c:3'] });
    expect(gradeAnswer({ items: ['no'] }, { items: ['yes'] })).toEqual({ grade: 'wrong', missing: ['yes'], extra: ['no'] });
  });

  it('describes what differed, cut to a few items', () => {
    const graded = gradeAnswer({ items: ['x', 'y'] }, { items: ['a', 'b', 'c'] });
    expect(describeDifference(graded, 2)).toBe('missing a, b, ... (3 in all); extra x, y');
  });
});

describe('summarize', () => {
  const side = (calls: number, chars: number, grade: 'correct' | 'wrong' | 'incomplete') =>
    ({ calls, chars, grade, missing: [], extra: [], answer: { items: [] }, trace: [] });
  const result = (s: ReturnType<typeof side>, b: ReturnType<typeof side>): TaskResult =>
    ({ task: { id: 't', corpus: 'rxjs', kind: 'callers', name: 'x', at: 'a.ts:1:1' }, key: { items: [] }, sextant: s, baseline: b });

  it('totals both sides and marks each target met or missed', () => {
    const summary = summarize([result(side(1, 100, 'correct'), side(10, 1000, 'wrong')), result(side(2, 300, 'incomplete'), side(2, 600, 'correct'))]);
    expect(summary.sextant).toEqual({ calls: 3, chars: 400, tokens: 100, correct: 1, wrong: 0, incomplete: 1 });
    expect(summary.baseline).toMatchObject({ calls: 12, chars: 1600, correct: 1, wrong: 1 });
    expect(summary.charsRatio).toBe(0.25);
    expect(summary.callsRatio).toBe(0.25);
    expect(summary.medianCharsRatio).toBeCloseTo(0.3);
    expect(summary.medianCallsRatio).toBeCloseTo(0.55);
    expect(summary.targets.map((t) => [t.name, t.met])).toEqual([
      ['Sextant wrong = 0', true],
      ['Sextant incomplete = 0', false],
      ['characters ≤ 0.25× baseline', true],
      ['calls ≤ 0.5× baseline', true],
    ]);
  });
});
