// Path globs as users write them in tool filters (`paths`) and ref filters: `**` crosses
// directories, `*` and `?` stay inside one, a pattern without a slash matches at any depth, `!`
// excludes. Matching is pattern-matcher.ts's, linear in the path.
import { compileGlob } from './pattern-matcher.ts';

/** A predicate over repository-relative paths: any include (or none given) and no `!` exclude. */
export function pathFilter(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const includes = globs.filter((g) => !g.startsWith('!')).map((g) => compileGlob(g));
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => compileGlob(g.slice(1)));
  return (path) => (includes.length === 0 || includes.some((r) => r.test(path))) && !excludes.some((r) => r.test(path));
}
