// TypeScript refactorings end to end: `runner mcp --repo` over stdio with the real MCP SDK client,
// planned by the TypeScript language service over real git working trees, applied in two phases
// (preview, then apply with the preview's planHash), and after every applied refactoring the tree
// still type-checks with the real `tsc`.
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { computePlanHash, textHash, type Plan } from '@sextant/plan';
import {
  connectRunner, failure, ok, previewAndApply, typeErrors, workingRepo, type RunnerSession, type WorkingRepo,
} from './support/refactor-repo.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-refactor-ts-'));
const basic = workingRepo('ts-basic', 'fixtures/ts-basic', scratch);
const shapes = workingRepo('ts-hierarchy', 'fixtures/ts-hierarchy', scratch);
const geometry = workingRepo('refactor-ts', 'fixtures/refactor-ts', scratch);
const REPOS = [basic, shapes, geometry];
const sessions = new Map<WorkingRepo, RunnerSession>();

beforeAll(async () => {
  for (const repo of REPOS) sessions.set(repo, await connectRunner(repo));
}, 300_000);

afterAll(async () => {
  for (const session of sessions.values()) await session.close();
  for (const repo of REPOS) rmSync(repo.dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

afterEach(() => {
  for (const repo of REPOS) repo.reset();
});

const client = (repo: WorkingRepo) => sessions.get(repo)!.client;

function paths(plan: { files: { path: string; change: string }[] }): string[] {
  return plan.files.map((f) => `${f.change} ${f.path}`);
}

async function expectTypeChecks(repo: WorkingRepo): Promise<void> {
  expect(await typeErrors(repo.dir)).toBe('');
}

describe('runner mcp --repo', () => {
  it('serves the write tools next to the read tools, annotated as writes', async () => {
    const { tools } = await client(basic).listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['find_references', 'plan_rename', 'plan_safe_delete']));
    const writes = ['rename', 'safe_delete', 'move_symbol', 'inline', 'replace_symbol_body', 'insert_before_symbol', 'insert_after_symbol', 'reformat_file', 'organize_imports', 'apply_plan'];
    expect(names.slice(-writes.length)).toEqual(writes);
    for (const tool of tools.filter((t) => writes.includes(t.name))) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(tool.description!.length).toBeGreaterThan(80);
    }
  });

  it('apply_plan applies a plan the runner signed, and refuses it unsigned or edited and resealed (PLAN_UNTRUSTED)', async () => {
    const preview = await ok(client(basic), 'rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' });
    const plan = preview.plan as Plan;
    expect(plan.signature).toMatchObject({ alg: 'ed25519', keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const { signature: _signature, ...unsigned } = plan;
    expect(await failure(client(basic), 'apply_plan', { plan: unsigned })).toMatchObject({ code: 'PLAN_UNTRUSTED', message: expect.stringMatching(/is not signed/) });
    const forged = structuredClone(plan);
    forged.files.push({ path: 'src/backdoor.ts', change: 'create', expectedHash: null, resultHash: textHash('export {};\n'), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: 'export {};\n' }] });
    forged.planHash = computePlanHash(forged);
    expect(await failure(client(basic), 'apply_plan', { plan: forged })).toMatchObject({ code: 'PLAN_UNTRUSTED', message: expect.stringMatching(/signature does not verify/) });
    expect(basic.git('status', '--porcelain')).toBe('');
    const applied = await ok(client(basic), 'apply_plan', { plan });
    expect(applied.applied).toBe(true);
    expect(basic.read('src/app.ts')).toContain('PictureCache');
    await expectTypeChecks(basic);
  });

  // Linux's /proc says which sockets a process holds and which of them listen.
  it.skipIf(!existsSync('/proc/net/tcp'))('listens on nothing but stdio: no socket of the runner process accepts connections', () => {
    const pid = sessions.get(basic)!.pid;
    const sockets = readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    }).filter((link) => link.startsWith('socket:[')).map((link) => link.slice(8, -1));
    const listening = new Set<string>();
    for (const table of ['tcp', 'tcp6']) {
      for (const line of readFileSync(`/proc/net/${table}`, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields[3] === '0A') listening.add(fields[9]!); // state LISTEN, inode
      }
    }
    for (const table of ['udp', 'udp6']) {
      for (const line of readFileSync(`/proc/net/${table}`, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields[9]) listening.add(fields[9]); // any bound UDP socket receives
      }
    }
    for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] && (Number.parseInt(fields[3], 16) & 0x10000)) listening.add(fields[6]!); // __SO_ACCEPTCON
    }
    expect(sockets.filter((inode) => listening.has(inode))).toEqual([]);
  });
});

