// The runner's recovery state end to end, with real git, real processes and real resource limits:
// a repository that ships a forged apply journal and the hidden backup it names cannot change a
// file through any runner command; an apply that hits the file size limit (ulimit -f) rolls back
// and says IO_ERROR with the errno and the path, not "a bug"; and the lock of a runner killed
// mid-apply is taken over by the next one, which says whose it was.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { contentHash, sealPlan, textHash, type Plan } from '@sextant/plan';
import { RUNNER, runnerEnv } from './support/servers.ts';
import { connectRunner, runner, workingRepo, type Outcome } from './support/refactor-repo.ts';

const execFileAsync = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'sextant-recovery-state-'));
const repo = workingRepo('refactor-ts', 'fixtures/refactor-ts', scratch);
const common = ['--repo', repo.dir, '--index', repo.index];

afterAll(() => {
  for (const dir of [scratch, repo.dir]) rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  repo.reset();
  rmSync(join(repo.dir, '.git/sextant'), { recursive: true, force: true });
});

/** The runner under a file size limit of `blocks` KiB (bash's ulimit -f). */
async function limited(blocks: number, args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync('bash', ['-c', `ulimit -f ${blocks}; exec "$0" "$@"`, process.execPath, RUNNER, ...args], { cwd: repo.dir, env: runnerEnv() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A plan replacing src/app.ts with `text`, saved beside the repository. */
function appPlan(text: string): string {
  const before = readFileSync(join(repo.dir, 'src/app.ts'));
  const lines = before.toString('utf8').split('\n');
  const plan: Plan = sealPlan({
    format: 1, operation: 'rename', arguments: { test: true }, repo: repo.repoName, commit: repo.commit, planner: 'index', conflicts: [],
    files: [{
      path: 'src/app.ts', change: 'modify', expectedHash: contentHash(new Uint8Array(before)), resultHash: textHash(text),
      edits: [{ line: 1, column: 1, endLine: lines.length, endColumn: lines.at(-1)!.length + 1, newText: text }],
    }],
  });
  const path = join(scratch, `plan-${plan.planHash.slice(0, 12)}.json`);
  writeFileSync(path, JSON.stringify(plan));
  return path;
}

function stateLeftovers(): string[] {
  const dir = join(repo.dir, '.git/sextant');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).filter((n) => n !== 'journal') : [];
}

describe('recovery state', () => {
  it('a repository that ships a journal and the backup it names changes no file through any runner command', async () => {
    const original = repo.read('src/app.ts');
    const evil = 'export const pwned = true;\n';
    // What recovery obeyed before: a prepared journal in .sextant/journal whose backup is the evil file.
    const planHash = 'a'.repeat(64);
    const backup = `src/.app.ts.sextant-${planHash.slice(0, 16)}.old`;
    mkdirSync(join(repo.dir, '.sextant/journal'), { recursive: true });
    writeFileSync(join(repo.dir, backup), evil);
    writeFileSync(join(repo.dir, `.sextant/journal/${planHash}.json`), JSON.stringify({
      format: 1, planHash, state: 'prepared',
      entries: [{ path: 'src/app.ts', change: 'modify', oldHash: textHash(evil), newHash: textHash(original) }],
    }));
    repo.git('add', '-f', '.sextant/journal', backup);
    repo.git('commit', '-q', '-m', 'ships a forged journal');
    const shipped = repo.git('rev-parse', 'HEAD');
    try {
      const ignored = /sextant runner: ignoring \.sextant\/journal in .* \(1 entry, 1 tracked by git: the repository ships it\): recovery state lives in .*\/\.git\/sextant, and a journal inside the working tree is never obeyed/;
      const recovered = await runner(['recover', '--repo', repo.dir], repo.dir);
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(recovered.stdout).toBe('nothing to recover\n');
      expect(recovered.stderr).toMatch(ignored);
      const previewed = await runner(['rename', ...common, '--qualified-name', 'Point.x', '--to', 'left'], repo.dir);
      expect(previewed.code, previewed.stderr).toBe(0);
      expect(previewed.stderr).toMatch(ignored);
      // `runner mcp --repo` recovers before it serves the write tools.
      const session = await connectRunner(repo);
      await session.close();
      expect(repo.read('src/app.ts')).toBe(original);
      const applied = await runner(['apply', appPlan(`${original}// applied\n`), '--repo', repo.dir, '--allow-unsigned'], repo.dir);
      expect(applied.code, applied.stderr).toBe(0);
      expect(repo.read('src/app.ts')).toBe(`${original}// applied\n`);
      // Nothing but the applied plan changed: the forged journal and its backup are as shipped.
      expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('M src/app.ts');
      expect(repo.read(backup)).toBe(evil);
      expect(stateLeftovers()).toEqual([]);
    } finally {
      repo.git('reset', '-q', '--hard', `${shipped}~1`);
    }
  });

  it('an apply over the file size limit rolls back and reports IO_ERROR with EFBIG and the path, not a bug', async () => {
    const plan = appPlan(`${'// a long line to pass the limit\n'.repeat(100)}`);
    const result = await limited(1, ['apply', plan, '--repo', repo.dir, '--allow-unsigned']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Cannot write \/.*\/src\/\.app\.ts\.sextant-[0-9a-f]{32}\.new: the file would exceed the file size limit \(EFBIG\)\. Nothing was changed: the files already replaced were restored\. To fix this, raise the file size limit \(ulimit -f\) or free space, then run the command again\.\n$/);
    expect(result.stderr).not.toContain('bug');
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(stateLeftovers()).toEqual([]);
  });

  it('with no file writes allowed at all (ulimit -f 0), it says IO_ERROR, leaves no lock, and the next runner applies', async () => {
    const plan = appPlan('export {};\n');
    const result = await limited(0, ['apply', plan, '--repo', repo.dir, '--allow-unsigned']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Cannot write \/.*\/\.git\/sextant\/lock\.\d+\.[0-9a-f]+\.tmp: the file would exceed the file size limit \(EFBIG\)\. To fix this, raise the file size limit/);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(stateLeftovers()).toEqual([]);
    const again = await runner(['apply', plan, '--repo', repo.dir, '--allow-unsigned'], repo.dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(repo.read('src/app.ts')).toBe('export {};\n');
  });

  it('the lock of a runner killed mid-apply is taken over by the next runner, which says whose it was and rolls the apply back', async () => {
    const plan = appPlan('export const replaced = 1;\n');
    const child = spawn(process.execPath, [RUNNER, 'apply', plan, '--repo', repo.dir, '--verbose', '--allow-unsigned'], {
      cwd: repo.dir, env: runnerEnv({ SEXTANT_APPLY_STEP_DELAY_MS: '300' }), stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((done) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('apply: replace src/app.ts')) done();
      });
    });
    child.kill('SIGKILL');
    await new Promise((done) => child.on('close', done));
    const lock = JSON.parse(readFileSync(join(repo.dir, '.git/sextant/lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: child.pid, hostname: hostname(), command: `runner apply ${plan} --repo ${repo.dir} --verbose --allow-unsigned` });
    const recovered = await runner(['recover', '--repo', repo.dir], repo.dir);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.stderr).toContain(`sextant runner: took over the lock ${join(repo.dir, '.git/sextant/lock')}: it was held by pid ${child.pid} on ${hostname()}, started ${lock.startedAt}, running \`runner apply ${plan} --repo ${repo.dir} --verbose --allow-unsigned\`, which is no longer running\n`);
    expect(recovered.stdout).toMatch(/^(rolled back the interrupted apply of plan [0-9a-f]{12} \(1 files: src\/app\.ts\)|nothing to recover)\n$/);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(stateLeftovers()).toEqual([]);
  });
});
