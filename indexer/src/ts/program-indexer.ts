// Indexes the files one program owns: a single walk over each file's names (JSDoc included) with
// the checker (never a findReferences per symbol), resolving aliases, transient and union symbols
// to their root declarations, and adding what the language service relates to a name besides its
// own symbol (contextual-symbols.ts). Walks compiler nodes with ts.forEachChild: wrapped nodes cost
// too much here.
import { ts } from 'ts-morph';
import { canonicalSymbolOrder, MAX_FILE_PROBLEMS, occurrencesOf, pushOccurrence, symbolKey, type Language, type ProblemRecord, type ReferenceKind, type SkippedFile } from '@sextant/format';
import { analysisFailed, failedWhileIndexing } from '../analysis-failure.ts';
import type { IndexCollector, ResolvedDeclaration, Site } from '../index-collector.ts';
import type { CompiledFile, UnresolvedName } from '../language-indexer.ts';
import { AssignmentDeclarationKind, bindSourceFile, getAssignmentDeclarationKind, isInJSFile } from './compiler-internals.ts';
import { DeclarationTable, isAugmentation, isInAugmentation, kindOf, type Declaration } from './declaration-table.ts';
import { externalQualifiedName, type PackageCache } from './external-origin.ts';
import { describeDiagnostic, type PlannedProgram } from './project-plan.ts';
import { diagnosticBlame } from './diagnostic-blame.ts';
import { globalReach } from './global-reach.ts';
import { canonicalMessage } from './diagnostic-text.ts';
import { tsOutline } from './ts-outline.ts';
import { moduleReexports } from './module-reexports.ts';
import { aliasKind, isInAssignmentPattern, isPropertyNameLiteral, moduleSpecifierKind, referenceKind } from './reference-kind.ts';
import { bindingElementProperty, contextualProperties, objectLiteralElementOf, resolveAlias } from './contextual-symbols.ts';
import type { SnapshotHost } from './snapshot-host.ts';
import { docOf, signatureOf, wholeSignatureOf } from './symbol-text.ts';

export function languageOf(path: string): Language {
  return /\.[cm]?jsx?$/.test(path) ? 'javascript' : 'typescript';
}

/** Kinds whose references are call sites of the enclosing declaration (as the language service's call hierarchy collects them). */
const CALL_KINDS = new Set<ReferenceKind>(['call', 'new', 'decorator']);
/** A JSX element calls its component; an intrinsic element (`<div>`) calls nothing. */
const CALLABLE_JSX = new Set(['function', 'class', 'component', 'constant', 'variable']);

interface OccurrenceOptions {
  /** Also a call edge from the enclosing declaration, when the kind is a call (default true). */
  edge?: boolean;
  /**
   * Also an occurrence in the file, for position lookups (default true). A secondary symbol at a
   * name that already has its own (the constructor at `new C`, beside the class) is a reference
   * only, so a position there still means the name's own symbol.
   */
  lookup?: boolean;
}

type Occurrence = (node: ts.Node, key: string, kind: ReferenceKind, options?: OccurrenceOptions) => void;

/** One file's walk: what it collected so far, and the node the last occurrence was at (its site, enclosing symbol, keys seen there). */
interface FileWalk {
  path: string;
  sourceFile: ts.SourceFile;
  table: DeclarationTable;
  symIndex: Map<string, number>;
  syms: string[];
  occ: number[];
  unresolved: UnresolvedName[];
  contextualTypes: Map<ts.Node, ts.Type | undefined>;
  patternTypes: Map<ts.Node, ts.Type>;
  siteNode?: ts.Node;
  site?: Site;
  from?: string;
  seenAtNode: Set<string>;
  /** ProgramIndexer.occurrence for this walk, as the helpers that record definitions take it. */
  occurrence: Occurrence;
}

export class ProgramIndexer {
  program!: ts.Program;
  private checker!: ts.TypeChecker;
  private tables = new Map<ts.SourceFile, DeclarationTable>();
  private keys = new Map<ts.Symbol, string | undefined>();
  private declarationKeys = new Map<Declaration, string>();
  /** What indexFile is doing, for the skipped entry when it throws. */
  private stage = '';

  constructor(
    private readonly host: SnapshotHost,
    private readonly plan: PlannedProgram,
    private readonly collector: IndexCollector,
    private readonly packages: PackageCache,
  ) {
    this.open();
  }

