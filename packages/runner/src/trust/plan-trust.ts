// Whether a plan may be applied as coming from someone the user trusts: signed, over its planHash,
// by the user's own runner key or a key in the trusted-keys file. One check for every way a plan
// from elsewhere is applied (`runner apply`, the apply_plan tool).
import { SextantError } from '@sextant/format';
import { verifyPlanSignature, type Plan } from '@sextant/plan';
import { readTrustedKeys, trustedKeysPath } from './trusted-keys.ts';
import { existingUserKey, userKeyPath } from './user-key.ts';

type PlanTrust =
  | { status: 'trusted'; keyId: string; from: string }
  | { status: 'unsigned' }
  | { status: 'untrusted'; keyId: string }
  /** Signed in the name of a trusted key, but that key did not make this signature: the plan was changed after it was signed. */
  | { status: 'forged'; keyId: string; from: string };

export async function planTrust(plan: Plan): Promise<PlanTrust> {
  const signature = plan.signature;
  if (!signature) return { status: 'unsigned' };
  const own = await existingUserKey();
  const candidates = [
    ...(own ? [{ key: own, from: `this user's runner key, ${userKeyPath()}` }] : []),
    ...(await readTrustedKeys()).map((key) => ({ key, from: `trusted from ${key.source}` })),
  ];
  const match = candidates.find((c) => c.key.keyId === signature.keyId);
  if (!match) return { status: 'untrusted', keyId: signature.keyId };
  return (await verifyPlanSignature(plan, match.key))
    ? { status: 'trusted', keyId: signature.keyId, from: match.from }
    : { status: 'forged', keyId: signature.keyId, from: match.from };
}

/** One line saying who signed the plan, for the user to read before it is applied. */
export function describeTrust(trust: PlanTrust): string {
  switch (trust.status) {
    case 'trusted': return `signed by ${trust.keyId} (${trust.from})`;
    case 'unsigned': return 'NOT signed';
    case 'untrusted': return `signed by ${trust.keyId}, a key this runner does not trust`;
    case 'forged': return `signed in the name of ${trust.keyId} (${trust.from}), but the signature does not verify`;
  }
}

const OVERRIDE = 'after reviewing the files it touches, `runner apply --allow-unsigned` applies it anyway';

/** PLAN_UNTRUSTED for anything but a plan a trusted key signed. */
export function requireTrusted(plan: Plan, trust: PlanTrust): void {
  if (trust.status === 'trusted') return;
  const id = plan.planHash.slice(0, 12);
  const data = { planHash: plan.planHash, ...(trust.status !== 'unsigned' ? { keyId: trust.keyId } : {}) };
  if (trust.status === 'unsigned') {
    throw new SextantError('PLAN_UNTRUSTED', `Plan ${id} is not signed, so nothing says who made it.`,
      `Apply plans as a Sextant worker or runner signed them (anyone can edit a plan and compute its planHash again); ${OVERRIDE}.`, data);
  }
  if (trust.status === 'untrusted') {
    throw new SextantError('PLAN_UNTRUSTED', `Plan ${id} is signed by key ${trust.keyId}, which this runner does not trust.`,
      `If you trust whoever made it, add their public key with \`runner trust add <key|file>\` (a worker serves its keys at /.well-known/sextant-plan-keys; the trusted keys are in ${trustedKeysPath()}); or, ${OVERRIDE}.`, data);
  }
  throw new SextantError('PLAN_UNTRUSTED', `Plan ${id} claims to be signed by ${trust.keyId} (${trust.from}), but its signature does not verify: the plan was changed after it was signed.`,
    `Make the plan again and apply it unchanged; ${OVERRIDE}.`, data);
}
