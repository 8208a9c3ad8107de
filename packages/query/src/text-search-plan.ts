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
import { caseGramOf, followBit, gramOf, GRAM_BYTES } from '@sextant/format';

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
 * grams, only narrow the candidates further when the first leave many. `follows`: for a gram that
 * some byte of a literal comes after, the follow bits of those bytes (followBit), which a matching
 * file's posting of the gram has too.
 */
export interface GramLookup {
  first: number[];
  rest: number[];
  follows: Map<number, number>;
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
  const follows = new Map<number, number>();
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
      for (let at = 0; at < count; at++) {
        const gram = gramAt(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!);
        all.add(gram);
        // The piece's next byte comes after this gram in every match (the piece's last gram: unknown).
        if (at + GRAM_BYTES < bytes.length) follows.set(gram, (follows.get(gram) ?? 0) | followBit(bytes[at + GRAM_BYTES]!));
      }
    }
  }
  return { first: [...first], rest: [...all].filter((gram) => !first.has(gram)), follows };
}

export interface RequiredRuns {
  /** Per top-level alternative, the runs of characters every match of it contains. */
  alternatives: string[][];
  /**
   * Per top-level alternative, the longest run of single characters and simple classes (`\d`, `\w`,
   * `\s`, `[a-f0-9]`, `.`) every match of it contains, as the source of a JavaScript RegExp
   * (flag `u`) that matches at least wherever the run does: a line without a match of it holds no
   * match of the alternative ('' when there is none). What a pattern with no literal is prefiltered
   * by (`\d{3,}`: `\d\d\d`); at most MAX_SEQUENCE atoms, so the platform's backtracking engine
   * stays linear in the text.
   */
  sequences: string[];
  /** The pattern turns case-insensitive matching on somewhere (`(?i)`). */
  caseInsensitive: boolean;
}

/** Atoms of a prefilter sequence, at most (and copies of one repeated atom). */
export const MAX_SEQUENCE = 16;

/**
 * A class RE2 and JavaScript read alike, or JavaScript more widely: characters, ranges and the
 * escapes \d \w \s \D and of punctuation; not `]` first, POSIX or Unicode classes, \W, nor \s or
 * \w in a negated class (JavaScript's \s is wider, and with flags `iu` its \w holds ſ and K, so
 * their negations are narrower).
 */
const SIMPLE_CLASS = /^\[(?:\^(?:\\[dD\\\-\]\[^$.|?*+(){}]|[^\\\[\]])+|(?:\\[dwsD\\\-\]\[^$.|?*+(){}]|[^\\\[\]^])(?:\\[dwsD\\\-\]\[^$.|?*+(){}]|[^\\\[\]])*)\]$/;

/** A character as a JavaScript RegExp atom (flag u). */
const atomOf = (char: string) => char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

const META = new Set([...'\\.+*?()|[]{}^$']);