  /**
   * Creates the program over the files the host still has. A file the parser fails on is excluded
   * while the program is created (snapshot-host.ts), one the binder fails on (a 5,000-link property
   * chain) when its files are bound here one by one before the checker binds them all at once; the
   * program is then created again without it, so that no file of it resolves an import to a file
   * that is missing from the program.
   */
  private open(): void {
    for (;;) {
      const failures = this.host.failures.size;
      this.program = ts.createProgram({
        rootNames: this.plan.rootNames.filter((f) => this.host.fileExists(f)),
        options: this.plan.options,
        projectReferences: this.plan.projectReferences,
        host: this.host.compilerHost(this.plan.options),
      });
      if (this.host.failures.size === failures) this.bindFiles();
      if (this.host.failures.size === failures) break;
    }
    this.checker = this.program.getTypeChecker();
    this.tables = new Map();
    this.keys = new Map();
    this.declarationKeys = new Map();
  }

  private bindFiles(): void {
    const options = this.program.getCompilerOptions();
    for (const sourceFile of this.program.getSourceFiles()) {
      try {
        bindSourceFile(sourceFile, options);
      } catch (error) {
        const path = this.host.relative(sourceFile.fileName);
        if (path === undefined) throw failedWhileIndexing(error, `${this.host.displayName(sourceFile.fileName)} (in the TypeScript binder)`);
        this.host.exclude(path, 'the TypeScript binder', error);
      }
    }
  }

  /**
   * Each owned file, compiled or skipped. A file whose checking or walk throws (a stack overflow on
   * a 5,000-link property chain) is skipped: what it added to the collector is taken back, and the
   * program is created again without it, because a checker that threw midway may hold half-resolved
   * types that would make other files' answers wrong. With `walk`, only those files.
   */
  *indexFiles(walk?: ReadonlySet<string>): Generator<CompiledFile | SkippedFile> {
    for (const path of this.plan.owned) {
      // An incremental build reuses the others' records (the program still holds them all).
      if (walk && !walk.has(path)) continue;
      const failure = this.host.failures.get(path);
      if (failure) {
        yield analysisFailed(path, failure.stage, failure.error);
        continue;
      }
      const sourceFile = this.program.getSourceFile(this.host.absolute(path));
      if (!sourceFile) continue;
      let compiled: CompiledFile;
      try {
        compiled = this.collector.atomically(() => this.indexFile(path, sourceFile));
      } catch (error) {
        this.host.exclude(path, this.stage, error);
        yield analysisFailed(path, this.stage, error);
        this.open();
        continue;
      }
      yield compiled;
    }
  }

  /** Errors of the program as a whole, not of one file (options that conflict, a referenced project the compiler cannot load). */
  programWarnings(): string[] {
    return this.program.getOptionsDiagnostics()
      .filter((d) => d.category === ts.DiagnosticCategory.Error)
      .map((d) => describeDiagnostic(this.host, d, this.plan.config ?? 'default program'));
  }

  private table(sourceFile: ts.SourceFile): DeclarationTable {
    let table = this.tables.get(sourceFile);
    if (!table) {
      table = new DeclarationTable(sourceFile, this.host.relative(sourceFile.fileName) ?? sourceFile.fileName);
      this.tables.set(sourceFile, table);
    }
    return table;
  }

  /**
   * The declaration the call whose callee ends in `node` resolved to (the overload the checker
   * chose, or one of several call signatures of the callee's type); undefined outside a call, for
   * a declaration outside the repository, or where there was nothing to choose from.
   */
  private resolvedDeclaration(node: ts.Node): ResolvedDeclaration | undefined {
    let callee: ts.Node = node;
    while (callee.parent && ts.isPropertyAccessExpression(callee.parent) && callee.parent.name === callee) callee = callee.parent;
    const call = callee.parent;
    if (!call || !(ts.isCallExpression(call) || ts.isNewExpression(call)) || call.expression !== callee) return undefined;
    const declaration = this.checker.getResolvedSignature(call)?.declaration;
    if (!declaration || ts.isJSDocSignature(declaration)) return undefined;
    const path = this.host.relative(declaration.getSourceFile().fileName);
    if (path === undefined) return undefined;
    if (ts.isCallSignatureDeclaration(declaration) || ts.isConstructSignatureDeclaration(declaration)) {
      // A signature of a type, not a declaration of the symbol: worth naming only where the type has several.
      const siblings = (declaration.parent as ts.TypeLiteralNode | ts.InterfaceDeclaration).members
        .filter((m) => m.kind === declaration.kind).length;
      return siblings > 1 ? { def: definitionSite(declaration, path), signature: true } : undefined;
    }
    return { def: definitionSite(declaration, path) };
  }

