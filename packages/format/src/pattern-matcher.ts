// The one matcher for patterns callers supply: path globs, wildcard and camelCase name queries.
// A pattern compiles to a short program of states and is matched by simulating all of them at once
// over the text (Thompson's construction), so matching can never backtrack: each text character
// costs at most four steps per state (one to read it, at most three to list states after it), so
// a match is at most 4 * (states + 1) * (text.length + 1) steps. The states are capped
// (MAX_PATTERN_STATES), so a caller's pattern bounds the work per character. The simulation is
// cached as a lazy DFA, so a character whose set of live states was met before costs one step. The RegExps these
// patterns used to compile to backtracked: `****************Z` blocked a worker isolate for 12.7 s.
import { SextantError } from './errors.ts';

/** More states than this and a pattern is refused: the cap on work per text character. */
export const MAX_PATTERN_STATES = 256;

/** Which characters a state loops on or advances over. CHAR means one given character. */
const NONE = 0;
const ANY = 1;
const NOT_SLASH = 2;
const NOT_UPPER = 3;
const CHAR = 4;
type CharClass = typeof NONE | typeof ANY | typeof NOT_SLASH | typeof NOT_UPPER | typeof CHAR;

/**
 * One step of a pattern as written (collapsing works on these): it stays on a character of `loop`,
 * moves on over a character of `advance` (`char` when that is CHAR), and when `skip` is set it may
 * also match nothing. `dirs` is `**\/`: nothing, or any run of characters ending with a slash.
 */
interface Token {
  loop: CharClass;
  advance: CharClass;
  char: number;
  skip: boolean;
  dirs: boolean;
}

/** How the text may continue after the last state: nothing, anything, or a `/` and then anything. */
type Ending = 'whole' | 'prefix' | 'subtree';

const SLASH = 47;

export interface PatternMatcher {
  /** The pattern as the caller wrote it. */
  readonly pattern: string;
  /** Number of states once runs of stars collapsed: one per token, two for a `**\/`. */
  readonly states: number;
  test(text: string): boolean;
  /** Steps taken by every test() so far: what the bound above is about. */
  readonly steps: number;
}

let stepsOfAllMatchers = 0;

/** Steps taken by every matcher of this isolate so far: lets a test bound the matching work of a whole tool call. */
export function matcherSteps(): number {
  return stepsOfAllMatchers;
}

interface GlobOptions {
  /**
   * Match the whole path only. By default a glob without a slash matches at any depth and a match
   * of a directory covers everything under it (`src` matches `src/a.ts`), as tool filters and
   * .gitattributes read them.
   */
  whole?: boolean;
}

/**
 * A path glob: `**` crosses directories (`**\/` also matches no directory), `*` and `?` stay inside
 * one segment, every other character is literal. Without `whole`, a glob holding no slash (or
 * starting with `**\/`) matches at any depth, a leading `/` anchors it at the root, and a path under
 * a matched directory matches.
 */
export function compileGlob(glob: string, options: GlobOptions = {}): PatternMatcher {
  const anchored = options.whole || (glob.includes('/') && !glob.startsWith('**/'));
  const tokens: Token[] = [];
  if (!anchored) push(tokens, star(DIRS));
  const body = glob.replace(/^\//, '');
  for (let i = 0; i < body.length; i++) {
    if (body.startsWith('**/', i)) {
      push(tokens, star(DIRS));
      i += 2;
    } else if (body.startsWith('**', i)) {
      push(tokens, star(ANY));
      i += 1;
    } else if (body[i] === '*') push(tokens, star(NOT_SLASH));
    else if (body[i] === '?') push(tokens, one(NOT_SLASH));
    else push(tokens, literal(body.charCodeAt(i)));
  }
  return matcher(glob, tokens, options.whole ? 'whole' : 'subtree', false);
}

/**
 * compileGlob for a glob a repository holds (.gitattributes, workspace lists): one past the budget
 * is undefined, so the caller can leave that line out instead of failing a whole build over it.
 */
export function compileRepositoryGlob(glob: string, options: GlobOptions = {}): PatternMatcher | undefined {
  try {
    return compileGlob(glob, options);
  } catch (error) {
    if (error instanceof SextantError && error.code === 'INVALID_ARGUMENT') return undefined;
    throw error;
  }
}

/** A name query: `*` any run of characters, `?` one character, the rest literal, case-insensitive, over the whole name. */
export function compileWildcard(query: string): PatternMatcher {
  const tokens: Token[] = [];
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '*') push(tokens, star(ANY));
    else if (c === '?') push(tokens, one(ANY));
    else push(tokens, literal(fold(query.charCodeAt(i))));
  }
  return matcher(query, tokens, 'whole', true);
}