describe('rename', () => {
  it('renames a class across files, through a re-export and the imports of it', async () => {
    const { preview, applied } = await previewAndApply(client(basic), 'rename', { qualifiedName: 'OrderRepository', newName: 'OrderStore' });
    expect(preview.plan).toMatchObject({ planner: 'typescript', repo: basic.repoName, commit: basic.commit, conflicts: [] });
    expect(paths(preview.plan)).toEqual(['modify src/app.ts', 'modify src/index.ts', 'modify src/orders/repository.ts']);
    expect(preview.diff).toContain("-export { OrderRepository } from './orders/repository';\n+export { OrderStore } from './orders/repository';");
    expect(applied.applied).toBe(true);
    expect(basic.read('src/index.ts')).toContain("export { OrderStore } from './orders/repository';");
    expect(basic.read('src/app.ts')).toContain('new Service(new OrderStore())');
    expect(basic.read('src/orders/repository.ts')).toContain('export class OrderStore implements Repository<Order>');
    await expectTypeChecks(basic);
  });

  it('keeps an explicit alias: renaming OrderService leaves `export { … as Service }` and its users alone', async () => {
    const { preview } = await previewAndApply(client(basic), 'rename', { qualifiedName: 'OrderService', newName: 'OrderManager' });
    expect(paths(preview.plan)).toEqual(['modify src/index.ts', 'modify src/orders/order-service.ts']);
    expect(basic.read('src/index.ts')).toContain("export { OrderManager as Service } from './orders/order-service';");
    expect(basic.git('diff', '--stat', '--', 'src/app.ts')).toBe('');
    await expectTypeChecks(basic);
  });

  it('renames a method together with the members it overrides and the interface declaration', async () => {
    // Comments, a doc comment and a string name `area`: listed as textual mentions, never edited, so the rename is forced.
    const { preview } = await previewAndApply(client(shapes), 'rename', { qualifiedName: 'Circle.area', newName: 'size' }, true);
    expect(paths(preview.plan)).toEqual([
      'modify src/report.ts', 'modify src/shapes/base.ts', 'modify src/shapes/circle.ts', 'modify src/shapes/shape.ts', 'modify src/shapes/square.ts',
    ]);
    expect(preview.plan.conflicts.map((c: any) => `${c.kind} ${c.path}:${c.line}`)).toEqual([
      'textual-mention src/report.ts:6', 'textual-mention src/shapes/circle.ts:21', 'textual-mention src/shapes/label.ts:25', 'textual-mention src/shapes/shape.ts:1',
    ]);
    expect(shapes.read('src/shapes/shape.ts')).toContain('  size(): number;');
    expect(shapes.read('src/shapes/base.ts')).toContain('abstract size(): number;');
    expect(shapes.read('src/shapes/circle.ts')).toContain('override size(): number {');
    expect(shapes.read('src/shapes/circle.ts')).toContain('return super.size() - new Circle(this.hole).size();');
    expect(shapes.read('src/report.ts')).toContain('sum + shape.size()');
    for (const file of ['src/report.ts', 'src/shapes/base.ts', 'src/shapes/circle.ts', 'src/shapes/shape.ts', 'src/shapes/square.ts']) {
      expect(shapes.read(file)).not.toMatch(/(\.|^\s*(override |abstract )?)area\(\)/m); // comments are not code: they keep the word
    }
    await expectTypeChecks(shapes);
  });

  it('expands shorthand properties and renames string-literal property names, in CRLF files with CRLF', async () => {
    const preview = await ok(client(geometry), 'rename', { qualifiedName: 'Point.x', newName: 'left' });
    // The generated file uses the property too: the edit there is a conflict until forced.
    expect(preview.blocked).toBe(true);
    expect(preview.plan.conflicts).toEqual([expect.objectContaining({ kind: 'generated-file', path: 'src/generated/schema.ts' })]);
    expect((await failure(client(geometry), 'rename', { qualifiedName: 'Point.x', newName: 'left', planHash: preview.plan.planHash })).code).toBe('CONFLICT');
    expect(geometry.git('status', '--porcelain')).toBe('');
    await ok(client(geometry), 'rename', { qualifiedName: 'Point.x', newName: 'left', planHash: preview.plan.planHash, force: true });
    const point = geometry.read('src/geometry/point.ts');
    expect(point).toContain('  left: number;');
    expect(point).toContain('return { left: x, y };');
    expect(point).toContain("export const ORIGIN: Point = { 'left': 0, y: 0 };");
    expect(geometry.read('src/geometry/distance.ts')).toContain('const dx = a.left - b.left;');
    expect(geometry.read('src/format/crlf.ts')).toBe('import { ORIGIN } from "../geometry";\r\n\r\n/** Kept with CRLF line endings. */\r\nexport function originLabel(): string {\r\n  return `(${ORIGIN.left}, ${ORIGIN.y})`;\r\n}\r\n');
    expect(geometry.read('src/generated/schema.ts')).toContain('{ left: 0, y: 0 }');
    await expectTypeChecks(geometry);
  });

  it('renames a parameter used as a shorthand property without changing the property', async () => {
    await previewAndApply(client(geometry), 'rename', { path: 'src/geometry/point.ts', line: 7, column: 27, newName: 'horizontal' });
    const point = geometry.read('src/geometry/point.ts');
    expect(point).toContain('export function makePoint(horizontal: number, y: number): Point {');
    expect(point).toContain('return { x: horizontal, y };');
    await expectTypeChecks(geometry);
  });

  it('blocks a new name that collides or shadows, and applies nothing without force', async () => {
    const collision = await ok(client(shapes), 'rename', { qualifiedName: 'Circle.area', newName: 'describe' });
    expect(collision.plan.conflicts.map((c: { kind: string }) => c.kind)).toContain('name-collision');
    const error = await failure(client(shapes), 'rename', { qualifiedName: 'Circle.area', newName: 'describe', planHash: collision.plan.planHash });
    expect(error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/conflicts: describe is already a member/) });
    expect(shapes.git('status', '--porcelain')).toBe('');

    const sameScope = await ok(client(geometry), 'rename', { path: 'src/app.ts', line: 3, column: 7, newName: 'far' });
    expect(sameScope.plan.conflicts).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'name-collision', path: 'src/app.ts' })]));
    const shadow = await ok(client(geometry), 'rename', { path: 'src/app.ts', line: 8, column: 9, newName: 'scale' });
    expect(shadow.plan.conflicts).toEqual([expect.objectContaining({ kind: 'shadowing', path: 'src/app.ts', line: 8, message: expect.stringMatching(/scale is already visible at src\/app\.ts:8 \(declared at src\/app\.ts:3\)/) })]);
  });

  it('refuses a stale preview: the tree changed after it, so the apply is CONFLICT and touches nothing', async () => {
    const preview = await ok(client(basic), 'rename', { qualifiedName: 'ImageCache', newName: 'PictureCache' });
    const edited = `${basic.read('src/app.ts')}// edited after the preview\n`;
    writeFileSync(join(basic.dir, 'src/app.ts'), edited);
    const error = await failure(client(basic), 'rename', { qualifiedName: 'ImageCache', newName: 'PictureCache', planHash: preview.plan.planHash });
    expect(error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/no longer the one previewed/) });
    expect(basic.read('src/app.ts')).toBe(edited);
    expect(basic.git('status', '--porcelain')).toBe('M src/app.ts');
  });
});

