// Identities of a file's declarations. One walk in document order gives every declaration its
// qualified name, kind and container, and a key derived from (path, qualified name, kind) with an
// ordinal only where two declarations would otherwise collide. Keys depend on nothing but the
// file's own text, so every program that sees the file computes the same ones.
import { ts } from 'ts-morph';
import { MODIFIERS, symbolKey, type SymbolKind } from '@sextant/format';

export interface Declaration {
  key: string;
  name: string;
  kind: SymbolKind;
  qname: string;
  local: boolean;
  container?: string;
  mods: number;
  node: ts.Node;
}

/** Declaration nodes that own a symbol; alias declarations (imports, export specifiers) do not. */
export function kindOf(node: ts.Node): SymbolKind | undefined {
  switch (node.kind) {
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.ClassExpression:
      return 'class';
    case ts.SyntaxKind.InterfaceDeclaration:
      return 'interface';
    case ts.SyntaxKind.TypeAliasDeclaration:
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
    case ts.SyntaxKind.JsxAttribute:
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
    case ts.SyntaxKind.ExportAssignment:
      return 'variable';
    default:
      return undefined;
  }
}

function variableKind(node: ts.VariableDeclaration | ts.BindingElement): SymbolKind {
  if (ts.isVariableDeclaration(node) && node.initializer
    && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) return 'function';
  let list: ts.Node = node;
  while (list && !ts.isVariableDeclarationList(list)) list = list.parent;
  return list && (list.flags & ts.NodeFlags.Const) ? 'constant' : 'variable';
}

function declarationName(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isExportAssignment(node)) return 'default';
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
  const flags = ts.getCombinedModifierFlags(node as ts.Declaration);
  let bits = 0;
  for (const [flag, bit] of MODIFIER_BITS) if (flags & flag) bits |= bit;
  if ((node as { questionToken?: unknown }).questionToken) bits |= MODIFIERS.optional;
  if (ts.isPrivateIdentifier((node as { name?: ts.Node }).name ?? node)) bits |= MODIFIERS.private;
  return bits;
}

/** Scopes whose declarations are not reachable by name from outside. */
function isFunctionScope(node: ts.Node): boolean {
  return ts.isFunctionLike(node) && !ts.isTypeNode(node) && node.kind !== ts.SyntaxKind.MethodSignature
    || ts.isBlock(node) && !ts.isFunctionLike(node.parent) || ts.isCatchClause(node);
}

/** Anonymous function and class expressions only name their members through the variable they initialize. */
function isTransparent(node: ts.Node): boolean {
  return (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isClassExpression(node)) && !node.name
    && (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent) || ts.isExportAssignment(node.parent));
}

/** An object literal that no declaration names (an argument, a return value): its members are not searchable. */
function isAnonymousObject(node: ts.Node): boolean {
  if (!ts.isObjectLiteralExpression(node)) return false;
  let parent = node.parent;
  while (ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return !(ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isExportAssignment(parent) || ts.isPropertyDeclaration(parent));
}

/** Kinds a caller can be: a local variable holding a value is not one, its function is. */
const CODE_HOLDERS = new Set<SymbolKind>([
  'function', 'method', 'constructor', 'getter', 'setter', 'class', 'property', 'field', 'variable', 'constant',
  'enum', 'enumMember', 'namespace', 'module',
]);

export class DeclarationTable {
  private readonly byNode = new Map<ts.Node, Declaration>();
  /** Parameter properties declare a property and a parameter at one node. */
  private readonly parameterProperties = new Map<ts.Node, Declaration>();
  readonly declarations: Declaration[] = [];

  constructor(sourceFile: ts.SourceFile, path: string) {
    const seen = new Map<string, number>();
    const add = (node: ts.Node, name: string, kind: SymbolKind, qname: string, local: boolean, container?: Declaration) => {
      const base = `${path}|${qname}|${kind}`;
      const ordinal = seen.get(base) ?? 0;
      seen.set(base, ordinal + 1);
      const decl: Declaration = {
        key: symbolKey(ordinal === 0 ? base : `${base}|#${ordinal}`),
        name, kind, qname, local, container: container?.key, mods: modifierBits(node), node,
      };
      this.declarations.push(decl);
      return decl;
    };

    const visit = (node: ts.Node, container: Declaration | undefined, prefix: string, local: boolean): void => {
      let nextContainer = container;
      let nextPrefix = prefix;
      let nextLocal = local;
      const kind = kindOf(node);
      const name = kind && !isTransparent(node) ? declarationName(node) : undefined;
      if (kind && name !== undefined) {
        const qname = prefix ? `${prefix}.${name}` : name;
        const isLocal = local || kind === 'parameter' || kind === 'typeParameter';
        const decl = add(node, name, isLocal && (kind === 'variable' || kind === 'constant') ? 'local' : kind, qname, isLocal, container);
        this.byNode.set(node, decl);
        if (ts.isParameter(node) && ts.isParameterPropertyDeclaration(node, node.parent)) {
          const classDecl = container && this.byNode.get(node.parent.parent);
          const property = add(node, name, 'property', `${classDecl?.qname ?? prefix}.${name}`, local, classDecl);
          this.parameterProperties.set(node, property);
        }
        nextContainer = decl;
        nextPrefix = qname;
      }
      if (isFunctionScope(node) || isAnonymousObject(node)) nextLocal = true;
      ts.forEachChild(node, (child) => visit(child, nextContainer, nextPrefix, nextLocal));
    };
    visit(sourceFile, undefined, '', false);
  }

  /** The declaration owning `symbol` at `node` (a parameter property is looked up as a property). */
  lookup(node: ts.Node, symbol: ts.Symbol): Declaration | undefined {
    if (symbol.flags & ts.SymbolFlags.Property) {
      const property = this.parameterProperties.get(node);
      if (property) return property;
    }
    return this.byNode.get(node);
  }

  /** The nearest declaration that contains `node` and can hold code (for `enclosing` and call edges). */
  enclosing(node: ts.Node): Declaration | undefined {
    for (let current = node.parent; current; current = current.parent) {
      const decl = this.byNode.get(current);
      if (decl && CODE_HOLDERS.has(decl.kind) && ts.getNameOfDeclaration(current as ts.Declaration) !== node) return decl;
    }
    return undefined;
  }
}
