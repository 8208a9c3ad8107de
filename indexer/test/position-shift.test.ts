// Where a declaration of a changed file's previous text lies in the new text (incremental/position-shift.ts).
import { describe, expect, it } from 'vitest';
import { positionShift } from '../src/incremental/position-shift.ts';

const before = 'export function f(a: string): void;\nexport function f(a: number): void;\nexport function f(a: unknown) {}\n';

describe('positionShift', () => {
  it('moves a range after the edit by the lines and columns the edit added', () => {
    const shift = positionShift(before, `// a comment\n${before}`);
    expect(shift(['m.ts', 2, 17, 2, 18])).toEqual(['m.ts', 3, 17, 3, 18]);
  });

  it('keeps a range before the edit, and moves one on the edited line after it by columns', () => {
    const after = before.replace('f(a: number)', 'f(a: number, b = 1)');
    const shift = positionShift(before, after);
    expect(shift(['m.ts', 1, 17, 1, 18])).toEqual(['m.ts', 1, 17, 1, 18]);
    expect(shift(['m.ts', 3, 17, 3, 18])).toEqual(['m.ts', 3, 17, 3, 18]);
    const line = 'export function g() {} export function h() {}\n';
    const widened = positionShift(line, line.replace('g()', 'g(x = 0)'));
    expect(widened(['m.ts', 1, 40, 1, 41])).toEqual(['m.ts', 1, 45, 1, 46]);
  });

  it('places no range the edit meets or touches', () => {
    const shift = positionShift(before, before.replace('f(a: number)', 'fn(a: number)'));
    // The second overload's name: the edit extends it.
    expect(shift(['m.ts', 2, 17, 2, 18])).toBeUndefined();
    // A range that does not exist in the previous text.
    expect(shift(['m.ts', 9, 1, 9, 2])).toBeUndefined();
  });
});
