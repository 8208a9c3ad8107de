// The reference order: a site's file class (production, test, generated or vendored) before its
// path, so that a test directory sorting first (`__tests__/`) still comes after production code.
import { describe, expect, it } from 'vitest';
import { compareInReferenceOrder, FILE_FLAGS, siteClass, type ClassedSite } from '../src/index.ts';

const site = (path: string, flags: number, line = 1, column = 1): ClassedSite => ({
  siteClass: siteClass(flags), path, line, column, endLine: line, endColumn: column + 1,
});

describe('reference order', () => {
  it('ranks production, then tests, then generated and vendored code; a generated test file is generated', () => {
    expect([0, FILE_FLAGS.test, FILE_FLAGS.generated, FILE_FLAGS.vendored, FILE_FLAGS.test | FILE_FLAGS.generated].map(siteClass))
      .toEqual([0, 1, 2, 2, 2]);
  });

  it('orders by class, then path, then position', () => {
    const sites = [
      site('__generated__/a.ts', FILE_FLAGS.generated), site('__tests__/a.test.ts', FILE_FLAGS.test, 2),
      site('__tests__/a.test.ts', FILE_FLAGS.test, 1, 5), site('src/b.ts', 0), site('src/a.ts', 0, 3), site('src/a.ts', 0, 1, 9),
    ];
    expect(sites.sort(compareInReferenceOrder).map((s) => `${s.path}:${s.line}:${s.column}`)).toEqual([
      'src/a.ts:1:9', 'src/a.ts:3:1', 'src/b.ts:1:1', '__tests__/a.test.ts:1:5', '__tests__/a.test.ts:2:1', '__generated__/a.ts:1:1',
    ]);
  });
});
