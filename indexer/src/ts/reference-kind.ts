// What a name does where it stands, read from the syntax alone: the kind of a reference (call, new,
// read, write, type, import, export, inherit, jsx, decorator), which string literals name a property
// or a module, and which object literals are destructuring targets. The checker says what a name
// resolves to; these say how it is used.
import { ts } from 'ts-morph';
import type { ReferenceKind } from '@sextant/format';
import { isInJSFile } from './compiler-internals.ts';

/** The access kind of a reference, from its syntactic position. */
export function referenceKind(node: ts.Node): ReferenceKind {
  let expression: ts.Node = node;
  let parent = node.parent;
  while ((ts.isPropertyAccessExpression(parent) && parent.name === expression) || (ts.isQualifiedName(parent) && parent.right === expression)
    || (ts.isElementAccessExpression(parent) && parent.argumentExpression === expression && ts.isStringLiteralLike(expression))) {
    expression = parent;
    parent = parent.parent;
  }
  while (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent)) {
    expression = parent;
    parent = parent.parent;
  }
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isImportEqualsDeclaration(parent)) return 'import';
  if (ts.isExportSpecifier(parent) || ts.isExportAssignment(parent)) return 'export';
  if (ts.isExpressionWithTypeArguments(parent) && (ts.isHeritageClause(parent.parent) || ts.isJSDocAugmentsTag(parent.parent) || ts.isJSDocImplementsTag(parent.parent))) return 'inherit';
  if (ts.isDecorator(parent) || (ts.isCallExpression(parent) && ts.isDecorator(parent.parent) && parent.expression === expression)) return 'decorator';
  if ((ts.isJsxOpeningElement(parent) || ts.isJsxSelfClosingElement(parent) || ts.isJsxClosingElement(parent)) && parent.tagName === expression) return 'jsx';
  if (ts.isNewExpression(parent) && parent.expression === expression) return 'new';
  if ((ts.isCallExpression(parent) && parent.expression === expression) || (ts.isTaggedTemplateExpression(parent) && parent.tag === expression)) return 'call';
  if (ts.isTypeReferenceNode(parent) || ts.isTypeQueryNode(parent) || ts.isExpressionWithTypeArguments(parent) || ts.isImportTypeNode(parent)
    || ts.isTypePredicateNode(parent) || ts.isIndexedAccessTypeNode(parent) || ts.isLiteralTypeNode(parent)) return 'type';
  if (isWriteTarget(expression)) return 'write';
  return 'read';
}

/** `import … from` / `export … from` a module: an import, unless it re-exports. */
export function aliasKind(node: ts.Node): ReferenceKind {
  for (let current: ts.Node = node; current; current = current.parent) {
    if (ts.isImportDeclaration(current) || ts.isImportEqualsDeclaration(current)) return 'import';
    // CommonJS: `exports.x = x` and `module.exports = { x }` export.
    if (ts.isExportDeclaration(current) || ts.isExportAssignment(current) || ts.isBinaryExpression(current)) return 'export';
    if (ts.isSourceFile(current)) break;
  }
  return 'import';
}

export function isWriteTarget(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.left === node) {
    return parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  }
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent))
    && (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) return true;
  if ((ts.isForInStatement(parent) || ts.isForOfStatement(parent)) && parent.initializer === node) return true;
  if (ts.isShorthandPropertyAssignment(parent) || (ts.isPropertyAssignment(parent) && parent.initializer === node)
    || ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent)) {
    return isInAssignmentPattern(parent);
  }
  return false;
}

/**
 * Whether an object or array literal (or an element of one) is the target of a destructuring
 * assignment: `({ a, b: c } = …)`, `[x, y] = …`, `for ({ a } of …)`.
 */
export function isInAssignmentPattern(node: ts.Node): boolean {
  let outer: ts.Node = node;
  while (ts.isObjectLiteralExpression(outer) || ts.isArrayLiteralExpression(outer) || ts.isShorthandPropertyAssignment(outer)
    || ts.isPropertyAssignment(outer) || ts.isSpreadElement(outer) || ts.isSpreadAssignment(outer)) {
    const up = outer.parent;
    // `{ a: { b } = {} }`: a nested pattern with a default is a target too.
    if (ts.isBinaryExpression(up) && up.left === outer && up.operatorToken.kind === ts.SyntaxKind.EqualsToken) return true;
    if ((ts.isForOfStatement(up) || ts.isForInStatement(up)) && up.initializer === outer) return true;
    outer = up;
  }
  return false;
}

/**
 * A string literal that names a property, as the language service's
 * isLiteralNameOfPropertyDeclarationOrIndexAccess reads it: `{ 'a-b': 1 }`, `obj['a-b']`,
 * `T['a-b']`, `declare module 'x'`, `export { 'a-b' as c }`.
 */
export function isPropertyNameLiteral(node: ts.StringLiteralLike | ts.NumericLiteral): boolean {
  const parent = node.parent;
  switch (parent.kind) {
    case ts.SyntaxKind.PropertyDeclaration:
    case ts.SyntaxKind.PropertySignature:
    case ts.SyntaxKind.PropertyAssignment:
    case ts.SyntaxKind.EnumMember:
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
    case ts.SyntaxKind.ModuleDeclaration:
      return ts.getNameOfDeclaration(parent as ts.Declaration) === node;
    case ts.SyntaxKind.ElementAccessExpression:
      return (parent as ts.ElementAccessExpression).argumentExpression === node;
    case ts.SyntaxKind.ComputedPropertyName:
      return true;
    case ts.SyntaxKind.LiteralType:
      return ts.isIndexedAccessTypeNode(parent.parent);
    case ts.SyntaxKind.ImportSpecifier:
    case ts.SyntaxKind.ExportSpecifier:
      return ts.isStringLiteral(node);
    default:
      return false;
  }
}

/**
 * A module specifier the checker resolves to a module: `from './x'`, `require('./x')` (JavaScript),
 * `import('./x')`, `import x = require('./x')`, `typeof import('./x')`.
 */
export function moduleSpecifierKind(node: ts.StringLiteralLike): ReferenceKind | undefined {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isJSDocImportTag(parent)) return 'import';
  if (ts.isExportDeclaration(parent)) return parent.moduleSpecifier === node ? 'export' : undefined;
  if (ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent)) return 'import';
  if (ts.isCallExpression(parent) && parent.arguments[0] === node) {
    if (parent.expression.kind === ts.SyntaxKind.ImportKeyword) return 'import';
    if (ts.isIdentifier(parent.expression) && parent.expression.text === 'require' && parent.arguments.length === 1 && isInJSFile(node)) return 'import';
  }
  return undefined;
}