describe('safe delete', () => {
  it('is blocked by the usages the preview lists, and deletes nothing', async () => {
    const preview = await ok(client(shapes), 'safe_delete', { qualifiedName: 'ping' });
    expect(preview.blocked).toBe(true);
    const usages = preview.plan.conflicts.filter((c: { kind: string }) => c.kind === 'usage');
    expect(usages.map((u: { path: string; line: number }) => `${u.path}:${u.line}`)).toEqual(['src/report.ts:16', 'src/report.ts:19']);
    expect((await failure(client(shapes), 'safe_delete', { qualifiedName: 'ping', planHash: preview.plan.planHash })).code).toBe('CONFLICT');
    expect(shapes.git('status', '--porcelain')).toBe('');
  });

  it('deletes an unused function with its doc comment', async () => {
    const { preview } = await previewAndApply(client(geometry), 'safe_delete', { qualifiedName: 'manhattan' });
    expect(preview.blocked).toBe(false);
    expect(geometry.read('src/geometry/distance.ts')).toBe([
      "import type { Point } from './point';", '', 'export function distance(a: Point, b: Point): number {', '  const dx = a.x - b.x;',
      '  const dy = a.y - b.y;', '  return Math.sqrt(dx * dx + dy * dy);', '}', '',
    ].join('\n'));
    await expectTypeChecks(geometry);
  });
});

