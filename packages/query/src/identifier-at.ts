// What the text holds at a position where the index has no occurrence: an identifier (a word of
// identifier characters that is not a keyword, outside comments and string literals) or something
// else. NO_SYMBOL_AT_POSITION then says "an identifier `baseUrl` that no declaration in the index
// matches" instead of blaming whitespace, a comment, a literal or a keyword for a name the indexer
// did not resolve. The languages Sextant indexes share C's comments and quotes, so one scanner
// serves them; where it cannot tell (a regular expression literal, a Kotlin string template) it
// says "not an identifier", the old answer.

/** Words no language Sextant indexes accepts as a declaration's name. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  // ECMAScript and TypeScript
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super',
  'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'let', 'static', 'yield', 'await',
  'implements', 'interface', 'package', 'private', 'protected', 'public',
  // Java and Kotlin hard keywords
  'abstract', 'assert', 'boolean', 'byte', 'char', 'double', 'final', 'float', 'goto', 'int', 'long', 'native', 'short',
  'strictfp', 'synchronized', 'throws', 'transient', 'volatile', 'as', 'fun', 'is', 'object', 'typealias', 'val', 'when',
]);

/**
 * Words that are keywords where they stand far more often than names (TypeScript's contextual
 * keywords and primitive types, Kotlin's modifiers): a position on one is "a keyword", as before.
 */
const CONTEXTUAL_KEYWORDS: ReadonlySet<string> = new Set([
  'any', 'unknown', 'never', 'string', 'number', 'bigint', 'symbol', 'undefined', 'type', 'keyof', 'readonly', 'declare',
  'namespace', 'module', 'from', 'of', 'async', 'get', 'set', 'asserts', 'infer', 'satisfies', 'override', 'accessor',
  'companion', 'data', 'sealed', 'internal', 'open', 'inner', 'suspend', 'inline', 'lateinit', 'init', 'constructor', 'by',
  'where', 'out', 'reified', 'vararg', 'crossinline', 'noinline', 'operator', 'infix', 'tailrec', 'external', 'expect', 'actual',
  'record', 'permits',
]);

const PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_$]/u;
const START = /[\p{L}\p{Nl}_$]/u;

/**
 * The identifier whose characters cover the position (1-based line and UTF-16 column; a caret just
 * past its last character counts, as for occurrences), or undefined when the position is on
 * whitespace, punctuation, a number, a keyword, or inside a comment or a string literal.
 */
export function identifierAt(lines: readonly string[], line: number, column: number): string | undefined {
  const text = lines[line - 1];
  if (text === undefined) return undefined;
  let at = column - 1;
  if (!PART.test(text[at] ?? '') && PART.test(text[at - 1] ?? '')) at--;
  if (!PART.test(text[at] ?? '')) return undefined;
  let start = at;
  let end = at + 1;
  while (start > 0 && PART.test(text[start - 1]!)) start--;
  while (end < text.length && PART.test(text[end]!)) end++;
  const word = text.slice(start, end);
  if (!START.test(word[0]!) || RESERVED_WORDS.has(word) || CONTEXTUAL_KEYWORDS.has(word)) return undefined;
  return insideCommentOrString(lines, line, start) ? undefined : word;
}

type Mode = 'code' | 'line' | 'block' | 'single' | 'double' | 'textBlock' | 'template';

/** Whether the text before (line, index) leaves a comment or a string literal open. */
function insideCommentOrString(lines: readonly string[], line: number, index: number): boolean {
  const before = `${lines.slice(0, line - 1).join('\n')}${line > 1 ? '\n' : ''}${lines[line - 1]!.slice(0, index)}`;
  let mode: Mode = 'code';
  // Brace depth, and the depth at which each open `${` of a template literal closes.
  let depth = 0;
  const substitutions: number[] = [];
  for (let i = 0; i < before.length; i++) {
    const c = before[i]!;
    const next = before[i + 1];
    if (mode === 'code') {
      if (c === '/' && (next === '/' || next === '*')) {
        mode = next === '/' ? 'line' : 'block';
        i++;
      } else if (before.startsWith('"""', i)) {
        mode = 'textBlock';
        i += 2;
      } else if (c === '"' || c === "'" || c === '`') {
        mode = c === '"' ? 'double' : c === "'" ? 'single' : 'template';
      } else if (c === '{') {
        depth++;
      } else if (c === '}' && substitutions.at(-1) === depth) {
        substitutions.pop();
        mode = 'template';
      } else if (c === '}') {
        depth--;
      }
    } else if (mode === 'line') {
      if (c === '\n') mode = 'code';
    } else if (mode === 'block') {
      if (c === '*' && next === '/') {
        mode = 'code';
        i++;
      }
    } else if (mode === 'single' || mode === 'double') {
      if (c === '\\') i++;
      else if (c === (mode === 'single' ? "'" : '"') || c === '\n') mode = 'code';
    } else if (mode === 'textBlock') {
      if (before.startsWith('"""', i)) {
        mode = 'code';
        i += 2;
      }
    } else if (c === '\\') {
      i++;
    } else if (c === '`') {
      mode = 'code';
    } else if (c === '$' && next === '{') {
      substitutions.push(depth);
      mode = 'code';
      i++;
    }
  }
  return mode !== 'code';
}