  private indexFile(path: string, sourceFile: ts.SourceFile): CompiledFile {
    // Diagnostics first: checking the file resolves every signature and contextual type the walk asks for.
    this.stage = 'the TypeScript checker';
    const { problems, problemsOmitted } = this.problems(sourceFile);
    this.stage = 'the symbol walk (TypeScript checker)';
    // A module's own symbol is added where an import names it: one reused from the previous index, named by a file not walked again, is declared again from this text.
    const module = this.checker.getSymbolAtLocation(sourceFile);
    if (module && this.collector.stale?.has(this.repoKeyOf(module) ?? '')) this.keyOf(module);
    const walk: FileWalk = {
      path, sourceFile, table: this.table(sourceFile),
      symIndex: new Map(), syms: [], occ: [], unresolved: [],
      contextualTypes: new Map(), patternTypes: new Map(), seenAtNode: new Set(),
      occurrence: (node, key, kind, options) => this.occurrence(walk, node, key, kind, options),
    };
    this.visit(walk, sourceFile);
    const reexports = moduleReexports(this.checker, sourceFile, (symbol) => this.repoDeclarationOf(symbol));
    const { syms, occ } = canonicalSymbolOrder(walk.syms, walk.occ);
    const defined = new Map<string, number>();
    for (const o of occurrencesOf({ occ })) if (o.kind === 'definition') defined.set(`${o.line}:${o.column}`, o.symbolIndex);
    const nameAt = (node: ts.Node): [number, number] => {
      const def = definitionSite(node, path);
      return [def[1], def[2]];
    };
    const outline = tsOutline({ table: walk.table, sourceFile, nameAt, symAt: ([line, column]) => defined.get(`${line}:${column}`) ?? -1 });
    const signatures = new Map<string, string>();
    for (const decl of walk.table.declarations) {
      const signature = decl.local ? undefined : wholeSignatureOf(decl.node);
      if (signature !== undefined) signatures.set(nameAt(decl.node).join(':'), signature);
    }
    return { path, lang: languageOf(path), syms, occ, problems, problemsOmitted, unresolved: walk.unresolved, reexports, outline, signatures, declaresGlobals: globalReach(sourceFile) !== undefined };
  }

  /** Records that `node` is an occurrence of `key`: in the file's occurrences (once per node and key) and, unless a definition, as a reference from the enclosing symbol. */
  private occurrence(walk: FileWalk, node: ts.Node, key: string, kind: ReferenceKind, { edge = true, lookup = true }: OccurrenceOptions = {}): void {
    if (walk.siteNode !== node) {
      walk.siteNode = node;
      walk.site = siteOf(walk.sourceFile, walk.path, node);
      walk.from = undefined;
      walk.seenAtNode.clear();
    }
    if (walk.seenAtNode.has(key)) return;
    walk.seenAtNode.add(key);
    const site = walk.site!;
    if (lookup) {
      let index = walk.symIndex.get(key);
      if (index === undefined) {
        index = walk.syms.length;
        walk.symIndex.set(key, index);
        walk.syms.push(key);
      }
      pushOccurrence(walk.occ, { line: site.line, column: site.column, endLine: site.endLine, endColumn: site.endColumn, symbolIndex: index, kind });
    }
    if (kind === 'definition') return;
    walk.from ??= this.enclosingKey(node, walk.table) ?? '';
    const from = walk.from;
    // Which overload a call chose: asked of the checker only where there is a call to resolve.
    const decl = kind === 'call' || kind === 'new' ? this.resolvedDeclaration(node) : undefined;
    this.collector.addReference(key, site, kind, from || undefined, 'exact', decl);
    if (edge && from && (CALL_KINDS.has(kind) || (kind === 'jsx' && isCallingJsx(node) && CALLABLE_JSX.has(this.collector.symbols.get(key)!.info.kind)))) {
      this.collector.addEdge(from, 'calls', key, site);
    }
  }

  /** The occurrences of what `symbol` stands for: an alias's target, and the root symbols the checker gives for it. */
  private symbolOccurrences(walk: FileWalk, node: ts.Node, symbol: ts.Symbol | undefined, kind: ReferenceKind): void {
    if (!symbol) return;
    for (const root of this.checker.getRootSymbols(resolveAlias(this.checker, symbol))) {
      const key = this.keyOf(root);
      if (key) walk.occurrence(node, key, kind);
    }
  }

  private unresolvedAt(walk: FileWalk, node: ts.Node): void {
    const { sourceFile, path } = walk;
    // A name the parser made up to recover from an error (zero width) is no one's reference.
    if (node.getStart(sourceFile) === node.getEnd()) return;
    const at = siteOf(sourceFile, path, node);
    const enclosing = this.enclosingKey(node, walk.table);
    walk.unresolved.push({
      name: node.getText(sourceFile), line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn, kind: referenceKind(node),
      ...(enclosing ? { from: enclosing } : {}),
    });
  }

