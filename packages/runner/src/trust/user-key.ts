// The runner's per-user plan-signing key: created on first use in the user's config directory
// (mode 0600) and used to sign every plan this user's runner makes, so that `runner apply` can
// tell a plan it made from one edited since. It is the same kind of key as the worker's secret: a
// 32-byte ed25519 seed, base64.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generatePlanSigningKey, planSigner, SextantError, type PlanSigner } from '@sextant/format';
import { configDir, ensureConfigDir } from './config-dir.ts';

export const USER_KEY_FILE = 'plan-signing-key';

export function userKeyPath(): string {
  return join(configDir(), USER_KEY_FILE);
}

let loaded: { path: string; signer: Promise<PlanSigner> } | undefined;

/** This user's signer, creating the key when there is none. Loaded once per process (per config dir). */
export function userPlanSigner(): Promise<PlanSigner> {
  const path = userKeyPath();
  if (loaded?.path !== path) loaded = { path, signer: load(path) };
  return loaded.signer;
}

async function load(path: string): Promise<PlanSigner> {
  let text = await readKey(path);
  if (text === undefined) {
    await ensureConfigDir();
    try {
      // 'wx': two runners starting at once must not each write a key and sign with different ones.
      await writeFile(path, `${generatePlanSigningKey()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotWrite(path, error);
    }
    text = (await readKey(path))!;
  }
  return planSigner(text, path);
}

async function readKey(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SextantError('FILE_NOT_FOUND', `Cannot read the runner's plan-signing key ${path}: ${(error as Error).message}.`,
      'Make it readable by you (chmod 600), or set XDG_CONFIG_HOME to a directory you own.');
  }
}

function cannotWrite(path: string, error: unknown): SextantError {
  return new SextantError('FILE_NOT_FOUND', `Cannot create the runner's plan-signing key ${path}: ${(error as Error).message}.`,
    'Make the directory writable by you, or set XDG_CONFIG_HOME to a directory you own.');
}
