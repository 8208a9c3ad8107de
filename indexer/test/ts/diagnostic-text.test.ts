// Compiler messages as the index stores them: the same whatever order the checker created the types in, and on every machine.
import { describe, expect, it } from 'vitest';
import { canonicalMessage, sortedUnions } from '../../src/ts/diagnostic-text.ts';

describe('a canonical compiler message', () => {
  it.each([
    ['SchemaError | HttpClientError', 'HttpClientError | SchemaError'],
    ['Effect<Map<string, Pod>, SchemaError | HttpClientError, never>', 'Effect<Map<string, Pod>, HttpClientError | SchemaError, never>'],
    ['{ readonly a?: string | undefined; b: B | A; }', '{ readonly a?: string | undefined; b: A | B; }'],
    ['(options?: { x: Z | Y; } | undefined) => Effect<A, E2 | E1, never>', '(options?: undefined | { x: Y | Z; }) => Effect<A, E1 | E2, never>'],
    ['"b|a" | "a"', '"a" | "b|a"'],
    ['readonly (B | A)[]', 'readonly (A | B)[]'],
    ['string', 'string'],
  ])('sorts the members of every union in %s', (type, sorted) => {
    expect(sortedUnions(type)).toBe(sorted);
    // Any order of the members gives the same text.
    expect(sortedUnions(sorted)).toBe(sorted);
  });

  it('sorts the unions of quoted types only, and prints paths of this machine relative to the repository', () => {
    const message = `Type 'B | A' is not assignable to type 'import("/home/ci/repo/src/a").C'.\n  Did you mean 'x | y'?`;
    expect(canonicalMessage(message, '/home/ci/repo')).toBe(`Type 'A | B' is not assignable to type 'import("src/a").C'.\n  Did you mean 'x | y'?`);
  });
});
