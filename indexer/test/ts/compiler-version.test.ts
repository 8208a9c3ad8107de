// The compiler's version as every manifest records it, read from the compiler's source without
// loading it (a Java or Kotlin build never loads the compiler): the version the loaded compiler says.
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { typescriptVersion } from '../../src/ts/compiler-version.ts';

describe('the TypeScript compiler version', () => {
  it('read from its source is the version of the compiler ts-morph loads', () => {
    expect(typescriptVersion()).toBe(ts.version);
  });
});
