// `runner apply PLAN.json [--repo DIR] [--force] [--allow-unsigned] [--verbose]`: applies a plan
// made by the hosted plan tools or a runner preview, all or nothing. Before anything is written it
// prints who signed the plan and every file it creates, deletes or modifies, and it refuses a plan
// no trusted key signed (PLAN_UNTRUSTED) unless --allow-unsigned.
import { readFile } from 'node:fs/promises';
import { ioErrorOf, SextantError } from '@sextant/format';
import { applyPlan, checkPlan } from '../apply/apply-plan.ts';
import { describeTrust, planTrust, requireTrusted } from '../trust/plan-trust.ts';

export interface ApplyCommandOptions {
  repo: string;
  force: boolean;
  allowUnsigned: boolean;
  verbose: boolean;
}

export async function applyCommand(planFile: string, options: ApplyCommandOptions): Promise<number> {
  let text: string;
  try {
    text = await readFile(planFile, 'utf8');
  } catch (error) {
    throw ioErrorOf(error) ?? new SextantError('FILE_NOT_FOUND', `Cannot read the plan ${planFile}: ${(error as Error).message}.`, 'Pass the path of a plan JSON file.');
  }
  const plan = checkPlan(text, options.force, planFile);
  const trust = await planTrust(plan);
  process.stdout.write(`plan ${plan.planHash.slice(0, 12)} (${plan.operation} in ${plan.repo}) is ${describeTrust(trust)}; it would:\n`);
  for (const file of plan.files) process.stdout.write(`  ${file.change} ${file.path}\n`);
  if (plan.files.length === 0) process.stdout.write('  change no files\n');
  if (trust.status !== 'trusted') {
    if (!options.allowUnsigned) requireTrusted(plan, trust);
    process.stdout.write('applying it without a trusted signature, as --allow-unsigned asks\n');
  }
  const delay = Number(process.env.SEXTANT_APPLY_STEP_DELAY_MS ?? 0);
  const result = await applyPlan(options.repo, plan, {
    force: options.force,
    // Pipes to stderr are synchronous on Linux and macOS: a reader sees every step taken before a kill.
    ...(options.verbose ? { onStep: (step: string, path?: string) => process.stderr.write(`apply: ${step}${path ? ` ${path}` : ''}\n`) } : {}),
    ...(Number.isFinite(delay) && delay > 0 ? { stepDelayMs: delay } : {}),
  }, planFile);
  for (const r of result.recovered) process.stderr.write(`sextant runner: ${r.outcome} the interrupted apply of plan ${r.planHash.slice(0, 12)}\n`);
  process.stdout.write(`applied plan ${result.plan.planHash.slice(0, 12)} (${result.plan.operation}): ${result.files.map((f) => `${f.change} ${f.path}`).join(', ') || 'no files'}\n`);
  return 0;
}
