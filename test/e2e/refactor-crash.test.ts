// Crash safety of `runner apply`, with real processes and real SIGKILLs: a plan that modifies,
// creates and deletes files (CRLF files and an executable among them) is applied by the runner
// CLI, which is killed with SIGKILL at a seeded random moment inside the apply; `runner recover`
// then runs, and the tree must be byte-identical (contents and permission bits, no stray files)
// to the tree before the apply or to the tree after it. Every time.
//
// Where the kill lands: each run picks, from the seed, one of the steps the runner reports
// (--verbose; stderr is synchronous on a pipe) and a delay; the SIGKILL is sent that long after
// the test sees that step, while the runner goes on working, so it lands anywhere from inside that
// step to a few steps later. The runner waits SEXTANT_APPLY_STEP_DELAY_MS before each step: a
// test-only slow-down that widens the window without choosing where the kill lands. The trees live
// on tmpfs when there is one: the test kills processes, not machines, so fsync cannot matter to
// its outcome, and it keeps the runs' time in process start-up. Each is a git repository, so the
// runner keeps its journal and lock in .git/sextant. Several repositories are driven at once. SEXTANT_CRASH_SEED and SEXTANT_CRASH_RUNS override the defaults.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineStarts, positionAt } from '@sextant/format';
import { contentHash, sealPlan, textHash, type PlanFile } from '@sextant/plan';
import { RUNNER, runnerEnv } from './support/servers.ts';

const SEED = Number(process.env.SEXTANT_CRASH_SEED ?? 20260101);
const RUNS = Number(process.env.SEXTANT_CRASH_RUNS ?? 100);
const PARALLEL = Number(process.env.SEXTANT_CRASH_PARALLEL ?? 4);
const STEP_DELAY_MS = 4;

const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'sextant-crash-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Tree = Record<string, string>;

const BEFORE: Record<string, { text: string; mode: number }> = {};
for (let i = 0; i < 6; i++) {
  const eol = i % 3 === 0 ? '\r\n' : '\n';
  BEFORE[`src/module-${i}.ts`] = { text: [`import { tick } from './tick';`, '', `export function run${i}(): void {`, '  tick();', '}', ''].join(eol), mode: i === 4 ? 0o755 : 0o644 };
}
BEFORE['src/tick.ts'] = { text: 'export function tick(): void {}\n', mode: 0o644 };
BEFORE['src/obsolete-a.ts'] = { text: 'export const a = 1;\n', mode: 0o644 };
BEFORE['src/obsolete-b.ts'] = { text: 'export const b = 2;\n', mode: 0o600 };

/** The tree before the apply; the git directory (and so the runner's state in it) is kept. */
function writeBefore(repo: string): void {
  if (!existsSync(join(repo, '.git'))) {
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
  }
  rmSync(join(repo, 'src'), { recursive: true, force: true });
  mkdirSync(join(repo, 'src'), { recursive: true });
  for (const [path, { text, mode }] of Object.entries(BEFORE)) {
    writeFileSync(join(repo, path), text);
    chmodSync(join(repo, path), mode);
  }
}

/** Every file (bytes and permission bits) outside .git, and the runner's state in .git/sextant, which must be empty. */
function snapshot(repo: string, prefix = ''): Tree {
  const tree: Tree = {};
  for (const entry of readdirSync(join(repo, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (path === '.git') {
      const state = join(repo, '.git/sextant');
      const leftovers = existsSync(state) ? readdirSync(state, { recursive: true }).map(String).filter((n) => n !== 'journal') : [];
      if (leftovers.length) tree['.git/sextant'] = leftovers.join(', ');
      continue;
    }
    if (entry.isDirectory()) Object.assign(tree, snapshot(repo, path));
    else tree[path] = `${(statSync(join(repo, path)).mode & 0o777).toString(8)} ${contentHash(new Uint8Array(readFileSync(join(repo, path))))}`;
  }
  return tree;
}

/** Renames tick to tock in 7 files (in the middle of lines, keeping CRLF), creates two files and deletes two. Unsigned: applied with --allow-unsigned. */
function makePlan(repo: string) {
  const files: PlanFile[] = [];
  for (const [path, { text }] of Object.entries(BEFORE)) {
    if (path.startsWith('src/obsolete-')) {
      files.push({ path, change: 'delete', expectedHash: textHash(text), resultHash: null, edits: [] });
      continue;
    }
    const starts = lineStarts(text);
    const edits = [...text.matchAll(/\btick\b/g)].map((m) => {
      const from = positionAt(starts, m.index!);
      const to = positionAt(starts, m.index! + 4);
      return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column, newText: 'tock' };
    });
    const after = text.replace(/\btick\b/g, 'tock');
    files.push({ path, change: 'modify', expectedHash: textHash(text), resultHash: textHash(after), edits });
  }
  for (const name of ['src/added-a.ts', 'src/added-b.ts']) {
    const text = `export const added = '${name}';\n`;
    files.push({ path: name, change: 'create', expectedHash: null, resultHash: textHash(text), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: text }] });
  }
  const plan = sealPlan({ format: 1, operation: 'rename', arguments: { name: 'tick', newName: 'tock' }, repo: 'fixtures/crash', commit: '0'.repeat(40), planner: 'index', files, conflicts: [] });
  const path = join(repo, '..', `${repo.split('/').pop()}-plan.json`);
  writeFileSync(path, JSON.stringify(plan, null, 2));
  return path;
}

