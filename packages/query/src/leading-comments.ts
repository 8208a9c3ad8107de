// Where a declaration starts once its leading doc comment and decorators are counted: the index
// stores each declaration's syntactic range (DeclRecord.range), which for TypeScript leaves out the
// JSDoc and, on class members, the decorators, and for Java and Kotlin leaves out the Javadoc/KDoc.
// read_file by symbol scans upward from the range's first line over the lines that belong to it.
import type { Language } from '@sextant/format';

interface CommentSyntax {
  line: string;
  blockStart: string;
  blockEnd: string;
  /** `@name` or `@name(...)` lines above a declaration are its decorators or annotations. */
  annotations: boolean;
}

/** All four indexed languages share C-style comments and `@` decorators/annotations. */
const C_STYLE: CommentSyntax = { line: '//', blockStart: '/*', blockEnd: '*/', annotations: true };
const SYNTAX: Record<Language, CommentSyntax> = { typescript: C_STYLE, javascript: C_STYLE, java: C_STYLE, kotlin: C_STYLE };

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
    if (text.startsWith(syntax.line)) next = i;
    else if (text.endsWith(syntax.blockEnd)) next = blockCommentStart(lines, i, syntax);
    else if (syntax.annotations && text.startsWith('@')) next = i;
    else if (syntax.annotations && text.endsWith(')')) next = annotationStart(lines, i);
    if (next === undefined) break;
    start = next;
    i = next - 1;
  }
  return start;
}

/** The line where the block comment ending on line `end` opens, if nothing but blanks is before its opening. */
function blockCommentStart(lines: readonly string[], end: number, syntax: CommentSyntax): number | undefined {
  for (let j = end; j >= 1; j--) {
    const text = lines[j - 1]!;
    // On the closing line itself, only an opening before the closing counts (`/** a */`).
    const searchIn = j === end ? text.slice(0, text.lastIndexOf(syntax.blockEnd)) : text;
    const open = searchIn.lastIndexOf(syntax.blockStart);
    if (open >= 0) return text.slice(0, open).trim() === '' ? j : undefined;
  }
  return undefined;
}

/** The first line of a parenthesised annotation ending on line `end`, when it starts with `@`. */
function annotationStart(lines: readonly string[], end: number): number | undefined {
  let depth = 0;
  for (let j = end; j >= 1 && end - j < 200; j--) {
    const text = lines[j - 1]!;
    for (let k = text.length - 1; k >= 0; k--) {
      if (text[k] === ')') depth++;
      else if (text[k] === '(') depth--;
    }
    if (depth <= 0) return depth === 0 && text.trim().startsWith('@') ? j : undefined;
  }
  return undefined;
}
