// `runner recover [--repo DIR]`: finishes or undoes every apply that a crash interrupted. Every
// command that works on a tree runs the same recovery first (recoverIfNeeded).
import { PathJail } from '../apply/path-jail.ts';
import { recover, recoverIfPending, type Recovery } from '../apply/recover.ts';

export async function recoverCommand(repo: string): Promise<number> {
  const recovered = await recover(await PathJail.open(repo));
  if (recovered.length === 0) process.stdout.write('nothing to recover\n');
  for (const r of recovered) process.stdout.write(`${describe(r)}\n`);
  return 0;
}

/** Recovery before a command touches a tree; quiet (and lock-free) when no apply was interrupted. */
export async function recoverIfNeeded(jail: PathJail): Promise<void> {
  for (const r of await recoverIfPending(jail)) process.stderr.write(`sextant runner: ${describe(r)}\n`);
}

function describe(r: Recovery): string {
  return `${r.outcome} the interrupted apply of plan ${r.planHash.slice(0, 12)} (${r.files.length} files: ${r.files.join(', ')})`;
}
