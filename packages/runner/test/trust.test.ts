// `runner apply` applies only plans a trusted key signed, and says which files a plan touches before
// it applies: driven through the CLI entry point on real files, with the user's config directory
// (XDG_CONFIG_HOME) in a temporary directory. Also `runner trust add` and `runner trust list`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { computePlanHash, generatePlanSigningKey, planSigner, textHash, type Plan } from '@sextant/plan';
import { main } from '../src/cli.ts';
import { planSignerFor, planSignerForIndexes, trackingTree } from '../src/trust/index-provenance.ts';
import { userPlanSigner } from '../src/trust/user-key.ts';
import { wholeFilePlan } from './support/whole-file-plan.ts';

let root: string;
let config: string;
let scratch: string;
const savedXdg = process.env.XDG_CONFIG_HOME;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sextant-trust-repo-'));
  config = mkdtempSync(join(tmpdir(), 'sextant-trust-config-'));
  scratch = mkdtempSync(join(tmpdir(), 'sextant-trust-scratch-'));
  process.env.XDG_CONFIG_HOME = config;
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src/gone.ts'), 'export const gone = 1;\n');
});

afterEach(() => {
  vi.restoreAllMocks();
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  for (const dir of [root, config, scratch]) rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI in process; what it wrote to stdout and stderr. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { out.push(String(chunk)); return true; });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { err.push(String(chunk)); return true; });
  try {
    const code = await main(argv);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

function save(plan: Plan): string {
  const path = join(scratch, `plan-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(plan, null, 2));
  return path;
}

const plan = () => wholeFilePlan(root, { 'src/a.ts': 'export const a = 2;\n', 'src/b.ts': 'export const b = 1;\n', 'src/gone.ts': null });
const untouched = () => {
  expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
  expect(existsSync(join(root, 'src/b.ts'))).toBe(false);
  expect(existsSync(join(root, 'src/gone.ts'))).toBe(true);
};
const FILES = '  modify src/a.ts\n  create src/b.ts\n  delete src/gone.ts\n';

describe('runner apply and plan signatures', () => {
  it('refuses an unsigned plan with PLAN_UNTRUSTED, after listing the files it touches', async () => {
    const result = await cli('apply', save(plan()), '--repo', root);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`is NOT signed; it would:\n${FILES}`);
    expect(result.stderr).toMatch(/^error: Plan [0-9a-f]{12} is not signed, so nothing says who made it\. To fix this, .*--allow-unsigned/);
    untouched();
  });

  it('applies a plan this user\'s runner key signed, saying so', async () => {
    const signer = await userPlanSigner();
    const result = await cli('apply', save(await signer.sign(plan())), '--repo', root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`is signed by ${signer.key.keyId} (this user's runner key, ${join(config, 'sextant/plan-signing-key')}); it would:\n${FILES}applied plan`);
    expect(readFileSync(join(root, 'src/b.ts'), 'utf8')).toBe('export const b = 1;\n');
    // Created on first use, readable by the user only.
    expect(statSync(join(config, 'sextant/plan-signing-key')).mode & 0o777).toBe(0o600);
  });

  it('refuses a signed plan that was edited and resealed: one extra created file, planHash computed again', async () => {
    const signed = await (await userPlanSigner()).sign(plan());
    const forged = structuredClone(signed);
    forged.files.push({ path: 'src/backdoor.ts', change: 'create', expectedHash: null, resultHash: textHash('evil();\n'), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: 'evil();\n' }] });
    forged.planHash = computePlanHash(forged);
    const result = await cli('apply', save(forged), '--repo', root);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  create src/backdoor.ts\n');
    expect(result.stderr).toMatch(/^error: Plan [0-9a-f]{12} claims to be signed by [0-9a-f]{16} \(this user's runner key.*\), but its signature does not verify: the plan was changed after it was signed\./);
    untouched();
    expect(existsSync(join(root, 'src/backdoor.ts'))).toBe(false);
  });

  it('refuses a plan another key signed until that key is trusted with `runner trust add`, then names where it was trusted from', async () => {
    const worker = await planSigner(generatePlanSigningKey(), 'the worker key');
    const path = save(await worker.sign(plan()));
    const refused = await cli('apply', path, '--repo', root);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error: Plan ${plan().planHash.slice(0, 12)} is signed by key ${worker.key.keyId}, which this runner does not trust. To fix this, if you trust whoever made it, add their public key with \`runner trust add <key|file>\``);
    untouched();

    // The worker's /.well-known/sextant-plan-keys answer, saved by the user.
    const keys = join(scratch, 'keys.json');
    writeFileSync(keys, JSON.stringify({ keys: [worker.key] }));
    const added = await cli('trust', 'add', keys);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toContain(`trusted ${worker.key.keyId} (${worker.key.publicKey}) from ${keys}\n`);
    expect(statSync(join(config, 'sextant/trusted-plan-keys.json')).mode & 0o777).toBe(0o600);

    const applied = await cli('apply', path, '--repo', root);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain(`is signed by ${worker.key.keyId} (trusted from ${keys}); it would:\n${FILES}`);
    expect(existsSync(join(root, 'src/gone.ts'))).toBe(false);
  });

  it('applies an unsigned or untrusted plan with --allow-unsigned, saying it does', async () => {
    const result = await cli('apply', save(plan()), '--repo', root, '--allow-unsigned');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`is NOT signed; it would:\n${FILES}applying it without a trusted signature, as --allow-unsigned asks\napplied plan`);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
  });
});

