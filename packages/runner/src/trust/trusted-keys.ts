// The public keys a user trusts to sign plans, besides their own runner key: the trusted-keys file
// in the config directory, filled by `runner trust add` (offline: a key, a file holding one, or a
// worker's /.well-known/sextant-plan-keys document saved by the user).
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ioErrorOf, SextantError } from '@sextant/format';
import type { PlanPublicKey } from '@sextant/plan';
import { configDir, ensureConfigDir } from './config-dir.ts';

const TRUSTED_KEYS_FILE = 'trusted-plan-keys.json';

interface TrustedKey extends PlanPublicKey {
  /** Where the user took it from: the file they passed, or "the command line". */
  source: string;
  /** ISO date and time it was added. */
  added: string;
}

export function trustedKeysPath(): string {
  return join(configDir(), TRUSTED_KEYS_FILE);
}

export async function readTrustedKeys(): Promise<TrustedKey[]> {
  const path = trustedKeysPath();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ioErrorOf(error) ?? new SextantError('FILE_NOT_FOUND', `Cannot read the trusted plan keys ${path}: ${(error as Error).message}.`, 'Make the file readable by you.');
  }
  const broken = () => new SextantError('INVALID_ARGUMENT', `${path} is not a trusted-keys file (JSON { "keys": [{ "keyId", "publicKey", "source", "added" }] }).`,
    'Fix it, or remove it and add the keys again with `runner trust add`.');
  let value: { keys?: unknown };
  try {
    value = JSON.parse(text);
  } catch {
    throw broken();
  }
  if (!Array.isArray(value?.keys)) throw broken();
  for (const key of value.keys as TrustedKey[]) {
    if (typeof key?.keyId !== 'string' || typeof key.publicKey !== 'string') throw broken();
  }
  return value.keys as TrustedKey[];
}

/** Adds the keys not trusted yet; returns which were added and which already were. */
export async function addTrustedKeys(keys: PlanPublicKey[], source: string): Promise<{ added: TrustedKey[]; known: TrustedKey[] }> {
  const current = await readTrustedKeys();
  const added: TrustedKey[] = [];
  const known: TrustedKey[] = [];
  for (const key of keys) {
    const existing = current.find((k) => k.keyId === key.keyId) ?? added.find((k) => k.keyId === key.keyId);
    if (existing) {
      known.push(existing);
      continue;
    }
    added.push({ alg: key.alg, keyId: key.keyId, publicKey: key.publicKey, source, added: new Date().toISOString() });
  }
  if (added.length > 0) {
    const dir = await ensureConfigDir();
    const path = trustedKeysPath();
    // Written aside and renamed over, so a crash never leaves a half-written trust list.
    const temporary = join(dir, `.${TRUSTED_KEYS_FILE}.${process.pid}`);
    await writeFile(temporary, `${JSON.stringify({ keys: [...current, ...added] }, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  }
  return { added, known };
}
