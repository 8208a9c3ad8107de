// How Sextant shortens and compares commits. A commit Sextant holds (a manifest's, a catalog
// entry's, git rev-parse's, normalizeCommit's) is a full sha: 40 hex digits, lowercase. Two of them
// are compared whole (sameCommit). A commit a caller typed may be abbreviated, and a symbolId
// carries the first 12 digits only: matching those against a full sha is a different question
// (abbreviatesCommit), asked where such input is resolved, never by comparing prefixes in passing.

/** Hex digits of a commit in a symbolId, a cursor and messages. */
export const COMMIT_PREFIX_LENGTH = 12;

export const FULL_SHA = /^[0-9a-f]{40}$/;
/** What may abbreviate a commit: 7 to 40 hex digits, any case (git's shortest default is 7). */
const ABBREVIATION = /^[0-9a-fA-F]{7,40}$/;

/** The commit as Sextant shows it: its first COMMIT_PREFIX_LENGTH hex digits (as a symbolId carries it). */
export function shortCommit(sha: string): string {
  return sha.slice(0, COMMIT_PREFIX_LENGTH);
}

/**
 * Whether two full shas name the same commit. Both must be full and lowercase, as Sextant stores
 * them: an abbreviated or upper-case sha is never the same commit here (resolve it first, with
 * abbreviatesCommit or normalizeCommit), so that a prefix cannot pass for a commit by accident.
 */
export function sameCommit(a: string, b: string): boolean {
  return a === b && FULL_SHA.test(a);
}

/**
 * Whether `abbreviation` (7 to 40 hex digits, any case: what a user may type, or a symbolId's
 * commit) abbreviates the full sha `full`. Several indexed commits may share an abbreviation; the
 * caller that resolves one says which when it is ambiguous.
 */
export function abbreviatesCommit(abbreviation: string, full: string): boolean {
  return ABBREVIATION.test(abbreviation) && FULL_SHA.test(full) && full.startsWith(abbreviation.toLowerCase());
}
