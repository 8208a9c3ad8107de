// Path globs as users write them in tool filters (`paths`) and ref filters: `**` crosses
// directories, `*` and `?` stay inside one, a pattern without a slash matches at any depth, `!`
// excludes. Matching is pattern-matcher.ts's, linear in the path: the includes run as one
// automaton and the excludes as another, so a path is read at most twice whatever the number of
// globs, and what building their sets of states may cost one call is bounded (PATH_MATCH_BUDGET).
import { SextantError } from './errors.ts';
import { compileGlobSet, type GlobSet, type WorkBudget } from './pattern-matcher.ts';

/**
 * Matcher steps one `paths` argument may spend building sets of live states: some tens of
 * milliseconds. Ordinary globs over a large repository need a small share of it (64 globs over
 * 4,000 paths of 176 characters: see the worker bench's matching section); past it the call is
 * INVALID_ARGUMENT naming the argument.
 */
export const PATH_MATCH_BUDGET = 4_000_000;

/**
 * A predicate over repository-relative paths: any include (or none given) and no `!` exclude.
 * It answers each path once: search_symbols and find_references ask about the same file once per
 * symbol or reference in it. `argument` names the argument in the error past the budget.
 */
export function pathFilter(globs: readonly string[] | undefined, argument = 'paths'): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const unique = [...new Set(globs)];
  const budget: WorkBudget = {
    limit: PATH_MATCH_BUDGET,
    exceeded(steps) {
      throw new SextantError('INVALID_ARGUMENT',
        `The ${unique.length} globs of \`${argument}\` need more matching work than one call may do (over ${PATH_MATCH_BUDGET.toLocaleString('en-US')} matcher steps; ${steps.toLocaleString('en-US')} when it stopped).`,
        `Narrow \`${argument}\`: fewer globs, or globs with fewer wildcards (a directory such as src/api, or **/*.test.ts, is cheap).`,
        { argument, globs: unique.length, steps, budget: PATH_MATCH_BUDGET });
    },
  };
  const set = (list: string[]): GlobSet | undefined => (list.length === 0 ? undefined : compileGlobSet(list, budget));
  const includes = set(unique.filter((g) => !g.startsWith('!')));
  const excludes = set(unique.filter((g) => g.startsWith('!')).map((g) => g.slice(1)));
  const answers = new Map<string, boolean>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = (includes === undefined || includes.test(path)) && !(excludes?.test(path) ?? false);
      answers.set(path, answer);
    }
    return answer;
  };
}
