// Kotlin that tree-sitter-kotlin misreads, rewritten character for character into text it reads as
// kotlinc does, and parsed again. A file is only reparsed when its first parse has errors, and the
// repaired parse is only kept when less of it is damaged: the grammar's defects cost whole classes (every
// declaration and reference after the defect lands in one ERROR node), a rewrite that does not help
// costs one parse. Offsets are kept (one character for one), so names and ranges read from the
// repaired tree are the file's own (the extractor reads every text from the file, not the tree); a
// rewritten line break moves tree-sitter's rows, so positions are then read from offsets (`rowsMoved`).
import type { Node, Parser, Tree } from 'web-tree-sitter';

/**
 * Two one-line bodies in a row (`class A { val x = 1 }` twice) make the grammar give up on the rest
 * of the file: the member needs a terminator before `}`. The space before a one-line block's `}`
 * becomes `;`, which Kotlin reads as the same statement's end. Not in a string template (`${x }`),
 * a line comment or a doc comment's line.
 */
const ONE_LINE_BLOCK = /(?<!\$)\{[^{}"'`\n]*[^\s{};"'`][ \t]\}/g;

/**
 * `class A` followed by its constructor on the next line (`@VisibleForTesting internal
 * constructor(…)`; in a class body, also `private constructor(…)`) is read as a new declaration:
 * the line break before the constructor becomes a space.
 */
const CONSTRUCTOR_ON_NEXT_LINE = /(\b(?:class|object)\s+\w+(?:<[^{}()\n]{0,200}?>)?)([ \t]*\r?\n[ \t\r\n]*)(?=(?:@[\w.]+(?:\([^()\n]{0,200}\))?\s+)*(?:(?:public|internal|private|protected)\s+)?constructor\b)/g;

/**
 * `dynamic` is a keyword to the grammar (Kotlin/JS's type) but a name like any other on the JVM
 * (`val dynamic = pool.acquire()`): read as `dynami_`, when the file has no such name of its own.
 * Names are read from the file's text, so the index still says `dynamic`.
 */
const DYNAMIC = /\bdynamic\b/g;
const DYNAMIC_STAND_IN = 'dynami_';

/**
 * The text rewritten where a known defect of the grammar would misread it, or undefined when nothing
 * is. The patterns run on any file a repository holds, so each scans a bounded stretch (a line, at
 * most 200 characters of type arguments or an annotation's arguments) per match: linear in the file.
 */
export function repairedKotlin(text: string): { text: string; rowsMoved: boolean } | undefined {
  let rowsMoved = false;
  let repaired = text.replace(ONE_LINE_BLOCK, (block, offset: number) => {
    const lineStart = text.lastIndexOf('\n', offset) + 1;
    const before = text.slice(lineStart, offset);
    return before.includes('//') || /^\s*\*/.test(before) ? block : `${block.slice(0, -2)};}`;
  });
  if (!text.includes(DYNAMIC_STAND_IN)) repaired = repaired.replace(DYNAMIC, DYNAMIC_STAND_IN);
  repaired = repaired.replace(CONSTRUCTOR_ON_NEXT_LINE, (_match, header: string, breaks: string) => {
    rowsMoved = true;
    return header + breaks.replace(/[\r\n]/g, ' ');
  });
  return repaired === text ? undefined : { text: repaired, rowsMoved };
}

/** Characters inside ERROR nodes, and one per MISSING node: how much of a file a parse lost. */
function damage(root: Node): number {
  let lost = 0;
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.isMissing) lost += 1;
    else if (node.isError) lost += node.endIndex - node.startIndex;
    else if (node.hasError) for (const child of node.children) if (child) pending.push(child);
  }
  return lost;
}

/**
 * The tree of a Kotlin file, from its repaired text when the first parse has errors and the
 * repaired one loses less (the first tree is then deleted); else the first tree.
 */
export function reparsedKotlin(parser: Parser, text: string, tree: Tree, parse: (text: string) => Tree | null): { tree: Tree; rowsMoved: boolean } {
  const repair = tree.rootNode.hasError ? repairedKotlin(text) : undefined;
  if (!repair) return { tree, rowsMoved: false };
  const second = parse(repair.text);
  if (!second) {
    parser.reset();
    return { tree, rowsMoved: false };
  }
  if (damage(second.rootNode) < damage(tree.rootNode)) {
    tree.delete();
    return { tree: second, rowsMoved: repair.rowsMoved };
  }
  second.delete();
  return { tree, rowsMoved: false };
}
