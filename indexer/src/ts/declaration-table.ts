// Identities of a file's declarations. One walk in document order gives every declaration its
// qualified name, kind and container, and a key derived from (path, qualified name, kind) with an
// ordinal only where two declarations would otherwise collide. Keys depend on nothing but the
// file's own text, so every program that sees the file computes the same ones.
//
// Besides the syntax kinds that declare a symbol, the table knows the declarations the binder makes
// from other syntax: the file itself (a module), JavaScript assignments (`this.x =`, `exports.x =`,
// `A.prototype.m =`; binder.ts bindSpecialPropertyAssignment and friends) and JSDoc (`@typedef`,
// `@callback`, `@property`, `@template`).
import { posix } from 'node:path';
import { ts } from 'ts-morph';
import { localSymbolKey, MODIFIERS, symbolKey, type SymbolKind } from '@sextant/format';
import { AssignmentDeclarationKind, getAssignmentDeclarationKind, isInJSFile } from './compiler-internals.ts';

export interface Declaration {
  key: string;
  name: string;
  kind: SymbolKind;
  qname: string;
  local: boolean;
  container?: Declaration;
  mods: number;
  node: ts.Node;
}

/** What a declaration's key is made of, before its ordinal among declarations alike. */
const identityOf = (path: string, qname: string, kind: SymbolKind) => `${path}|${qname}|${kind}`;

/** The key of a file's own symbol as a module (what its importers' module specifiers resolve to), from its path alone. */
export const moduleSymbolKey = (path: string): string => symbolKey(identityOf(path, path, 'module'));

/** Declaration nodes that own a symbol; alias declarations (imports, export specifiers) do not, namespace imports do. */
export function kindOf(node: ts.Node): SymbolKind | undefined {
  switch (node.kind) {
    case ts.SyntaxKind.SourceFile:
      return 'module';
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.ClassExpression:
      return 'class';
    case ts.SyntaxKind.InterfaceDeclaration:
      return 'interface';
    case ts.SyntaxKind.TypeAliasDeclaration:
    case ts.SyntaxKind.JSDocTypedefTag:
    case ts.SyntaxKind.JSDocCallbackTag:
      return 'type';
    case ts.SyntaxKind.EnumDeclaration:
      return 'enum';
    case ts.SyntaxKind.EnumMember:
      return 'enumMember';
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ArrowFunction:
      return 'function';
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
      return 'method';
    case ts.SyntaxKind.Constructor:
      return 'constructor';
    case ts.SyntaxKind.PropertyDeclaration:
    case ts.SyntaxKind.PropertySignature:
    case ts.SyntaxKind.PropertyAssignment:
    case ts.SyntaxKind.ShorthandPropertyAssignment:
    case ts.SyntaxKind.JSDocPropertyTag:
      return 'property';
    case ts.SyntaxKind.GetAccessor:
      return 'getter';
    case ts.SyntaxKind.SetAccessor:
      return 'setter';
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.BindingElement:
      return variableKind(node as ts.VariableDeclaration | ts.BindingElement);
    case ts.SyntaxKind.Parameter:
      return 'parameter';
    case ts.SyntaxKind.TypeParameter:
      return 'typeParameter';
    case ts.SyntaxKind.ModuleDeclaration:
      return ts.isStringLiteral((node as ts.ModuleDeclaration).name) ? 'module' : 'namespace';
    case ts.SyntaxKind.NamespaceImport:
    case ts.SyntaxKind.NamespaceExport:
    case ts.SyntaxKind.ImportEqualsDeclaration:
    case ts.SyntaxKind.ImportClause:
      // `import * as ns`, `export * as ns`, `import ns = require()`, a default import of a module
      // without a default export: the checker resolves these to a module, which has no name of its
      // own, so the alias is the symbol its uses refer to (contextual-symbols.ts resolveAlias).
      return 'namespace';
    case ts.SyntaxKind.ExportAssignment:
      return 'variable';
    default:
      return undefined;
  }
}

function variableKind(node: ts.VariableDeclaration | ts.BindingElement): SymbolKind {
  if (ts.isVariableDeclaration(node) && node.initializer && isFunctionValue(node.initializer)) return 'function';
  let list: ts.Node = node;
  while (list && !ts.isVariableDeclarationList(list)) list = list.parent;
  return list && (list.flags & ts.NodeFlags.Const) ? 'constant' : 'variable';
}

