// `runner trust add <key|file>` and `runner trust list`: which keys' plans `runner apply` accepts
// besides the user's own. Offline: a key is given on the command line or in a file the user saved
// (a worker's /.well-known/sextant-plan-keys answer, say); nothing is fetched.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SextantError } from '@sextant/format';
import { parsePlanPublicKeys, type PlanPublicKey } from '@sextant/plan';
import { addTrustedKeys, readTrustedKeys, trustedKeysPath } from '../trust/trusted-keys.ts';
import { userKeyPath, userPlanSigner } from '../trust/user-key.ts';

export async function trustAddCommand(input: string): Promise<number> {
  const { keys, source } = await keysOf(input);
  const { added, known } = await addTrustedKeys(keys, source);
  for (const key of added) process.stdout.write(`trusted ${key.keyId} (${key.publicKey}) from ${source}\n`);
  for (const key of known) process.stdout.write(`${key.keyId} was already trusted (from ${key.source})\n`);
  if (added.length > 0) process.stdout.write(`runner apply now accepts plans these keys signed; the trusted keys are in ${trustedKeysPath()}\n`);
  return 0;
}

export async function trustListCommand(): Promise<number> {
  const own = (await userPlanSigner()).key;
  process.stdout.write(`${own.keyId}  ${own.publicKey}  this user's runner key (${userKeyPath()})\n`);
  for (const key of await readTrustedKeys()) process.stdout.write(`${key.keyId}  ${key.publicKey}  trusted from ${key.source} on ${key.added}\n`);
  return 0;
}

/** The keys in the file `input` names, else `input` itself read as a key. */
async function keysOf(input: string): Promise<{ keys: PlanPublicKey[]; source: string }> {
  const path = resolve(input);
  if (await stat(path).then((s) => s.isFile(), () => false)) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new SextantError('FILE_NOT_FOUND', `Cannot read ${path}: ${(error as Error).message}.`, 'Make the file readable by you.');
    }
    return { keys: parsePlanPublicKeys(text, path), source: path };
  }
  try {
    return { keys: parsePlanPublicKeys(input, 'the key'), source: 'the command line' };
  } catch {
    // A base64 key may hold a slash, so whether the user meant a path shows only now.
    throw new SextantError('INVALID_ARGUMENT', `"${input.slice(0, 100)}" is neither a file nor an ed25519 public key.`,
      'Pass a public key (32 bytes, base64 or hex) or the path of a file holding one, such as a saved /.well-known/sextant-plan-keys answer.');
  }
}
