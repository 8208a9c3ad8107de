// Path globs as users write them in .gitignore and tool filters: `**` crosses directories, `*` and
// `?` stay inside one, a pattern without a slash matches at any depth, `!` excludes.

export function globToRegExp(glob: string): RegExp {
  const anchored = glob.includes('/') && !glob.startsWith('**/');
  const body = glob.replace(/^\//, '').split(/(\*\*\/|\*\*|\*|\?)/).map((part) => {
    if (part === '**/') return '(?:.*/)?';
    if (part === '**') return '.*';
    if (part === '*') return '[^/]*';
    if (part === '?') return '[^/]';
    return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }).join('');
  return new RegExp(`${anchored ? '^' : '(^|/)'}${body}(/.*)?$`);
}

/** A predicate over repository-relative paths: any include (or none given) and no `!` exclude. */
export function pathFilter(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const includes = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  return (path) => (includes.length === 0 || includes.some((r) => r.test(path))) && !excludes.some((r) => r.test(path));
}