  /** What a name is an occurrence of: the symbol at it, and the properties an object literal element or destructuring names there. */
  private handleName(walk: FileWalk, node: ts.Identifier | ts.PrivateIdentifier | ts.StringLiteralLike | ts.NumericLiteral): void {
    const checker = this.checker;
    const element = objectLiteralElementOf(node);
    const inPattern = element !== undefined && ts.isObjectLiteralExpression(element.parent) && isInAssignmentPattern(element.parent);
    if (element && ts.isShorthandPropertyAssignment(element)) {
      // `{ id }` is a use of the local `id` as well as a property.
      const value = checker.getShorthandAssignmentValueSymbol(element);
      this.symbolOccurrences(walk, node, value, inPattern ? 'write' : 'read');
      if (!value && ts.isIdentifier(node) && !inPattern) this.unresolvedAt(walk, node);
    }
    if (element && inPattern) {
      // `({ id } = order)` reads order.id; the literal declares nothing.
      if (ts.isIdentifier(node)) this.symbolOccurrences(walk, node, checker.getPropertySymbolOfDestructuringAssignment(node), 'read');
      return;
    }
    const contextual = element ? contextualProperties(checker, element, walk.contextualTypes) : [];
    for (const property of contextual) this.symbolOccurrences(walk, node, property, 'write');
    if (ts.isIdentifier(node)) this.symbolOccurrences(walk, node, bindingElementProperty(checker, node, walk.patternTypes), 'read');

    const symbol = checker.getSymbolAtLocation(node);
    if (!symbol && !ts.isStringLiteralLike(node) && !ts.isNumericLiteral(node) && isUnresolvedReference(node)) this.unresolvedAt(walk, node);
    if (!symbol || isCommonJsObject(node, symbol)) return;
    const declaresAlias = (symbol.flags & ts.SymbolFlags.Alias) !== 0
      && (symbol.declarations?.some((d) => declarationNameOf(d) === node) ?? false);
    for (const root of checker.getRootSymbols(resolveAlias(checker, symbol))) {
      const key = this.keyOf(root);
      if (!key) continue;
      const defines = root.declarations?.some((d) => declarationNameOf(d) === node) ?? false;
      walk.occurrence(node, key, defines ? 'definition' : declaresAlias ? aliasKind(node) : referenceKind(node));
      if (defines) this.overridesAll(key, contextual);
    }
  }

  /** The walk over a file's nodes (and their JSDoc): names and literals are occurrences, declarations add edges. */
  private visit(walk: FileWalk, node: ts.Node): void {
    const { sourceFile, table, path, occurrence } = walk;
    switch (node.kind) {
      case ts.SyntaxKind.Identifier:
      case ts.SyntaxKind.PrivateIdentifier:
        // `@param`, `@type`: a tag's name says what the tag is, not what it is about.
        if (!isJSDocTagName(node)) this.handleName(walk, node as ts.Identifier);
        break;
      case ts.SyntaxKind.StringLiteral:
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      case ts.SyntaxKind.NumericLiteral: {
        const literal = node as ts.StringLiteralLike | ts.NumericLiteral;
        const moduleKind = ts.isNumericLiteral(literal) ? undefined : moduleSpecifierKind(literal);
        if (moduleKind) this.symbolOccurrences(walk, node, this.checker.getSymbolAtLocation(node), moduleKind);
        else if (isPropertyNameLiteral(literal)) this.handleName(walk, literal);
        break;
      }
      case ts.SyntaxKind.UnionType:
        this.unionMembers(node as ts.UnionTypeNode, table);
        break;
      case ts.SyntaxKind.HeritageClause:
        this.heritage(node as ts.HeritageClause, table, path);
        break;
      case ts.SyntaxKind.Constructor:
        this.constructorDefinition(node as ts.ConstructorDeclaration, sourceFile, occurrence);
        break;
      case ts.SyntaxKind.ExportAssignment:
      case ts.SyntaxKind.FunctionDeclaration:
      case ts.SyntaxKind.ClassDeclaration:
        this.defaultExportDefinition(node as ts.ExportAssignment | ts.FunctionDeclaration | ts.ClassDeclaration, sourceFile, occurrence);
        break;
    }
    if (ts.isClassLike(node)) {
      const jsDocImplements = isInJSFile(node) ? ts.getJSDocImplementsTags(node) : [];
      if (jsDocImplements.length) this.inherits(node, 'implements', jsDocImplements.map((t) => t.class), table, path);
    }
    if (ts.isClassLike(node) || ts.isInterfaceDeclaration(node)) this.overrides(node, table);
    ts.forEachChild(node, (child) => this.visit(walk, child));
    // JSDoc is not a child to ts.forEachChild: its types, @link targets and @param names are uses too.
    const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
    if (docs) for (const doc of docs) this.visit(walk, doc);
    if (ts.isNewExpression(node) || ts.isCallExpression(node)) this.constructorCall(node, occurrence);
  }

