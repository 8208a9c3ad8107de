// The text a symbol shows: its signature (the declaration up to its body, on one line) and the
// first paragraph of its doc comment. Read from the declaration's source text, not printed from
// types, so it is what the author wrote.
import { ts } from 'ts-morph';

const MAX_SIGNATURE = 300;
const MAX_DOC = 1000;

/** Declaration text up to its body, on one line: `submit(order: Order): Promise<void>`; cut at MAX_SIGNATURE characters. */
export function signatureOf(node: ts.Node): string | undefined {
  const text = wholeSignatureOf(node);
  return text !== undefined && text.length > MAX_SIGNATURE ? `${text.slice(0, MAX_SIGNATURE - 3)}...` : text;
}

/** signatureOf, however long. */
export function wholeSignatureOf(node: ts.Node): string | undefined {
  const sourceFile = node.getSourceFile();
  if (ts.isSourceFile(node)) return undefined;
  const slice = (start: number, end: number) => sourceFile.text.slice(start, end).replace(/\s+/g, ' ');
  let text: string;
  if (ts.isJSDocTypedefTag(node) || ts.isJSDocCallbackTag(node) || ts.isJSDocPropertyLikeTag(node)) {
    // `@typedef {Object} Customer`, `@property {string} name`: the tag up to its name, without the comment after it.
    const name = ts.isJSDocPropertyLikeTag(node) ? node.name : node.fullName ?? node.typeExpression;
    text = slice(node.getStart(sourceFile), (name ?? node).getEnd());
  } else if (ts.isBinaryExpression(node) || ts.isPropertyAccessExpression(node)) {
    // A JavaScript assignment declaration: `this.items = []`, `Store.prototype.add = function (x) {`.
    const assignment = ts.isBinaryExpression(node) ? node : ts.isBinaryExpression(node.parent) ? node.parent : undefined;
    const left = assignment ? assignment.left : node;
    const value = assignment?.right;
    text = left.getText(sourceFile);
    if (value && (ts.isFunctionExpression(value) || ts.isArrowFunction(value))) text += ` = ${slice(value.getStart(sourceFile), value.body.getStart(sourceFile)).replace(/\s*=>\s*$/, '')}`;
  } else if (ts.isVariableDeclaration(node) || ts.isBindingElement(node)) {
    const statement = ts.isVariableDeclaration(node) && ts.isVariableDeclarationList(node.parent) ? node.parent : undefined;
    const start = statement && statement.declarations[0] === node ? statement.getStart(sourceFile) : node.getStart(sourceFile);
    const keyword = statement && statement.declarations[0] !== node ? `${declarationKeyword(statement)} ` : '';
    const initializer = node.initializer;
    if (initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))) {
      text = keyword + slice(start, initializer.body.getStart(sourceFile)).replace(/\s*=>\s*$/, '');
    } else {
      text = keyword + slice(start, initializer ? initializer.getStart(sourceFile) : node.getEnd()).replace(/[\s=]+$/, '');
    }
  } else {
    const body = (node as { body?: ts.Node }).body
      ?? (ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node) ? openBrace(node, sourceFile) : undefined);
    text = slice(node.getStart(sourceFile), body ? body.getStart(sourceFile) : node.getEnd()).replace(/\s*\{$/, '');
  }
  return text.trim() || undefined;
}

function declarationKeyword(list: ts.VariableDeclarationList): string {
  return list.flags & ts.NodeFlags.Const ? 'const' : list.flags & ts.NodeFlags.Let ? 'let' : 'var';
}

function openBrace(node: ts.Node, sourceFile: ts.SourceFile): ts.Node | undefined {
  return node.getChildren(sourceFile).find((child) => child.kind === ts.SyntaxKind.OpenBraceToken);
}

/** First paragraph of the declaration's doc comment (a parameter's: its `@param` text). */
export function docOf(node: ts.Node): string | undefined {
  if (ts.isParameter(node)) {
    const tag = ts.getJSDocParameterTags(node)[0];
    return firstParagraph(tag?.comment);
  }
  if (ts.isJSDocTypedefTag(node) || ts.isJSDocCallbackTag(node)) {
    // `/** An order. @typedef {…} Order */`: the description is the comment's, as the language
    // service shows it, when the comment declares only this one type.
    const own = firstParagraph(node.comment);
    const declaresOne = ts.isJSDoc(node.parent) && node.parent.tags?.filter((t) => ts.isJSDocTypedefTag(t) || ts.isJSDocCallbackTag(t)).length === 1;
    return own ?? (declaresOne ? firstParagraph((node.parent as ts.JSDoc).comment) : undefined);
  }
  if (ts.isJSDocPropertyTag(node)) return firstParagraph(node.comment);
  const host = ts.isVariableDeclaration(node) ? node.parent.parent
    : ts.isBinaryExpression(node) ? node.parent
    : ts.isPropertyAccessExpression(node) && ts.isBinaryExpression(node.parent) ? node.parent.parent
    : node;
  const docs = (host as { jsDoc?: ts.JSDoc[] }).jsDoc;
  return firstParagraph(docs?.[docs.length - 1]?.comment);
}

function firstParagraph(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string | undefined {
  if (!comment) return undefined;
  const text = (typeof comment === 'string' ? comment : ts.getTextOfJSDocComment(comment) ?? '').split(/\n\s*\n/)[0]!.trim();
  if (!text) return undefined;
  return text.length > MAX_DOC ? `${text.slice(0, MAX_DOC - 3)}...` : text;
}
