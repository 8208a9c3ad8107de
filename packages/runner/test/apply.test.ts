// The applier on real files in real git repositories: all or nothing, hash guards, the path jail,
// modes, line endings and byte-order marks, the rollback when a file turns out read-only halfway
// through, and the recovery state (journal and lock) kept in the git directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineStarts } from '@sextant/format';
import { editAt, sealPlan, type Plan } from '@sextant/plan';
import { applyPlan } from '../src/apply/apply-plan.ts';
import { PathJail } from '../src/apply/path-jail.ts';
import { recover } from '../src/apply/recover.ts';
import { wholeFilePlan } from './support/whole-file-plan.ts';

let root: string;
let outside: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sextant-apply-'));
  outside = mkdtempSync(join(tmpdir(), 'sextant-outside-'));
  git('init', '-q');
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

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@sextant.dev', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
}

/** The journals and lock in the runner's state directory, <git-dir>/sextant. */
function stateFiles(): string[] {
  const dir = join(root, '.git/sextant');
  if (!existsSync(dir)) return [];
  const journals = existsSync(join(dir, 'journal')) ? readdirSync(join(dir, 'journal')).map((n) => `journal/${n}`) : [];
  return [...readdirSync(dir).filter((n) => n !== 'journal'), ...journals];
}

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

function withoutGit(tree: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).filter(([path]) => !path.startsWith('.git/')));
}

