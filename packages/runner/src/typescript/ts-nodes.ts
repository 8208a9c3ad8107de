// Finding the syntax a refactoring is about: the identifier at an offset, the declaration it names,
// and the statement or member that declaration is, with the comments that belong to it.
import { ts } from 'ts-morph';
import { SextantError } from '@sextant/format';

/** The innermost node that covers `offset` (tokens excluded: identifiers and literals are nodes). */
export function nodeAt(sourceFile: ts.SourceFile, offset: number): ts.Node {
  let node: ts.Node = sourceFile;
  for (;;) {
    const child: ts.Node | undefined = ts.forEachChild(node, (c) => (c.getStart(sourceFile) <= offset && offset < c.end ? c : undefined));
    if (!child) return node;
    node = child;
  }
}

type NamedDeclaration = ts.Node & { name: ts.Node };

/** The declaration whose name starts at `offset`. */
export function declarationAt(sourceFile: ts.SourceFile, offset: number, what: string): NamedDeclaration {
  for (let node: ts.Node | undefined = nodeAt(sourceFile, offset); node; node = node.parent) {
    const name = (node as { name?: ts.Node }).name;
    if (name && name.getStart(sourceFile) === offset && node.kind !== ts.SyntaxKind.PropertyAccessExpression) return node as NamedDeclaration;
  }
  throw new SextantError('INVALID_ARGUMENT', `No declaration of ${what} at ${sourceFile.fileName}:${offset}.`,
    'Target the symbol by its declaration (symbolId or qualifiedName).');
}

/**
 * The node a declaration occupies as text: a variable's whole statement when it is the only one
 * declared there, else the declaration itself.
 */
export function declarationExtent(declaration: ts.Node): ts.Node {
  if (ts.isVariableDeclaration(declaration) && ts.isVariableDeclarationList(declaration.parent)
    && declaration.parent.declarations.length === 1 && ts.isVariableStatement(declaration.parent.parent)) {
    return declaration.parent.parent;
  }
  return declaration;
}

/** Where a node's text starts, its leading comments (doc comments) included. */
export function startWithComments(node: ts.Node, sourceFile: ts.SourceFile): number {
  const comments = ts.getLeadingCommentRanges(sourceFile.text, node.getFullStart()) ?? [];
  return comments.length ? Math.min(comments[0]!.pos, node.getStart(sourceFile)) : node.getStart(sourceFile);
}

/** Whether a declaration is a member of a class, interface, type literal, object literal or enum. */
export function isMemberDeclaration(node: ts.Node): boolean {
  return ts.isClassElement(node) || ts.isTypeElement(node) || ts.isEnumMember(node)
    || ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) && ts.isObjectLiteralExpression(node.parent));
}
