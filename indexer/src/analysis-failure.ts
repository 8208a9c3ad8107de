// A file the compiler or a syntax walker cannot handle (1,000 nested parentheses overflow the
// TypeScript parser's stack; a 5,000-link property chain the checker's) is skipped as
// analysis-failed, naming the error and the stage, and the build goes on. An error outside any one
// file's analysis still ends the build, but says which file or step it was on.
import { SextantError, type SkippedFile } from '@sextant/format';

/** `RangeError: Maximum call stack size exceeded`. */
export function errorSummary(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message.split('\n', 1)[0]}` : String(error);
}

/** The skipped entry of a file whose analysis threw in `stage` ("the TypeScript checker"). */
export function analysisFailed(path: string, stage: string, error: unknown): SkippedFile {
  return { path, reason: 'analysis-failed', detail: `${errorSummary(error)} in ${stage}` };
}

/** An error that escaped per-file isolation, as INTERNAL naming where the build was (a file or a step). */
export function failedWhileIndexing(error: unknown, where: string): SextantError {
  if (error instanceof SextantError) return error;
  return new SextantError('INTERNAL', `${errorSummary(error)} while indexing ${where}.`,
    'Report this as an indexer bug with the file or step named here (a file outside the commit, such as a dependency in node_modules, cannot be skipped; removing or updating it works around the failure); nothing was written.',
    { where, cause: errorSummary(error) });
}
