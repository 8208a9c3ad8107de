// Applying a plan to a working tree, all or nothing: the plan must be intact (its planHash), free
// of conflicts unless forced, name only files inside the repository, and find every file exactly
// as it expects (BLAKE3 of its bytes); only then is anything written, as one file transaction.
// Line endings and byte-order marks are kept (edits carry the file's own line endings, the mark is
// written back) and so are permission bits.
import { readFile, stat } from 'node:fs/promises';
import { decodeText, encodeText, SextantError } from '@sextant/format';
import { applyEdits, contentHash, parsePlan, planHashMatches, type Plan } from '@sextant/plan';
import { hashOnDisk, replaceFiles, type StagedFile, type StepHook } from './file-transaction.ts';
import { PathJail } from './path-jail.ts';
import { recoverLocked, type Recovery } from './recover.ts';
import { lockRepository } from './repo-lock.ts';
import { openStateDir, type Notify } from './state-dir.ts';

interface ApplyOptions {
  /** Apply although the plan lists conflicts. Never overrides a file that is not as expected. */
  force?: boolean;
  /** Called before each step of the file transaction. */
  onStep?: (step: string, path?: string) => void;
  /**
   * Test-only slow-down: waits this long before each step, so a crash test can land its SIGKILL
   * inside the apply rather than before or after it. Set by SEXTANT_APPLY_STEP_DELAY_MS in the CLI.
   */
  stepDelayMs?: number;
  /** Where messages that are not failures go (a stale lock taken over, a journal ignored); stderr by default. */
  notify?: Notify;
}

interface ApplyResult {
  plan: Plan;
  files: { path: string; change: string }[];
  /** Interrupted applies found and finished or undone first. */
  recovered: Recovery[];
}

/** Checks a plan without a working tree: intact, and not blocked (unless forced). */
export function checkPlan(input: unknown, force = false, where?: string): Plan {
  const plan = parsePlan(input, where);
  if (!planHashMatches(plan)) {
    throw new SextantError('CONFLICT', `The planHash of ${where ?? 'the plan'} does not match its content: the plan was changed after it was made.`,
      'Make the plan again (plan_rename, plan_safe_delete or a runner preview) and apply that one unchanged.', { planHash: plan.planHash });
  }
  if (plan.conflicts.length > 0 && !force) {
    throw new SextantError('CONFLICT', `The plan has ${plan.conflicts.length} conflicts: ${plan.conflicts.slice(0, 5).map((c) => c.message).join('; ')}${plan.conflicts.length > 5 ? '; …' : ''}`,
      'Resolve them and plan again, or apply with force if you have checked every one.', { conflicts: plan.conflicts });
  }
  return plan;
}

export async function applyPlan(root: string, input: unknown, options: ApplyOptions = {}, where?: string): Promise<ApplyResult> {
  const plan = checkPlan(input, options.force, where);
  const jail = await PathJail.open(root);
  const state = await openStateDir(jail, options.notify);
  const lock = await lockRepository(state, options.notify);
  try {
    const recovered = await recoverLocked(jail, state, options.notify);
    const files = await verify(jail, plan);
    const delay = options.stepDelayMs ?? 0;
    const step: StepHook = async (name, path) => {
      options.onStep?.(name, path);
      if (delay > 0) await new Promise((done) => setTimeout(done, delay));
    };
    await replaceFiles(jail, state, plan.planHash, files, step);
    return { plan, files: files.map((f) => ({ path: f.path, change: f.change })), recovered };
  } finally {
    await lock.release();
  }
}

/** Every path jailed and every file as the plan expects, or one CONFLICT listing all that are not. */
async function verify(jail: PathJail, plan: Plan): Promise<StagedFile[]> {
  const targets = new Map<string, string>();
  for (const file of plan.files) targets.set(file.path, await jail.resolve(file.path));
  const stale: string[] = [];
  const staged: StagedFile[] = [];
  for (const file of plan.files) {
    const target = targets.get(file.path)!;
    const current = await hashOnDisk(target);
    if (current !== file.expectedHash) {
      stale.push(`${file.path} (${current === null ? 'missing' : file.expectedHash === null ? 'already exists' : 'content changed'})`);
      continue;
    }
    let bytes: Uint8Array | null = null;
    let mode: number | undefined;
    if (file.change !== 'delete') {
      const before = file.change === 'create' ? { text: '', bom: false } : decodeText(new Uint8Array(await readFile(target)), file.path);
      bytes = encodeText({ text: applyEdits(before.text, file.edits), bom: before.bom });
      if (contentHash(bytes) !== file.resultHash) {
        throw new SextantError('CONFLICT', `The edits of ${file.path} do not produce the plan's resultHash: the plan is inconsistent.`,
          'Make the plan again and apply that one unchanged.', { files: [file.path] });
      }
    }
    if (file.change === 'modify') mode = (await stat(target)).mode & 0o7777;
    staged.push({ path: file.path, target, change: file.change, oldHash: file.expectedHash, newHash: file.resultHash, bytes, ...(mode !== undefined ? { mode } : {}) });
  }
  if (stale.length) {
    throw new SextantError('CONFLICT', `${stale.length} of the plan's files are not as it expects: ${stale.join(', ')}. Nothing was changed.`,
      'The working tree changed since the plan was made (or differs from the commit it was made against); make the plan again from the current tree.',
      { files: stale });
  }
  return staged;
}
