// Which files a text query can match in, as grams to look up (gram-shard.ts): the literals every
// match must contain, found in the query without running it. A literal query is one literal; a
// regular expression is read for the runs of plain characters that any match holds, per top-level
// alternative (`foo|bar` needs `foo` or `bar`). What cannot be read for sure (a class, a group, an
// escape that is no character, an optional atom) only ends a run, so the plan is never stricter
// than the query: it may let through files that do not match, never keep out one that does. A
// query with an alternative that requires no literal of a gram's length plans on every file.
//
// Grams fold ASCII letters only. Case-insensitive matching folds Unicode too, so there a non-ASCII
// character, and `k` and `s` (which also match the Kelvin sign and the long s), end a run. A
// case-sensitive search looks three bytes with an ASCII capital up as they are (caseGramOf).
import { caseGramOf, gramOf, GRAM_BYTES } from '@sextant/format';

/** Grams looked up per literal, at most: the first, the last and evenly between. */
export const MAX_GRAMS_PER_LITERAL = 4;

/** Characters Unicode case folding matches with characters of other bytes: non-ASCII ones, and k and s (K, ſ). */
const UNICODE_FOLDED = /[^\x00-\x7f]|[ksKS]/;

/** Whether case-insensitive matching of the text is ASCII case folding, nothing more. */
export function foldsAsAscii(text: string): boolean {
  return !UNICODE_FOLDED.test(text);
}

/** Every file (no literal of a gram's length is required), or any alternative's literals, all of them. */
export type TextPlan = { kind: 'all'; why: string } | { kind: 'grams'; alternatives: GramLookup[] };

/**
 * The grams of one alternative, every one of which a matching file holds. `first` are looked up
 * first (of each literal, its first, last and evenly spread grams); `rest`, the literals' other
 * grams, only narrow the candidates further when the first leave many.
 */
export interface GramLookup {
  first: number[];
  rest: number[];
}

export function planLiteral(literal: string, caseInsensitive: boolean): TextPlan {
  const grams = literalGrams([literal], caseInsensitive);
  return grams.first.length > 0 ? { kind: 'grams', alternatives: [grams] } : { kind: 'all', why: `"${literal}" holds no ${GRAM_BYTES} bytes to look up` };
}

export function planRegex(pattern: string, caseInsensitive: boolean): TextPlan {
  const read = requiredRuns(pattern);
  const folded = caseInsensitive || read.caseInsensitive;
  const alternatives: GramLookup[] = [];
  for (const runs of read.alternatives) {
    const grams = literalGrams(runs, folded);
    if (grams.first.length === 0) return { kind: 'all', why: 'an alternative of the pattern requires no literal of 3 bytes' };
    alternatives.push(grams);
  }
  return { kind: 'grams', alternatives };
}

/** The grams of literals that must all occur: up to MAX_GRAMS_PER_LITERAL of each usable piece first, then the rest. */
function literalGrams(literals: readonly string[], caseInsensitive: boolean): GramLookup {
  const first = new Set<number>();
  const all = new Set<number>();
  const encoder = new TextEncoder();
  const gramAt = caseInsensitive ? gramOf : caseGramOf;
  for (const literal of literals) {
    for (const piece of caseInsensitive ? literal.split(UNICODE_FOLDED) : [literal]) {
      const bytes = encoder.encode(piece);
      const count = bytes.length - GRAM_BYTES + 1;
      if (count <= 0) continue;
      const picks = Math.min(count, MAX_GRAMS_PER_LITERAL);
      for (let p = 0; p < picks; p++) {
        const at = picks === 1 ? 0 : Math.round((p * (count - 1)) / (picks - 1));
        first.add(gramAt(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!));
      }
      for (let at = 0; at < count; at++) all.add(gramAt(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!));
    }
  }
  return { first: [...first], rest: [...all].filter((gram) => !first.has(gram)) };
}

export interface RequiredRuns {
  /** Per top-level alternative, the runs of characters every match of it contains. */
  alternatives: string[][];
  /** The pattern turns case-insensitive matching on somewhere (`(?i)`). */
  caseInsensitive: boolean;
}

