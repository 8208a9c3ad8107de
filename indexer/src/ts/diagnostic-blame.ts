// The symbols a compiler error stems from, asked of the checker while the error is fresh: a review
// attributes each new error at head to the changed symbols among them (change_impact), so that an
// error with no reference to the changed symbol on its span (a call through a local alias, a
// result used two lines later, a class that no longer fits the interface it implements) is still
// reported under the change that caused it.
//
// The blame of an error is the symbols named in the smallest statement-like code around its span
// (the expression statement, the declaration's header for an error at a declaration's name), the
// symbols the locals named there were initialised from (transitively, bounded), the declared types
// of the erroring expression and of what it is assigned to, and the declarations the compiler's
// related information points at. It over-approximates on purpose: the query intersects it with
// what changed, and a change that flows into the erroring statement is what a reviewer would blame.
import { ts } from 'ts-morph';
import { resolveAlias } from './contextual-symbols.ts';

/** Bounds per error: keys kept, and locals followed through their initializers. */
const MAX_BLAME = 48;
const MAX_LOCALS = 24;

export function diagnosticBlame(
  checker: ts.TypeChecker, sourceFile: ts.SourceFile, diagnostic: ts.Diagnostic, keyOf: (symbol: ts.Symbol) => string | undefined,
): string[] {
  const start = diagnostic.start ?? 0;
  const node = nodeCovering(sourceFile, start, start + (diagnostic.length ?? 0));
  const keys = new Set<string>();
  const add = (symbol: ts.Symbol | undefined) => {
    if (!symbol || keys.size >= MAX_BLAME) return;
    for (const root of checker.getRootSymbols(resolveAlias(checker, symbol))) {
      const key = keyOf(root);
      if (key) keys.add(key);
    }
  };
  const addType = (type: ts.Type | undefined) => {
    if (!type) return;
    add(type.aliasSymbol);
    add(type.getSymbol());
    if (type.isUnionOrIntersection()) for (const part of type.types.slice(0, 8)) add(part.aliasSymbol ?? part.getSymbol());
    // A class's or interface's bases: a member it inherits is what an error about it may name.
    for (const base of baseTypes(checker, type)) add(base.getSymbol());
  };
  const followed = new Set<ts.Node>();
  const namesIn = (scope: ts.Node) => {
    const visit = (n: ts.Node): void => {
      if (keys.size >= MAX_BLAME) return;
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) {
        const symbol = checker.getSymbolAtLocation(n);
        add(symbol);
        // A local's value comes from its initializer: `const fn = opts.hashFn || hashKey; fn(key)`.
        const initializer = symbol && localInitializer(symbol, sourceFile);
        if (initializer && !followed.has(initializer) && followed.size < MAX_LOCALS) {
          followed.add(initializer);
          visit(initializer);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(scope);
  };
  for (const scope of scopesOf(node)) namesIn(scope);
  // Inside a callback, the functions it is passed to: their signatures type its parameters
  // (`operate((source, subscriber) => …)` gives `subscriber` the type operate's parameter names).
  for (const callee of calleesOfEnclosingCallbacks(node)) add(checker.getSymbolAtLocation(callee));
  // The types the error is about: the erroring expression's, and the one it must fit.
  for (let n: ts.Node | undefined = node; n && !ts.isStatement(n) && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isExpression(n)) {
      addType(checker.getTypeAtLocation(n));
      addType(checker.getContextualType(n));
      break;
    }
  }
  for (const related of diagnostic.relatedInformation ?? []) {
    if (!related.file || related.start === undefined) continue;
    const at = nodeCovering(related.file, related.start, related.start + (related.length ?? 0));
    const declaration = declarationAt(at);
    add(declaration ? symbolOfName(checker, declaration) : checker.getSymbolAtLocation(at));
  }
  return [...keys].sort();
}

/** Callbacks nested at most this deep are followed to the calls they are passed to. */
const MAX_CALLBACKS = 4;

/**
 * For an error inside function expressions passed as arguments, the name of each callee they are
 * passed to (innermost first), up to the first declaration that is no such callback.
 */
function calleesOfEnclosingCallbacks(node: ts.Node): ts.Node[] {
  const callees: ts.Node[] = [];
  for (let n: ts.Node | undefined = node; n && callees.length < MAX_CALLBACKS; n = n.parent) {
    if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) continue;
    if (!ts.isArrowFunction(n) && !ts.isFunctionExpression(n)) break;
    // The argument may hold the callback in a choice: `reduce(f ? (x, y) => … : (x, y) => …)`.
    let argument: ts.Node = n;
    while (argument.parent && (ts.isParenthesizedExpression(argument.parent) || ts.isConditionalExpression(argument.parent)
      || (ts.isBinaryExpression(argument.parent) && CHOICES.has(argument.parent.operatorToken.kind)))) argument = argument.parent;
    const call = argument.parent;
    if (!call || !(ts.isCallExpression(call) || ts.isNewExpression(call)) || !call.arguments?.includes(argument as ts.Expression)) break;
    const callee = call.expression;
    callees.push(ts.isPropertyAccessExpression(callee) ? callee.name : callee);
    n = call;
  }
  return callees;
}