  private problems(sourceFile: ts.SourceFile): { problems: ProblemRecord[]; problemsOmitted: number } {
    // The parser's errors are the file's syntax errors (the file's outline is the compiler's too, ts-outline.ts); they stem from no symbol.
    const syntactic = this.program.getSyntacticDiagnostics(sourceFile);
    const all = [...syntactic.map((d) => ({ d, syntax: true })), ...this.program.getSemanticDiagnostics(sourceFile).map((d) => ({ d, syntax: false }))];
    const problems = all.slice(0, MAX_FILE_PROBLEMS).map(({ d, syntax }): ProblemRecord => {
      const start = sourceFile.getLineAndCharacterOfPosition(d.start ?? 0);
      const end = sourceFile.getLineAndCharacterOfPosition((d.start ?? 0) + (d.length ?? 0));
      const error = d.category === ts.DiagnosticCategory.Error;
      const blame = error && !syntax ? diagnosticBlame(this.checker, sourceFile, d, (symbol) => this.repoKeyOf(symbol)) : { keys: [], names: [] };
      return {
        source: syntax ? 'syntax' : 'compiler',
        severity: error ? 'error' : 'warning',
        code: d.code,
        message: canonicalMessage(ts.flattenDiagnosticMessageText(d.messageText, '\n'), this.host.root),
        line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1,
        ...(blame.keys.length > 0 ? { blame: blame.keys } : {}),
        ...(blame.names.length > 0 ? { blameNames: blame.names } : {}),
      };
    });
    return { problems, problemsOmitted: all.length - problems.length };
  }

  /** `constructor` is a keyword, not an identifier: its definition is recorded at the keyword. */
  private constructorDefinition(node: ts.ConstructorDeclaration, sourceFile: ts.SourceFile, occurrence: Occurrence): void {
    const keyword = node.getChildren(sourceFile).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
    const key = this.declarationSymbolKey(node);
    if (key && keyword) occurrence(keyword, key, 'definition');
  }

  /**
   * `new C()` and `super()` use C's constructor: a reference to the constructor the checker resolved
   * (at the class name, beside the reference to the class; at `super`), as the language service
   * finds a constructor's references. `super()` is also a call of it.
   */
  private constructorCall(node: ts.NewExpression | ts.CallExpression, occurrence: Occurrence): void {
    const isSuper = node.expression.kind === ts.SyntaxKind.SuperKeyword;
    if (!ts.isNewExpression(node) && !isSuper) return;
    const declaration = this.checker.getResolvedSignature(node)?.declaration;
    if (!declaration || !ts.isConstructorDeclaration(declaration)) return;
    const key = this.declarationSymbolKey(declaration);
    const at = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
    if (key && (isSuper || ts.isIdentifier(at))) occurrence(at, key, isSuper ? 'call' : 'new', { edge: isSuper, lookup: isSuper });
  }

