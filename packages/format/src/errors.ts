// The one error vocabulary of Sextant. Every layer throws SextantError; the MCP registry maps it to
// a tool result in one place, the CLIs to an "error: … To fix this, …" line and an exit code.

export const ERROR_CODES = [
  'SYMBOL_NOT_FOUND',
  'AMBIGUOUS_SYMBOL',
  'STALE_SYMBOL',
  'INVALID_SYMBOL_ID',
  'NO_SYMBOL_AT_POSITION',
  'POSITION_OUT_OF_RANGE',
  'FILE_NOT_FOUND',
  'INVALID_CURSOR',
  'INVALID_ARGUMENT',
  'COMMIT_NOT_INDEXED',
  'REPO_NOT_FOUND',
  'INDEX_NOT_FOUND',
  'INDEX_CORRUPT',
  'INDEX_VERSION_UNSUPPORTED',
  'UNSUPPORTED_LANGUAGE',
  'NOT_A_GIT_REPOSITORY',
  'UNKNOWN_COMMIT',
  'CONFLICT',
  'PLAN_UNTRUSTED',
  'PATH_OUTSIDE_ROOT',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class SextantError extends Error {
  readonly code: ErrorCode;
  /** What the caller can do about it, phrased as an instruction. */
  readonly hint: string;
  /** Structured detail (candidates of an ambiguous name, the commit of a stale id, …). */
  readonly data?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, hint: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'SextantError';
    this.code = code;
    this.hint = hint;
    this.data = data;
  }
}

export function isSextantError(error: unknown): error is SextantError {
  return error instanceof SextantError;
}
