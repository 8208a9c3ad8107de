// Command-line option checks shared by the benches (the indexer's and the worker's).
import { cliLine, SextantError } from '@sextant/format';

/** `text` as a positive integer, or exit 2 saying which flag is wrong, with the bench's usage. */
export function positiveOption(text: string, flag: string, usage: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`${cliLine(new SextantError('INVALID_ARGUMENT', `${flag} must be a positive integer, got "${text}".`, 'See the usage below.'))}\n${usage}`);
    process.exit(2);
  }
  return value;
}
