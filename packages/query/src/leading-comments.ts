// Where a declaration starts once its leading doc comment and decorators are counted: the index
// stores each declaration's syntactic range (DeclRecord.range), which for TypeScript leaves out the
// JSDoc and, on class members, the decorators, and for the other languages leaves out their doc
// comments and attributes.
// read_file by symbol scans upward from the range's first line over the lines that belong to it.
import type { Language } from '@sextant/format';

interface CommentSyntax {
  /** What starts a line comment. */
  line: readonly string[];
  block?: { start: string; end: string };
  /** What starts a decorator or annotation line above a declaration (`@name`, `#[derive(…)]`, `[Attr]`). */
  annotation?: string;
}

const C_BLOCK = { start: '/*', end: '*/' };
/** C-style comments and `@` decorators/annotations. */
const C_STYLE: CommentSyntax = { line: ['//'], block: C_BLOCK, annotation: '@' };
const HASH: CommentSyntax = { line: ['#'] };
const SYNTAX: Record<Language, CommentSyntax> = {
  typescript: C_STYLE, javascript: C_STYLE, java: C_STYLE, kotlin: C_STYLE, swift: C_STYLE, scala: C_STYLE,
  python: { line: ['#'], annotation: '@' },
  go: { line: ['//'], block: C_BLOCK },
  rust: { line: ['//'], block: C_BLOCK, annotation: '#[' },
  csharp: { line: ['//'], block: C_BLOCK, annotation: '[' },
  php: { line: ['//', '#'], block: C_BLOCK, annotation: '#[' },
  c: { line: ['//'], block: C_BLOCK },
  cpp: { line: ['//'], block: C_BLOCK, annotation: '[[' },
  ruby: HASH,
  bash: HASH,
};

/**
 * The first line (1-based) of the comments and annotations directly above `line`: consecutive
 * line comments, block comments (a doc comment) and annotation lines, with no blank line between
 * them and the declaration. A multi-line annotation (`@Component({` … `})`) counts when its
 * parentheses balance back to a line starting with `@`. Returns `line` when nothing is above it.
 */
export function leadingCommentStart(lines: readonly string[], line: number, language: Language): number {
  const syntax = SYNTAX[language];
  let start = line;
  let i = line - 1;
  while (i >= 1) {
    const text = lines[i - 1]!.trim();
    if (text === '') break;
    let next: number | undefined;
    const { block, annotation } = syntax;
    if (syntax.line.some((prefix) => text.startsWith(prefix)) || (annotation && text.startsWith(annotation))) next = i;
    else if (block && text.endsWith(block.end)) next = blockCommentStart(lines, i, block);
    else if (annotation && /[)\]]$/.test(text)) next = annotationStart(lines, i, annotation);
    if (next === undefined) break;
    start = next;
    i = next - 1;
  }
  return start;
}

/** The line where the block comment ending on line `end` opens, if nothing but blanks is before its opening. */
function blockCommentStart(lines: readonly string[], end: number, block: { start: string; end: string }): number | undefined {
  for (let j = end; j >= 1; j--) {
    const text = lines[j - 1]!;
    // On the closing line itself, only an opening before the closing counts (`/** a */`).
    const searchIn = j === end ? text.slice(0, text.lastIndexOf(block.end)) : text;
    const open = searchIn.lastIndexOf(block.start);
    if (open >= 0) return text.slice(0, open).trim() === '' ? j : undefined;
  }
  return undefined;
}

/** The first line of a bracketed annotation ending on line `end`, when it starts with the annotation's prefix. */
function annotationStart(lines: readonly string[], end: number, prefix: string): number | undefined {
  let depth = 0;
  for (let j = end; j >= 1 && end - j < 200; j--) {
    const text = lines[j - 1]!;
    for (let k = text.length - 1; k >= 0; k--) {
      if (text[k] === ')' || text[k] === ']') depth++;
      else if (text[k] === '(' || text[k] === '[') depth--;
    }
    if (depth <= 0) return depth === 0 && text.trim().startsWith(prefix) ? j : undefined;
  }
  return undefined;
}
