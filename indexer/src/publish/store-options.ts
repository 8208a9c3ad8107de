// The options that choose the bucket a command works on (`indexer publish`, `indexer gc`): the
// worker's wrangler config, whose INDEX binding names the bucket, and with --local wrangler's local
// R2 instead of the real one. The config is the caller's (--config); without it, the documented
// default is the one a Sextant checkout holds, found from the current directory up, as wrangler
// finds its own config.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SextantError } from '@sextant/format';
import type { WranglerStoreOptions } from './object-store.ts';

/** Where a Sextant checkout keeps the worker's config. */
const DEFAULT_CONFIG = 'workers/mcp/wrangler.jsonc';

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

/** DEFAULT_CONFIG in `from` or the nearest directory above it that has one; undefined when none has. */
export function defaultConfigPath(from = process.cwd()): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const config = join(dir, DEFAULT_CONFIG);
    if (existsSync(config)) return config;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The store STORE_OPTIONS name; a mistake in them is a usage error. */
export function storeOptionsFrom(values: { local: boolean; 'persist-to'?: string; config?: string }): WranglerStoreOptions {
  if (values['persist-to'] !== undefined && !values.local) {
    throw usage('--persist-to only applies to --local.', 'add --local, or drop --persist-to to use the real bucket.');
  }
  const configPath = values.config === undefined ? defaultConfigPath() : resolve(values.config);
  if (configPath === undefined) {
    throw usage(`No ${DEFAULT_CONFIG} is in ${process.cwd()} or a directory above it, and --config names no other.`,
      'pass the Sextant worker\'s config with --config, or run the command inside the Sextant checkout.');
  }
  if (!existsSync(configPath)) {
    throw usage(`The wrangler config ${configPath} does not exist.`, 'pass the Sextant worker\'s config with --config (workers/mcp/wrangler.jsonc).');
  }
  return { configPath, local: values.local, persistTo: values['persist-to'] };
}
