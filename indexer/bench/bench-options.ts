// Command-line option checks shared by the benches (the indexer's and the worker's).

/** `text` as a positive integer, or exit 2 saying which flag is wrong, with the bench's usage. */
export function positiveOption(text: string, flag: string, usage: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`error: ${flag} must be a positive integer, got "${text}". To fix this, see the usage below.\n${usage}`);
    process.exit(2);
  }
  return value;
}
