// Editing around one declaration, in any language: replacing its text, or inserting code before or
// after it. A doc comment above the declaration stays when it is replaced, and code inserted
// before it goes above the comment. Inserted code gets the file's line endings and sits on lines of
// its own.
import { withEol } from '@sextant/format';
import { wholeLines } from '@sextant/plan';

export type DeclarationEdit = 'replace_symbol_body' | 'insert_before_symbol' | 'insert_after_symbol';

/** The one edit of a declaration operation, given the declaration's extent; shared with the index planner. */
export function declarationTextEdit(
  text: string, eol: '\n' | '\r\n', extent: { start: number; end: number; startWithComments: number }, operation: DeclarationEdit, code: string,
): { start: number; end: number; newText: string } {
  const indent = /^[ \t]*/.exec(text.slice(lineStart(text, extent.start)))![0];
  const body = reindent(withEol(code, eol).replace(/(\r?\n)+$/, ''), indent, eol, operation === 'replace_symbol_body');
  if (operation === 'replace_symbol_body') return { start: extent.start, end: extent.end, newText: body };
  if (operation === 'insert_before_symbol') {
    // On lines of its own above the declaration (and its comments) when nothing else precedes it on its line.
    const lineBegin = lineStart(text, extent.startWithComments);
    const at = /^[ \t]*$/.test(text.slice(lineBegin, extent.startWithComments)) ? lineBegin : extent.startWithComments;
    return { start: at, end: at, newText: body + eol };
  }
  const lines = wholeLines(text, extent.startWithComments, extent.end);
  if (lines.end > extent.end && /[\n\r]$/.test(text.slice(extent.end, lines.end))) return { start: lines.end, end: lines.end, newText: body + eol };
  // The declaration ends the file without a line break, or shares its last line: start a new line.
  return { start: extent.end, end: extent.end, newText: eol + body };
}

function lineStart(text: string, offset: number): number {
  let at = offset;
  while (at > 0 && text[at - 1] !== '\n' && text[at - 1] !== '\r') at--;
  return at;
}

/**
 * Code indented as the declaration is: its lines keep their relative indentation under the
 * declaration's. A replacement's first line goes where the declaration starts, already indented.
 */
function reindent(code: string, indent: string, eol: string, firstInPlace: boolean): string {
  const lines = code.split(eol);
  const common = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
  return lines.map((line, i) => {
    if (!line.trim()) return '';
    const own = line.slice(Number.isFinite(common) ? common : 0);
    return firstInPlace && i === 0 ? own : indent + own;
  }).join(eol);
}
