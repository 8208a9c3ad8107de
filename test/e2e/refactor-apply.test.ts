// The runner's refactoring CLI end to end on a real git working tree: a plan printed with its diff
// and applied, a plan saved with --out and applied later with `runner apply`, and every way an apply
// must refuse or undo itself (a stale plan, a forged or unsigned plan, paths that escape the repository, a
// read-only file in the middle of a multi-file apply) leaving the tree exactly as it was.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { computePlanHash, sealPlan, type Plan } from '@sextant/plan';
import { ROOT, RUNNER_CONFIG_HOME } from './support/servers.ts';
import { runner, typeErrors, workingRepo } from './support/refactor-repo.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-refactor-cli-'));
const outside = mkdtempSync(join(tmpdir(), 'sextant-outside-'));
const geometry = workingRepo('refactor-ts', 'fixtures/refactor-ts', scratch);
const common = ['--repo', geometry.dir, '--index', geometry.index];

afterAll(() => {
  for (const dir of [scratch, outside, geometry.dir]) rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  if (existsSync(join(geometry.dir, 'src/generated/schema.ts'))) chmodSync(join(geometry.dir, 'src/generated/schema.ts'), 0o644);
  geometry.reset();
});

/** A rename plan of Point.x, made by the CLI and saved with --out: four files, blocked by the generated one. */
async function savedPlan(): Promise<{ path: string; plan: Plan }> {
  const path = join(scratch, `plan-${Date.now()}.json`);
  const made = await runner(['rename', ...common, '--qualified-name', 'Point.x', '--to', 'left', '--out', path], geometry.dir);
  expect(made.code, made.stderr).toBe(0);
  return { path, plan: JSON.parse(readFileSync(path, 'utf8')) as Plan };
}

function noLeftovers(): void {
  expect(geometry.git('status', '--porcelain', '--untracked-files=all')).toBe('');
  const journal = join(geometry.dir, '.git/sextant/journal');
  expect(existsSync(journal) ? readdirSync(journal) : []).toEqual([]);
  expect(existsSync(join(geometry.dir, '.git/sextant/lock'))).toBe(false);
}

describe('runner rename … --apply', () => {
  it('prints the plan and its diff, applies it, and the tree still type-checks', async () => {
    const result = await runner(['rename', ...common, '--qualified-name', 'distance', '--to', 'euclidean', '--apply'], geometry.dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^plan rename function distance to euclidean: \d+ edits in 3 files \(planner typescript, fixtures\/refactor-ts@[0-9a-f]{12}\)\nplanHash [0-9a-f]{64}\n/);
    expect(result.stdout).toContain("--- a/src/geometry/index.ts\n+++ b/src/geometry/index.ts\n@@ -1,2 +1,2 @@\n export * from './point';\n-export { distance as dist } from './distance';\n+export { euclidean as dist } from './distance';\n");
    expect(result.stdout).toMatch(/\napplied plan [0-9a-f]{12}: modify src\/format\/messy\.ts, modify src\/geometry\/distance\.ts, modify src\/geometry\/index\.ts\n$/);
    expect(geometry.read('src/format/messy.ts')).toContain("import { euclidean } from '../geometry/distance';");
    expect(await typeErrors(geometry.dir)).toBe('');
  });

  it('prints a plan as JSON that matches schemas/plan.schema.json', async () => {
    const result = await runner(['safe-delete', ...common, '--qualified-name', 'makePoint', '--json'], geometry.dir);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(plan).toMatchObject({ operation: 'safe_delete', planner: 'typescript', symbol: { name: 'makePoint', kind: 'function' } });
    expect(plan.conflicts.filter((c) => c.kind === 'usage').map((c) => `${c.path}:${c.line}`)).toEqual(['src/app.ts:1', 'src/app.ts:5', 'src/format/messy.ts:1']);
    expect(plan.conflicts.filter((c) => c.kind === 'introduces-errors').map((c) => c.path)).toContain('src/app.ts');
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/plan.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(new AjvJsonSchemaValidator().getValidator(schema)(plan).errorMessage).toBeUndefined();
    noLeftovers();
  });
});