/** The runs of plain characters a match of each top-level alternative must contain (and so the line it is on). */
export function requiredRuns(pattern: string): RequiredRuns {
  const alternatives: string[][] = [];
  const sequences: string[] = [];
  let runs: string[] = [];
  let run = '';
  // The sequence of atoms being read, and the alternative's longest so far.
  let sequence: string[] = [];
  let longest: string[] = [];
  let caseInsensitive = false;
  // The last atom read, so a quantifier after it knows what it makes optional or repeats ('zero': an
  // assertion, which consumes nothing and so leaves a sequence contiguous).
  let last: 'char' | 'atom' | 'zero' | 'other' | undefined;
  // `.` matches a line break under (?s), which is no line's character: read conservatively as no atom.
  const dotAll = /\(\?[a-zA-Z]*s[a-zA-Z-]*[:)]/.test(pattern);
  const end = () => {
    if (run) runs.push(run);
    run = '';
  };
  const endSequence = () => {
    if (sequence.length > longest.length) longest = sequence;
    sequence = [];
  };
  const char = (text: string) => {
    run += text;
    for (const one of text) sequence.push(atomOf(one));
    last = 'char';
  };
  /** A single-character atom that is no plain character: it ends the run, not the sequence. */
  const atom = (source: string) => {
    end();
    sequence.push(source);
    last = 'atom';
  };
  /** Something that is no single character (a group, an unknown escape): it ends both. */
  const other = () => {
    end();
    endSequence();
    last = 'other';
  };
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === '|') {
      end();
      endSequence();
      alternatives.push(runs);
      sequences.push(longest.slice(0, MAX_SEQUENCE).join(''));
      runs = [];
      longest = [];
      last = undefined;
      i++;
    } else if (c === '*' || c === '?' || c === '+' || c === '{') {
      const quantifier = c === '{' ? /^\{(\d*)(,\d*)?\}/.exec(pattern.slice(i)) : undefined;
      if (c === '{' && !quantifier) {
        // RE2 reads a `{` that starts no repetition as itself.
        char(c);
        i++;
        continue;
      }
      const least = c === '+' ? 1 : quantifier ? Number(quantifier[1] || 0) : 0;
      if (last === 'char') {
        // The repeated character: gone from the run when optional, else kept but the run ends after it.
        const kept = least === 0 ? [...run].slice(0, -1).join('') : run;
        run = kept;
      }
      if (last === 'char' || last === 'atom') {
        // The repeated atom: gone from the sequence when optional, else there as often as it must be.
        const repeated = sequence.pop()!;
        for (let n = 0; n < Math.min(least, MAX_SEQUENCE); n++) sequence.push(repeated);
      }
      end();
      endSequence();
      i += quantifier ? quantifier[0].length : 1;
      if (pattern[i] === '?') i++; // lazy
      last = 'other';
    } else if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'Q') {
        const close = pattern.indexOf('\\E', i + 2);
        const quoted = pattern.slice(i + 2, close < 0 ? pattern.length : close);
        if (quoted) char(quoted);
        else last = 'other';
        i = close < 0 ? pattern.length : close + 2;
      } else if (next !== undefined && /[^\w\s]/.test(next)) {
        char(next);
        i += 2;
      } else if (next === 't') {
        char('\t');
        i += 2;
      } else if (next !== undefined && /[dwsD]/.test(next)) {
        // ASCII in both engines, but \s (JavaScript's holds more spaces) and \w with flags iu (it
        // holds ſ and K too): wider, which a prefilter may be. Not \W, narrower then.
        atom(`\\${next}`);
        i += 2;
      } else if (next === 'b' || next === 'B' || next === 'A' || next === 'z') {
        end();
        last = 'zero';
        i += 2;
      } else {
        // \S, \W, \pL, \x41…: read conservatively as no character.
        other();
        if ((next === 'p' || next === 'P') && pattern[i + 2] === '{') i = (pattern.indexOf('}', i) + 1) || pattern.length;
        else i += next === 'p' || next === 'P' ? 3 : 2;
      }
    } else if (c === '[') {
      const close = classEnd(pattern, i);
      const source = pattern.slice(i, close);
      if (SIMPLE_CLASS.test(source)) atom(source);
      else other();
      i = close;
    } else if (c === '(') {
      const flags = /^\(\?([a-zA-Z-]*)\)/.exec(pattern.slice(i));
      if (flags) {
        if (/^[^-]*i/.test(flags[1]!)) caseInsensitive = true;
        i += flags[0].length;
        continue;
      }
      const scoped = /^\(\?([a-zA-Z-]*):/.exec(pattern.slice(i));
      if (scoped && /^[^-]*i/.test(scoped[1]!)) caseInsensitive = true;
      other();
      i = groupEnd(pattern, i);
    } else if (c === '.' && !dotAll) {
      atom('[^\\n]');
      i++;
    } else if (c === '^' || c === '$') {
      end();
      last = 'zero';
      i++;
    } else if (META.has(c)) {
      // `.` under (?s), a stray `)` or `]`: no plain character here.
      other();
      i++;
    } else {
      const code = pattern.codePointAt(i)!;
      const text = String.fromCodePoint(code);
      char(text);
      i += text.length;
    }
  }
  end();
  endSequence();
  alternatives.push(runs);
  sequences.push(longest.slice(0, MAX_SEQUENCE).join(''));
  return { alternatives, sequences, caseInsensitive };
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