/**
 * A camelCase query: `OSvc` matches `OrderService`. The first character starts the name; a capital
 * may come after anything (a later hump), any other character only after non-capitals (the same
 * hump). Case-sensitive, and the name may go on after the query's last character.
 */
export function compileCamelCase(query: string): PatternMatcher {
  const tokens: Token[] = [];
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    tokens.push({ loop: i === 0 ? NONE : isUpper(c) ? ANY : NOT_UPPER, advance: CHAR, char: c, skip: false, dirs: false });
  }
  return matcher(query, tokens, 'prefix', false);
}

/** `**\/`: nothing, or any run of characters that ends with a slash. */
const DIRS = -1;

function star(of: typeof ANY | typeof NOT_SLASH | typeof DIRS): Token {
  return of === DIRS ? { loop: ANY, advance: CHAR, char: SLASH, skip: true, dirs: true } : { loop: of, advance: NONE, char: -1, skip: true, dirs: false };
}

function one(of: typeof ANY | typeof NOT_SLASH): Token {
  return { loop: NONE, advance: of, char: -1, skip: false, dirs: false };
}

function literal(char: number): Token {
  return { loop: NONE, advance: CHAR, char, skip: false, dirs: false };
}

const isStar = (s: Token) => s.skip;
const isDirs = (s: Token) => s.dirs;
const isOne = (s: Token, of: CharClass) => !s.skip && s.loop === NONE && s.advance === of;

/**
 * Appends a token, collapsing runs of stars as it goes (every rewrite keeps the language): two
 * adjacent stars become one (`***` is `**`, `**` next to `*` is `**`, `**\/` next to `**` is `**`,
 * `**\/*` is `**`), and a `?` after a star of its own class moves before it (`*?*?` is `??*`), so a
 * run of wildcards is a chain of single characters and at most one star.
 */
function push(tokens: Token[], token: Token): void {
  const top = tokens[tokens.length - 1];
  if (top && isStar(top) && isStar(token)) {
    const merged = mergeStars(top, token);
    if (merged) {
      tokens.pop();
      push(tokens, merged);
      return;
    }
  }
  if (top && isStar(top) && !isDirs(top) && isOne(token, top.loop)) {
    tokens.pop();
    push(tokens, token);
    push(tokens, top);
    return;
  }
  tokens.push(token);
}

