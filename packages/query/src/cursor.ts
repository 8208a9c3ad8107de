// Stateless cursors: the commit, a fingerprint of the query and an offset, base64url-encoded. Any
// server can continue any cursor; a cursor never expires for its commit, and one used with another
// query or commit is refused rather than misread.
import { base32, canonicalJson, SextantError, sha256Bytes, shortCommit } from '@sextant/format';

interface CursorState {
  v: 1;
  c: string;
  q: string;
  o: number;
}

export function queryFingerprint(query: unknown): string {
  return base32(sha256Bytes(canonicalJson(query)), 12);
}

export function encodeCursor(commit: string, fingerprint: string, offset: number): string {
  const state: CursorState = { v: 1, c: shortCommit(commit), q: fingerprint, o: offset };
  return toBase64Url(JSON.stringify(state));
}

export function decodeCursor(cursor: string, commit: string, fingerprint: string): number {
  const state = parseCursor(cursor);
  if (!state) {
    throw new SextantError('INVALID_CURSOR', 'The cursor is not one this server issued.',
      'Pass nextCursor exactly as a previous page returned it, or omit cursor to start from the first page.');
  }
  if (state.c !== shortCommit(commit)) {
    throw new SextantError('INVALID_CURSOR',
      `The cursor belongs to commit ${state.c}, not to ${shortCommit(commit)}.`,
      `Continue it with commit "${state.c}", or start again without a cursor.`, { cursorCommit: state.c });
  }
  if (state.q !== fingerprint) {
    throw new SextantError('INVALID_CURSOR', 'The cursor belongs to a different query (other target, filters or tool).',
      'Repeat the exact arguments of the call that returned the cursor, or start again without a cursor.');
  }
  return state.o;
}

/**
 * The commit (its first 12 hex digits) a cursor was issued for, or undefined when it is not a
 * cursor. Lets a server answer a next page from the cursor's own commit when the call names none,
 * even after a ref moved; decodeCursor still checks everything.
 */
export function cursorCommit(cursor: string): string | undefined {
  const state = parseCursor(cursor);
  return state && /^[0-9a-f]{12}$/.test(state.c) ? state.c : undefined;
}

function parseCursor(cursor: string): CursorState | undefined {
  let state: CursorState | undefined;
  try {
    state = JSON.parse(fromBase64Url(cursor)) as CursorState;
  } catch {
    return undefined;
  }
  const valid = typeof state === 'object' && state !== null && state.v === 1 && typeof state.c === 'string'
    && typeof state.o === 'number' && Number.isInteger(state.o) && state.o >= 0;
  return valid ? state : undefined;
}

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
}
