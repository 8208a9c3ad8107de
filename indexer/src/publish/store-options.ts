// The options that choose the bucket a command works on (`indexer publish`, `indexer gc`): the
// worker's wrangler config, whose INDEX binding names the bucket, and with --local wrangler's local
// R2 instead of the real one.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SextantError } from '@sextant/format';
import type { WranglerStoreOptions } from './object-store.ts';

export const DEFAULT_CONFIG = fileURLToPath(new URL('../../../workers/mcp/wrangler.jsonc', import.meta.url));

/** For parseArgs. */
export const STORE_OPTIONS = {
  local: { type: 'boolean', default: false },
  'persist-to': { type: 'string' },
  config: { type: 'string' },
} as const;

/** A mistake on the command line: INVALID_ARGUMENT, marked so the command exits 2. */
export function usage(message: string, hint: string): SextantError {
  return new SextantError('INVALID_ARGUMENT', message, hint, { usage: true });
}

/** The store STORE_OPTIONS name; a mistake in them is a usage error. */
export function storeOptionsFrom(values: { local: boolean; 'persist-to'?: string; config?: string }): WranglerStoreOptions {
  if (values['persist-to'] !== undefined && !values.local) {
    throw usage('--persist-to only applies to --local.', 'add --local, or drop --persist-to to use the real bucket.');
  }
  const configPath = resolve(values.config ?? DEFAULT_CONFIG);
  if (!existsSync(configPath)) {
    throw usage(`The wrangler config ${configPath} does not exist.`, 'pass the Sextant worker\'s config with --config (workers/mcp/wrangler.jsonc).');
  }
  return { configPath, local: values.local, persistTo: values['persist-to'] };
}
