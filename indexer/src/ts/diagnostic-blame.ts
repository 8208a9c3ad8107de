// The symbols a compiler error stems from, asked of the checker while the error is fresh: a review
// attributes each new error at head to the changed symbols among them (change_impact), so that an
// error with no reference to the changed symbol on its span (a call through a local alias, a
// result used two lines later, a class that no longer fits the interface it implements) is still
// reported under the change that caused it.
//
// The blame of an error is the symbols named in the smallest statement-like code around its span
// (the expression statement, the declaration's header for an error at a declaration's name; for an
// error on a comment, the code the comment precedes), the symbols the locals named there were
// initialised from and the local type aliases stand for (transitively, bounded), the conditions
// that narrow it, the callees an erroring callback is passed to with the code they are called on
// (through object and array literals), the types of the erroring expression (a `return`'s value, a
// declaration's initializer) and of what it must fit, with the classes they are instances of, their
// bases, union parts and type arguments, what the calls an erroring callback is passed to must fit
// (their parameters are inferred from it), the types members are looked up on in the blamed code, and
// the declarations the compiler's related information points at. Names in that
// code the checker cannot resolve are kept by name: at head, a use of what the change removed or
// stopped exporting resolves to nothing (`z.string()` after a barrel lost `export *`), and the
// errors it leaves behind (a callback's parameter implicitly `any`) stem from that name. It
// over-approximates on purpose: the query intersects it with what changed, and a change that flows
// into the erroring statement is what a reviewer would blame.
import { ts } from 'ts-morph';
import { resolveAlias } from './contextual-symbols.ts';

/** Bounds per error: keys kept, unresolved names kept, and locals followed through their initializers. */
const MAX_BLAME = 64;
const MAX_NAMES = 16;
const MAX_LOCALS = 24;
/** Union parts and type arguments followed this many levels down. */
const MAX_TYPE_DEPTH = 2;

export interface Blame {
  /** Keys of the symbols the error stems from (ProblemRecord.blame). */
  keys: string[];
  /** Names in the blamed code that resolve to nothing (ProblemRecord.blameNames). */
  names: string[];
}

