// Syntax errors of a tree-sitter parse, as problems (an ERROR node, a MISSING token), and the
// positions and text they are reported with: shared by the indexers that parse with tree-sitter
// (Java and Kotlin, the tags languages). TypeScript and JavaScript report the compiler's own.
import type { Node } from 'web-tree-sitter';
import { positionAt, type ProblemRecord } from '@sextant/format';

const MAX_PROBLEMS = 100;
const MAX_SNIPPET = 40;

/** 1-based [line, column] of a UTF-16 offset, over line starts from the format's lineStarts (the compiler's line breaks). */
export function positionOf(lines: number[], offset: number): [number, number] {
  const { line, column } = positionAt(lines, offset);
  return [line, column];
}

// Lone surrogates (binary input, string keys) would not survive UTF-8 encoding of the shards.
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\ufffd');
}

export function problemsOf(root: Node, text: string, lines: number[]): ProblemRecord[] {
  const problems: ProblemRecord[] = [];
  if (!root.hasError) return problems;
  // Explicit stack: deeply nested input must not overflow the JS call stack. Only subtrees that
  // contain an error are entered. An ERROR node's subtree is one recovery, reported once.
  const pending: Node[] = [root];
  while (pending.length > 0 && problems.length < MAX_PROBLEMS) {
    const node = pending.pop()!;
    if (node.isMissing) {
      const what = node.isNamed ? node.type.replace(/_/g, ' ') : `\`${node.type}\``;
      problems.push(problemAt(`Syntax error: missing ${what}`, node, lines));
    } else if (node.isError) {
      problems.push(problemAt(unexpectedMessage(text, node), node, lines));
    } else if (node.hasError) {
      const children = node.children;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (child) pending.push(child);
      }
    }
  }
  return problems;
}

function problemAt(message: string, node: Node, lines: number[]): ProblemRecord {
  const [line, column] = positionOf(lines, node.startIndex);
  const [endLine, endColumn] = positionOf(lines, node.endIndex);
  return { source: 'syntax', severity: 'error', message, line, column, endLine, endColumn };
}

function unexpectedMessage(text: string, node: Node): string {
  const firstLine = text.slice(node.startIndex, node.endIndex).split(/\r\n|[\r\n\u2028\u2029]/, 1)[0].trim();
  if (!firstLine) return node.startIndex >= text.length ? 'Syntax error: unexpected end of file' : 'Syntax error: unexpected input';
  // Count code points so that truncation never splits a surrogate pair; control characters
  // (binary files) would garble the message, so they are shown as U+FFFD.
  const chars = Array.from(wellFormed(firstLine.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\ufffd')));
  const snippet = chars.length > MAX_SNIPPET ? `${chars.slice(0, MAX_SNIPPET).join('')}…` : chars.join('');
  return `Syntax error: unexpected \`${snippet}\``;
}