/** An arrow function or function expression: what makes a variable or property a function. */
export function isFunctionValue(node: ts.Node): node is ts.ArrowFunction | ts.FunctionExpression {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

function declarationName(node: ts.Node, path: string): string | undefined {
  if (ts.isSourceFile(node)) return posix.basename(path);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isExportAssignment(node)) return node.isExportEquals ? 'export=' : 'default';
  const name = ts.getNameOfDeclaration(node as ts.Declaration);
  if (name) {
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
    if (ts.isComputedPropertyName(name)) return `[${name.expression.getText()}]`;
    return undefined; // binding patterns: their elements are declarations of their own
  }
  if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && hasModifier(node, ts.SyntaxKind.DefaultKeyword)) return 'default';
  return undefined;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

const MODIFIER_BITS: [ts.ModifierFlags, number][] = [
  [ts.ModifierFlags.Export, MODIFIERS.exported], [ts.ModifierFlags.Default, MODIFIERS.default],
  [ts.ModifierFlags.Static, MODIFIERS.static], [ts.ModifierFlags.Abstract, MODIFIERS.abstract],
  [ts.ModifierFlags.Async, MODIFIERS.async], [ts.ModifierFlags.Readonly, MODIFIERS.readonly],
  [ts.ModifierFlags.Private, MODIFIERS.private], [ts.ModifierFlags.Protected, MODIFIERS.protected],
  [ts.ModifierFlags.Public, MODIFIERS.public], [ts.ModifierFlags.Ambient, MODIFIERS.declare],
];

function modifierBits(node: ts.Node): number {
  if (ts.isExportAssignment(node)) return MODIFIERS.exported | (node.isExportEquals ? 0 : MODIFIERS.default);
  if (ts.isSourceFile(node) || ts.isBinaryExpression(node) || node.kind >= ts.SyntaxKind.FirstJSDocNode) return 0;
  // Includes JSDoc modifiers (@private, @readonly) in JavaScript, as getEffectiveModifierFlags does.
  const flags = ts.getCombinedModifierFlags(node as ts.Declaration);
  let bits = 0;
  for (const [flag, bit] of MODIFIER_BITS) if (flags & flag) bits |= bit;
  if ((node as { questionToken?: unknown }).questionToken) bits |= MODIFIERS.optional;
  if (ts.isPrivateIdentifier((node as { name?: ts.Node }).name ?? node)) bits |= MODIFIERS.private;
  // `const load = async () => …`: the function is async, and it is the declaration's value.
  if (ts.isVariableDeclaration(node) && node.initializer && isFunctionValue(node.initializer)
    && ts.getCombinedModifierFlags(node.initializer) & ts.ModifierFlags.Async) bits |= MODIFIERS.async;
  return bits;
}

/** Scopes whose declarations are not reachable by name from outside. */
function isFunctionScope(node: ts.Node): boolean {
  return (ts.isFunctionLike(node) && !ts.isTypeNode(node) && node.kind !== ts.SyntaxKind.MethodSignature && !ts.isJSDocSignature(node))
    || (ts.isBlock(node) && !ts.isFunctionLike(node.parent)) || ts.isCatchClause(node);
}

/** Anonymous function and class expressions only name their members through what they initialize. */
function isTransparent(node: ts.Node): boolean {
  if (!(isFunctionValue(node) || ts.isClassExpression(node)) || node.name) return false;
  const parent = node.parent;
  return ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isExportAssignment(parent)
    || (ts.isBinaryExpression(parent) && parent.right === node && isAssignmentDeclaration(parent));
}

