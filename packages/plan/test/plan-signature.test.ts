// Plan signatures: an edited plan whose planHash was computed again no longer verifies, the
// signature stays outside what the planHash covers, and public keys are read in every form a user
// may hold one (raw base64 or hex, a key object, the worker's /.well-known document).
import { describe, expect, it } from 'vitest';
import {
  computePlanHash, generatePlanSigningKey, parsePlan, parsePlanPublicKeys, planHashMatches, planSigner, sealPlan, textHash,
  verifyPlanSignature, type Plan, type UnsealedPlan,
} from '../src/index.ts';

function unsealed(): UnsealedPlan {
  return {
    format: 1, operation: 'rename', arguments: { symbolId: 'abc@def', newName: 'Store' }, repo: 'acme/shop', commit: 'a'.repeat(40), planner: 'index',
    files: [{
      path: 'src/a.ts', change: 'modify', expectedHash: textHash('let a;\n'), resultHash: textHash('let Store;\n'),
      edits: [{ line: 1, column: 5, endLine: 1, endColumn: 6, newText: 'Store' }],
    }],
    conflicts: [],
  };
}

/** What an attacker can do without the key: edit the plan and compute its planHash again. */
function resealed(plan: Plan, edit: (p: Plan) => void): Plan {
  const copy = structuredClone(plan);
  edit(copy);
  return { ...copy, planHash: computePlanHash(copy) };
}

describe('plan signatures', () => {
  it('sign the planHash, which does not cover the signature', async () => {
    const signer = await planSigner(generatePlanSigningKey(), 'the test key');
    const plan = sealPlan(unsealed());
    const signed = await signer.sign(plan);
    expect(signed.planHash).toBe(plan.planHash);
    expect(planHashMatches(signed)).toBe(true);
    expect(signed.signature).toMatchObject({ alg: 'ed25519', keyId: signer.key.keyId });
    expect(await verifyPlanSignature(signed, signer.key)).toBe(true);
    // Sealing again (a planner that adds a conflict) drops a signature over the old hash.
    expect(sealPlan(signed).signature).toBeUndefined();
    expect(parsePlan(JSON.stringify(signed))).toEqual(signed);
  });

  it('no longer verify when any field was edited and the planHash computed again', async () => {
    const signer = await planSigner(generatePlanSigningKey(), 'the test key');
    const signed = await signer.sign(sealPlan(unsealed()));
    const edits: [string, (p: Plan) => void][] = [
      ['one extra created file', (p) => p.files.push({ path: 'src/backdoor.ts', change: 'create', expectedHash: null, resultHash: textHash('evil()\n'), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: 'evil()\n' }] })],
      ['an edit\'s text', (p) => { p.files[0]!.edits[0]!.newText = 'St0re'; }],
      ['the repo', (p) => { p.repo = 'acme/other'; }],
      ['a conflict removed', (p) => { p.conflicts = []; p.arguments.force = true; }],
    ];
    for (const [label, edit] of edits) {
      const forged = resealed(signed, edit);
      expect(planHashMatches(forged), label).toBe(true);
      expect(forged.planHash, label).not.toBe(signed.planHash);
      expect(await verifyPlanSignature(forged, signer.key), label).toBe(false);
    }
  });

  it('verify only with the key that signed', async () => {
    const ours = await planSigner(generatePlanSigningKey(), 'ours');
    const theirs = await planSigner(generatePlanSigningKey(), 'theirs');
    const signed = await ours.sign(sealPlan(unsealed()));
    expect(ours.key.keyId).not.toBe(theirs.key.keyId);
    expect(await verifyPlanSignature(signed, theirs.key)).toBe(false);
    // A signature relabelled with another key's id verifies under neither.
    const relabelled: Plan = { ...signed, signature: { ...signed.signature!, keyId: theirs.key.keyId } };
    expect(await verifyPlanSignature(relabelled, theirs.key)).toBe(false);
    expect(await verifyPlanSignature(relabelled, ours.key)).toBe(false);
    expect(await verifyPlanSignature(sealPlan(unsealed()), ours.key)).toBe(false);
  });

  it('come from the same seed as the same key, in base64 or hex', async () => {
    const seed = generatePlanSigningKey();
    const hex = Array.from(atob(seed), (ch) => ch.charCodeAt(0).toString(16).padStart(2, '0')).join('');
    expect((await planSigner(hex, 'hex')).key).toEqual((await planSigner(seed, 'base64')).key);
    await expect(planSigner('not a key', 'SEXTANT_PLAN_SIGNING_KEY')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT', message: 'SEXTANT_PLAN_SIGNING_KEY is not an ed25519 signing key (32 bytes, base64 or hex).',
    });
  });

  it('are refused by parsePlan when malformed', async () => {
    const signed = await (await planSigner(generatePlanSigningKey(), 'k')).sign(sealPlan(unsealed()));
    expect(() => parsePlan({ ...signed, signature: { ...signed.signature, alg: 'rsa' } })).toThrow(/signature.alg is not ed25519/);
    expect(() => parsePlan({ ...signed, signature: { ...signed.signature, keyId: 'x' } })).toThrow(/signature.keyId/);
    expect(() => parsePlan({ ...signed, signature: { ...signed.signature, value: 'AAAA' } })).toThrow(/signature.value/);
  });
});

describe('parsePlanPublicKeys', () => {
  it('reads a raw key in base64, base64url or hex, a key object and the worker\'s keys document', async () => {
    const { key } = await planSigner(generatePlanSigningKey(), 'k');
    const bytes = Uint8Array.from(atob(key.publicKey), (ch) => ch.charCodeAt(0));
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const url = key.publicKey.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    for (const text of [key.publicKey, `${hex}\n`, url, JSON.stringify(key), JSON.stringify({ keys: [key] })]) {
      expect(parsePlanPublicKeys(text, 'the key')).toEqual([key]);
    }
  });

  it('refuses a key whose stated keyId is not its own, an empty document and what is not a key', async () => {
    const { key } = await planSigner(generatePlanSigningKey(), 'k');
    expect(() => parsePlanPublicKeys(JSON.stringify({ keys: [{ ...key, keyId: '0'.repeat(16) }] }), 'keys.json')).toThrow(/keys.json says key 0 is 0{16}, but that key's id is/);
    expect(() => parsePlanPublicKeys('{"keys":[]}', 'keys.json')).toThrow(/lists no keys/);
    expect(() => parsePlanPublicKeys('hello', 'the argument')).toThrow(/the argument is not 32 bytes of base64 or hex/);
  });
});
