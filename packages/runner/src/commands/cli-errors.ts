// How the runner's commands report failures: the one CLI line of an error (cliLine: "error: <what
// went wrong> To fix this, <what to do>"), exit code 1 for a failure, 2 for a usage error.
import { cliLine, SextantError } from '@sextant/format';

export function reportError(error: unknown): number {
  process.stderr.write(`${cliLine(error)}\n`);
  return 1;
}

export function reportUsage(message: string, usage: string): number {
  process.stderr.write(`${cliLine(new SextantError('INVALID_ARGUMENT', message, 'See the usage below.'))}\n${usage}\n`);
  return 2;
}