/** An object literal that no declaration names (an argument, a return value): its members are not searchable. */
function isAnonymousObject(node: ts.Node): boolean {
  if (!ts.isObjectLiteralExpression(node)) return false;
  let parent = node.parent;
  while (ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return !(ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isExportAssignment(parent) || ts.isPropertyDeclaration(parent)
    || (ts.isBinaryExpression(parent) && isAssignmentDeclaration(parent)));
}

function isAssignmentDeclaration(node: ts.BinaryExpression): boolean {
  return isInJSFile(node) && getAssignmentDeclarationKind(node) !== AssignmentDeclarationKind.None;
}

/** Kinds a caller can be: a local variable holding a value is not one, its function is. */
const CODE_HOLDERS = new Set<SymbolKind>([
  'function', 'method', 'constructor', 'getter', 'setter', 'class', 'property', 'field', 'variable', 'constant',
  'enum', 'enumMember', 'namespace', 'module', 'component',
]);

/** Capitalized functions and classes that render JSX are components (React's naming rule). */
const COMPONENT_CANDIDATES = new Set<SymbolKind>(['function', 'class', 'constant', 'variable']);

interface Scope {
  container?: Declaration;
  prefix: string;
  local: boolean;
}

export class DeclarationTable {
  private readonly byNode = new Map<ts.Node, Declaration>();
  /** Declarations that are not locals, by qualified name (JavaScript assignments name their owner by it). */
  private readonly byQname = new Map<string, Declaration>();
  readonly declarations: Declaration[] = [];
  /** The file as a module: the caller of its top-level code, and what its importers import. */
  readonly module: Declaration;

  constructor(sourceFile: ts.SourceFile, path: string) {
    const jsx = sourceFile.languageVariant === ts.LanguageVariant.JSX;
    let jsxSeen = 0;
    const add = (node: ts.Node, name: string, kind: SymbolKind, qname: string, local: boolean, container?: Declaration) => {
      const decl: Declaration = { key: '', name, kind, qname, local, container, mods: modifierBits(node), node };
      this.declarations.push(decl);
      this.byNode.set(node, decl);
      if (!local && kind !== 'module' && !this.byQname.has(qname)) this.byQname.set(qname, decl);
      return decl;
    };
    this.module = add(sourceFile, posix.basename(path), 'module', path, false);

    const visit = (node: ts.Node, scope: Scope): void => {
      let inner = scope;
      let decl: Declaration | undefined;
      const kind = kindOf(node);
      const name = kind && !isTransparent(node) ? declarationName(node, path) : undefined;
      if (kind && name !== undefined) {
        if (ts.isParameter(node) && ts.isParameterPropertyDeclaration(node, node.parent)) {
          // `constructor(private x)` declares a property of the class; the language service finds
          // the parameter's uses as the property's, so the two are one symbol here.
          const owner = this.byNode.get(node.parent.parent);
          decl = add(node, name, 'property', `${owner?.qname ?? scope.prefix}.${name}`, owner?.local ?? false, owner);
        } else {
          const isLocal = scope.local || kind === 'parameter' || kind === 'typeParameter'
            || ts.isNamespaceImport(node) || ts.isImportEqualsDeclaration(node) || ts.isImportClause(node);
          decl = add(node, name, isLocal && (kind === 'variable' || kind === 'constant') ? 'local' : kind,
            scope.prefix ? `${scope.prefix}.${name}` : name, isLocal, scope.container);
        }
        // `declare module './x' { interface X {} }` and `declare global {}` add to declarations named
        // elsewhere: their members keep the names they augment.
        inner = isAugmentation(node) ? { prefix: '', local: scope.local } : { container: decl, prefix: decl.qname, local: scope.local && decl.local };
        // `const Store = class { … }`: the anonymous class (or function) is what the name declares.
        const value = (node as { initializer?: ts.Node; expression?: ts.Node }).initializer ?? (ts.isExportAssignment(node) ? node.expression : undefined);
        if (value && isTransparent(value) && !this.byNode.has(value)) this.byNode.set(value, decl);
      } else if (ts.isBinaryExpression(node) && isAssignmentDeclaration(node)) {
        decl = this.assignmentDeclaration(node, scope, add);
        if (decl) inner = { container: decl, prefix: decl.qname, local: scope.local };
      }
      if (isFunctionScope(node) || isAnonymousObject(node)) inner = { ...inner, local: true };
      if (jsx && (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node))) jsxSeen++;
      const jsxBefore = jsxSeen;
      ts.forEachChild(node, (child) => visit(child, inner));
      for (const doc of (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) {
        for (const tag of doc.tags ?? []) {
          // A typedef declares a type beside what it documents; @template and type literals in @param
          // or @type belong to the documented declaration, as their TypeScript spellings would.
          if (ts.isJSDocTemplateTag(tag)) for (const parameter of tag.typeParameters) visit(parameter, { ...inner, local: true });
          else visit(tag, ts.isJSDocTypedefTag(tag) || ts.isJSDocCallbackTag(tag) ? scope : inner);
        }
      }
      if (decl && jsxSeen > jsxBefore && isComponent(decl, node)) decl.kind = 'component';
    };
    ts.forEachChild(sourceFile, (child) => visit(child, { prefix: '', local: false }));
    this.markExportedByList(sourceFile);

    const seen = new Map<string, number>();
    for (const decl of this.declarations) {
      const base = identityOf(path, decl.qname, decl.kind);
      const ordinal = seen.get(base) ?? 0;
      seen.set(base, ordinal + 1);
      const identity = ordinal === 0 ? base : `${base}|#${ordinal}`;
      decl.key = decl.local ? localSymbolKey(path, identity) : symbolKey(identity);
    }
  }

  /** `this.x = …`, `exports.x = …`, `A.prototype.m = …`, `A.b = …`, `module.exports = …` in JavaScript. */
  private assignmentDeclaration(
    node: ts.BinaryExpression, scope: Scope,
    add: (node: ts.Node, name: string, kind: SymbolKind, qname: string, local: boolean, container?: Declaration) => Declaration,
  ): Declaration | undefined {
    const left = node.left;
    const value = skipParentheses(node.right);
    const assignment = getAssignmentDeclarationKind(node);
    const valueKind = (member: SymbolKind): SymbolKind => (isFunctionValue(value) ? member : ts.isClassExpression(value) ? 'class' : 'property');
    let decl: Declaration | undefined;
    // `exports.x = x`, `module.exports = A.b`: an alias of what it names (binder.ts exportAssignmentIsAlias), not a declaration.
    const exporting = assignment === AssignmentDeclarationKind.ModuleExports || assignment === AssignmentDeclarationKind.ExportsProperty;
    if (exporting && isEntityNameExpression(value)) return undefined;
    if (assignment === AssignmentDeclarationKind.ModuleExports) {
      decl = add(node, 'module.exports', ts.isClassExpression(value) ? 'class' : isFunctionValue(value) ? 'function' : 'variable', 'module.exports', false);
      decl.mods |= MODIFIERS.exported;
    } else if (ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) {
      const name = ts.isPropertyAccessExpression(left) ? left.name.text
        : ts.isStringLiteralLike(left.argumentExpression) || ts.isNumericLiteral(left.argumentExpression) ? left.argumentExpression.text : undefined;
      if (name === undefined) return undefined;
      let owner: Declaration | undefined;
      switch (assignment) {
        case AssignmentDeclarationKind.ThisProperty:
          owner = this.thisOwner(node);
          if (!owner) return undefined;
          decl = add(node, name, valueKind('method'), `${owner.qname}.${name}`, owner.local, owner);
          break;
        case AssignmentDeclarationKind.ExportsProperty:
          decl = add(node, name, valueKind('function'), name, false);
          decl.mods |= MODIFIERS.exported;
          break;
        case AssignmentDeclarationKind.PrototypeProperty: {
          const constructor = (left.expression as ts.PropertyAccessExpression).expression;
          owner = this.named(constructor.getText());
          decl = add(node, name, valueKind('method'), `${owner?.qname ?? constructor.getText()}.${name}`, scope.local, owner);
          break;
        }
        case AssignmentDeclarationKind.Property:
          owner = this.named(left.expression.getText());
          decl = add(node, name, valueKind('function'), `${owner?.qname ?? left.expression.getText()}.${name}`, scope.local, owner);
          break;
        default:
          return undefined;
      }
    }
    // The binder declares some of these at the access expression, others at the assignment; an
    // exported class expression is the alias's target.
    if (decl) this.byNode.set(left, decl);
    if (decl && exporting && ts.isClassExpression(value)) this.byNode.set(value, decl);
    return decl;
  }

  /** The class or constructor function whose instance `this` is (binder.ts bindThisPropertyAssignment). */
  private thisOwner(node: ts.Node): Declaration | undefined {
    let current = node.parent;
    while (current && (ts.isArrowFunction(current) || !(ts.isFunctionLike(current) || ts.isClassStaticBlockDeclaration(current) || ts.isPropertyDeclaration(current) || ts.isSourceFile(current)))) {
      current = current.parent;
    }
    if (!current || ts.isSourceFile(current)) return undefined;
    if (ts.isClassLike(current.parent)) return this.byNode.get(current.parent) ?? this.byNode.get(current.parent.parent);
    if (ts.isFunctionDeclaration(current) || ts.isFunctionExpression(current)) {
      const parent = current.parent;
      if (ts.isBinaryExpression(parent) && getAssignmentDeclarationKind(parent) === AssignmentDeclarationKind.PrototypeProperty) {
        return this.named(((parent.left as ts.PropertyAccessExpression).expression as ts.PropertyAccessExpression).expression.getText());
      }
      return this.byNode.get(current) ?? this.byNode.get(parent);
    }
    return undefined;
  }

  /** A declaration of this file by qualified name, as written in an assignment (`Store.prototype`). */
  private named(qname: string): Declaration | undefined {
    return this.byQname.get(qname);
  }

  /** `export { a, b as c }` and `export default a` export declarations that carry no modifier. */
  private markExportedByList(sourceFile: ts.SourceFile): void {
    const topLevel = (name: string) => this.declarations.filter((d) => d.name === name && d.qname === name && !d.local);
    if (!sourceFile.statements.some((s) => (ts.isExportDeclaration(s) && !s.moduleSpecifier) || ts.isExportAssignment(s))) return;
    for (const statement of sourceFile.statements) {
      if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) {
          const local = element.propertyName ?? element.name;
          if (!ts.isIdentifier(local)) continue;
          const bits = MODIFIERS.exported | (element.name.text === 'default' ? MODIFIERS.default : 0);
          for (const decl of topLevel(local.text)) decl.mods |= bits;
        }
      } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
        for (const decl of topLevel(statement.expression.text)) decl.mods |= MODIFIERS.exported | (statement.isExportEquals ? 0 : MODIFIERS.default);
      }
    }
  }

  /** The declaration a node declares (a parameter property: the property). */
  lookup(node: ts.Node): Declaration | undefined {
    return this.byNode.get(node);
  }

  /**
   * The nearest declaration that contains `node` and can hold code (for `enclosing` and call edges);
   * the module at top level. A member of an object literal inside a function is not one: the call in
   * `return { ...rest, hash: computeHash(rest) }` is a call of the function that returns it, as a
   * reader names the caller (a literal at a module's top level keeps its members as callers).
   */
  enclosing(node: ts.Node): Declaration | undefined {
    for (let current = node.parent; current; current = current.parent) {
      const decl = this.byNode.get(current);
      if (decl && CODE_HOLDERS.has(decl.kind) && !ts.isParameter(current) && !isAlias(current)
        && ts.getNameOfDeclaration(current as ts.Declaration) !== node && !isLiteralMemberInFunction(current)) return decl;
    }
    return undefined;
  }
}

