// A SCIP symbol string parsed as scip.proto's `Symbol` grammar defines it:
//   <scheme> ' ' <manager> ' ' <package-name> ' ' <version> ' ' (<descriptor>)+  |  'local ' <local-id>
// (spaces inside the first four doubled), descriptors `name/` namespace, `name#` type, `name.` term,
// `name:` meta, `name!` macro, `name(disambiguator).` method, `[name]` type parameter, `(name)`
// parameter, a name either simple or in backticks (a backtick inside doubled).

export type DescriptorSuffix = 'namespace' | 'type' | 'term' | 'meta' | 'macro' | 'method' | 'typeParameter' | 'parameter';

export interface Descriptor {
  name: string;
  suffix: DescriptorSuffix;
}

export interface ScipSymbol {
  /** The symbol string itself. */
  symbol: string;
  local: boolean;
  scheme: string;
  package: { manager: string; name: string; version: string };
  descriptors: Descriptor[];
  /** The symbol string of each descriptor's prefix (the symbol that descriptor names), parallel to descriptors. */
  prefixes: string[];
}

const SIMPLE = /[\w+\-$]/;
const cache = new Map<string, ScipSymbol | undefined>();

/** The parsed symbol, or undefined when the string does not follow the grammar. */
export function parseScipSymbol(symbol: string): ScipSymbol | undefined {
  if (cache.has(symbol)) return cache.get(symbol);
  let parsed: ScipSymbol | undefined;
  try {
    parsed = parse(symbol);
  } catch {
    parsed = undefined;
  }
  if (cache.size > 200_000) cache.clear();
  cache.set(symbol, parsed);
  return parsed;
}

function parse(symbol: string): ScipSymbol {
  if (symbol.startsWith('local ')) {
    return { symbol, local: true, scheme: 'local', package: { manager: '', name: '', version: '' }, descriptors: [], prefixes: [] };
  }
  let at = 0;
  // A space-separated part, two spaces standing for one.
  const part = (): string => {
    let text = '';
    for (;;) {
      if (at >= symbol.length) throw new Error('symbol ends early');
      const c = symbol[at]!;
      if (c === ' ') {
        if (symbol[at + 1] === ' ') {
          text += ' ';
          at += 2;
          continue;
        }
        at++;
        return text;
      }
      text += c;
      at++;
    }
  };
  const scheme = part();
  const manager = part();
  const name = part();
  const version = part();
  const descriptors: Descriptor[] = [];
  const prefixes: string[] = [];
  const readName = (): string => {
    if (symbol[at] === '`') {
      let text = '';
      at++;
      for (;;) {
        if (at >= symbol.length) throw new Error('unterminated backtick');
        if (symbol[at] === '`') {
          if (symbol[at + 1] !== '`') break;
          at++;
        }
        text += symbol[at++];
      }
      at++;
      return text;
    }
    const start = at;
    while (at < symbol.length && SIMPLE.test(symbol[at]!)) at++;
    return symbol.slice(start, at);
  };
  const expect = (c: string) => {
    if (symbol[at] !== c) throw new Error(`expected ${c}`);
    at++;
  };
  while (at < symbol.length) {
    let descriptor: Descriptor;
    if (symbol[at] === '(') {
      at++;
      descriptor = { name: readName(), suffix: 'parameter' };
      expect(')');
    } else if (symbol[at] === '[') {
      at++;
      descriptor = { name: readName(), suffix: 'typeParameter' };
      expect(']');
    } else {
      const descriptorName = readName();
      const c = symbol[at++];
      const suffix: DescriptorSuffix | undefined = c === '/' ? 'namespace' : c === '#' ? 'type' : c === '.' ? 'term' : c === ':' ? 'meta' : c === '!' ? 'macro' : c === '(' ? 'method' : undefined;
      if (!suffix) throw new Error('unknown descriptor suffix');
      if (suffix === 'method') {
        while (at < symbol.length && symbol[at] !== ')') at++; // the disambiguator
        expect(')');
        expect('.');
      }
      descriptor = { name: descriptorName, suffix };
    }
    descriptors.push(descriptor);
    prefixes.push(symbol.slice(0, at));
  }
  if (descriptors.length === 0) throw new Error('no descriptor');
  return { symbol, local: false, scheme, package: { manager, name, version }, descriptors, prefixes };
}

/** The symbol of the descriptor enclosing the last one (`a/B#c().` → `a/B#`); undefined at the top. */
export function parentSymbol(symbol: ScipSymbol): string | undefined {
  return symbol.prefixes.length > 1 ? symbol.prefixes[symbol.prefixes.length - 2] : undefined;
}

export function lastDescriptor(symbol: ScipSymbol): Descriptor | undefined {
  return symbol.descriptors[symbol.descriptors.length - 1];
}

/**
 * The symbol with its package version replaced by `.`: a repository's own symbols keep their
 * identity when the version an indexer gives them changes (scip-go names the main module's version
 * by commit, scip-python by --project-version). A local symbol, or a string that is no symbol, as it is.
 */
export function withoutVersion(symbol: string): string {
  if (symbol.startsWith('local ')) return symbol;
  // The version is the fourth space-separated part; a doubled space is a space inside a part.
  let part = 0;
  let start = -1;
  for (let at = 0; at < symbol.length; at++) {
    if (symbol[at] !== ' ') continue;
    if (symbol[at + 1] === ' ') {
      at++;
      continue;
    }
    part++;
    if (part === 3) start = at + 1;
    else if (part === 4) return `${symbol.slice(0, start)}.${symbol.slice(at)}`;
  }
  return symbol;
}

/**
 * Whether `text` (a definition's source) is what a descriptor named `name` stands for: the name
 * itself, or as scip-typescript writes it, an accessor's `<get>text` or `<set>text`, or `text`
 * with a number a document's second and later declarations of the name get (`next0`, `next1`).
 */
export function isSourceName(name: string, text: string): boolean {
  if (name === text) return true;
  if (name === `<get>${text}` || name === `<set>${text}`) return true;
  return name.startsWith(text) && /^\d+$/.test(name.slice(text.length));
}
