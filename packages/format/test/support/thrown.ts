// The SextantError a synchronous call throws; fails the test when it returns or throws anything else.
// Shared by the tests of other packages too (by relative path, like the query tests' memory index).
import { expect } from 'vitest';
import { SextantError } from '../../src/index.ts';

export function thrown(run: () => unknown): SextantError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SextantError);
    return error as SextantError;
  }
  throw new Error('expected a SextantError to be thrown');
}
