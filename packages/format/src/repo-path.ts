// What a path Sextant's tools can address looks like: repository-relative, `/`-separated, in normal
// form. The indexer skips tracked files whose names fail this (git allows a backslash or a newline
// in a name) and the runner's path jail refuses plan paths that fail it: one rule for both sides, so
// a file is indexed only if a tool can name it again.

/**
 * Why `path` cannot be addressed (phrased to follow "it", e.g. "it contains a backslash"), or
 * undefined when it can.
 */
export function unaddressablePathReason(path: string): string | undefined {
  if (typeof path !== 'string' || path.length === 0) return 'it is empty';
  if (path.includes('\0')) return 'it contains a NUL character';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\')) return 'it is absolute';
  if (path.includes('\\')) return 'it contains a backslash (paths use forward slashes)';
  if (/[\x01-\x1f\x7f]/.test(path)) return 'it contains a control character';
  for (const segment of path.split('/')) {
    if (segment === '..') return 'it climbs out with ..';
    if (segment === '' || segment === '.') return 'it is not in normal form (empty or . segments)';
  }
  return undefined;
}
