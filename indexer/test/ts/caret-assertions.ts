// Caret assertions for outline tests: a snippet states what it should declare right under the code,
//
//   class OrderService {
//   //    ^ definition.class
//
// so expectations sit next to the source they describe instead of in hand-counted positions.

import type { OutlineNode } from '@sextant/format';

export interface CaretAssertion {
  /** 1-based line of the code the caret points into (the nearest line above that is not an assertion). */
  line: number;
  /** 1-based column of the caret, in UTF-16 code units (so carets under non-ASCII text look shifted). */
  column: number;
  kind: string;
}

const ASSERTION_LINE = /^\s*\/\/(?:\s*\^\s*definition\.\w+)+\s*$/;
const CARET = /\^\s*definition\.(\w+)/g;

export function caretAssertions(source: string): CaretAssertion[] {
  const assertions: CaretAssertion[] = [];
  let codeLine = 0;
  source.split(/\r\n|\r|\n/).forEach((text, index) => {
    if (!ASSERTION_LINE.test(text)) {
      codeLine = index + 1;
      return;
    }
    if (codeLine === 0) throw new Error(`Caret assertion on line ${index + 1} has no code line above it.`);
    for (const match of text.matchAll(CARET)) {
      assertions.push({ line: codeLine, column: match.index + 1, kind: match[1] });
    }
  });
  return assertions;
}

export function flattenOutline(nodes: readonly OutlineNode[]): OutlineNode[] {
  return nodes.flatMap((node) => [node, ...flattenOutline(node.children)]);
}

/**
 * Failures of the snippet's caret assertions against an outline (empty when all hold): each caret
 * needs an outline node of its kind whose name starts exactly there. With `exhaustive`, every
 * outline node must also be claimed by a caret, which is how tests say what must stay out.
 */
export function caretFailures(source: string, outline: readonly OutlineNode[], options: { exhaustive?: boolean } = {}): string[] {
  const assertions = caretAssertions(source);
  if (assertions.length === 0) return ['snippet has no caret assertions'];
  const nodes = flattenOutline(outline);
  const claimed = new Set<OutlineNode>();
  const failures: string[] = [];
  for (const { line, column, kind } of assertions) {
    const here = nodes.filter((node) => node.at[0] === line && node.at[1] === column);
    const match = here.find((node) => node.kind === kind);
    if (match) {
      claimed.add(match);
    } else {
      const found = here.length > 0 ? here.map(describe).join(', ') : 'nothing';
      failures.push(`${line}:${column} expected definition.${kind}, found ${found}`);
    }
  }
  if (options.exhaustive) {
    for (const node of nodes) if (!claimed.has(node)) failures.push(`unexpected ${describe(node)}`);
  }
  return failures;
}

function describe(node: OutlineNode): string {
  return `${node.kind} ${node.name} at ${node.at[0]}:${node.at[1]}`;
}
