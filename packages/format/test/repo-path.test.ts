// The one rule for which repository paths Sextant's tools can address (indexer skips, runner jail).
import { describe, expect, it } from 'vitest';
import { unaddressablePathReason } from '../src/index.ts';

describe('unaddressablePathReason', () => {
  it('accepts repository-relative paths with forward slashes in normal form', () => {
    for (const path of ['a.ts', 'src/orders/order-service.ts', '.github/workflows/ci.yml', 'dir with space/é.ts', 'C.ts', 'a..b.ts']) {
      expect(unaddressablePathReason(path)).toBeUndefined();
    }
  });

  it.each([
    ['', /empty/],
    ['back\\slash.ts', /backslash/],
    ['a\0b.ts', /NUL/],
    ['new\nline.ts', /control character/],
    ['tab\there.ts', /control character/],
    ['/etc/passwd', /absolute/],
    ['C:/x.ts', /absolute/],
    ['../x.ts', /climbs out/],
    ['src/../x.ts', /climbs out/],
    ['src//x.ts', /normal form/],
    ['./x.ts', /normal form/],
    ['src/', /normal form/],
  ])('refuses %j', (path, reason) => {
    expect(unaddressablePathReason(path)).toMatch(reason);
  });
});
