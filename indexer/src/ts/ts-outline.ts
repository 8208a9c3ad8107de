// The outline of a TypeScript or JavaScript file from the compiler's own syntax tree (its
// DeclarationTable), not from tree-sitter: the TypeScript grammar lags the language (variance
// annotations `in out`, `const` type parameters, …), and where it fails, a file's outline loses
// declarations and their ranges. A DeclRecord's range and body fingerprint (diff_symbols), and the
// declaration reach of an incremental build, rest on those ranges; the compiler parses what it checks.
//
// What it lists: every declaration that is not a local, a parameter (a parameter property too), an
// import alias, a `for` or `catch` variable, a member of a type literal other than a type alias's,
// or an object literal's value; and functions and classes wherever they are (nested in a function
// too) with their members; each under its nearest listed container (or, without one, the listed
// declaration it lies in).
// A declaration's range is its node's, modifiers and decorators included, its doc comment not: a
// variable's is its statement's when the statement declares it alone (`export const a = 1;`), a
// JavaScript assignment's (`exports.a = …`) its statement's.
import { ts } from 'ts-morph';
import type { OutlineNode } from '@sextant/format';
import { isFunctionValue, type Declaration, type DeclarationTable } from './declaration-table.ts';

/** Where each listed declaration's name is (as its definition is recorded), and which symbol it is. */
export interface OutlineSource {
  table: DeclarationTable;
  sourceFile: ts.SourceFile;
  /** The definition's name position, 1-based line and UTF-16 column, as the walk records it. */
  nameAt(node: ts.Node): [number, number];
  /** The index in the file's syms of the symbol defined at a name position, -1 when none is. */
  symAt(at: [number, number]): number;
}

export function tsOutline({ table, sourceFile, nameAt, symAt }: OutlineSource): OutlineNode[] {
  // The listed declarations by node (a Declaration's container is one of them, or an ancestor node is).
  const listed = new Map<ts.Node, OutlineNode>();
  const roots: OutlineNode[] = [];
  for (const decl of table.declarations) {
    if (!isListed(decl, decl.container !== undefined && listed.has(decl.container.node))) continue;
    const whole = rangeNode(decl.node);
    const start = sourceFile.getLineAndCharacterOfPosition(whole.getStart(sourceFile));
    const end = sourceFile.getLineAndCharacterOfPosition(endOf(whole, sourceFile));
    const at = nameAt(decl.node);
    const node: OutlineNode = { name: decl.name, kind: decl.kind, sym: symAt(at), range: [start.line + 1, start.character + 1, end.line + 1, end.character + 1], at, children: [] };
    listed.set(decl.node, node);
    // Under its container (`A.prototype.m = …` under A), else the declaration it lies in (an augmentation's members under `declare module`).
    let container = decl.container;
    while (container && !listed.has(container.node)) container = container.container;
    let parent = container ? listed.get(container.node) : undefined;
    for (let up = decl.node.parent; !parent && up; up = up.parent) parent = listed.get(up);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The kinds listed even as locals: what a reader of a function's body looks for in its structure. */
const LISTED_LOCAL_KINDS = new Set(['function', 'class', 'component']);

function isListed(decl: Declaration, inListed: boolean): boolean {
  const node = decl.node;
  if (ts.isSourceFile(node) || decl.kind === 'parameter' || decl.kind === 'typeParameter' || decl.kind === 'local') return false;
  if (ts.isNamespaceImport(node) || ts.isImportClause(node) || ts.isImportEqualsDeclaration(node) || ts.isNamespaceExport(node)) return false;
  // `constructor(private x)`: a property, listed as its constructor's parameter is (not at all), as SCIP indexers do.
  if (ts.isParameter(node)) return false;
  // A type literal's members are part of the type that names them (a property's), an object literal's
  // values part of its variable's: their text, not declarations of their own; a type alias's own
  // members (`type Point = { x: number }`), an object literal's methods and functions are listed.
  if (ts.isTypeLiteralNode(node.parent) && !ts.isTypeAliasDeclaration(node.parent.parent)) return false;
  if (ts.isObjectLiteralExpression(node.parent) && decl.kind !== 'method' && !(ts.isPropertyAssignment(node) && isFunctionValue(node.initializer))) return false;
  // A variable of a statement, not of a `for` or `catch` clause.
  if (ts.isVariableDeclaration(node) && !ts.isVariableStatement(node.parent.parent)) return false;
  // Locals: functions and classes, and the members of those listed.
  return !decl.local || (inListed && ts.isClassLike(node.parent)) || LISTED_LOCAL_KINDS.has(decl.kind);
}

/** The node whose text a declaration is: its statement for a variable declared alone or a JavaScript assignment. */
function rangeNode(node: ts.Node): ts.Node {
  let at = node;
  while (ts.isBindingElement(at) || ts.isObjectBindingPattern(at) || ts.isArrayBindingPattern(at)) at = at.parent;
  if (ts.isVariableDeclaration(at) && ts.isVariableDeclarationList(at.parent) && ts.isVariableStatement(at.parent.parent)) {
    return at.parent.declarations.length === 1 ? at.parent.parent : at;
  }
  if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && ts.isBinaryExpression(node.parent)) at = node.parent;
  if (ts.isBinaryExpression(at) && ts.isExpressionStatement(at.parent)) return at.parent;
  return node;
}

/** Where a declaration's text ends: a member's without the `;` or `,` that separates it from the next (its container's text). */
function endOf(node: ts.Node, sourceFile: ts.SourceFile): number {
  const isMember = ts.isClassElement(node) || ts.isTypeElement(node) || ts.isEnumMember(node) || ts.isObjectLiteralElement(node);
  const last = sourceFile.text.charCodeAt(node.end - 1);
  return isMember && (last === 59 || last === 44) ? node.end - 1 : node.end;
}
