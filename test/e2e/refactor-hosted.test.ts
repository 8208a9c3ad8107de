// Plans made by the hosted worker and applied locally: the worker (wrangler dev, workerd, local R2)
// answers plan_rename and plan_safe_delete from the published index, as a review bot would call it;
// the plan is saved as JSON and applied to a working tree at that commit by `runner apply`. The
// runner serves the same plan tools and makes the very same plans. Java and Kotlin, which have no
// local compiler, are renamed from the index the same way, locally too. The worker signs its plans
// with a key made for the run; the runner applies them once the user trusted the key the worker
// serves at /.well-known/sextant-plan-keys (saved to a file: `runner trust add` is offline).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { computePlanHash, textHash, type Plan, type PlanKeysDocument } from '@sextant/plan';
import { runnerBackend, runnerEnv, workerBackend, type Backend } from './support/servers.ts';
import { ok, runner, typeErrors, workingRepo, type WorkingRepo } from './support/refactor-repo.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-refactor-hosted-'));
const basic = workingRepo('ts-basic', 'fixtures/ts-basic', scratch);
const shapes = workingRepo('ts-hierarchy', 'fixtures/ts-hierarchy', scratch);
const shop = workingRepo('jvm-shop', 'fixtures/jvm-shop', scratch);
const REPOS = [basic, shapes, shop];
const INDEXES = REPOS.map((r) => ({ repo: r.repoName, index: r.index }));

let worker: Backend;
let local: Backend;
const clients = new Map<string, Client>();
/** The worker's /.well-known/sextant-plan-keys answer, saved as a user would (curl -o). */
const keysFile = join(scratch, 'sextant-plan-keys.json');
let workerKeys: PlanKeysDocument;