  /** `export default function () {}`, `export default {…}`: no name to stand on, so the definition is at `default`. */
  private defaultExportDefinition(node: ts.ExportAssignment | ts.FunctionDeclaration | ts.ClassDeclaration, sourceFile: ts.SourceFile, occurrence: Occurrence): void {
    if (ts.isExportAssignment(node) ? ts.isIdentifier(node.expression) || node.isExportEquals : node.name) return;
    const keyword = node.getChildren(sourceFile).find((c) => c.kind === ts.SyntaxKind.DefaultKeyword)
      ?? node.modifiers?.find((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    const key = this.declarationSymbolKey(node);
    if (key && keyword) occurrence(keyword, key, 'definition');
  }

  /** `class A extends B implements C`: inherit edges from A to each resolved supertype. */
  private heritage(clause: ts.HeritageClause, table: DeclarationTable, path: string): void {
    this.inherits(clause.parent, clause.token === ts.SyntaxKind.ExtendsKeyword ? 'extends' : 'implements', clause.types, table, path);
  }

  private inherits(owner: ts.Node, kind: 'extends' | 'implements', types: readonly ts.ExpressionWithTypeArguments[], table: DeclarationTable, path: string): void {
    const ownerKey = this.declarationSymbolKey(owner, table);
    if (!ownerKey) return;
    for (const type of types) {
      const nameNode = ts.isPropertyAccessExpression(type.expression) ? type.expression.name : type.expression;
      const symbol = this.checker.getSymbolAtLocation(nameNode);
      const key = symbol && this.keyOf(resolveAlias(this.checker, symbol));
      if (key && key !== ownerKey) this.collector.addEdge(ownerKey, kind, key, siteOf(type.getSourceFile(), path, type.expression));
    }
  }

  /**
   * A member overrides (or implements) the member of the same name on each direct supertype. Members
   * include constructor parameter properties (`constructor(protected scheduler: QueueScheduler)`).
   */
  private overrides(owner: ts.ClassLikeDeclaration | ts.InterfaceDeclaration, table: DeclarationTable): void {
    const supertypes = [
      ...(owner.heritageClauses ?? []).flatMap((clause) => clause.types),
      ...(ts.isClassLike(owner) && isInJSFile(owner) ? ts.getJSDocImplementsTags(owner).map((t) => t.class) : []),
    ];
    if (supertypes.length === 0) return;
    const bases = supertypes.map((type) => this.checker.getTypeAtLocation(type));
    const members = (owner.members as ts.NodeArray<ts.ClassElement | ts.TypeElement>).flatMap((member): (ts.ClassElement | ts.TypeElement | ts.ParameterDeclaration)[] =>
      ts.isConstructorDeclaration(member) ? member.parameters.filter((p) => ts.isParameterPropertyDeclaration(p, member)) : [member]);
    for (const member of members) {
      const name = member.name;
      if (!name || !(ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))) continue;
      if (ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
      const memberKey = this.declarationSymbolKey(member, table);
      if (!memberKey) continue;
      const text = ts.isPrivateIdentifier(name) ? name.escapedText as string : name.text;
      for (const base of bases) {
        const property = base.getProperty(text);
        if (property) this.overridesAll(memberKey, [property]);
      }
    }
  }

  /**
   * `memberKey` overrides or implements each of `properties` (their root symbols). Also used for an
   * object literal's member and the properties of its contextual type that it sets (`const provider:
   * TimeoutProvider = { setTimeout() {…} }`): the language service relates those as it relates a
   * class member and its interface's, when finding references and implementations.
   */
  private overridesAll(memberKey: string, properties: readonly ts.Symbol[]): void {
    for (const property of properties) {
      for (const root of this.checker.getRootSymbols(property)) {
        const key = this.keyOf(root);
        if (key && key !== memberKey) this.collector.addEdge(memberKey, 'overrides', key);
      }
    }
  }

  /**
   * `{ kind: 'min'; message?: string } | { kind: 'max'; message?: string }`: the same-named members
   * of the object type literals of one union are one property to the language service, which finds
   * the references of all when asked for one (named types in a union stay apart, as there).
   */
  private unionMembers(union: ts.UnionTypeNode, table: DeclarationTable): void {
    const byName = new Map<string, string[]>();
    for (const constituent of union.types) {
      let literal = constituent;
      while (ts.isParenthesizedTypeNode(literal)) literal = literal.type;
      if (!ts.isTypeLiteralNode(literal)) continue;
      for (const member of literal.members) {
        const name = member.name;
        if (!name || !(ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))) continue;
        const key = this.declarationSymbolKey(member, table);
        if (!key) continue;
        const keys = byName.get(name.text) ?? [];
        if (!keys.includes(key)) keys.push(key);
        byName.set(name.text, keys);
      }
    }
    for (const [first, ...rest] of byName.values()) for (const key of rest) this.collector.addEdge(first!, 'sameProperty', key);
  }

  /** The key of the enclosing declaration's symbol: one key for every declaration of an overload set or merged symbol. */
  private enclosingKey(node: ts.Node, table: DeclarationTable): string | undefined {
    const decl = table.enclosing(node);
    return decl && this.declarationKeyOf(decl, table);
  }

  private declarationSymbolKey(node: ts.Node, table = this.table(node.getSourceFile())): string | undefined {
    const decl = table.lookup(node);
    if (decl) return this.declarationKeyOf(decl, table);
    const symbol = symbolOfDeclaration(this.checker, node);
    return symbol && this.keyOf(symbol);
  }

  private declarationKeyOf(decl: Declaration, table: DeclarationTable): string {
    let key = this.declarationKeys.get(decl);
    if (key === undefined) {
      const symbol = symbolOfDeclaration(this.checker, decl.node);
      key = (symbol && this.keyOf(symbol)) ?? this.addRepoSymbol(decl, table, [decl.node]);
      this.declarationKeys.set(decl, key);
    }
    return key;
  }

  /** The key of a symbol, creating its record on first sight; undefined for symbols without declarations. */
  keyOf(symbol: ts.Symbol): string | undefined {
    if (this.keys.has(symbol)) return this.keys.get(symbol);
    const key = this.computeKey(symbol);
    this.keys.set(symbol, key);
    return key;
  }

  /**
   * The key of a symbol declared in the repository, without registering it (keyOf registers what
   * it keys): for blaming an error on symbols, which must not add any to the index. From the
   * declaration alone, never from keyOf's cache: what that holds depends on which files were walked
   * before (an incremental build walks fewer), and a library's symbol is never what a change blames.
   */
  repoKeyOf(symbol: ts.Symbol): string | undefined {
    return this.repoDeclarationOf(symbol)?.key;
  }

  private repoDeclarationOf(symbol: ts.Symbol): Declaration | undefined {
    const { inRepo } = this.declarationsOf(symbol);
    return inRepo[0] && this.table(inRepo[0].d.getSourceFile()).lookup(inRepo[0].d);
  }

  /** A symbol's declarations that can key it, and those of them in the repository, the primary first. */
  private declarationsOf(symbol: ts.Symbol): { declarations: ts.Declaration[]; inRepo: { d: ts.Declaration; path: string }[] } {
    const declarations = symbol.declarations?.filter((d) => kindOf(d) || ts.isBinaryExpression(d) || ts.isPropertyAccessExpression(d) || ts.isElementAccessExpression(d)) ?? [];
    const inRepo = declarations
      .map((d) => ({ d, path: this.host.relative(d.getSourceFile().fileName) }))
      .filter((x): x is { d: ts.Declaration; path: string } => x.path !== undefined)
      // A symbol is identified by its own declarations, never by an augmentation elsewhere
      // (`declare module './x'`), which a program without that file would not see.
      .sort((a, b) => rank(a.d) - rank(b.d) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.d.pos - b.d.pos));
    return { declarations, inRepo };
  }

