// Canonical JSON: keys sorted at every depth, no whitespace, one text whatever the order an object
// was built in, and a refusal of values JSON cannot hold.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/index.ts';

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units at every depth, drops undefined and has no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ z: true, y: null }, 'x'], 'é': 2, B: undefined, A: 'q' }))
      .toBe('{"A":"q","a":[{"y":null,"z":true},"x"],"b":1,"é":2}');
  });

  it('does not depend on the order the object was built in', () => {
    expect(canonicalJson({ x: 1, y: { p: 1, q: 2 } })).toBe(canonicalJson({ y: { q: 2, p: 1 }, x: 1 }));
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/no JSON form/);
  });
});