describe('runner trust', () => {
  it('adds a raw key once, lists it after this user\'s own key, and refuses what is not a key', async () => {
    const other = (await planSigner(generatePlanSigningKey(), 'k')).key;
    expect((await cli('trust', 'add', other.publicKey)).stdout).toContain(`trusted ${other.keyId} (${other.publicKey}) from the command line`);
    expect((await cli('trust', 'add', other.publicKey)).stdout).toBe(`${other.keyId} was already trusted (from the command line)\n`);
    const own = (await userPlanSigner()).key;
    const list = await cli('trust', 'list');
    expect(list.stdout.split('\n')[0]).toBe(`${own.keyId}  ${own.publicKey}  this user's runner key (${join(config, 'sextant/plan-signing-key')})`);
    expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^${other.keyId}  ${other.publicKey.replace(/[+/]/g, '\\$&')}  trusted from the command line on \\d{4}-`));

    const bad = await cli('trust', 'add', 'not/a-key.json');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: "not\/a-key\.json" is neither a file nor an ed25519 public key\./);
    expect((await cli('trust', 'remove', 'x')).code).toBe(2);
  });
});

describe('plans made from an index the repository ships', () => {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@sextant.dev', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe' });

  it('are not signed with this user\'s key when git tracks the index; the user\'s own index is', async () => {
    git('init', '-q');
    mkdirSync(join(root, '.sextant/index'), { recursive: true });
    writeFileSync(join(root, '.sextant/index/manifest.json'), '{}\n');
    mkdirSync(join(root, 'built/index'), { recursive: true });
    writeFileSync(join(root, 'built/index/manifest.json'), '{}\n');
    git('add', '-f', '.sextant/index/manifest.json');
    git('commit', '-q', '-m', 'ships an index');
    const lines: string[] = [];
    expect(trackingTree(join(root, '.sextant/index'))).toBe(realpathSync(root));
    expect(planSignerFor(join(root, '.sextant/index'), (line) => lines.push(line))).toBeUndefined();
    expect(lines).toEqual([expect.stringContaining(`the index ${join(root, '.sextant/index')} is tracked by git`)]);
    // Untracked, inside the same tree, and outside any tree: the user's own, signed with their key.
    for (const dir of [join(root, 'built/index'), scratch]) {
      const signer = planSignerFor(dir, (line) => lines.push(line))!;
      const signed = await signer.sign(wholeFilePlan(root, { 'src/a.ts': 'export const a = 2;\n' }));
      expect(signed.signature?.keyId, dir).toBe((await userPlanSigner()).key.keyId);
    }
    expect(lines).toHaveLength(1);
  });

  it('are vouched for by the index of their own commit when a runner serves several: a tracked one\'s go out unsigned', async () => {
    git('init', '-q');
    mkdirSync(join(root, '.sextant/index'), { recursive: true });
    writeFileSync(join(root, '.sextant/index/manifest.json'), '{}\n');
    git('add', '-f', '.sextant/index/manifest.json');
    git('commit', '-q', '-m', 'ships an index');
    const shipped = join(root, '.sextant/index');
    const dirs: Record<string, string> = { ['a'.repeat(40)]: scratch, ['b'.repeat(40)]: shipped };
    const lines: string[] = [];
    const signer = planSignerForIndexes([scratch], async (commit) => dirs[commit], (line) => lines.push(line));
    expect(lines).toEqual([]);
    const made = (commit: string) => ({ ...wholeFilePlan(root, { 'src/a.ts': 'export const a = 2;\n' }), commit });
    expect((await signer.sign(made('a'.repeat(40)))).signature?.keyId).toBe((await userPlanSigner()).key.keyId);
    expect((await signer.sign(made('b'.repeat(40)))).signature).toBeUndefined();
    expect((await signer.sign(made('c'.repeat(40)))).signature).toBeUndefined();
    expect(lines).toEqual([
      expect.stringContaining(`the index ${shipped} is tracked by git`),
      expect.stringContaining(`no index of ${'c'.repeat(40)} is served`),
    ]);
  });
});

describe('the user\'s plan-signing key', () => {
  it('is created whole once, however many signers ask for it at once, and an unusable config directory is an IO_ERROR that a later call recovers from', async () => {
    writeFileSync(join(config, 'sextant'), 'a file where the directory should be');
    await expect(userPlanSigner()).rejects.toMatchObject({ code: 'IO_ERROR', data: { errno: 'ENOTDIR' } });
    rmSync(join(config, 'sextant'));
    const keys = await Promise.all(Array.from({ length: 8 }, () => userPlanSigner()));
    expect(new Set(keys.map((k) => k.key.keyId)).size).toBe(1);
    expect(readFileSync(join(config, 'sextant/plan-signing-key'), 'utf8')).toMatch(/^\S+\n$/);
    expect(statSync(join(config, 'sextant/plan-signing-key')).mode & 0o777).toBe(0o600);
  });
});