describe('runner apply', () => {
  it('applies a saved plan (forced past its generated-file conflict), and refuses it unforced', async () => {
    const { path, plan } = await savedPlan();
    expect(plan.conflicts.map((c) => c.kind)).toEqual(['generated-file']);
    const refused = await runner(['apply', path, '--repo', geometry.dir], geometry.dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: The plan has 1 conflicts: src\/generated\/schema\.ts is generated.* To fix this, resolve them and plan again, or apply with force/);
    noLeftovers();
    const applied = await runner(['apply', path, '--repo', geometry.dir, '--force'], geometry.dir);
    expect(applied.code, applied.stderr).toBe(0);
    // Signed by this user's runner key (created on first use by `runner rename`), and every file named before anything is written.
    expect(plan.signature).toMatchObject({ alg: 'ed25519', keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(applied.stdout).toBe([
      `plan ${plan.planHash.slice(0, 12)} (rename in fixtures/refactor-ts) is signed by ${plan.signature!.keyId} (this user's runner key, ${join(RUNNER_CONFIG_HOME, 'sextant/plan-signing-key')}); it would:`,
      '  modify src/format/crlf.ts', '  modify src/generated/schema.ts', '  modify src/geometry/distance.ts', '  modify src/geometry/point.ts',
      `applied plan ${plan.planHash.slice(0, 12)} (rename): modify src/format/crlf.ts, modify src/generated/schema.ts, modify src/geometry/distance.ts, modify src/geometry/point.ts`, '',
    ].join('\n'));
    expect(await typeErrors(geometry.dir)).toBe('');
  });

  it('refuses a stale plan: a file edited after planning makes the apply CONFLICT, and nothing is touched', async () => {
    const { path } = await savedPlan();
    const edited = `${geometry.read('src/geometry/distance.ts')}// edited after planning\n`;
    writeFileSync(join(geometry.dir, 'src/geometry/distance.ts'), edited);
    const result = await runner(['apply', path, '--repo', geometry.dir, '--force'], geometry.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: 1 of the plan\'s files are not as it expects: src/geometry/distance.ts (content changed). Nothing was changed.');
    expect(geometry.read('src/geometry/distance.ts')).toBe(edited);
    expect(geometry.git('status', '--porcelain')).toBe('M src/geometry/distance.ts');
  });

  it('refuses a forged plan: an edit changed after the plan was made no longer matches its planHash', async () => {
    const { path, plan } = await savedPlan();
    plan.files[0]!.edits[0]!.newText = 'pwned';
    writeFileSync(path, JSON.stringify(plan));
    const result = await runner(['apply', path, '--repo', geometry.dir, '--force'], geometry.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: The planHash of .* does not match its content: the plan was changed after it was made\./);
    noLeftovers();
  });

  it('refuses a resealed plan: edited, planHash computed again, so the runner key\'s signature no longer verifies', async () => {
    const { path, plan } = await savedPlan();
    plan.files[0]!.edits[0]!.newText = 'pwned';
    plan.planHash = computePlanHash(plan);
    writeFileSync(path, JSON.stringify(plan));
    const result = await runner(['apply', path, '--repo', geometry.dir, '--force'], geometry.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Plan [0-9a-f]{12} claims to be signed by [0-9a-f]{16} \(this user's runner key, .*\), but its signature does not verify/);
    noLeftovers();
  });

  it.each([
    ['a path that climbs out with ..', '../escaped.ts'],
    ['an absolute path', join(outside, 'escaped.ts')],
    ['a path through a symbolic link that leads out', 'linked/escaped.ts'],
    ['a path into .git', '.git/hooks/post-checkout'],
  ])('refuses %s with PATH_OUTSIDE_ROOT, even in a correctly sealed plan applied with --allow-unsigned, touching nothing', async (_label, escape) => {
    symlinkSync(outside, join(geometry.dir, 'linked'));
    const { plan } = await savedPlan();
    const { planHash: _old, ...rest } = plan;
    const evil = sealPlan({ ...rest, files: [...rest.files, { path: escape, change: 'create', expectedHash: null, resultHash: '0'.repeat(64), edits: [] }] });
    const path = join(scratch, 'evil.json');
    writeFileSync(path, JSON.stringify(evil));
    // Resealing dropped the signature; --allow-unsigned gets it past the trust check to the path jail.
    const result = await runner(['apply', path, '--repo', geometry.dir, '--force', '--allow-unsigned'], geometry.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Refusing .* To fix this, plans may only name repository-relative files inside the repository; nothing was changed/s);
    rmSync(join(geometry.dir, 'linked'));
    noLeftovers();
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(geometry.dir, '..', 'escaped.ts'))).toBe(false);
  });

  it('rolls back a multi-file apply when a file in the middle is read-only, with a clear error', async () => {
    const { path } = await savedPlan();
    chmodSync(join(geometry.dir, 'src/generated/schema.ts'), 0o444);
    const result = await runner(['apply', path, '--repo', geometry.dir, '--force', '--verbose'], geometry.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: src/generated/schema.ts is read-only (mode 0444). Nothing was changed: the files already replaced were restored. To fix this, make it writable (chmod u+w src/generated/schema.ts) if it should change, then apply the plan again.');
    // The first file really was replaced before the read-only one was reached, and then restored.
    const steps = result.stderr.split('\n').filter((l) => l.startsWith('apply: '));
    expect(steps).toEqual(expect.arrayContaining(['apply: replace src/format/crlf.ts', 'apply: replace src/generated/schema.ts', 'apply: roll back']));
    expect(steps).not.toContain('apply: replace src/geometry/distance.ts');
    expect(statSync(join(geometry.dir, 'src/generated/schema.ts')).mode & 0o777).toBe(0o444);
    noLeftovers();
    expect((await runner(['recover', '--repo', geometry.dir], geometry.dir)).stdout).toBe('nothing to recover\n');
  });

  it('says how to use it when the plan file is missing or not a plan', async () => {
    const missing = await runner(['apply', join(scratch, 'nope.json'), '--repo', geometry.dir], geometry.dir);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: Cannot read the plan/) });
    mkdirSync(join(scratch, 'bad'), { recursive: true });
    writeFileSync(join(scratch, 'bad/plan.json'), '{"format": 1}');
    const bad = await runner(['apply', join(scratch, 'bad/plan.json'), '--repo', geometry.dir], geometry.dir);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: .*plan\.json: operation is not one of/) });
    expect((await runner(['apply'], geometry.dir)).code).toBe(2);
  });
});