export function diagnosticBlame(
  checker: ts.TypeChecker, sourceFile: ts.SourceFile, diagnostic: ts.Diagnostic, keyOf: (symbol: ts.Symbol) => string | undefined,
): Blame {
  const start = diagnostic.start ?? 0;
  const node = nodeCovering(sourceFile, start, start + (diagnostic.length ?? 0));
  const keys = new Set<string>();
  const names = new Set<string>();
  const add = (symbol: ts.Symbol | undefined) => {
    if (!symbol || keys.size >= MAX_BLAME) return;
    for (const root of checker.getRootSymbols(resolveAlias(checker, symbol))) {
      const key = keyOf(root);
      if (key) keys.add(key);
    }
  };
  // A type, the class or interface it is an instance of with their bases, and (a level or two down)
  // the parts of a union and the type arguments: `Partial<Observer<T>>` is Observer's as much as
  // Partial's, and `this` inside a class is the class.
  const addType = (type: ts.Type | undefined, depth = 0): void => {
    if (!type || keys.size >= MAX_BLAME) return;
    if (type.flags & ts.TypeFlags.TypeParameter && (type as ts.TypeParameter & { isThisType?: boolean }).isThisType) type = type.getConstraint() ?? type;
    add(type.aliasSymbol);
    const symbol = type.getSymbol();
    add(symbol);
    // A class's or interface's bases: a member it inherits is what an error about it may name.
    for (const base of baseTypes(checker, instanceType(checker, type, symbol))) add(base.getSymbol());
    if (depth >= MAX_TYPE_DEPTH) return;
    const parts = [
      ...(type.isUnionOrIntersection() ? type.types : []),
      ...(type.aliasTypeArguments ?? []),
      ...(type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(type as ts.TypeReference) : []),
    ];
    for (const part of parts.slice(0, 8)) addType(part, depth + 1);
  };
  // The types the error is about, first (the bound keeps the first keys): the erroring
  // expression's (a `return`'s value, a declaration's initializer), and the one it must fit.
  const expression = erroringExpression(node);
  if (expression) {
    addType(checker.getTypeAtLocation(expression));
    addType(checker.getContextualType(expression));
  }
  const callbackCalls = callsOfEnclosingCallbacks(node);
  // Inside a callback, what the call it is passed to must fit: its parameters are inferred from that
  // (`source.subscribe(createOperatorSubscriber(subscriber, (value) => …))` types `value` by
  // `Partial<Observer<T>>`, subscribe's parameter).
  for (const call of callbackCalls) addType(checker.getContextualType(call));
  const followed = new Set<ts.Node>();
  const namesIn = (scope: ts.Node, receivers = false) => {
    const visit = (n: ts.Node): void => {
      if (keys.size >= MAX_BLAME) return;
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) {
        const symbol = checker.getSymbolAtLocation(n);
        if (!symbol && n.text && names.size < MAX_NAMES && isUse(n)) names.add(n.text);
        // An imported name its module no longer provides (`File '…/AnyCatcher.ts' is not a module`).
        if (ts.isIdentifier(n) && ts.isImportSpecifier(n.parent) && n.parent.name === n && names.size < MAX_NAMES
          && (!symbol || !checker.getAliasedSymbol(symbol).declarations?.length)) names.add((n.parent.propertyName ?? n.parent.name).text);
        add(symbol);
        // A local's value comes from its initializer: `const fn = opts.hashFn || hashKey; fn(key)`.
        const initializer = symbol && localDefinition(symbol, sourceFile);
        if (initializer && !followed.has(initializer) && followed.size < MAX_LOCALS) {
          followed.add(initializer);
          visit(initializer);
        }
      } else if (receivers && ts.isPropertyAccessExpression(n)) {
        // The type a member is looked up on: `this.scheduler.actions` is VirtualTimeScheduler's.
        addType(checker.getTypeAtLocation(n.expression), MAX_TYPE_DEPTH);
      }
      ts.forEachChild(n, visit);
    };
    visit(scope);
  };
  for (const scope of scopesOf(node)) namesIn(scope, true);
  // At a class member's name, the class and its bases: the member must still fit the one it
  // overrides or implements (`Property 'x' in type 'A' is not assignable to the same property in base type 'B'`).
  const member = declarationAt(node);
  if (member && ts.isClassLike(member.parent)) {
    if (member.parent.name) addType(checker.getTypeAtLocation(member.parent.name));
    for (const clause of member.parent.heritageClauses ?? []) for (const t of clause.types) add(checker.getSymbolAtLocation(t.expression));
  }
  // Inside a callback, the functions it is passed to: their signatures type its parameters
  // (`operate((source, subscriber) => …)` gives `subscriber` the type operate's parameter names).
  // The code it is called on too: a receiver that no longer resolves leaves the callee, and so the
  // callback's parameters, untyped (`z.object({…}).apply((s) => …)` once `object` is gone).
  for (const call of callbackCalls) {
    const callee = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
    namesIn(callee);
    if (ts.isPropertyAccessExpression(call.expression)) namesIn(call.expression.expression);
  }
  // The conditions that narrow it, up to its function: `if (e instanceof z.ZodError) { e.flatten() }`
  // errs at `e.flatten` once the class no longer resolves.
  for (let n = node; n.parent && !ts.isFunctionLike(n.parent) && !ts.isSourceFile(n.parent); n = n.parent) {
    const condition = narrowingCondition(n.parent, n);
    if (condition) namesIn(condition);
  }
  for (const related of diagnostic.relatedInformation ?? []) {
    if (!related.file || related.start === undefined) continue;
    const at = nodeCovering(related.file, related.start, related.start + (related.length ?? 0));
    const declaration = declarationAt(at);
    add(declaration ? symbolOfName(checker, declaration) : checker.getSymbolAtLocation(at));
  }
  return { keys: [...keys].sort(), names: [...names].sort() };
}

/** An identifier that names something used (not a declaration's own name nor an object literal's key), which should resolve. */
function isUse(id: ts.Identifier | ts.PrivateIdentifier): boolean {
  const parent = id.parent;
  if (!parent) return false;
  // A property access is a declaration's name only in JavaScript's expando assignments: a use here.
  if (!ts.isPropertyAccessExpression(parent) && declarationAt(id)) return false;
  return !(ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isLabeledStatement(parent)
    || ts.isBreakOrContinueStatement(parent) || ts.isJsxAttribute(parent));
}

/** Callbacks nested at most this deep are followed to the calls they are passed to. */
const MAX_CALLBACKS = 4;

/**
 * For an error inside function expressions passed as arguments, each call they are passed to
 * (innermost first), up to the first declaration that is no such callback; and the calls those
 * calls are arguments of in turn: a pipeable combinator's parameters are inferred from the call it
 * is passed to (`Config.all({…}).pipe(Config.map((options) => …))` types `options` by `pipe`'s receiver).
 */