  private computeKey(symbol: ts.Symbol): string | undefined {
    const { declarations, inRepo } = this.declarationsOf(symbol);
    if (declarations.length === 0) return undefined;
    if (inRepo.length === 0) return this.externalKey(symbol, declarations[0]!);
    const primary = inRepo[0]!;
    const table = this.table(primary.d.getSourceFile());
    const decl = table.lookup(primary.d);
    if (decl) return this.addRepoSymbol(decl, table, inRepo.map((x) => x.d));
    // A declaration the table does not name (`Object.defineProperty(exports, 'x', …)`): keyed by its position.
    const name = symbol.getName();
    const key = symbolKey(`${primary.path}|${name}|property|@${primary.d.pos}`);
    if (!this.collector.has(key)) {
      this.collector.addSymbol({
        key, name, kind: 'property', qname: name, lang: languageOf(primary.path), path: primary.path, mods: 0,
        defs: inRepo.map((x) => definitionSite(x.d, x.path)),
      });
    }
    return key;
  }

  private addRepoSymbol(decl: Declaration, table: DeclarationTable, declarations: ts.Node[]): string {
    if (this.collector.has(decl.key)) return decl.key;
    const path = this.host.relative(declarations[0]!.getSourceFile().fileName)!;
    // Registered before its container is resolved: the container's key may lead back here.
    this.collector.addSymbol({
      key: decl.key,
      name: decl.name,
      kind: decl.kind,
      qname: decl.qname,
      lang: languageOf(path),
      path,
      mods: decl.mods,
      signature: signatureOf(decl.node),
      doc: declarations.map(docOf).find((doc) => doc !== undefined),
      ...(decl.local ? { local: true } : {}),
      defs: declarations.map((d) => definitionSite(d, this.host.relative(d.getSourceFile().fileName)!)),
    });
    if (decl.container) this.collector.symbols.get(decl.key)!.info.container = this.declarationKeyOf(decl.container, table);
    return decl.key;
  }

  private externalKey(symbol: ts.Symbol, declaration: ts.Declaration): string {
    const origin = this.packages.originOf(declaration.getSourceFile().fileName);
    const qname = externalQualifiedName(this.checker, symbol, declaration, origin);
    const kind = kindOf(declaration) ?? 'variable';
    const key = symbolKey(`ext|${origin.package}|${qname}|${kind}`);
    if (!this.collector.has(key)) {
      this.collector.addSymbol({
        key, name: kind === 'module' ? qname : symbol.getName(), kind, qname, lang: languageOf(declaration.getSourceFile().fileName), mods: 0,
        signature: signatureOf(declaration), doc: docOf(declaration), external: origin, defs: [],
      });
    }
    return key;
  }
}

/** The symbol a declaration declares (merged: every declaration of an overload set gives the same one). */
function symbolOfDeclaration(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  const name = ts.isSourceFile(node) ? undefined : ts.getNameOfDeclaration(node as ts.Declaration);
  const symbol = name && !ts.isComputedPropertyName(name) ? checker.getSymbolAtLocation(name) : undefined;
  return symbol ?? (node as { symbol?: ts.Symbol }).symbol;
}

/**
 * Whether a name the checker gave no symbol is a reference it could not resolve (a name it cannot
 * find, a member of an `any` or of an error type), so that nobody knows whether it reaches a
 * changed symbol. Not: the name a declaration declares (an object literal's property without a
 * contextual type included), a JSX attribute or intrinsic element (`<div hidden>`: no symbol
 * without JSX typings, and none to reach), a label, `new.target` / `import.meta`, or anything in a
 * JSDoc comment (a comment's `@link` breaks nothing).
 */
