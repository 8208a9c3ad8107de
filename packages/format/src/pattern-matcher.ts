// The one matcher for patterns callers supply: path globs, wildcard and camelCase name queries.
// A pattern compiles to a short program of states and is matched by simulating all of them at once
// over the text (Thompson's construction), so matching can never backtrack: each text character
// costs at most four steps per state (one to read it, at most three to list states after it), so
// a match is at most 4 * (states + 1) * (text.length + 1) steps. The states are capped
// (MAX_PATTERN_STATES), so a caller's pattern bounds the work per character. The simulation is
// cached as a lazy DFA, so a character whose set of live states was met before costs one step.
// Several globs run as one automaton (compileGlobSet), so 64 globs read a path once, not 64 times,
// and what building its sets costs a call can be bounded (WorkBudget). The RegExps these patterns
// used to compile to backtracked: `****************Z` blocked a worker isolate for 12.7 s.
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
  return matcher(glob, globTokens(glob, options), options.whole ? 'whole' : 'subtree', false);
}

/** Whether a text matches any of a set of globs. */
export interface GlobSet {
  test(path: string): boolean;
}

/**
 * Several globs (as compileGlob reads them, without `whole`) matched as one: a path is read once,
 * one step a character once its set of live states was met, whatever the number of globs. Each
 * glob is refused past MAX_PATTERN_STATES as compileGlob refuses it; `budget` bounds what building
 * the sets of live states may cost all its tests together.
 */
export function compileGlobSet(globs: readonly string[], budget?: WorkBudget): GlobSet {
  // The union of the globs' states runs as one automaton: each glob's list, side by side.
  const automaton = new Automaton(statesOf(globs.map((glob) => checked(glob, globTokens(glob, {})))), 'subtree', false, budget);
  return { test: (path) => automaton.test(path) };
}

