// Path globs as users write them in tool filters (`paths`) and ref filters: `**` crosses
// directories, `*` and `?` stay inside one, a pattern without a slash matches at any depth, `!`
// excludes. Matching is pattern-matcher.ts's, linear in the path.
import { compileGlob } from './pattern-matcher.ts';

/**
 * A predicate over repository-relative paths: any include (or none given) and no `!` exclude.
 * It answers each path once: search_symbols and find_references ask about the same file once per
 * symbol or reference in it, and 64 long globs per ask add up.
 */
export function pathFilter(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const unique = [...new Set(globs)];
  const includes = unique.filter((g) => !g.startsWith('!')).map((g) => compileGlob(g));
  const excludes = unique.filter((g) => g.startsWith('!')).map((g) => compileGlob(g.slice(1)));
  const answers = new Map<string, boolean>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = (includes.length === 0 || includes.some((r) => r.test(path))) && !excludes.some((r) => r.test(path));
      answers.set(path, answer);
    }
    return answer;
  };
}
