// The refactoring commands: `runner rename|safe-delete|move|inline|replace-body|insert-before|
// insert-after|reformat|organize-imports …` plan the operation in a working tree, print the plan
// and its diff (or the plan's JSON), optionally save it, and with --apply apply it at once. The
// plan is signed with this user's runner key, so a saved one passes `runner apply`'s trust check.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { renderPlan } from '@sextant/plan';
import { applyPlan } from '../apply/apply-plan.ts';
import type { OperationRequest } from '../planning/operation-request.ts';
import { planOperation } from '../planning/plan-operation.ts';
import { previewOf } from '../planning/plan-preview.ts';
import { RefactorContext } from '../planning/refactor-context.ts';
import { recoverIfNeeded } from './recover-command.ts';
import { defaultIndexOf } from '../default-index.ts';
import type { RefactorValues } from './refactor-arguments.ts';
import { planSignerFor } from '../trust/index-provenance.ts';

export async function refactorCommand(request: OperationRequest, values: RefactorValues): Promise<number> {
  const repo = resolve(values.repo ?? '.');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  let indexDir: string;
  if (values.index !== undefined) indexDir = resolve(values.index);
  else {
    const found = await defaultIndexOf(repo);
    if (found.note) say(found.note);
    indexDir = found.dir;
  }
  const ctx = await RefactorContext.open(repo, indexDir);
  await recoverIfNeeded(ctx.jail);
  const planned = await planOperation(ctx, request);
  const signer = planSignerFor(indexDir, say);
  const preview = await previewOf(ctx, signer ? await signer.sign(planned) : planned);
  process.stdout.write(values.json ? `${JSON.stringify(preview.plan, null, 2)}\n` : `${renderPlan(preview.plan, preview.diff)}\n`);
  if (values.out) {
    await writeFile(values.out, `${JSON.stringify(preview.plan, null, 2)}\n`);
    const { signature } = preview.plan;
    say(`wrote plan ${preview.plan.planHash.slice(0, 12)} to ${values.out}, ${signature ? `signed with your runner key ${signature.keyId}` : 'unsigned (said above why)'}: apply it with \`runner apply ${values.out}\`${signature ? '' : ' --allow-unsigned'}.`);
  }
  if (!values.apply) return 0;
  const result = await applyPlan(ctx.root, preview.plan, { force: values.force ?? false });
  process.stdout.write(`applied plan ${result.plan.planHash.slice(0, 12)}: ${result.files.map((f) => `${f.change} ${f.path}`).join(', ') || 'no files'}\n`);
  return 0;
}
