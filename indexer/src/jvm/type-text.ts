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
  if (text.includes('->')) return { segments: [], args: [], dims, functional: true };
  if (text.startsWith('(') && text.endsWith(')')) return parse(text.slice(1, -1));
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
      } else if (c === '>') {
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
