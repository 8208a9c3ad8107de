// Which wrangler config `indexer publish` and `indexer gc` use: the one --config names, else the
// documented default, workers/mcp/wrangler.jsonc of the Sextant checkout the command runs in (found
// from the current directory up); outside a checkout, without --config, a usage error that says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfigPath, storeOptionsFrom } from '../src/publish/store-options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG = join(ROOT, 'workers/mcp/wrangler.jsonc');

afterEach(() => vi.restoreAllMocks());

describe('the store options', () => {
  it('default to the checkout\'s worker config, from any directory inside it', () => {
    expect(defaultConfigPath(ROOT)).toBe(CONFIG);
    expect(defaultConfigPath(join(ROOT, 'indexer/src/publish'))).toBe(CONFIG);
    vi.spyOn(process, 'cwd').mockReturnValue(join(ROOT, 'test'));
    expect(storeOptionsFrom({ local: true })).toEqual({ configPath: CONFIG, local: true, persistTo: undefined });
  });

  it('take --config from the caller, and refuse a missing one or none outside a checkout', () => {
    const outside = mkdtempSync(join(tmpdir(), 'sextant-store-options-'));
    try {
      expect(defaultConfigPath(outside)).toBeUndefined();
      vi.spyOn(process, 'cwd').mockReturnValue(outside);
      expect(storeOptionsFrom({ local: false, config: CONFIG })).toEqual({ configPath: CONFIG, local: false, persistTo: undefined });
      expect(() => storeOptionsFrom({ local: false })).toThrow(expect.objectContaining({
        code: 'INVALID_ARGUMENT', message: `No workers/mcp/wrangler.jsonc is in ${outside} or a directory above it, and --config names no other.`,
      }));
      expect(() => storeOptionsFrom({ local: false, config: join(outside, 'nope.jsonc') })).toThrow(/does not exist/);
      expect(() => storeOptionsFrom({ local: false, 'persist-to': outside, config: CONFIG })).toThrow(/--persist-to only applies to --local/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
