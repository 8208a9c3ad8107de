// A guess at why one reference differs between the index and the language service, from the
// syntax at the site: it groups the work list (shorthand properties, contextual object literal
// properties, JSX attributes, re-exports, constructors, JSDoc links...). A guess only: the fix is
// decided by reading the site.
import { ts } from 'ts-morph';

/** missing: the language service has the reference and the index does not; extra: the other way round. */
export type MissSide = 'missing' | 'extra';

export interface MissSite {
  side: MissSide;
  program: ts.Program;
  service: ts.LanguageService;
  fileName: string;
  site: { line: number; column: number };
  /** For a missing reference: the language service's group it came from, when not the declaration's own. */
  group?: string;
  /** The other side has a reference on the same line within two columns. */
  nearby: boolean;
  /** Repository-relative path of a file name, undefined outside the repository. */
  relative: (fileName: string) => string | undefined;
  /** The sampled declaration the references are of. */
  declaration: { path: string; line: number; column: number };
  /** The language service found nothing at all from the declaration. */
  languageServiceEmpty: boolean;
}

/**
 * Extras that are the language service's own blind spots, not ours: with these left out the
 * precision says how often the index names a reference that is not one. Each is shown apart in the
 * report, never dropped from the raw figures.
 */
export const LS_BLIND_SPOTS = {
  /**
   * findReferences only searches files whose name table has the name, and a name table leaves out
   * string literals in types: in a file that names `_zod` only as `T["_zod"]`, those go unfound.
   */
  unsearched: 'not searched by the LS (the name occurs in the file only as a string literal in a type)',
  /**
   * Its go-to-definition at the site is the very declaration asked about, yet its findReferences
   * from there leaves the site out. Mostly one symbol declared as an interface and a const
   * (`interface EmptyError` + `const EmptyError`): from the interface the language service finds
   * the type's uses only, while the index keeps the merged symbol whole.
   */
  selfDefined: "the LS's definition here is the declaration itself (mostly a merged interface + const used as the value)",
  /**
   * A member with a computed name (`readonly [TypeId]: …`): at the bracket the language service
   * finds nothing, and inside it the name is the constant `TypeId`, so no position asks it about
   * the member; the index still lists the member's declaration.
   */
  computed: 'a member with a computed name, which the LS finds nothing for',
} as const;

// ts.getNameTable is internal but stable: it is what findReferences checks before searching a file.
const getNameTable = (ts as unknown as { getNameTable(sf: ts.SourceFile): Map<ts.__String, number> }).getNameTable;

// ts.getTokenAtPosition is internal but stable (every language service feature uses it); it
// descends into JSDoc, which ts.forEachChild does not.
const getTokenAtPosition = (ts as unknown as { getTokenAtPosition(sf: ts.SourceFile, pos: number): ts.Node }).getTokenAtPosition;

export function classifyMiss(input: MissSite): { cause: string; detail?: string } {
  const sourceFile = input.program.getSourceFile(input.fileName);
  if (!sourceFile) return { cause: 'file outside the program' };
  const position = sourceFile.getPositionOfLineAndCharacter(input.site.line - 1, input.site.column - 1);
  const token = getTokenAtPosition(sourceFile, position);
  const definitions = input.side === 'extra' ? input.service.getDefinitionAtPosition(input.fileName, position) ?? [] : [];
  const detail = input.side === 'extra' ? resolvedBy(input, definitions) : input.group && `LS group: ${input.group}`;
  if (input.nearby) return { cause: 'same reference, another column', detail };
  if (input.side === 'extra' && ts.isStringLiteralLike(token) && !getNameTable(sourceFile).has(ts.escapeLeadingUnderscores(token.text))) {
    return { cause: LS_BLIND_SPOTS.unsearched, detail };
  }
  if (definitions.some((d) => isAt(input, d, input.declaration))) return { cause: LS_BLIND_SPOTS.selfDefined, detail };
  if (input.side === 'extra' && input.languageServiceEmpty && ts.findAncestor(token, ts.isComputedPropertyName)) return { cause: LS_BLIND_SPOTS.computed, detail };
  if (ts.findAncestor(token, (n) => ts.isJSDoc(n) || n.kind === ts.SyntaxKind.JSDocLink) || inComment(sourceFile, position)) {
    return { cause: 'in a JSDoc comment (@link, @see, @param)', detail };
  }
  if (input.side === 'missing' && input.group) return { cause: `related symbol (the LS's group of ${input.group.split(' ')[0]})`, detail };
  return { cause: syntacticCause(token, input.program.getTypeChecker()), detail };
}

function inComment(sourceFile: ts.SourceFile, position: number): boolean {
  const lineStart = sourceFile.getLineStarts()[sourceFile.getLineAndCharacterOfPosition(position).line]!;
  const before = sourceFile.text.slice(lineStart, position).trimStart();
  return before.startsWith('*') || before.startsWith('//') || before.startsWith('/*');
}