const CHOICES = new Set([ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken]);

/** Base classes and interfaces of a class or interface type, two levels up, a few at each. */
function baseTypes(checker: ts.TypeChecker, type: ts.Type): ts.Type[] {
  const out: ts.Type[] = [];
  let level = [type];
  for (let depth = 0; depth < 2 && level.length > 0; depth++) {
    const next: ts.Type[] = [];
    for (const t of level) {
      const target = (t as ts.TypeReference).target ?? t;
      if (!(target.flags & ts.TypeFlags.Object) || !((target as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) continue;
      for (const base of (checker.getBaseTypes(target as ts.InterfaceType) ?? []).slice(0, 4)) next.push(base);
    }
    out.push(...next);
    level = next;
  }
  return out;
}

/** The deepest node whose extent holds [start, end). */
function nodeCovering(sourceFile: ts.SourceFile, start: number, end: number): ts.Node {
  let node: ts.Node = sourceFile;
  for (;;) {
    const child = ts.forEachChild(node, (c) => (c.getStart(sourceFile) <= start && end <= Math.max(c.getEnd(), c.getStart(sourceFile) + 1) ? c : undefined));
    if (!child) return node;
    node = child;
  }
}

/**
 * The code whose names an error at `node` is blamed on. At a declaration's name, its header (a
 * class's heritage and type parameters, a function's parameters and return type, a variable's
 * whole declaration); elsewhere the statement-like code around it, stopping at blocks and
 * functions, and at a compound statement's part (an `if`'s condition, not its branches).
 */
function scopesOf(node: ts.Node): ts.Node[] {
  const parent = node.parent;
  if (parent && (ts.isClassLike(parent) || ts.isInterfaceDeclaration(parent)) && parent.name === node) {
    return [node, ...(parent.typeParameters ?? []), ...(parent.heritageClauses ?? [])];
  }
  if (parent && ts.isFunctionLike(parent) && (parent as ts.SignatureDeclaration).name === node) {
    const signature = parent as ts.SignatureDeclaration;
    return [node, ...(signature.typeParameters ?? []), ...signature.parameters, ...(signature.type ? [signature.type] : [])];
  }
  let scope = node;
  for (let up = scope.parent; up && !isBoundary(up); up = up.parent) {
    if (COMPOUND.has(up.kind)) break;
    scope = up;
  }
  return [scope];
}

function isBoundary(node: ts.Node): boolean {
  return ts.isBlock(node) || ts.isSourceFile(node) || ts.isModuleBlock(node) || ts.isCaseClause(node) || ts.isDefaultClause(node)
    || ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) || ts.isEnumDeclaration(node);
}

const COMPOUND = new Set([
  ts.SyntaxKind.IfStatement, ts.SyntaxKind.ForStatement, ts.SyntaxKind.ForInStatement, ts.SyntaxKind.ForOfStatement, ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement, ts.SyntaxKind.SwitchStatement, ts.SyntaxKind.TryStatement, ts.SyntaxKind.LabeledStatement, ts.SyntaxKind.WithStatement,
]);

/** The initializer of a variable (or of the declaration a destructured one comes from) declared in this file. */
function localInitializer(symbol: ts.Symbol, sourceFile: ts.SourceFile): ts.Node | undefined {
  const declaration = symbol.valueDeclaration;
  if (!declaration || declaration.getSourceFile() !== sourceFile) return undefined;
  let at: ts.Node = declaration;
  while (ts.isBindingElement(at) || ts.isObjectBindingPattern(at) || ts.isArrayBindingPattern(at)) at = at.parent;
  return ts.isVariableDeclaration(at) ? at.initializer : undefined;
}

/** The declaration whose name a related-information span points at. */
function declarationAt(node: ts.Node): ts.Declaration | undefined {
  const parent = node.parent;
  return parent && ts.getNameOfDeclaration(parent as ts.Declaration) === node ? (parent as ts.Declaration) : undefined;
}

function symbolOfName(checker: ts.TypeChecker, declaration: ts.Declaration): ts.Symbol | undefined {
  const name = ts.getNameOfDeclaration(declaration);
  return name ? checker.getSymbolAtLocation(name) : undefined;
}
