// The runner's per-user plan-signing key: created on first use in the user's config directory
// (mode 0600) and used to sign every plan this user's runner makes, so that `runner apply` can
// tell a plan it made from one edited since. It is the same kind of key as the worker's secret: a
// 32-byte ed25519 seed, base64.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ioErrorOf, SextantError } from '@sextant/format';
import { generatePlanSigningKey, planSigner, type PlanSigner } from '@sextant/plan';
import { configDir, ensureConfigDir } from './config-dir.ts';

const USER_KEY_FILE = 'plan-signing-key';

export function userKeyPath(): string {
  return join(configDir(), USER_KEY_FILE);
}

let loaded: { path: string; signer: Promise<PlanSigner> } | undefined;

/**
 * This user's signer, creating the key when there is none. Loaded once per process (per config
 * dir); a failure is not kept, so a fixed config directory works on the next plan.
 */
export function userPlanSigner(): Promise<PlanSigner> {
  const path = userKeyPath();
  if (loaded?.path !== path) {
    const signer = load(path);
    loaded = { path, signer };
    signer.catch(() => {
      if (loaded?.signer === signer) loaded = undefined;
    });
  }
  return loaded.signer;
}

/**
 * This user's key when it exists, without creating it: what checking a plan's signature needs (a
 * key that does not exist signed nothing), so `runner apply` never makes a key as a side effect.
 */
export async function existingUserKey(): Promise<PlanSigner['key'] | undefined> {
  const path = userKeyPath();
  if (loaded?.path === path) return (await loaded.signer).key;
  const text = await readKey(path);
  return text === undefined ? undefined : (await planSigner(text, path)).key;
}

async function load(path: string): Promise<PlanSigner> {
  let text = await readKey(path);
  if (text === undefined) {
    const created = await create(path);
    text = (await readKey(path))!;
    const signer = await planSigner(text, path);
    // Said once, on stderr (stdout may be an MCP stream): a key appearing in the config directory unannounced would be a surprise.
    if (created) process.stderr.write(`sextant runner: created your plan-signing key ${signer.key.keyId} in ${path} (mode 0600): the plans this runner makes are signed with it, and runner apply trusts it.\n`);
    return signer;
  }
  return planSigner(text, path);
}

/**
 * Writes a new key whole (to a private file, synced) and links it into place, so the key file is
 * never seen half-written, not by a second runner starting at once nor after a crash; when another
 * runner linked its key first, that one is kept and both sign with it (false: not created here).
 */
async function create(path: string): Promise<boolean> {
  const dir = await ensureConfigDir().catch((error) => { throw cannotWrite(path, error); });
  const temporary = join(dir, `.${USER_KEY_FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(`${generatePlanSigningKey()}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    return await link(temporary, path).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      return false;
    });
  } catch (error) {
    throw cannotWrite(path, error);
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

async function readKey(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioErrorOf(error) ?? new SextantError('FILE_NOT_FOUND', `Cannot read the runner's plan-signing key ${path}: ${(error as Error).message}.`,
      'Make it readable by you (chmod 600), or set XDG_CONFIG_HOME to a directory you own.');
  }
}

function cannotWrite(path: string, error: unknown): SextantError {
  if (error instanceof SextantError) return error;
  return ioErrorOf(error) ?? new SextantError('FILE_NOT_FOUND', `Cannot create the runner's plan-signing key ${path}: ${(error as Error).message}.`,
    'Make the directory writable by you, or set XDG_CONFIG_HOME to a directory you own.');
}