function callsOfEnclosingCallbacks(node: ts.Node): (ts.CallExpression | ts.NewExpression)[] {
  const calls: (ts.CallExpression | ts.NewExpression)[] = [];
  for (let n: ts.Node | undefined = node; n && calls.length < MAX_CALLBACKS; n = n.parent) {
    if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) continue;
    if (!ts.isArrowFunction(n) && !ts.isFunctionExpression(n)) break;
    let call = callTaking(n);
    if (!call) break;
    for (; call && calls.length < MAX_CALLBACKS; call = callTaking(call)) {
      calls.push(call);
      n = call;
    }
  }
  return calls;
}

/**
 * The call `node` is an argument of: directly, in a choice (`reduce(f ? (x, y) => … : (x, y) => …)`),
 * or in an object or array literal (`z.codec(a, b, { decode: (s) => … })`).
 */
function callTaking(node: ts.Node): ts.CallExpression | ts.NewExpression | undefined {
  let argument: ts.Node = node;
  while (argument.parent && (ts.isParenthesizedExpression(argument.parent) || ts.isConditionalExpression(argument.parent)
    || (ts.isBinaryExpression(argument.parent) && CHOICES.has(argument.parent.operatorToken.kind))
    || ts.isPropertyAssignment(argument.parent) || ts.isObjectLiteralExpression(argument.parent) || ts.isArrayLiteralExpression(argument.parent))) {
    argument = argument.parent;
  }
  const call = argument.parent;
  return call && (ts.isCallExpression(call) || ts.isNewExpression(call)) && call.arguments?.includes(argument as ts.Expression) ? call : undefined;
}

/**
 * The expression whose type an error at `node` is about: the innermost expression around it up to
 * its statement; a `return`'s value; a variable's, parameter's or property's initializer at its name.
 */
function erroringExpression(node: ts.Node): ts.Expression | undefined {
  if (ts.isReturnStatement(node)) return node.expression;
  const declaration = declarationAt(node);
  if (declaration && (ts.isVariableDeclaration(declaration) || ts.isParameter(declaration) || ts.isPropertyDeclaration(declaration)) && declaration.initializer) {
    return declaration.initializer;
  }
  for (let n: ts.Node | undefined = node; n && !ts.isStatement(n) && !ts.isSourceFile(n); n = n.parent) if (ts.isExpression(n)) return n;
  return undefined;
}

const CHOICES = new Set([ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken]);

/** For a class's constructor type (`typeof AsapAction`), the type of its instances; else the type itself. */
function instanceType(checker: ts.TypeChecker, type: ts.Type, symbol: ts.Symbol | undefined): ts.Type {
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Class)) return type;
  const target = (type as ts.TypeReference).target ?? type;
  const isInstance = (target.flags & ts.TypeFlags.Object) !== 0 && ((target as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface) !== 0;
  return isInstance ? type : checker.getDeclaredTypeOfSymbol(symbol);
}

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

/**
 * The deepest node whose extent holds [start, end); for a span in the comments before a node (an
 * unused `@ts-expect-error`), that node: a comment is about the code it precedes.
 */
function nodeCovering(sourceFile: ts.SourceFile, start: number, end: number): ts.Node {
  let node: ts.Node = sourceFile;
  for (;;) {
    const child = ts.forEachChild(node, (c) => (c.getStart(sourceFile) <= start && end <= Math.max(c.getEnd(), c.getStart(sourceFile) + 1) ? c : undefined))
      ?? ts.forEachChild(node, (c) => (c.pos <= start && end <= c.getStart(sourceFile) ? c : undefined));
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

/**
 * What a symbol declared in this file is defined by: a variable's initializer (or that of the
 * declaration a destructured one comes from), a type alias's type (`type Age = z.infer<typeof age>`).
 */
function localDefinition(symbol: ts.Symbol, sourceFile: ts.SourceFile): ts.Node | undefined {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.find(ts.isTypeAliasDeclaration);
  if (!declaration || declaration.getSourceFile() !== sourceFile) return undefined;
  if (ts.isTypeAliasDeclaration(declaration)) return declaration.type;
  let at: ts.Node = declaration;
  while (ts.isBindingElement(at) || ts.isObjectBindingPattern(at) || ts.isArrayBindingPattern(at)) at = at.parent;
  return ts.isVariableDeclaration(at) ? at.initializer : undefined;
}

/** The condition under which `child` of `parent` runs, when `parent` branches on one. */
function narrowingCondition(parent: ts.Node, child: ts.Node): ts.Node | undefined {
  if (ts.isIfStatement(parent) || ts.isWhileStatement(parent)) return child !== parent.expression ? parent.expression : undefined;
  if (ts.isConditionalExpression(parent)) return child !== parent.condition ? parent.condition : undefined;
  if (ts.isBinaryExpression(parent) && CHOICES.has(parent.operatorToken.kind)) return child === parent.right ? parent.left : undefined;
  return undefined;
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
