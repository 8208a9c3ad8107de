// The symbols a name refers to beyond what checker.getSymbolAtLocation returns there, found the way
// the language service's findAllReferences finds them (services/findAllReferences.ts
// forEachRelatedSymbol): the property an object literal element or JSX attribute sets (from the
// contextual type), the property a destructuring reads, and the target of an alias.
import { ts } from 'ts-morph';
import { contextualTypeIgnoringNode, isTypeInvalidDueToUnionDiscriminant } from './compiler-internals.ts';

export type ObjectLiteralElementName = ts.Identifier | ts.PrivateIdentifier | ts.StringLiteralLike | ts.NumericLiteral;
type Element = ts.ObjectLiteralElementLike | ts.JsxAttribute;

/** The element of an object literal (or a JSX attribute) that `node` names, as getContainingObjectLiteralElement finds it. */
export function objectLiteralElementOf(node: ts.Node): Element | undefined {
  let element: ts.Node = node.parent;
  if (ts.isComputedPropertyName(element)) {
    if (!ts.isStringLiteralLike(node) && !ts.isNumericLiteral(node)) return undefined;
    element = element.parent;
  }
  if (!(ts.isObjectLiteralElementLike(element) || ts.isJsxAttribute(element)) || (element as { name?: ts.Node }).name === undefined) return undefined;
  const name = element.name!;
  if (name !== node && !(ts.isComputedPropertyName(name) && name.expression === node)) return undefined;
  return ts.isObjectLiteralExpression(element.parent) || ts.isJsxAttributes(element.parent) ? element : undefined;
}

/**
 * The properties of the contextual type an object literal element or JSX attribute sets:
 * `submit({ id })` sets `Order.id`, `<Button label="x" />` sets the `label` prop. Follows the
 * language service's getPropertySymbolsFromContextualType (with unionSymbolOk, as find-references
 * calls it), and its retry without inferences from the literal itself when the contextual type
 * was inferred from it (goToDefinition.ts getDefinitionFromObjectLiteralElement).
 */
export function contextualProperties(checker: ts.TypeChecker, element: Element, types: Map<ts.Node, ts.Type | undefined>): ts.Symbol[] {
  const literal = element.parent as ts.ObjectLiteralExpression | ts.JsxAttributes;
  if (!types.has(literal)) types.set(literal, checker.getContextualType(literal));
  const type = types.get(literal);
  if (!type) return [];
  const properties = propertiesFromContextualType(checker, element, literal, type);
  if (properties.some((p) => p.valueDeclaration === element)) {
    const declared = contextualTypeIgnoringNode(checker, literal);
    const withoutNode = declared ? propertiesFromContextualType(checker, element, literal, declared) : [];
    return withoutNode.filter((p) => p.valueDeclaration !== element);
  }
  return properties;
}

function propertiesFromContextualType(
  checker: ts.TypeChecker, element: Element, literal: ts.ObjectLiteralExpression | ts.JsxAttributes, contextualType: ts.Type,
): ts.Symbol[] {
  const type = contextualType.getNonNullableType();
  const name = propertyName(element.name);
  if (name === undefined) return [];
  if (!type.isUnion()) {
    const symbol = type.getProperty(name);
    return symbol ? [symbol] : [];
  }
  const filtered = type.types.filter((t) => !isTypeInvalidDueToUnionDiscriminant(checker, t, literal));
  const discriminated = filtered.map((t) => t.getProperty(name)).filter((s): s is ts.Symbol => s !== undefined);
  if (discriminated.length === 0 || discriminated.length === type.types.length) {
    const symbol = type.getProperty(name);
    if (symbol) return [symbol];
  }
  if (filtered.length === 0 && discriminated.length === 0) {
    return type.types.map((t) => t.getProperty(name)).filter((s): s is ts.Symbol => s !== undefined);
  }
  return [...new Set(discriminated)];
}

function propertyName(name: ts.Node | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isComputedPropertyName(name) && (ts.isStringLiteralLike(name.expression) || ts.isNumericLiteral(name.expression))) return name.expression.text;
  return undefined;
}

/** `const { id } = order`: the property a binding element without a property name reads. */
export function bindingElementProperty(checker: ts.TypeChecker, node: ts.Identifier, types: Map<ts.Node, ts.Type>): ts.Symbol | undefined {
  const element = node.parent;
  if (!ts.isBindingElement(element) || element.name !== node || element.propertyName || !ts.isObjectBindingPattern(element.parent)) return undefined;
  let type = types.get(element.parent);
  if (!type) types.set(element.parent, (type = checker.getTypeAtLocation(element.parent)));
  return type.getProperty(node.text);
}

/**
 * The symbol an alias stands for. A chain of imports and re-exports ends at the declaration; one
 * that ends at a module (`import * as ns`, `export * as ns`, `import x = require()`) stops at the
 * last alias before the module, which is what its uses refer to. An alias that resolves nowhere
 * (an unresolved import) stays itself.
 */
export function resolveAlias(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  if (!(symbol.flags & ts.SymbolFlags.Alias)) return symbol;
  const target = checker.getAliasedSymbol(symbol);
  if (!target.declarations?.length) return symbol;
  if (!isModule(target)) return target;
  let current = symbol;
  for (let next = checker.getImmediateAliasedSymbol(current); next && next.flags & ts.SymbolFlags.Alias && next !== current; next = checker.getImmediateAliasedSymbol(current)) {
    current = next;
  }
  return current;
}

function isModule(symbol: ts.Symbol): boolean {
  return (symbol.flags & ts.SymbolFlags.ValueModule) !== 0
    && (symbol.declarations?.every((d) => ts.isSourceFile(d) || (ts.isModuleDeclaration(d) && ts.isStringLiteral(d.name))) ?? false);
}