const META = new Set([...'\\.+*?()|[]{}^$']);

/** The runs of plain characters a match of each top-level alternative must contain (and so the line it is on). */
export function requiredRuns(pattern: string): RequiredRuns {
  const alternatives: string[][] = [];
  let runs: string[] = [];
  let run = '';
  let caseInsensitive = false;
  const end = () => {
    if (run) runs.push(run);
    run = '';
  };
  // The last atom read, so a quantifier after it knows what it makes optional or repeats.
  let last: 'char' | 'other' | undefined;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === '|') {
      end();
      alternatives.push(runs);
      runs = [];
      last = undefined;
      i++;
    } else if (c === '*' || c === '?' || c === '+' || c === '{') {
      const quantifier = c === '{' ? /^\{(\d*)(,\d*)?\}/.exec(pattern.slice(i)) : undefined;
      if (c === '{' && !quantifier) {
        // RE2 reads a `{` that starts no repetition as itself.
        run += c;
        last = 'char';
        i++;
        continue;
      }
      const optional = c === '*' || c === '?' || (quantifier !== undefined && quantifier !== null && Number(quantifier[1] || 0) === 0);
      if (last === 'char') {
        // The repeated character: gone from the run when optional, else kept but the run ends after it.
        const kept = optional ? [...run].slice(0, -1).join('') : run;
        run = kept;
      }
      end();
      i += quantifier ? quantifier[0].length : 1;
      if (pattern[i] === '?') i++; // lazy
      last = 'other';
    } else if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'Q') {
        const close = pattern.indexOf('\\E', i + 2);
        const quoted = pattern.slice(i + 2, close < 0 ? pattern.length : close);
        run += quoted;
        last = quoted ? 'char' : 'other';
        i = close < 0 ? pattern.length : close + 2;
      } else if (next !== undefined && /[^\w\s]/.test(next)) {
        run += next;
        last = 'char';
        i += 2;
      } else if (next === 't') {
        run += '\t';
        last = 'char';
        i += 2;
      } else {
        // \d, \w, \b, \pL, \x41…: no plain character (or one read conservatively as none).
        end();
        last = 'other';
        if ((next === 'p' || next === 'P') && pattern[i + 2] === '{') i = (pattern.indexOf('}', i) + 1) || pattern.length;
        else i += next === 'p' || next === 'P' ? 3 : 2;
      }
    } else if (c === '[') {
      end();
      i = classEnd(pattern, i);
      last = 'other';
    } else if (c === '(') {
      const flags = /^\(\?([a-zA-Z-]*)\)/.exec(pattern.slice(i));
      if (flags) {
        if (/^[^-]*i/.test(flags[1]!)) caseInsensitive = true;
        i += flags[0].length;
        continue;
      }
      const scoped = /^\(\?([a-zA-Z-]*):/.exec(pattern.slice(i));
      if (scoped && /^[^-]*i/.test(scoped[1]!)) caseInsensitive = true;
      end();
      i = groupEnd(pattern, i);
      last = 'other';
    } else if (META.has(c)) {
      // `.`, `^`, `$`, a stray `)` or `]`: no plain character here.
      end();
      last = 'other';
      i++;
    } else {
      const code = pattern.codePointAt(i)!;
      const char = String.fromCodePoint(code);
      run += char;
      last = 'char';
      i += char.length;
    }
  }
  end();
  alternatives.push(runs);
  return { alternatives, caseInsensitive };
}

/** The index after the class starting at `start` (`[`): `]` first in it and `[:alpha:]` are its own. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') {
    if (pattern[i] === '\\') i += 2;
    else if (pattern.startsWith('[:', i)) {
      const close = pattern.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
    } else i++;
  }
  return i + 1;
}

/** The index after the group starting at `start` (`(`), nested groups and classes skipped. */
function groupEnd(pattern: string, start: number): number {
  let depth = 0;
  for (let i = start; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === '\\') i += 2;
    else if (c === '[') i = classEnd(pattern, i);
    else {
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return i + 1;
      i++;
    }
  }
  return pattern.length;
}
