// How the runner's commands report failures: "error: <what went wrong> To fix this, <what to do>",
// exit code 1 for a failure, 2 for a usage error. A failure of the operating system (no space, a
// file size limit, permissions) is IO_ERROR; only what is neither ours to name nor the machine's
// is reported as a bug.
import { ioErrorOf } from '@sextant/format';

export function reportError(error: unknown): number {
  const e = (ioErrorOf(error) ?? error) as { message?: string; hint?: string; code?: string };
  if (e?.code && e.hint) {
    process.stderr.write(`error: ${e.code}: ${e.message} To fix this, ${e.hint.charAt(0).toLowerCase()}${e.hint.slice(1)}\n`);
    return 1;
  }
  process.stderr.write(`error: ${e?.message ?? String(error)}. This is a bug in Sextant; report it with the command that caused it.\n`);
  return 1;
}

export function reportUsage(message: string, usage: string): number {
  process.stderr.write(`error: ${message}. To fix this, see the usage below.\n${usage}\n`);
  return 2;
}