beforeAll(async () => {
  worker = await workerBackend(INDEXES, scratch);
  local = runnerBackend(INDEXES);
  for (const repo of REPOS) {
    clients.set(`worker ${repo.repoName}`, await worker.connect(repo.repoName));
    clients.set(`runner ${repo.repoName}`, await local.connect(repo.repoName));
  }
  const response = await fetch(`${worker.url}/.well-known/sextant-plan-keys`);
  workerKeys = (await response.json()) as PlanKeysDocument;
  writeFileSync(keysFile, JSON.stringify(workerKeys));
  // The runners of this file trust the worker's key; the test of trust itself uses a config directory of its own.
  const trusted = await runner(['trust', 'add', keysFile], scratch);
  expect(trusted.code, trusted.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await worker?.close();
  await local?.close();
  for (const repo of REPOS) rmSync(repo.dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

afterEach(() => {
  for (const repo of REPOS) repo.reset();
});

const hosted = (repo: WorkingRepo) => clients.get(`worker ${repo.repoName}`)!;

/** Saves a plan as a review bot would attach it. */
function savePlan(plan: unknown): string {
  const path = join(scratch, `plan-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(plan, null, 2));
  return path;
}

/** Saves a plan and applies it with the runner CLI. */
async function applyLocally(repo: WorkingRepo, plan: unknown, ...flags: string[]) {
  return runner(['apply', savePlan(plan), '--repo', repo.dir, ...flags], repo.dir);
}

describe('plan signatures', () => {
  it('the worker signs with the key it serves; runner apply refuses its plan until that key is trusted, and a resealed edit of it after', async () => {
    const answer = await ok(hosted(basic), 'plan_rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' });
    const plan = answer.plan as Plan;
    expect(workerKeys.keys).toHaveLength(1);
    const { keyId } = workerKeys.keys[0]!;
    expect(plan.signature).toMatchObject({ alg: 'ed25519', keyId });
    // The runner's MCP server makes the very same plan, signed with its own per-user key.
    const same = (await ok(clients.get(`runner ${basic.repoName}`)!, 'plan_rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' })).plan as Plan;
    expect(same.planHash).toBe(plan.planHash);
    expect(same.signature!.keyId).not.toBe(keyId);

    const config = mkdtempSync(join(tmpdir(), 'sextant-e2e-trust-'));
    const env = runnerEnv({ XDG_CONFIG_HOME: config });
    try {
      const path = savePlan(plan);
      const refused = await runner(['apply', path, '--repo', basic.dir], basic.dir, env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`^error: Plan ${plan.planHash.slice(0, 12)} is signed by key ${keyId}, which this runner does not trust\. To fix this, .*runner trust add`));
      expect(refused.stdout).toContain(`signed by ${keyId}, a key this runner does not trust; it would:\n${plan.files.map((f) => `  ${f.change} ${f.path}\n`).join('')}`);
      expect(basic.git('status', '--porcelain')).toBe('');

      const added = await runner(['trust', 'add', keysFile], scratch, env);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain(`trusted ${keyId}`);

      // What anyone can do without the key: add a file and compute the planHash again.
      const forged = structuredClone(plan);
      forged.files.push({ path: 'src/backdoor.ts', change: 'create', expectedHash: null, resultHash: textHash('export {};\n'), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: 'export {};\n' }] });
      forged.planHash = computePlanHash(forged);
      const resealed = await runner(['apply', savePlan(forged), '--repo', basic.dir], basic.dir, env);
      expect(resealed.code).toBe(1);
      expect(resealed.stdout).toContain('  create src/backdoor.ts\n');
      expect(resealed.stderr).toMatch(/^error: .* but its signature does not verify: the plan was changed after it was signed\./);
      expect(existsSync(join(basic.dir, 'src/backdoor.ts'))).toBe(false);
      expect(basic.git('status', '--porcelain')).toBe('');

      const applied = await runner(['apply', path, '--repo', basic.dir], basic.dir, env);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toContain(`is signed by ${keyId} (trusted from ${keysFile}); it would:\n`);
      expect(basic.read('src/app.ts')).toContain('PictureCache');
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });
});

describe('plans from the hosted worker, applied by the runner', () => {
  it('plan_rename gives the complete rename with a diff; runner apply applies it and the tree type-checks', async () => {
    const answer = await ok(hosted(basic), 'plan_rename', { qualifiedName: 'OrderRepository', newName: 'OrderStore' });
    expect(answer).toMatchObject({ repo: basic.repoName, commit: basic.commit, blocked: false });
    expect(answer.plan).toMatchObject({ planner: 'index', operation: 'rename', repo: basic.repoName, commit: basic.commit, conflicts: [] });
    expect(answer.plan.files.map((f: { path: string }) => f.path)).toEqual(['src/app.ts', 'src/index.ts', 'src/orders/repository.ts']);
    expect(answer.diff).toContain("-export { OrderRepository } from './orders/repository';\n+export { OrderStore } from './orders/repository';");
    // The runner serves the same plan tools over the same index, and makes the very same plan.
    const same = await ok(clients.get(`runner ${basic.repoName}`)!, 'plan_rename', { qualifiedName: 'OrderRepository', newName: 'OrderStore' });
    expect(same.plan.planHash).toBe(answer.plan.planHash);

    const applied = await applyLocally(basic, answer.plan);
    expect(applied.code, applied.stderr).toBe(0);
    expect(basic.read('src/app.ts')).toContain('new Service(new OrderStore())');
    expect(await typeErrors(basic.dir)).toBe('');
  });

  it('plan_rename of a method renames its overrides and the interface declaration', async () => {
    const answer = await ok(hosted(shapes), 'plan_rename', { qualifiedName: 'Circle.area', newName: 'size' });
    expect(answer.plan.files.map((f: { path: string }) => f.path)).toEqual(['src/report.ts', 'src/shapes/base.ts', 'src/shapes/circle.ts', 'src/shapes/shape.ts', 'src/shapes/square.ts']);
    // Comments, a doc comment and a string name `area`: the rename lists them, edits nothing there, and so is applied with --force.
    expect(answer.plan.conflicts.map((c: any) => `${c.kind} ${c.path}:${c.line}:${c.column}`)).toEqual([
      'textual-mention src/report.ts:6:50', 'textual-mention src/shapes/circle.ts:21:34', 'textual-mention src/shapes/label.ts:25:38', 'textual-mention src/shapes/shape.ts:1:22',
    ]);
    expect((await applyLocally(shapes, answer.plan)).code).toBe(1);
    expect((await applyLocally(shapes, answer.plan, '--force')).code).toBe(0);
    expect(shapes.read('src/report.ts')).toContain('Shape.area.');
    expect(await typeErrors(shapes.dir)).toBe('');
  });

  it('plan_safe_delete says the delete is blocked and by which usages; runner apply refuses it', async () => {
    const answer = await ok(hosted(shapes), 'plan_safe_delete', { qualifiedName: 'ping' });
    expect(answer.blocked).toBe(true);
    expect(answer.plan.conflicts.map((c: { kind: string; path: string; line: number }) => `${c.kind} ${c.path}:${c.line}`)).toEqual(['usage src/report.ts:16', 'usage src/report.ts:19']);
    const refused = await applyLocally(shapes, answer.plan);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: The plan has 2 conflicts: call of ping at src\/report\.ts:16:23; call of ping at src\/report\.ts:19:79/);
    expect(shapes.git('status', '--porcelain')).toBe('');
  });

  it('a hosted plan for a tree that changed since the commit is CONFLICT and touches nothing', async () => {
    const answer = await ok(hosted(basic), 'plan_rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' });
    writeFileSync(join(basic.dir, 'src/app.ts'), `${basic.read('src/app.ts')}\n// local change\n`);
    const refused = await applyLocally(basic, answer.plan);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error: 1 of the plan's files are not as it expects: src/app.ts (content changed). Nothing was changed.");
    expect(basic.git('status', '--porcelain')).toBe('M src/app.ts');
  });
});

describe('Java and Kotlin, from the index', () => {
  // Repository.save in core/src/main/java/com/example/core/Repository.java, by position: implemented in
  // Java (InMemoryOrderRepository), overridden in Kotlin (the test's FakeRepository), called from Kotlin.
  const SAVE = { path: 'core/src/main/java/com/example/core/Repository.java', line: 7, column: 10 };
  const RENAMED = [
    'app/src/main/kotlin/com/example/app/OrderService.kt', 'app/src/test/kotlin/com/example/app/OrderServiceTest.kt',
    'core/src/main/java/com/example/core/InMemoryOrderRepository.java', 'core/src/main/java/com/example/core/Repository.java',
  ];

  function expectRenamed(): void {
    expect(shop.read('core/src/main/java/com/example/core/Repository.java')).toContain('    void store(T entity);');
    expect(shop.read('core/src/main/java/com/example/core/InMemoryOrderRepository.java')).toContain('    public void store(Order order) {');
    expect(shop.read('app/src/test/kotlin/com/example/app/OrderServiceTest.kt')).toContain('    override fun store(entity: Order) {');
    expect(shop.read('app/src/main/kotlin/com/example/app/OrderService.kt')).toContain('        repository.store(order)');
    // Names that only look alike are left alone.
    expect(shop.read('core/src/main/java/com/example/core/InMemoryOrderRepository.java')).toContain('    private int saves;');
  }

  it('plan_rename of an interface method renames its implementations and overrides across Java and Kotlin', async () => {
    const answer = await ok(hosted(shop), 'plan_rename', { ...SAVE, newName: 'store' });
    expect(answer.plan.planner).toBe('index');
    expect(answer.plan.files.map((f: { path: string }) => f.path)).toEqual(RENAMED);
    expect(answer.plan.conflicts).toEqual([]);
    const applied = await applyLocally(shop, answer.plan);
    expect(applied.code, applied.stderr).toBe(0);
    expectRenamed();
  });

  it('runner rename plans the same rename locally from the index and applies it', async () => {
    const result = await runner(['rename', '--repo', shop.dir, '--index', shop.index, '--path', SAVE.path, '--line', String(SAVE.line), '--column', String(SAVE.column), '--to', 'store', '--apply'], shop.dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^plan rename method .*save.* to store: 4 edits in 4 files \(planner index/);
    expectRenamed();
  });

  it('runner rename from the index names each working-tree file that differs from the commit, in a plan sealed once, with that conflict', async () => {
    const changed = 'core/src/main/java/com/example/core/InMemoryOrderRepository.java';
    writeFileSync(join(shop.dir, changed), `${shop.read(changed)}// local change\n`);
    const result = await runner(['rename', '--repo', shop.dir, '--index', shop.index, '--path', SAVE.path, '--line', String(SAVE.line), '--column', String(SAVE.column), '--to', 'store', '--json'], shop.dir);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(plan.planner).toBe('index');
    expect(plan.conflicts.filter((c) => c.kind === 'working-tree-differs').map((c) => c.path)).toEqual([changed]);
    expect(computePlanHash(plan)).toBe(plan.planHash);
  });

  it('runner safe-delete is blocked by the usages of a Java method', async () => {
    const result = await runner(['safe-delete', '--repo', shop.dir, '--index', shop.index, '--path', SAVE.path, '--line', '9', '--column', '17', '--apply'], shop.dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/blocked by \d+ conflicts/);
    expect(result.stdout).toContain('usage: call of');
    expect(result.stderr).toMatch(/^error: The plan has \d+ conflicts/);
    expect(shop.git('status', '--porcelain')).toBe('');
  });

  it('runner safe-delete deletes an unused Java method with its doc comment', async () => {
    const result = await runner(['safe-delete', '--repo', shop.dir, '--index', shop.index, '--path', SAVE.path, '--line', '12', '--column', '21', '--apply'], shop.dir);
    expect(result.code, result.stderr).toBe(0);
    expect(shop.read(SAVE.path)).toBe([
      'package com.example.core;', '', 'import java.util.Optional;', '', '/** Stores entities by id. */', 'public interface Repository<T, ID> {',
      '    void save(T entity);', '', '    Optional<T> find(ID id);', '}', '',
    ].join('\n'));
  });
});