async function rejects(plan: unknown, code: string, message: RegExp, options = {}) {
  const before = snapshot(root);
  await expect(applyPlan(root, plan, options)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  expect(withoutGit(snapshot(root))).toEqual(withoutGit(before));
  expect(stateFiles()).toEqual([]);
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
    expect(stateFiles()).toEqual([]);
    expect(existsSync(join(root, '.sextant'))).toBe(false);
  });

  it('keeps permission bits, CRLF line endings and a byte-order mark', async () => {
    writeFileSync(join(root, 'src/tool.ts'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('let x = 1;\r\nlet y = x;\r\n')]));
    chmodSync(join(root, 'src/tool.ts'), 0o751);
    const text = 'let x = 1;\r\nlet y = x;\r\n';
    const starts = lineStarts(text);
    const base = wholeFilePlan(root, {});
    const { encodeText } = await import('@sextant/format');
    const { contentHash, applyEdits } = await import('@sextant/plan');
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

  it('journals an apply in the git directory, naming its writer, never in the tree', async () => {
    const plan = wholeFilePlan(root, { 'src/a.ts': 'A\n', 'src/b.ts': 'B\n' });
    let seen: Record<string, any> | undefined;
    await applyPlan(root, plan, {
      onStep: (step) => {
        if (step !== 'replace' || seen) return;
        seen = JSON.parse(readFileSync(join(root, '.git/sextant/journal', `${plan.planHash}.json`), 'utf8'));
        expect(stateFiles().sort()).toEqual([`journal/${plan.planHash}.json`, 'lock']);
      },
    });
    expect(seen).toMatchObject({ format: 2, planHash: plan.planHash, state: 'prepared', writer: { pid: process.pid, hostname: hostname() } });
    expect(seen!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(stateFiles()).toEqual([]);
    expect(existsSync(join(root, '.sextant'))).toBe(false);
  });

  it('refuses a second apply while another runner holds the lock, naming it', async () => {
    mkdirSync(join(root, '.git/sextant'), { recursive: true });
    const owner = { pid: process.ppid, hostname: hostname(), startedAt: new Date().toISOString(), command: 'runner apply other.json' };
    writeFileSync(join(root, '.git/sextant/lock'), JSON.stringify(owner));
    await expect(applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }))).rejects.toMatchObject({
      code: 'CONFLICT', message: expect.stringContaining(`Another runner is applying a plan in ${realpathSync(root)}: pid ${process.ppid} on ${hostname()}, started ${owner.startedAt}, running \`runner apply other.json\``),
    });
    // On another host its process cannot be checked: the message says how to break the lock.
    writeFileSync(join(root, '.git/sextant/lock'), JSON.stringify({ ...owner, hostname: 'elsewhere' }));
    await expect(applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }))).rejects.toMatchObject({
      code: 'CONFLICT', hint: expect.stringContaining(`if it is no longer running on elsewhere, remove ${join(realpathSync(root), '.git/sextant/lock')} and run \`runner recover\``),
    });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('takes over the lock of a runner that is gone, saying whose it was, and an empty one', async () => {
    mkdirSync(join(root, '.git/sextant'), { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const owner = { pid: dead, hostname: hostname(), startedAt: new Date().toISOString(), command: 'runner apply plan.json' };
    writeFileSync(join(root, '.git/sextant/lock'), JSON.stringify(owner));
    const notices: string[] = [];
    await applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }), { notify: (m) => notices.push(m) });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('A\n');
    expect(notices).toEqual([expect.stringMatching(new RegExp(`^took over the lock .*/\\.git/sextant/lock: it was held by pid ${dead} on .*, running \`runner apply plan\\.json\`, which is no longer running$`))]);
    // Empty: what a runner killed while creating it left, before locks were written whole.
    writeFileSync(join(root, '.git/sextant/lock'), '');
    await applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'AA\n' }), { notify: (m) => notices.push(m) });
    expect(notices[1]).toMatch(/^took over the lock .*: it was empty or unreadable, so whose it was is unknown/);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('AA\n');
    expect(stateFiles()).toEqual([]);
  });

  it('ignores a journal and backup the repository ships in .sextant, saying so, and changes nothing', async () => {
    const evil = 'export const a = "owned";\n';
    const { contentHash, textHash } = await import('@sextant/plan');
    const planHash = 'f'.repeat(64);
    mkdirSync(join(root, '.sextant/journal'), { recursive: true });
    writeFileSync(join(root, `src/.a.ts.sextant-${planHash.slice(0, 16)}.old`), evil);
    writeFileSync(join(root, `.sextant/journal/${planHash}.json`), JSON.stringify({
      format: 1, planHash, state: 'prepared', entries: [{ path: 'src/a.ts', change: 'modify', oldHash: textHash(evil), newHash: contentHash(readFileSync(join(root, 'src/a.ts'))) }],
    }));
    git('add', '-A');
    git('commit', '-q', '-m', 'ships a journal');
    const before = snapshot(root);
    const notices: string[] = [];
    expect(await recover(await PathJail.open(root), (m) => notices.push(m))).toEqual([]);
    expect(notices).toEqual([expect.stringMatching(/^ignoring \.sextant\/journal in .* \(1 entry, 1 tracked by git: the repository ships it\): recovery state lives in .*\.git\/sextant/)]);
    await applyPlan(root, wholeFilePlan(root, { 'src/b.ts': 'B\n' }), { notify: () => {} });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(withoutGit(snapshot(root))).toEqual({ ...withoutGit(before), 'src/b.ts': expect.stringMatching(/^644 /) });
  });

  it('obeys only a journal it could have written: paths inside the tree, backups holding what it recorded', async () => {
    const { contentHash, textHash } = await import('@sextant/plan');
    const journal = (entries: object[]) => ({
      format: 2, planHash: 'e'.repeat(64), id: '1'.repeat(32), root: realpathSync(root),
      writer: { pid: 1, hostname: hostname(), startedAt: new Date().toISOString() }, state: 'prepared', entries,
    });
    mkdirSync(join(root, '.git/sextant/journal'), { recursive: true });
    const path = join(root, '.git/sextant/journal', `${'e'.repeat(64)}.json`);
    const before = snapshot(root);
    writeFileSync(path, JSON.stringify(journal([{ path: '../outside.ts', change: 'create', oldHash: null, newHash: textHash('x') }])));
    await expect(recover(await PathJail.open(root), () => {})).rejects.toMatchObject({ code: 'PATH_OUTSIDE_ROOT' });
    // A backup that is not the old content the journal recorded is not restored.
    writeFileSync(join(root, `src/.a.ts.sextant-${'1'.repeat(32)}.old`), 'export const a = "owned";\n');
    writeFileSync(path, JSON.stringify(journal([{ path: 'src/a.ts', change: 'modify', oldHash: contentHash(readFileSync(join(root, 'src/a.ts'))), newHash: textHash('y') }])));
    await expect(recover(await PathJail.open(root), () => {})).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/does not hold the content the journal .* recorded for src\/a\.ts; nothing was restored/) });
    writeFileSync(path, '{"format": 1}');
    await expect(recover(await PathJail.open(root), () => {})).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/is not one this runner wrote: its format is 1, not 2/) });
    rmSync(join(root, `src/.a.ts.sextant-${'1'.repeat(32)}.old`));
    expect(withoutGit(snapshot(root))).toEqual(withoutGit(before));
  });

  it('refuses a state directory that is a symbolic link, writing nothing through it; a linked .sextant is never written', async () => {
    symlinkSync(outside, join(root, '.git/sextant'));
    await expect(applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }))).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT', message: expect.stringMatching(/^Refusing the runner's state directory .*\.git\/sextant: it is a symbolic link \(to /),
    });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(readdirSync(outside)).toEqual(['secret.ts']);
    rmSync(join(root, '.git/sextant'));
    symlinkSync(outside, join(root, '.sextant'));
    await applyPlan(root, wholeFilePlan(root, { 'src/a.ts': 'A\n' }));
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('A\n');
    expect(readdirSync(outside)).toEqual(['secret.ts']);
  });

  it('keeps the state of a tree that is not a git repository in the user state directory, never inside the tree', async () => {
    rmSync(join(root, '.git'), { recursive: true });
    const saved = process.env.XDG_STATE_HOME;
    try {
      process.env.XDG_STATE_HOME = outside;
      const plan = wholeFilePlan(root, { 'src/a.ts': 'A\n' });
      let journals: string[] = [];
      await applyPlan(root, plan, { onStep: () => { journals = readdirSync(join(outside, 'sextant/trees'), { recursive: true }).map(String); } });
      expect(journals).toContainEqual(expect.stringMatching(new RegExp(`^[0-9a-f]{32}/journal/${plan.planHash}\\.json$`)));
      expect(readdirSync(root)).toEqual(['src']);
      process.env.XDG_STATE_HOME = join(root, 'state');
      await rejects(wholeFilePlan(root, { 'src/a.ts': 'B\n' }), 'INVALID_ARGUMENT', /is not a git repository, and the runner's state directory for it .* would be inside it/);
    } finally {
      if (saved === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = saved;
    }
  });
});
