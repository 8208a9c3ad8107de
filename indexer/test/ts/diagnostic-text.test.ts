// Compiler messages as the index stores them: the same whatever order the checker created the types in, and on every machine.
import { describe, expect, it } from 'vitest';
import { canonicalMessage, MAX_TYPE_CHARS, sortedUnions } from '../../src/ts/diagnostic-text.ts';

describe('a canonical compiler message', () => {
  it.each([
    ['SchemaError | HttpClientError', 'HttpClientError | SchemaError'],
    ['Effect<Map<string, Pod>, SchemaError | HttpClientError, never>', 'Effect<Map<string, Pod>, HttpClientError | SchemaError, never>'],
    ['{ readonly a?: string | undefined; b: B | A; }', '{ readonly a?: string | undefined; b: A | B; }'],
    ['(options?: { x: Z | Y; } | undefined) => Effect<A, E2 | E1, never>', '(options?: undefined | { x: Y | Z; }) => Effect<A, E1 | E2, never>'],
    ['"b|a" | "a"', '"a" | "b|a"'],
    ['readonly (B | A)[]', 'readonly (A | B)[]'],
    ['string', 'string'],
    // An object type's named members by name (a method's overloads in their order), its signatures in place.
    ['{ readonly b: B; a?: A | Z; }', '{ a?: A | Z; readonly b: B; }'],
    ['{ (x: X): Y; z(s: string): void; "q-r": Q; z(n: number): void; [k: string]: unknown; }', '{ (x: X): Y; "q-r": Q; z(s: string): void; z(n: number): void; [k: string]: unknown; }'],
  ])('sorts the members of every union and the properties of every object type in %s', (type, sorted) => {
    expect(sortedUnions(type)).toBe(sorted);
    // Any order of the members gives the same text.
    expect(sortedUnions(sorted)).toBe(sorted);
  });

  it('sorts the unions of quoted types only, and prints paths of this machine relative to the repository', () => {
    const message = `Type 'B | A' is not assignable to type 'import("/home/ci/repo/src/a").C'.\n  Did you mean 'x | y'?`;
    expect(canonicalMessage(message, '/home/ci/repo')).toBe(`Type 'A | B' is not assignable to type 'import("src/a").C'.\n  Did you mean 'x | y'?`);
  });

  it('cuts a quoted type longer than MAX_TYPE_CHARS after sorting it, so the cut is the same whatever order its members came in', () => {
    const members = Array.from({ length: 400 }, (_, i) => `Member${String(i).padStart(3, '0')}`);
    const message = (order: string[]) => canonicalMessage(`Type '${order.join(' | ')}' is not assignable to type 'number'.`, '/repo');
    const sorted = members.join(' | ');
    const expected = `Type '${sorted.slice(0, MAX_TYPE_CHARS)} ... ${sorted.length - MAX_TYPE_CHARS} more characters' is not assignable to type 'number'.`;
    expect(message([...members].reverse())).toBe(expected);
    expect(message(members)).toBe(expected);
  });
});
