// The applier on real files: all or nothing, hash guards, the path jail, modes, line endings and
// byte-order marks, and the rollback when a file turns out read-only halfway through.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editAt, lineStarts, sealPlan, type Plan } from '@sextant/format';
import { applyPlan } from '../src/apply/apply-plan.ts';
import { wholeFilePlan } from './support/whole-file-plan.ts';

let root: string;
let outside: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sextant-apply-'));
  outside = mkdtempSync(join(tmpdir(), 'sextant-outside-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src/b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'src/c.ts'), 'export const c = 3;\n');
  writeFileSync(join(outside, 'secret.ts'), 'secret\n');
});

afterEach(() => {
  for (const dir of [root, outside]) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Every file under a directory with its bytes and mode, for before/after comparisons. */
function snapshot(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) out[path] = `link ${readlinkSync(join(dir, path))}`;
    else if (entry.isDirectory()) Object.assign(out, snapshot(dir, path));
    else out[path] = `${(statSync(join(dir, path)).mode & 0o777).toString(8)} ${readFileSync(join(dir, path)).toString('base64')}`;
  }
  return out;
}

function withoutJournal(tree: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).filter(([path]) => !path.startsWith('.sextant/')));
}

async function rejects(plan: unknown, code: string, message: RegExp, options = {}) {
  const before = snapshot(root);
  await expect(applyPlan(root, plan, options)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  expect(withoutJournal(snapshot(root))).toEqual(withoutJournal(before));
  expect(existsSync(join(root, '.sextant/journal')) ? readdirSync(join(root, '.sextant/journal')) : []).toEqual([]);
}

describe('applyPlan', () => {
  it('modifies, creates and deletes files together', async () => {
    const plan = wholeFilePlan(root, { 'src/a.ts': 'export const a = 10;\n', 'src/new.ts': 'export {};\n', 'src/c.ts': null });
    const result = await applyPlan(root, plan);
    expect(result.files).toEqual([{ path: 'src/a.ts', change: 'modify' }, { path: 'src/new.ts', change: 'create' }, { path: 'src/c.ts', change: 'delete' }]);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 10;\n');
    expect(readFileSync(join(root, 'src/new.ts'), 'utf8')).toBe('export {};\n');
    expect(existsSync(join(root, 'src/c.ts'))).toBe(false);
    expect(readdirSync(join(root, 'src')).sort()).toEqual(['a.ts', 'b.ts', 'new.ts']);
    expect(readdirSync(join(root, '.sextant/journal'))).toEqual([]);
  });

  it('keeps permission bits, CRLF line endings and a byte-order mark', async () => {
    writeFileSync(join(root, 'src/tool.ts'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('let x = 1;\r\nlet y = x;\r\n')]));
    chmodSync(join(root, 'src/tool.ts'), 0o751);
    const text = 'let x = 1;\r\nlet y = x;\r\n';
    const starts = lineStarts(text);
    const base = wholeFilePlan(root, {});
    const { contentHash, encodeText, applyEdits } = await import('@sextant/format');
    const edits = [editAt(starts, 4, 5, 'z'), editAt(starts, 20, 21, 'z')];
    const bytes = new Uint8Array(readFileSync(join(root, 'src/tool.ts')));
    const plan: Plan = sealPlan({
      ...base, files: [{ path: 'src/tool.ts', change: 'modify', expectedHash: contentHash(bytes), resultHash: contentHash(encodeText({ text: applyEdits(text, edits), bom: true })), edits }],
    });
    await applyPlan(root, plan);
    const after = readFileSync(join(root, 'src/tool.ts'));
    expect([...after.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(after.subarray(3).toString('utf8')).toBe('let z = 1;\r\nlet y = z;\r\n');
    expect(statSync(join(root, 'src/tool.ts')).mode & 0o777).toBe(0o751);
  });

  it('refuses a plan whose file changed since it was made, touching nothing', async () => {
    const plan = wholeFilePlan(root, { 'src/a.ts': 'A\n', 'src/b.ts': 'B\n' });
    writeFileSync(join(root, 'src/b.ts'), 'export const b = 22;\n');
    await rejects(plan, 'CONFLICT', /src\/b\.ts \(content changed\).*Nothing was changed/);
  });

  it('refuses to create a file that exists, and to modify one that does not', async () => {
    const create = wholeFilePlan(root, { 'src/d.ts': 'D\n' });
    writeFileSync(join(root, 'src/d.ts'), 'd\n');
    await rejects(create, 'CONFLICT', /src\/d\.ts \(already exists\)/);
    const modify = wholeFilePlan(root, { 'src/a.ts': 'A\n' });
    rmSync(join(root, 'src/a.ts'));
    await rejects(modify, 'CONFLICT', /src\/a\.ts \(missing\)/);
  });

  it('refuses a forged plan: edits changed after the plan hash was taken', async () => {
    const plan = wholeFilePlan(root, { 'src/a.ts': 'export const a = 10;\n' });
    const forged = structuredClone(plan);
    forged.files[0]!.edits[0]!.newText = 'process.exit(1);\n';
    await rejects(forged, 'CONFLICT', /planHash .* does not match/);
  });

  it('refuses a plan whose edits do not give its result hash, even with a matching plan hash', async () => {
    const plan = wholeFilePlan(root, { 'src/a.ts': 'export const a = 10;\n' });
    const { planHash: _drop, ...rest } = structuredClone(plan);
    rest.files[0]!.edits[0]!.newText = 'something else\n';
    await rejects(sealPlan(rest), 'CONFLICT', /do not produce the plan's resultHash/);
  });

  it('refuses a plan with conflicts unless forced', async () => {
    const plan = wholeFilePlan(root, { 'src/a.ts': 'A\n' }, [{ kind: 'usage', message: 'used in src/b.ts', path: 'src/b.ts', line: 1, column: 1 }]);
    await rejects(plan, 'CONFLICT', /1 conflicts: used in src\/b\.ts/);
    await applyPlan(root, plan, { force: true });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('A\n');
  });

  it.each([
    ['a parent directory', '../escape.ts'],
    ['a .. in the middle', 'src/../../escape.ts'],
    ['an absolute path', '/tmp/escape.ts'],
    ['a drive letter', 'C:/escape.ts'],
    ['a backslash', 'src\\..\\..\\escape.ts'],
    ['the .git directory', '.git/hooks/pre-commit'],
    ['the .git directory in another case', '.GIT/config'],
    ['the journal', '.sextant/journal/lock'],
    ['an empty segment', 'src//a.ts'],
  ])('refuses %s with PATH_OUTSIDE_ROOT before touching anything', async (_label, path) => {
    const plan = sealPlan({ ...wholeFilePlan(root, { 'src/a.ts': 'A\n' }), files: [
      ...wholeFilePlan(root, { 'src/a.ts': 'A\n' }).files,
      { path, change: 'create', expectedHash: null, resultHash: '0'.repeat(64), edits: [] },
    ] });
    await rejects(plan, 'PATH_OUTSIDE_ROOT', /Refusing/);
    expect(existsSync(join(root, '..', 'escape.ts'))).toBe(false);
  });

  it('refuses a symbolic link that leads out of the repository, as a directory or as a file', async () => {
    symlinkSync(outside, join(root, 'linked-dir'));
    symlinkSync(join(outside, 'secret.ts'), join(root, 'src/linked.ts'));
    await rejects(wholeFilePlan(root, { 'linked-dir/secret.ts': 'owned\n' }), 'PATH_OUTSIDE_ROOT', /leads to .* through a symbolic link/);
    await rejects(wholeFilePlan(root, { 'src/linked.ts': 'owned\n' }), 'PATH_OUTSIDE_ROOT', /is a symbolic link to/);
    expect(readFileSync(join(outside, 'secret.ts'), 'utf8')).toBe('secret\n');
  });

  it('refuses a path that differs from a file on disk only in letter case (two files on a case-insensitive file system)', async () => {
    writeFileSync(join(root, 'src/Shape.ts'), 'export {};\n');
    await rejects(wholeFilePlan(root, { 'src/shape.ts': 'export const x = 1;\n' }), 'PATH_OUTSIDE_ROOT', /the file is Shape\.ts on disk \(another letter case\)/);
  });

  it('rolls back the files already replaced when a file in the middle is read-only', async () => {
    chmodSync(join(root, 'src/b.ts'), 0o444);
    const plan = wholeFilePlan(root, { 'src/a.ts': 'A\n', 'src/b.ts': 'B\n', 'src/c.ts': 'C\n' });
    const steps: string[] = [];
    await rejects(plan, 'CONFLICT', /src\/b\.ts is read-only \(mode 0444\)\. Nothing was changed: the files already replaced were restored\./, {
      onStep: (step: string, path?: string) => steps.push(`${step} ${path ?? ''}`.trim()),
    });
    // src/a.ts was really replaced before src/b.ts was reached, and then restored.
    expect(steps).toEqual(expect.arrayContaining(['replace src/a.ts', 'replace src/b.ts', 'roll back']));
    expect(steps).not.toContain('replace src/c.ts');
    expect(readdirSync(join(root, 'src')).sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('refuses a second apply while another runner holds the lock', async () => {
    mkdirSync(join(root, '.sextant/journal'), { recursive: true });
    writeFileSync(join(root, '.sextant/journal/lock'), `${process.ppid}\n`);
    await expect(applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }))).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/Another runner/) });
    // A lock whose process is gone is taken over.
    writeFileSync(join(root, '.sextant/journal/lock'), '999999999\n');
    await applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }));
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('A\n');
  });
});
