// The worker's plan-signing key: the Worker secret SEXTANT_PLAN_SIGNING_KEY (a 32-byte ed25519
// seed, base64; `openssl rand -base64 32`). Every plan the plan tools answer is signed with it, and
// its public key is served at /.well-known/sextant-plan-keys for users to trust with
// `runner trust add`. Without the secret, plans are unsigned (runner apply then refuses them unless
// --allow-unsigned) and the keys document lists none.
import { planSigner, type PlanKeysDocument, type PlanSigner } from '@sextant/plan';
import { HttpError } from './http.ts';

export interface PlanSigningEnv {
  SEXTANT_PLAN_SIGNING_KEY?: string;
}

export const PLAN_KEYS_PATH = '/.well-known/sextant-plan-keys';

let parsedText: string | undefined;
let parsed: Promise<PlanSigner> | undefined;

/** The signer, imported once per isolate (secrets do not change under a running isolate). */
export async function workerPlanSigner(env: PlanSigningEnv): Promise<PlanSigner | undefined> {
  const text = env.SEXTANT_PLAN_SIGNING_KEY;
  if (text === undefined || text.trim() === '') return undefined;
  if (text !== parsedText || !parsed) {
    parsedText = text;
    parsed = planSigner(text, 'SEXTANT_PLAN_SIGNING_KEY');
  }
  try {
    return await parsed;
  } catch {
    // The error never quotes the secret.
    throw new HttpError(500, 'PLAN_SIGNING_MISCONFIGURED', 'SEXTANT_PLAN_SIGNING_KEY is not an ed25519 signing key (32 bytes, base64).',
      'Set the secret to the output of `openssl rand -base64 32` (README: Plan signatures).');
  }
}

export async function planKeysDocument(env: PlanSigningEnv): Promise<PlanKeysDocument> {
  const signer = await workerPlanSigner(env);
  return { keys: signer ? [signer.key] : [] };
}