function syntacticCause(token: ts.Node, checker: ts.TypeChecker): string {
  if (token.kind === ts.SyntaxKind.ConstructorKeyword) return 'constructor keyword';
  if (token.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  if (token.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (token.kind === ts.SyntaxKind.DefaultKeyword) return 'default keyword';
  const node = token;
  const parent = node.parent;
  if (!parent) return `other: ${ts.SyntaxKind[node.kind]}`;
  if (ts.isStringLiteralLike(node)) return `string literal (${ts.SyntaxKind[parent.kind]})`;
  if (ts.isShorthandPropertyAssignment(parent)) return 'shorthand property { x }';
  if (ts.isPropertyAssignment(parent) && parent.name === node) return 'object literal property (contextual type)';
  if (ts.isMethodDeclaration(parent) && parent.name === node && ts.isObjectLiteralExpression(parent.parent)) return 'object literal method (contextual type)';
  if ((ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) && ts.isObjectLiteralExpression(parent.parent)) return 'object literal accessor (contextual type)';
  if (ts.isJsxAttribute(parent)) return 'JSX attribute';
  if (ts.isJsxOpeningLikeElement(parent) || ts.isJsxClosingElement(parent)) return 'JSX tag';
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isImportEqualsDeclaration(parent)) return 'import';
  if (ts.isExportSpecifier(parent)) {
    const declaration = parent.parent.parent;
    return declaration.moduleSpecifier ? 're-export (export { x } from)' : 'export specifier';
  }
  if (ts.isNamespaceExport(parent)) return 're-export (export * as x from)';
  if (ts.isExportAssignment(parent)) return 'export default';
  if (ts.isBindingElement(parent)) return parent.propertyName === node || (!parent.propertyName && ts.isObjectBindingPattern(parent.parent)) ? 'destructuring property' : 'destructuring binding';
  if (ts.isNewExpression(parent) && parent.expression === node) return 'new expression (constructor)';
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
    const type = checker.getTypeAtLocation(parent.expression);
    if (type.isUnion()) return 'property access on a union';
    if (type.isIntersection()) return 'property access on an intersection';
    if (type.flags & ts.TypeFlags.TypeParameter) return 'property access on a type parameter';
    const symbol = checker.getSymbolAtLocation(node);
    if (symbol && (symbol.flags & ts.SymbolFlags.Transient)) return 'property access (transient/mapped property)';
    return 'property access';
  }
  if (ts.isQualifiedName(parent)) return 'qualified name (Namespace.Type)';
  if (ts.isTypeReferenceNode(parent) || ts.isExpressionWithTypeArguments(parent)) return 'type reference';
  if (ts.isTypeQueryNode(parent)) return 'typeof query';
  if (ts.isIndexedAccessTypeNode(parent) || ts.isLiteralTypeNode(parent)) return 'indexed access type';
  if (ts.isComputedPropertyName(parent)) return 'computed property name';
  if (ts.isTypeParameterDeclaration(parent) && parent.name === node) return 'type parameter declaration';
  if (ts.isMappedTypeNode(parent.parent) || ts.isMappedTypeNode(parent)) return 'mapped type';
  const declaration = parent as ts.Declaration;
  if (ts.getNameOfDeclaration(declaration) === node) {
    if (ts.isParameter(parent) && ts.isParameterPropertyDeclaration(parent, parent.parent)) return 'parameter property declaration';
    return `declaration name (${ts.SyntaxKind[parent.kind]})`;
  }
  if (ts.isCallExpression(parent) && parent.expression === node) return 'call';
  return `other (${ts.SyntaxKind[parent.kind]})`;
}

/** What the language service says the identifier at an extra reference is: its first definition. */
function resolvedBy({ program, relative }: MissSite, definitions: readonly ts.DefinitionInfo[]): string {
  if (!definitions.length) return 'the LS finds no definition here';
  const first = definitions[0]!;
  const sourceFile = program.getSourceFile(first.fileName);
  const path = relative(first.fileName) ?? first.fileName;
  const where = sourceFile ? `${path}:${sourceFile.getLineAndCharacterOfPosition(first.textSpan.start).line + 1}` : path;
  return `the LS resolves it to ${first.kind} ${first.containerName ? `${first.containerName}.` : ''}${first.name} (${where})${definitions.length > 1 ? ` and ${definitions.length - 1} more` : ''}`;
}

function isAt({ program, relative }: MissSite, definition: ts.DefinitionInfo, site: { path: string; line: number; column: number }): boolean {
  const sourceFile = program.getSourceFile(definition.fileName);
  if (!sourceFile || relative(definition.fileName) !== site.path) return false;
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(definition.textSpan.start);
  return line + 1 === site.line && character + 1 === site.column;
}
