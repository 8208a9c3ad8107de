// Types as written in Java and Kotlin source (`Map.Entry<K, List<V>>[]`, `String...`, `List<out T>?`,
// `(Int) -> Unit`), parsed into a dotted name, type arguments and array dimensions. Resolution of
// the names happens elsewhere; this only reads the text.

export interface TypeText {
  /** Dotted name segments (`['Map', 'Entry']`); empty for a function type. */
  segments: string[];
  args: TypeText[];
  /** Array dimensions, `...` counting as one. */
  dims: number;
  /** A Kotlin function type (`(A) -> B`, `suspend () -> Unit`). */
  functional?: boolean;
  /** A function type's parameters, its receiver first (`A.(B) -> C` takes an A and a B). */
  params?: TypeText[];
  /** A function type with a receiver (`A.(B) -> C`): its first parameter is the lambda's `this`. */
  receiver?: true;
  /** A function type's result. */
  result?: TypeText;
}

const cache = new Map<string, TypeText | undefined>();

/** Parses a type as written; undefined for text that is not a type (a wildcard alone, garbage). */
export function parseTypeText(text: string): TypeText | undefined {
  let parsed = cache.get(text);
  if (parsed === undefined && !cache.has(text)) {
    parsed = parse(text);
    if (cache.size > 100_000) cache.clear();
    cache.set(text, parsed);
  }
  return parsed;
}

function parse(raw: string): TypeText | undefined {
  let text = raw.replace(/@[\w.]+(\([^)]*\))?/g, ' ').replace(/\b(final|in|out|reified)\s+/g, '').replace(/\s+/g, '').replace(/^\?extends|^\?super/, '');
  if (!text || text === '?' || text === '*') return undefined;
  if (text.startsWith('suspend')) text = text.slice('suspend'.length);
  let dims = 0;
  for (;;) {
    if (text.endsWith('?') || text.endsWith('!!')) text = text.replace(/(\?|!!)$/, '');
    else if (text.endsWith('[]')) {
      dims++;
      text = text.slice(0, -2);
    } else if (text.endsWith('...')) {
      dims++;
      text = text.slice(0, -3);
    } else break;
  }
  if (text.startsWith('(') && closingParen(text, 0) === text.length - 1) return parse(text.slice(1, -1));
  if (text.includes('->') && hasTopLevelArrow(text)) return functionType(text, dims);
  const open = text.indexOf('<');
  const segments: string[] = [];
  const args: TypeText[] = [];
  if (open < 0) {
    segments.push(...text.split('.'));
  } else {
    // `Outer<A>.Inner<B>`: segments keep their names, the last type arguments win.
    let depth = 0;
    let segmentStart = 0;
    let argStart = -1;
    let current: string[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '<') {
        if (depth === 0) {
          current = [];
          segments.push(...text.slice(segmentStart, i).split('.').filter(Boolean));
          argStart = i + 1;
        }
        depth++;
      } else if (c === '>' && text[i - 1] !== '-') {
        depth--;
        if (depth === 0) {
          current.push(text.slice(argStart, i));
          args.length = 0;
          for (const arg of current) {
            const parsedArg = parse(arg);
            args.push(parsedArg ?? { segments: ['?'], args: [], dims: 0 });
          }
          segmentStart = i + 1;
        }
      } else if (c === ',' && depth === 1) {
        current.push(text.slice(argStart, i));
        argStart = i + 1;
      }
    }
    segments.push(...text.slice(segmentStart).split('.').filter(Boolean));
  }
  if (segments.length === 0 || segments.some((s) => !/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(s) && !/^`[^`]+`$/.test(s))) return undefined;
  return { segments, args, dims };
}

/** Index of the `)` matching the `(` at `open`, -1 when unbalanced. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Whether `->` occurs outside brackets: the text is a function type, not a type with one in its arguments. */
function hasTopLevelArrow(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '-' && text[i + 1] === '>') {
      if (depth === 0) return true;
      i++;
    } else if (c === '(' || c === '<') depth++;
    else if (c === ')' || c === '>') depth--;
  }
  return false;
}

/** Top-level pieces of a list (`A<B, C>, D` → two), split at commas outside brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '<') depth++;
    else if (c === ')' || (c === '>' && text[i - 1] !== '-')) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (text.slice(start)) parts.push(text.slice(start));
  return parts;
}

/** `(A, name: B) -> C`, `R.(A) -> C` (whitespace already removed). */
function functionType(text: string, dims: number): TypeText {
  const unknown: TypeText = { segments: ['?'], args: [], dims: 0 };
  const open = text.startsWith('(') ? 0 : text.indexOf('.(');
  const paramsOpen = open === 0 ? 0 : open + 1;
  const close = open >= 0 ? closingParen(text, paramsOpen) : -1;
  if (open < 0 || close < 0 || !text.startsWith('->', close + 1)) return { segments: [], args: [], dims, functional: true };
  const params = splitTopLevel(text.slice(paramsOpen + 1, close)).map((p) => parse(p.replace(/^[\p{L}_][\p{L}\p{N}_]*:(?!:)/u, '')) ?? unknown);
  if (open > 0) params.unshift(parse(text.slice(0, open)) ?? unknown);
  return { segments: [], args: [], dims, functional: true, params, result: parse(text.slice(close + 3)) ?? unknown, ...(open > 0 ? { receiver: true as const } : {}) };
}

/** The erased type as written (`List<String>` → `List`, `String...` stays), for Java qualified names. */
export function erasedText(text: string, varargs = false): string {
  let depth = 0;
  let out = '';
  for (const c of text.replace(/@[\w.]+(\([^)]*\))?/g, ' ').replace(/\bfinal\s+/g, '')) {
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (depth === 0 && !/\s/.test(c)) out += c;
  }
  return varargs ? `${out}...` : out;
}