function mergeStars(first: Token, second: Token): Token | undefined {
  if (isDirs(first) && isDirs(second)) return first;
  // `(.*/)?` then `[^/]*` is any string: split it at its last slash.
  if (isDirs(first)) return second.loop === ANY || second.loop === NOT_SLASH ? star(ANY) : undefined;
  if (isDirs(second)) return first.loop === ANY ? first : undefined;
  if (first.loop === second.loop) return first;
  return first.loop === ANY || second.loop === ANY ? star(ANY) : undefined;
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

/** Case folding one UTF-16 unit, the same for pattern and text; ASCII without a call. */
function fold(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  const lower = String.fromCharCode(c).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : c;
}

function inClass(cls: CharClass, char: number, c: number): boolean {
  switch (cls) {
    case NONE: return false;
    case ANY: return true;
    case NOT_SLASH: return c !== SLASH;
    case NOT_UPPER: return !isUpper(c);
    case CHAR: return c === char;
  }
}

/**
 * The states a token list runs as. A token is one state, except `**\/`, which is two: an entry
 * that lets the next state through (matching nothing) or enters a loop over any character that
 * leaves only over a slash. Kept apart so what a state lets through never depends on how it was reached.
 */
interface States {
  loop: Uint8Array;
  advance: Uint8Array;
  chars: Int32Array;
  /** 1: the next state is active with this one; 2: the state after next is too (the `**\/` entry). */
  skip: Uint8Array;
}

function statesOf(tokens: readonly Token[]): States {
  let m = 0;
  for (const token of tokens) m += token.dirs ? 2 : 1;
  const states: States = { loop: new Uint8Array(m), advance: new Uint8Array(m), chars: new Int32Array(m), skip: new Uint8Array(m) };
  let s = 0;
  for (const token of tokens) {
    if (token.dirs) {
      states.chars[s] = -1;
      states.skip[s++] = 2;
      states.loop[s] = ANY;
      states.advance[s] = CHAR;
      states.chars[s++] = SLASH;
    } else {
      states.loop[s] = token.loop;
      states.advance[s] = token.advance;
      states.chars[s] = token.char;
      states.skip[s++] = token.skip ? 1 : 0;
    }
  }
  return states;
}

function matcher(pattern: string, tokens: readonly Token[], ending: Ending, caseless: boolean): PatternMatcher {
  const { loop, advance, chars, skip } = statesOf(tokens);
  const m = loop.length;
  if (m > MAX_PATTERN_STATES) {
    throw new SextantError(
      'INVALID_ARGUMENT',
      `The pattern "${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern}" is too complex: it needs ${m} matcher states, more than ${MAX_PATTERN_STATES}.`,
      `Use a shorter pattern with fewer characters and wildcards (at most ${MAX_PATTERN_STATES} once runs of stars collapse), e.g. keep only a distinctive part of the name or path and put * or ** around it.`,
      { pattern, states: m, maxStates: MAX_PATTERN_STATES },
    );
  }
  // The simulation below is run lazily as a DFA: each distinct set of live states is interned the
  // first time it is met, with its transitions per character cached, so a text character costs one
  // lookup once a set has been seen (many globs over many paths meet the same few sets). The cache
  // is bounded (MAX_CACHED_SETS sets per matcher); past it, sets are computed and not kept, which
  // costs what the plain simulation costs: the bound above holds either way.
  const generationOf = new Int32Array(m + 1);
  let generation = 0;
  let steps = 0;
  const interned = new Map<string, LiveSet>();
  const scratch = new Int32Array(m + 1);
  let size = 0;
  let accepting = false;

  const nextGeneration = () => {
    if (++generation === 0x7fffffff) {
      generationOf.fill(0);
      generation = 1;
    }
  };
  // Lists a state and the states it lets through without reading a character.
  const add = (from: number): void => {
    for (let s = from; ; s++) {
      steps++;
      if (generationOf[s] === generation) return;
      generationOf[s] = generation;
      scratch[size++] = s;
      if (s === m) {
        accepting = true;
        return;
      }
      if (skip[s] === 2) {
        add(s + 1);
        s++;
      } else if (skip[s] === 0) return;
    }
  };
  const intern = (): LiveSet => {
    const states = scratch.slice(0, size).sort();
    const key = states.join(',');
    const known = interned.get(key);
    if (known) return known;
    const set: LiveSet = { states, accepting, next: new Map() };
    if (interned.size < MAX_CACHED_SETS) interned.set(key, set);
    return set;
  };
  const follow = (from: LiveSet, c: number): LiveSet => {
    size = 0;
    accepting = false;
    nextGeneration();
    for (const s of from.states) {
      steps++;
      if (s === m) continue;
      if (inClass(loop[s] as CharClass, -1, c)) add(s);
      if (inClass(advance[s] as CharClass, chars[s], c)) add(s + 1);
    }
    const to = intern();
    if (interned.size < MAX_CACHED_SETS) from.next.set(c, to);
    return to;
  };
  nextGeneration();
  add(0);
  const start = intern();

  return {
    pattern,
    states: m,
    get steps() {
      return steps;
    },
    test(text: string): boolean {
      const before = steps;
      const found = run(text);
      stepsOfAllMatchers += steps - before;
      return found;
    },
  };

  function run(text: string): boolean {
    let live = start;
    for (let i = 0; i < text.length; i++) {
      if (live.accepting && (ending === 'prefix' || (ending === 'subtree' && text.charCodeAt(i) === SLASH))) return true;
      if (live.states.length === 0) return false;
      const raw = text.charCodeAt(i);
      const c = caseless ? fold(raw) : raw;
      steps++;
      live = live.next.get(c) ?? follow(live, c);
    }
    return live.accepting;
  }
}

/** A set of live states met while matching, with the sets each character leads to from it. */
interface LiveSet {
  states: Int32Array;
  accepting: boolean;
  next: Map<number, LiveSet>;
}

/**
 * Sets of live states a matcher keeps with their transitions: with at most MAX_PATTERN_STATES
 * states each, at most 256 KiB of state lists per matcher, however adversarial the pattern.
 */
const MAX_CACHED_SETS = 256;