describe('move', () => {
  it('moves a class to a new module and rewrites the re-export that named the old one', async () => {
    const { preview } = await previewAndApply(client(basic), 'move_symbol', { qualifiedName: 'OrderRepository', toFile: 'src/orders/order-repository.ts' });
    expect(paths(preview.plan)).toEqual(['modify src/index.ts', 'create src/orders/order-repository.ts', 'modify src/orders/repository.ts']);
    expect(basic.read('src/orders/order-repository.ts')).toContain('export class OrderRepository implements Repository<Order> {');
    expect(basic.read('src/orders/repository.ts')).not.toContain('class OrderRepository');
    expect(basic.read('src/index.ts')).toContain("export { OrderRepository } from './orders/order-repository';");
    await expectTypeChecks(basic);
  });

  it('moves a class re-exported by `export *`, keeping every importer of the barrel working', async () => {
    await previewAndApply(client(basic), 'move_symbol', { qualifiedName: 'ImageCache', toFile: 'src/images/cache.ts' });
    expect(basic.read('src/index.ts')).toContain("export { ImageCache } from './images/cache';");
    expect(basic.read('src/images/image-cache.ts')).toMatch(/import \{ ImageCache \} from ["']\.\/cache["'];/);
    await expectTypeChecks(basic);
  });

  it('refuses a target outside the repository', async () => {
    expect((await failure(client(basic), 'move_symbol', { qualifiedName: 'ImageCache', toFile: '../elsewhere.ts' })).code).toBe('PATH_OUTSIDE_ROOT');
  });
});

describe('inline', () => {
  it('inlines a variable where TypeScript can', async () => {
    await previewAndApply(client(geometry), 'inline', { path: 'src/app.ts', line: 3, column: 7 });
    const app = geometry.read('src/app.ts');
    expect(app).not.toContain('const scale');
    expect(app).toContain('makePoint(3 * 2, 4 * 2)');
    await expectTypeChecks(geometry);
  });

  it('says what TypeScript offers where it cannot inline', async () => {
    expect(await failure(client(geometry), 'inline', { qualifiedName: 'makePoint' })).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/cannot inline makePoint/) });
  });
});

describe('editing around a symbol', () => {
  it('replaces a declaration and inserts code before and after it, with the file\'s CRLF line endings', async () => {
    // Replacing and inserting after keep the declaration where the index says it is; inserting before moves it, so it goes last.
    await previewAndApply(client(geometry), 'replace_symbol_body', { qualifiedName: 'originLabel', text: 'export function originLabel(): string {\n  return `at (${ORIGIN.x}, ${ORIGIN.y})`;\n}' });
    await previewAndApply(client(geometry), 'insert_after_symbol', { qualifiedName: 'originLabel', text: 'export function originText(): string {\n  return originLabel();\n}\n' }, true);
    await previewAndApply(client(geometry), 'insert_before_symbol', { qualifiedName: 'originLabel', text: '/** The label\'s prefix. */\nexport const PREFIX = "at";' }, true);
    expect(geometry.read('src/format/crlf.ts')).toBe([
      'import { ORIGIN } from "../geometry";', '', '/** The label\'s prefix. */', 'export const PREFIX = "at";', '/** Kept with CRLF line endings. */',
      'export function originLabel(): string {', '  return `at (${ORIGIN.x}, ${ORIGIN.y})`;', '}', 'export function originText(): string {', '  return originLabel();', '}', '',
    ].join('\r\n'));
    await expectTypeChecks(geometry);
  });

  it('indents inserted members as the member they go next to', async () => {
    await previewAndApply(client(basic), 'insert_after_symbol', { qualifiedName: 'ImageCache.save', text: 'drop(key: string): void {\n  delete this.entries[key];\n}' });
    expect(basic.read('src/images/image-cache.ts')).toContain('    this.entries[key] = bytes;\n  }\n  drop(key: string): void {\n    delete this.entries[key];\n  }\n}\n');
    await expectTypeChecks(basic);
  });
});

describe('file operations', () => {
  it('reformats a file and organizes its imports', async () => {
    await previewAndApply(client(geometry), 'reformat_file', { path: 'src/format/messy.ts' });
    expect(geometry.read('src/format/messy.ts')).toContain('export function spread(points: Point[]): number {\n  let max = 0\n  for (const p of points) { max = Math.max(max, distance(p, points[0]!)) }\n  return max\n}');
    await expectTypeChecks(geometry);
    await previewAndApply(client(geometry), 'organize_imports', { path: 'src/format/messy.ts' }, true);
    const organized = geometry.read('src/format/messy.ts');
    expect(organized).not.toContain('makePoint');
    expect(organized.indexOf("from '../geometry/distance'")).toBeLessThan(organized.indexOf("from '../geometry/point'"));
    await expectTypeChecks(geometry);
  });

  it('refuses files of languages without a local compiler', async () => {
    writeFileSync(join(geometry.dir, 'src/notes.md'), '# notes\n');
    expect((await failure(client(geometry), 'reformat_file', { path: 'src/notes.md' })).code).toBe('UNSUPPORTED_LANGUAGE');
  });
});
