// The one error vocabulary of Sextant. Every layer throws SextantError; the MCP registry maps it to
// a tool result in one place, the CLIs to an "error: … To fix this, …" line (cliLine) and an exit code.

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
  'IO_ERROR',
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

/**
 * The line a command prints for a failure: "error: <message> To fix this, <hint>". The one CLI
 * rendering of an error, as HttpError.toResponse is the HTTP one. A failure of the operating
 * system is IO_ERROR (ioErrorOf); anything else that is not a SextantError is a bug of ours, INTERNAL.
 */
export function cliLine(error: unknown): string {
  const e = isSextantError(error) ? error : ioErrorOf(error) ?? internalError(error);
  return `error: ${withPeriod(e.message)} To fix this, ${lowerFirst(e.hint)}`;
}

function internalError(error: unknown): SextantError {
  return new SextantError('INTERNAL', error instanceof Error ? error.message : String(error),
    'Report this bug in Sextant with the command that caused it.');
}

function withPeriod(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** A hint is written as a sentence; in the line it follows "To fix this,". An acronym (R2, CLOUDFLARE_…) keeps its case. */
function lowerFirst(text: string): string {
  return /^[A-Z](?![A-Z0-9_])/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** What an operating-system failure means and what the user can do; these are the machine's, not Sextant's. */
const IO_ERRNOS: Record<string, { what: string; fix: string }> = {
  ENOSPC: { what: 'no space is left on the device', fix: 'Free space on that file system' },
  EDQUOT: { what: 'the disk quota is used up', fix: 'Free space within your quota, or have it raised' },
  EFBIG: { what: 'the file would exceed the file size limit', fix: 'Raise the file size limit (ulimit -f) or free space' },
  EACCES: { what: 'permission is denied', fix: 'Give your user access to it (its permissions and those of its directory)' },
  EPERM: { what: 'the operation is not permitted', fix: 'Check its ownership, permissions and immutable or append-only flags' },
  EROFS: { what: 'the file system is read-only', fix: 'Remount it read-write, or work in a writable copy' },
  EMFILE: { what: 'this process has too many open files', fix: 'Raise the open-file limit (ulimit -n)' },
  ENFILE: { what: 'the system has too many open files', fix: "Close other programs or raise the system's open-file limit" },
  EIO: { what: 'the device reported an input/output error', fix: 'Check the disk or the network file system' },
  EBUSY: { what: 'the file or device is busy', fix: 'Close the program that holds it' },
  ETXTBSY: { what: 'the file is a program that is running', fix: 'Stop the program first' },
  ENOTDIR: { what: 'a part of the path is a file, not a directory', fix: 'Move away the file that stands where a directory should be' },
  ENAMETOOLONG: { what: 'the path is too long for the file system', fix: 'Use a shorter path' },
};

/**
 * The IO_ERROR for a failure of the operating system (no space, file too large, permission, a
 * read-only file system …), naming the path and the errno; undefined for anything else, which
 * callers treat as a bug. The one place such failures are classified.
 */
export function ioErrorOf(error: unknown): SextantError | undefined {
  if (error instanceof SextantError || typeof error !== 'object' || error === null) return undefined;
  const { code, path, dest, syscall } = error as { code?: unknown; path?: unknown; dest?: unknown; syscall?: unknown };
  const known = typeof code === 'string' ? IO_ERRNOS[code] : undefined;
  if (!known) return undefined;
  const where = typeof path === 'string' ? ` ${path}${typeof dest === 'string' ? ` to ${dest}` : ''}` : '';
  return new SextantError('IO_ERROR', `Cannot ${typeof syscall === 'string' ? syscall : 'access'}${where}: ${known.what} (${code}).`,
    `${known.fix}, then run the command again.`,
    { errno: code, ...(typeof path === 'string' ? { path } : {}), ...(typeof syscall === 'string' ? { syscall } : {}) });
}