function globTokens(glob: string, options: GlobOptions): Token[] {
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
  return tokens;
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
 * The states token lists run as, one list after another (a union of patterns is their lists side by
 * side). A token is one state, except `**\/`, which is two: an entry that lets the next state
 * through (matching nothing) or enters a loop over any character that leaves only over a slash.
 * Kept apart so what a state lets through never depends on how it was reached. Each list ends in
 * an accepting state that reads nothing.
 */
interface States {
  loop: Uint8Array;
  advance: Uint8Array;
  chars: Int32Array;
  /** 1: the next state is active with this one; 2: the state after next is too (the `**\/` entry). */
  skip: Uint8Array;
  accepts: Uint8Array;
  /** The first state of each list. */
  starts: number[];
}

/** How many states a token list needs, its accepting state left out: what MAX_PATTERN_STATES caps. */
function stateCount(tokens: readonly Token[]): number {
  let m = 0;
  for (const token of tokens) m += token.dirs ? 2 : 1;
  return m;
}

function statesOf(lists: readonly (readonly Token[])[]): States {
  let total = 0;
  for (const tokens of lists) total += stateCount(tokens) + 1;
  const states: States = {
    loop: new Uint8Array(total), advance: new Uint8Array(total), chars: new Int32Array(total).fill(-1), skip: new Uint8Array(total), accepts: new Uint8Array(total), starts: [],
  };
  let s = 0;
  for (const tokens of lists) {
    states.starts.push(s);
    for (const token of tokens) {
      if (token.dirs) {
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
    states.accepts[s++] = 1;
  }
  return states;
}

/** A pattern's token list, refused past MAX_PATTERN_STATES with the error that names it. */
function checked(pattern: string, tokens: readonly Token[]): readonly Token[] {
  const m = stateCount(tokens);
  if (m > MAX_PATTERN_STATES) {
    throw new SextantError(
      'INVALID_ARGUMENT',
      `The pattern "${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern}" is too complex: it needs ${m} matcher states, more than ${MAX_PATTERN_STATES}.`,
      `Use a shorter pattern with fewer characters and wildcards (at most ${MAX_PATTERN_STATES} once runs of stars collapse), e.g. keep only a distinctive part of the name or path and put * or ** around it.`,
      { pattern, states: m, maxStates: MAX_PATTERN_STATES },
    );
  }
  return tokens;
}

function matcher(pattern: string, tokens: readonly Token[], ending: Ending, caseless: boolean): PatternMatcher {
  const states = stateCount(checked(pattern, tokens));
  const automaton = new Automaton(statesOf([tokens]), ending, caseless);
  return {
    pattern,
    states,
    get steps() {
      return automaton.steps;
    },
    test: (text) => automaton.test(text),
  };
}

/**
 * What building sets of live states may cost one call, in matcher steps (one live state looked at
 * or listed): past `limit`, `exceeded()` throws the error the caller words, naming the argument to
 * narrow. Reading a character over a known transition is not counted: that is one step a character
 * of the texts the call reads anyway. Without a budget, a matcher is bounded per character only.
 */
export interface WorkBudget {
  readonly limit: number;
  exceeded(steps: number): never;
}

/** Transitions over these characters are kept in a flat table; others in a map. */
const TABLE_CHARS = 128;

/**
 * Thompson's simulation of a set of states, run as a lazy DFA: each distinct set of live states is
 * interned the first time it is met, with its transitions per character cached, so a text
 * character costs one lookup once a set has been seen (many paths meet the same few sets). The
 * cache is bounded (MAX_CACHED_SETS sets); past it, sets are computed and not kept, which costs
 * what the plain simulation costs: the bound per character holds either way.
 */
class Automaton {
  steps = 0;
  /** The steps spent building sets (not reading over known transitions): what a WorkBudget bounds. */
  private building = 0;
  private readonly generationOf: Int32Array;
  private generation = 0;
  private readonly scratch: Int32Array;
  private size = 0;
  private accepting = false;
  private readonly interned = new Map<number, LiveSet[]>();
  private sets = 0;
  private cachedStates = 0;
  private readonly start: LiveSet;

  constructor(private readonly s: States, private readonly ending: Ending, private readonly caseless: boolean, private readonly budget?: WorkBudget) {
    const total = s.loop.length;
    this.generationOf = new Int32Array(total);
    this.scratch = new Int32Array(total);
    this.nextGeneration();
    for (const first of s.starts) this.add(first);
    this.start = this.intern();
  }

  test(text: string): boolean {
    const before = this.steps;
    const found = this.run(text);
    stepsOfAllMatchers += this.steps - before;
    return found;
  }

  private run(text: string): boolean {
    const { ending, caseless } = this;
    let live = this.start;
    for (let i = 0; i < text.length; i++) {
      if (live.accepting && (ending === 'prefix' || (ending === 'subtree' && text.charCodeAt(i) === SLASH))) return true;
      if (live.states.length === 0) return false;
      const raw = text.charCodeAt(i);
      const c = caseless ? fold(raw) : raw;
      this.steps++;
      live = (c < TABLE_CHARS ? live.table[c] : live.next.get(c)) ?? this.follow(live, c);
    }
    return live.accepting;
  }

  private nextGeneration(): void {
    if (++this.generation === 0x7fffffff) {
      this.generationOf.fill(0);
      this.generation = 1;
    }
  }

  /** Lists a state and the states it lets through without reading a character. */
  private add(from: number): void {
    const { skip, accepts } = this.s;
    for (let s = from; ; s++) {
      this.steps++;
      if (this.generationOf[s] === this.generation) return;
      this.generationOf[s] = this.generation;
      this.scratch[this.size++] = s;
      if (accepts[s]) {
        this.accepting = true;
        return;
      }
      if (skip[s] === 2) {
        this.add(s + 1);
        s++;
      } else if (skip[s] === 0) return;
    }
  }

  private intern(): LiveSet {
    const states = this.scratch.slice(0, this.size).sort();
    // Interned by a hash of the sorted list, compared in full: no key string built per set.
    let hash = 0x811c9dc5;
    for (let i = 0; i < states.length; i++) hash = Math.imul(hash ^ states[i]!, 0x01000193);
    const bucket = this.interned.get(hash);
    const known = bucket?.find((set) => sameStates(set.states, states));
    if (known) return known;
    const set: LiveSet = { states, accepting: this.accepting, table: new Array(TABLE_CHARS), next: new Map(), cached: false };
    if (this.sets < MAX_CACHED_SETS && this.cachedStates + states.length <= MAX_CACHED_STATES) {
      if (bucket) bucket.push(set);
      else this.interned.set(hash, [set]);
      this.sets++;
      this.cachedStates += states.length;
      set.cached = true;
    }
    return set;
  }

  private follow(from: LiveSet, c: number): LiveSet {
    const { loop, advance, chars, accepts } = this.s;
    this.size = 0;
    this.accepting = false;
    this.nextGeneration();
    for (const s of from.states) {
      this.steps++;
      if (accepts[s]) continue;
      if (inClass(loop[s] as CharClass, -1, c)) this.add(s);
      if (inClass(advance[s] as CharClass, chars[s], c)) this.add(s + 1);
    }
    const to = this.intern();
    this.building += from.states.length + to.states.length;
    if (this.budget && this.building > this.budget.limit) this.budget.exceeded(this.building);
    // A transition is kept only between kept sets, so what is kept stays bounded.
    if (from.cached && to.cached) {
      if (c < TABLE_CHARS) from.table[c] = to;
      else from.next.set(c, to);
    }
    return to;
  }
}

function sameStates(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A set of live states met while matching, with the sets each character leads to from it. */
interface LiveSet {
  states: Int32Array;
  accepting: boolean;
  /** The set each character below TABLE_CHARS leads to, once followed. */
  table: (LiveSet | undefined)[];
  next: Map<number, LiveSet>;
  /** Interned: the transitions into and out of it are kept. */
  cached: boolean;
}

/**
 * What a matcher keeps of the sets of live states it met, with their transitions: at most this
 * many sets, and at most MAX_CACHED_STATES states in them all (4 MiB of state lists), however
 * adversarial the patterns. A union of 64 globs meets more sets than one glob does.
 */
const MAX_CACHED_SETS = 4096;
const MAX_CACHED_STATES = 1 << 20;
