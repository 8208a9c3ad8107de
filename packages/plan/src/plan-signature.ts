// Who made a plan: an ed25519 signature over its planHash. The planHash alone only says a plan is
// intact; anyone who edits a plan can compute a new one, so the runner applies a plan only when a
// key it trusts signed it. The hosted worker signs with a key from a Worker secret, the runner with
// a per-user key; both are a 32-byte ed25519 seed, base64. Uses WebCrypto (globalThis.crypto),
// which Node 20 and workerd both provide, so signing and checking are one implementation.
import { SextantError, sha256Hex } from '@sextant/format';
import type { Plan } from './plan-document.ts';

export const PLAN_SIGNATURE_ALG = 'ed25519';

export interface PlanSignature {
  alg: typeof PLAN_SIGNATURE_ALG;
  /** planKeyId of the public key that verifies it. */
  keyId: string;
  /** base64 of the 64-byte ed25519 signature of PLAN_SIGNATURE_CONTEXT + planHash. */
  value: string;
}

/** A public key as the worker serves it and the runner's trusted-keys file holds it. */
export interface PlanPublicKey {
  alg: typeof PLAN_SIGNATURE_ALG;
  keyId: string;
  /** base64 of the 32-byte ed25519 public key. */
  publicKey: string;
}

/** What GET /.well-known/sextant-plan-keys answers. */
export interface PlanKeysDocument {
  keys: PlanPublicKey[];
}

export interface PlanSigner {
  readonly key: PlanPublicKey;
  /** The plan with its signature (any earlier one replaced); planHash is left as it is. */
  sign(plan: Plan): Promise<Plan>;
}

/**
 * What is signed: a fixed context before the hash, so a signature over a plan can never be taken
 * for a signature of anything else made with the same key.
 */
export const PLAN_SIGNATURE_CONTEXT = 'sextant-plan-signature-v1:';

const ED25519 = { name: 'Ed25519' } as const;
/** The DER head of a PKCS#8 ed25519 private key; the 32-byte seed follows it. */
const PKCS8_PREFIX = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
/** A keyId: 16 lowercase hex digits. */
export const PLAN_KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
/** A signature's value: the 64 bytes of an ed25519 signature, base64. */
export const PLAN_SIGNATURE_VALUE_PATTERN = /^[A-Za-z0-9+/]{86}==$/;

/** The first 64 bits of the SHA-256 of the raw public key, hex: short enough to read, long enough not to collide by chance. */
function planKeyId(publicKey: Uint8Array): string {
  return sha256Hex(publicKey).slice(0, 16);
}

export function isPlanKeyId(text: string): boolean {
  return PLAN_KEY_ID_PATTERN.test(text);
}

function publicKeyOf(raw: Uint8Array): PlanPublicKey {
  return { alg: PLAN_SIGNATURE_ALG, keyId: planKeyId(raw), publicKey: toBase64(raw) };
}

/** A fresh signing key: 32 random bytes, base64 (the form of the Worker secret and the runner's key file). */
export function generatePlanSigningKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** A signer from a base64 (or hex) 32-byte seed; `what` names where the key came from, for the error. */
export async function planSigner(seedText: string, what: string): Promise<PlanSigner> {
  const seed = decodeKeyBytes(seedText.trim());
  if (!seed || seed.length !== 32) {
    throw new SextantError('INVALID_ARGUMENT', `${what} is not an ed25519 signing key (32 bytes, base64 or hex).`,
      'Make one with `openssl rand -base64 32` and set it again.');
  }
  const pkcs8 = new Uint8Array(48);
  pkcs8.set(PKCS8_PREFIX);
  pkcs8.set(seed, 16);
  const extractable = await crypto.subtle.importKey('pkcs8', pkcs8, ED25519, true, ['sign']);
  // WebCrypto derives the public key; its JWK form carries it as `x`.
  const { x, d } = await crypto.subtle.exportKey('jwk', extractable);
  const key = publicKeyOf(fromBase64(x!)!);
  const privateKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', d, x }, ED25519, false, ['sign']);
  return {
    key,
    async sign(plan) {
      const signature = new Uint8Array(await crypto.subtle.sign(ED25519, privateKey, signedBytes(plan.planHash)));
      const { signature: _old, ...rest } = plan;
      return { ...rest, signature: { alg: PLAN_SIGNATURE_ALG, keyId: key.keyId, value: toBase64(signature) } };
    },
  };
}

/** True when the plan's signature is one `key` made over its planHash. Does not check the planHash itself. */
export async function verifyPlanSignature(plan: Plan, key: PlanPublicKey): Promise<boolean> {
  const signature = plan.signature;
  if (!signature || signature.alg !== PLAN_SIGNATURE_ALG || signature.keyId !== key.keyId) return false;
  const raw = fromBase64(key.publicKey);
  const value = fromBase64(signature.value);
  if (!raw || raw.length !== 32 || !value || value.length !== 64) return false;
  const publicKey = await crypto.subtle.importKey('raw', raw, ED25519, false, ['verify']);
  return crypto.subtle.verify(ED25519, publicKey, value, signedBytes(plan.planHash));
}

/**
 * The public keys in `text`: a /.well-known/sextant-plan-keys document, one key object, or one
 * raw public key (base64, base64url or hex). A key object whose keyId is not its key's is refused.
 */
export function parsePlanPublicKeys(text: string, what: string): PlanPublicKey[] {
  const trimmed = text.trim();
  const notAKey = (why: string) => new SextantError('INVALID_ARGUMENT', `${what} ${why}.`,
    'Pass an ed25519 public key (base64 or hex, 32 bytes), or the JSON a Sextant worker serves at /.well-known/sextant-plan-keys.');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw notAKey('is not valid JSON');
    }
    const list = Array.isArray(value) ? value : Array.isArray((value as PlanKeysDocument).keys) ? (value as PlanKeysDocument).keys : [value];
    if (list.length === 0) throw notAKey('lists no keys (a worker without SEXTANT_PLAN_SIGNING_KEY serves none)');
    return list.map((item, i) => {
      const entry = item as Partial<PlanPublicKey> | null;
      if (typeof entry !== 'object' || entry === null || typeof entry.publicKey !== 'string') throw notAKey(`has no publicKey in key ${i}`);
      if (entry.alg !== undefined && entry.alg !== PLAN_SIGNATURE_ALG) throw notAKey(`has key ${i} of algorithm ${String(entry.alg)}, not ed25519`);
      const raw = decodeKeyBytes(entry.publicKey);
      if (!raw || raw.length !== 32) throw notAKey(`has a publicKey in key ${i} that is not 32 bytes of base64 or hex`);
      const key = publicKeyOf(raw);
      if (entry.keyId !== undefined && entry.keyId !== key.keyId) throw notAKey(`says key ${i} is ${String(entry.keyId)}, but that key's id is ${key.keyId}`);
      return key;
    });
  }
  const raw = decodeKeyBytes(trimmed);
  if (!raw || raw.length !== 32) throw notAKey('is not 32 bytes of base64 or hex');
  return [publicKeyOf(raw)];
}

function signedBytes(planHash: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(PLAN_SIGNATURE_CONTEXT + planHash);
}

/** 64 hex digits, or base64 / base64url with or without padding; undefined when it is neither. */
function decodeKeyBytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Uint8Array.from(text.match(/../g)!, (pair) => parseInt(pair, 16));
  return fromBase64(text);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return undefined;
  try {
    return Uint8Array.from(atob(standard + '='.repeat((4 - (standard.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}