interface Run {
  killed: boolean;
  /** The last step the runner reported before it died (or finished). */
  lastStep: string;
  recovery: string;
  state: 'before' | 'after' | 'neither';
}

function runProcess(args: string[], env: NodeJS.ProcessEnv, killAt?: { step: number; delay: number }): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let armed = false;
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (!armed && killAt && stderr.split('\n').filter((l) => l.startsWith('apply: ')).length > killAt.step) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), killAt.delay);
      }
    });
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

describe('runner apply under SIGKILL', () => {
  it(`leaves the tree exactly as before or exactly as after, ${RUNS} seeded runs (seed ${SEED})`, async () => {
    const next = random(SEED);
    const repos = Array.from({ length: PARALLEL }, (_, i) => join(scratch, `repo-${i}`));
    for (const repo of repos) writeBefore(repo);
    const planPaths = repos.map(makePlan);
    const before = snapshot(repos[0]!);
    const env = runnerEnv({ SEXTANT_APPLY_STEP_DELAY_MS: String(STEP_DELAY_MS) });

    // One apply that is not killed: the state after, and the steps an apply reports.
    const full = await runProcess(['apply', planPaths[0]!, '--repo', repos[0]!, '--verbose', '--allow-unsigned'], env);
    expect(full.code, full.stderr).toBe(0);
    const steps = full.stderr.split('\n').filter((l) => l.startsWith('apply: ')).length;
    const after = snapshot(repos[0]!);
    expect(after).not.toEqual(before);
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before).filter((p) => !p.includes('obsolete')), 'src/added-a.ts', 'src/added-b.ts'].sort());
    writeBefore(repos[0]!);

    // Kill points are drawn up front, so they depend on the seed only.
    const kills = Array.from({ length: RUNS }, () => ({ step: Math.floor(next() * steps), delay: Math.floor(next() * 3 * STEP_DELAY_MS) }));
    const runs: Run[] = [];
    let cursor = 0;
    await Promise.all(repos.map(async (repo, lane) => {
      for (let i = cursor++; i < RUNS; i = cursor++) {
        const applied = await runProcess(['apply', planPaths[lane]!, '--repo', repo, '--verbose', '--allow-unsigned'], env, kills[i]);
        const recovered = await runProcess(['recover', '--repo', repo], runnerEnv());
        expect(recovered.code, recovered.stderr).toBe(0);
        const tree = snapshot(repo);
        const steps = applied.stderr.split('\n').filter((l) => l.startsWith('apply: '));
        runs.push({
          killed: applied.signal === 'SIGKILL',
          lastStep: (steps.at(-1) ?? 'apply: (none)').slice('apply: '.length).split(' ')[0]! + (steps.at(-1)?.includes('committed') ? ' committed' : ''),
          recovery: recovered.stdout.trim().split(' ').slice(0, 2).join(' '),
          state: JSON.stringify(tree) === JSON.stringify(before) ? 'before' : JSON.stringify(tree) === JSON.stringify(after) ? 'after' : 'neither',
        });
        if (runs.at(-1)!.state === 'neither') {
          throw new Error(`run ${i} (seed ${SEED}, kill ${kills[i]!.delay} ms after step ${kills[i]!.step}, last step seen ${runs.at(-1)!.lastStep}) left the tree in neither state:\n${JSON.stringify(tree, null, 1)}`);
        }
        writeBefore(repo);
      }
    }));

    const count = (pick: (r: Run) => string) => runs.reduce<Record<string, number>>((acc, r) => ({ ...acc, [pick(r)]: (acc[pick(r)] ?? 0) + 1 }), {});
    const summary = { seed: SEED, runs: runs.length, stepsPerApply: steps, states: count((r) => r.state), killed: count((r) => String(r.killed)), lastSteps: count((r) => r.lastStep), recoveries: count((r) => r.recovery) };
    process.stdout.write(`crash test: ${JSON.stringify(summary)}\n`);
    expect(runs).toHaveLength(RUNS);
    expect(runs.filter((r) => r.state === 'neither')).toEqual([]);
    // The kills really landed inside applies: some undone from backups, some finished from the journal.
    expect(runs.filter((r) => r.killed && r.lastStep === 'replace').length).toBeGreaterThan(0);
    expect(summary.recoveries['rolled back'] ?? 0).toBeGreaterThan(0);
    expect(summary.states.before ?? 0).toBeGreaterThan(0);
    expect(summary.states.after ?? 0).toBeGreaterThan(0);
  }, 900_000);
});