/** A module augmentation (`declare module './x'` in a module) or `declare global`. */
export function isAugmentation(node: ts.Node): boolean {
  return ts.isModuleDeclaration(node) && ((node.flags & ts.NodeFlags.GlobalAugmentation) !== 0
    || (ts.isStringLiteral(node.name) && ts.isSourceFile(node.parent) && ts.isExternalModule(node.parent)));
}

/** Inside a module augmentation: a declaration that merges into one made elsewhere. */
export function isInAugmentation(node: ts.Node): boolean {
  for (let current = node.parent; current && !ts.isSourceFile(current); current = current.parent) if (isAugmentation(current)) return true;
  return false;
}

function isLiteralMemberInFunction(node: ts.Node): boolean {
  if (!node.parent || !ts.isObjectLiteralExpression(node.parent)) return false;
  for (let up: ts.Node | undefined = node.parent.parent; up && !ts.isSourceFile(up); up = up.parent) if (ts.isFunctionLike(up)) return true;
  return false;
}

function isAlias(node: ts.Node): boolean {
  return ts.isImportClause(node) || ts.isNamespaceImport(node) || ts.isNamespaceExport(node) || ts.isImportEqualsDeclaration(node);
}

function isEntityNameExpression(node: ts.Node): boolean {
  return ts.isIdentifier(node) || (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name) && isEntityNameExpression(node.expression));
}

function skipParentheses(node: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  return node;
}

function isComponent(decl: Declaration, node: ts.Node): boolean {
  if (!COMPONENT_CANDIDATES.has(decl.kind) || !/^[A-Z]/.test(decl.name)) return false;
  if (ts.isFunctionDeclaration(node) || ts.isClassLike(node)) return true;
  if (!ts.isVariableDeclaration(node) || !node.initializer) return false;
  const value = skipParentheses(node.initializer);
  // `const Card = memo((props) => …)`, `forwardRef(…)`: a wrapped function component.
  return isFunctionValue(value) || ts.isClassExpression(value)
    || (ts.isCallExpression(value) && value.arguments.some((a) => isFunctionValue(skipParentheses(a))));
}