function isUnresolvedReference(node: ts.Identifier | ts.PrivateIdentifier): boolean {
  const parent = node.parent;
  if ((node.flags & ts.NodeFlags.JSDoc) !== 0) return false;
  // getNameOfDeclaration names a property or element access too (a JavaScript assignment may declare
  // one): that is a use unless the checker made it a declaration, and then it has a symbol.
  if (!ts.isPropertyAccessExpression(parent) && !ts.isElementAccessExpression(parent) && declarationNameOf(parent) === node) return false;
  if (ts.isJsxAttribute(parent) || ts.isJsxNamespacedName(parent)) return false;
  if ((ts.isJsxOpeningElement(parent) || ts.isJsxSelfClosingElement(parent) || ts.isJsxClosingElement(parent))
    && parent.tagName === node && ts.isIdentifier(node) && isIntrinsicTagName(node.text)) return false;
  if ((ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) && parent.label === node) return false;
  if (ts.isMetaProperty(parent)) return false;
  return true;
}

/** The compiler's rule (utilities.ts isIntrinsicJsxName): lowercase first letter, or a dash. */
function isIntrinsicTagName(name: string): boolean {
  const first = name.charCodeAt(0);
  return (first >= 97 && first <= 122) || name.includes('-');
}

function isJSDocTagName(node: ts.Node): boolean {
  const parent = node.parent;
  return parent.kind >= ts.SyntaxKind.FirstJSDocTagNode && parent.kind <= ts.SyntaxKind.LastJSDocTagNode && (parent as ts.JSDocTag).tagName === node;
}

/**
 * The name a declaration is found at: ts.getNameOfDeclaration, and for `module.exports = …` the
 * `exports` it assigns (the compiler names that declaration `export=` and gives it no name node).
 */
function declarationNameOf(declaration: ts.Node): ts.Node | undefined {
  const name = ts.getNameOfDeclaration(declaration as ts.Declaration);
  if (name || !ts.isBinaryExpression(declaration) || getAssignmentDeclarationKind(declaration) !== AssignmentDeclarationKind.ModuleExports) return name;
  return ts.isPropertyAccessExpression(declaration.left) ? declaration.left.name : undefined;
}

/**
 * `exports` in `exports.x = …`, `module` in `module.exports = …`: the checker answers with the
 * export being assigned, but the language service finds neither among that export's references.
 */
function isCommonJsObject(node: ts.Node, symbol: ts.Symbol): boolean {
  return ts.isIdentifier(node) && (node.text === 'exports' || node.text === 'module') && isInJSFile(node)
    && ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node && symbol.escapedName !== node.text;
}

function rank(declaration: ts.Node): number {
  return ts.isSourceFile(declaration) ? 0 : isAugmentation(declaration) || isInAugmentation(declaration) ? 2 : 1;
}

/** An opening or self-closing tag (the closing tag of an element is the same call). */
function isCallingJsx(node: ts.Node): boolean {
  let tag: ts.Node = node;
  while (ts.isPropertyAccessExpression(tag.parent) && tag.parent.name === tag) tag = tag.parent;
  return ts.isJsxOpeningElement(tag.parent) || ts.isJsxSelfClosingElement(tag.parent);
}

/** The range of a name; of a string literal, its text inside the quotes (as the language service reports it). */
function siteOf(sourceFile: ts.SourceFile, path: string, node: ts.Node): Site {
  const quoted = ts.isStringLiteralLike(node) && node.getWidth(sourceFile) >= 2 ? 1 : 0;
  const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile) + quoted);
  const end = sourceFile.getLineAndCharacterOfPosition(node.getEnd() - quoted);
  return { path, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

export function definitionSite(declaration: ts.Node, path: string): [string, number, number, number, number] {
  if (ts.isSourceFile(declaration)) return [path, 1, 1, 1, 1];
  const sourceFile = declaration.getSourceFile();
  const nameNode = declarationNameOf(declaration)
    ?? (ts.isConstructorDeclaration(declaration) ? declaration.getChildren(sourceFile).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) : undefined)
    ?? (ts.canHaveModifiers(declaration) ? ts.getModifiers(declaration)?.find((m) => m.kind === ts.SyntaxKind.DefaultKeyword) : undefined)
    ?? (ts.isExportAssignment(declaration) ? declaration.getChildren(sourceFile).find((c) => c.kind === ts.SyntaxKind.DefaultKeyword) : undefined)
    ?? declaration;
  const site = siteOf(sourceFile, path, nameNode);
  return [path, site.line, site.column, site.endLine, site.endColumn];
}
