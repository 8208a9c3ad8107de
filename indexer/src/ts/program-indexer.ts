// Indexes the files one program owns: a single walk over each file's identifiers with the checker
// (never a findReferences per symbol), resolving aliases, transient and union symbols to their root
// declarations. Walks compiler nodes with ts.forEachChild: wrapped nodes cost too much here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import {
  REFERENCE_KINDS, symbolKey, type ExternalOrigin, type Language, type ProblemRecord, type ReferenceKind,
} from '@sextant/format';
import type { IndexCollector, Site } from '../index-collector.ts';
import type { CompiledFile } from '../language-indexer.ts';
import { DeclarationTable, kindOf, type Declaration } from './declaration-table.ts';
import type { PlannedProgram } from './project-plan.ts';
import { LIB_FOLDER, type SnapshotHost } from './snapshot-host.ts';

const MAX_PROBLEMS = 200;

export function languageOf(path: string): Language {
  return /\.[cm]?jsx?$/.test(path) ? 'javascript' : 'typescript';
}

export class ProgramIndexer {
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;
  private readonly tables = new Map<ts.SourceFile, DeclarationTable>();
  private readonly keys = new Map<ts.Symbol, string | undefined>();
  private readonly libDir: string;

  constructor(
    private readonly host: SnapshotHost,
    private readonly plan: PlannedProgram,
    private readonly collector: IndexCollector,
    private readonly packages: PackageCache,
  ) {
    this.program = ts.createProgram({
      rootNames: plan.rootNames,
      options: plan.options,
      projectReferences: plan.projectReferences,
      host: host.compilerHost(plan.options),
    });
    this.checker = this.program.getTypeChecker();
    this.libDir = LIB_FOLDER;
  }

  *indexFiles(): Generator<CompiledFile> {
    for (const path of this.plan.owned) {
      const sourceFile = this.program.getSourceFile(this.host.absolute(path));
      if (sourceFile) yield this.indexFile(path, sourceFile);
    }
  }

  private table(sourceFile: ts.SourceFile): DeclarationTable {
    let table = this.tables.get(sourceFile);
    if (!table) {
      table = new DeclarationTable(sourceFile, this.host.relative(sourceFile.fileName) ?? sourceFile.fileName);
      this.tables.set(sourceFile, table);
    }
    return table;
  }

  private indexFile(path: string, sourceFile: ts.SourceFile): CompiledFile {
    const table = this.table(sourceFile);
    const symIndex = new Map<string, number>();
    const syms: string[] = [];
    const occ: number[] = [];
    const checker = this.checker;

    const occurrence = (node: ts.Node, key: string, kind: ReferenceKind) => {
      let index = symIndex.get(key);
      if (index === undefined) {
        index = syms.length;
        symIndex.set(key, index);
        syms.push(key);
      }
      const site = siteOf(sourceFile, path, node);
      occ.push(site.line, site.column, site.endLine, site.endColumn, index, REFERENCE_KINDS.indexOf(kind));
      if (kind !== 'definition') {
        const from = table.enclosing(node)?.key;
        this.collector.addReference(key, site, kind, from, 'exact');
        if (from && (kind === 'call' || kind === 'new')) {
          this.ensure(from, table);
          this.collector.addEdge(from, 'calls', key, site);
        }
      }
    };

    const handleName = (node: ts.Identifier | ts.PrivateIdentifier | ts.StringLiteral) => {
      const parent = node.parent;
      if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) {
        const value = checker.getShorthandAssignmentValueSymbol(parent);
        const key = value && this.keyOf(resolveAlias(checker, value));
        if (key) occurrence(node, key, 'read');
      }
      let symbol = checker.getSymbolAtLocation(node);
      if (!symbol) return;
      const declaresAlias = symbol.flags & ts.SymbolFlags.Alias
        && symbol.declarations?.some((d) => ts.getNameOfDeclaration(d) === node);
      symbol = resolveAlias(checker, symbol);
      const kind = declaresAlias ? aliasKind(node) : undefined;
      for (const root of checker.getRootSymbols(symbol)) {
        const key = this.keyOf(root);
        if (!key) continue;
        const defines = !declaresAlias && root.declarations?.some((d) => ts.getNameOfDeclaration(d) === node);
        occurrence(node, key, defines ? 'definition' : kind ?? referenceKind(node));
      }
    };

    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) handleName(node);
      else if (ts.isStringLiteral(node) && isPropertyNameLiteral(node)) handleName(node);
      else if (ts.isHeritageClause(node)) this.heritage(node, table, path);
      else if (ts.isConstructorDeclaration(node)) this.constructorDefinition(node, occurrence);
      if ((ts.isClassLike(node) || ts.isInterfaceDeclaration(node)) && node.heritageClauses) this.overrides(node, table);
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);

    return { path, lang: languageOf(path), syms, occ, problems: this.problems(sourceFile) };
  }

  private problems(sourceFile: ts.SourceFile): ProblemRecord[] {
    const diagnostics = [
      ...this.program.getSyntacticDiagnostics(sourceFile),
      ...this.program.getSemanticDiagnostics(sourceFile),
    ].slice(0, MAX_PROBLEMS);
    return diagnostics.map((d) => {
      const start = sourceFile.getLineAndCharacterOfPosition(d.start ?? 0);
      const end = sourceFile.getLineAndCharacterOfPosition((d.start ?? 0) + (d.length ?? 0));
      return {
        source: 'compiler',
        severity: d.category === ts.DiagnosticCategory.Error ? 'error' : 'warning',
        code: d.code,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
        line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1,
      };
    });
  }

  /** `class A extends B implements C`: inherit edges from A to each resolved supertype. */
  /** `constructor` is a keyword, not an identifier: its definition is recorded at the keyword. */
  private constructorDefinition(node: ts.ConstructorDeclaration, occurrence: (node: ts.Node, key: string, kind: ReferenceKind) => void): void {
    const symbol = (node as unknown as { symbol?: ts.Symbol }).symbol;
    const keyword = node.getChildren().find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
    const key = symbol && this.keyOf(symbol);
    if (key && keyword) occurrence(keyword, key, 'definition');
  }

  private heritage(clause: ts.HeritageClause, table: DeclarationTable, path: string): void {
    const owner = clause.parent;
    const ownerKey = this.declarationKey(owner, table);
    if (!ownerKey) return;
    const kind = clause.token === ts.SyntaxKind.ExtendsKeyword ? 'extends' : 'implements';
    for (const type of clause.types) {
      const nameNode = ts.isPropertyAccessExpression(type.expression) ? type.expression.name : type.expression;
      const symbol = this.checker.getSymbolAtLocation(nameNode);
      const key = symbol && this.keyOf(resolveAlias(this.checker, symbol));
      if (key && key !== ownerKey) {
        this.collector.addEdge(ownerKey, kind, key, siteOf(clause.getSourceFile(), path, type.expression));
      }
    }
  }

  /** A member overrides (or implements) the member of the same name on each direct supertype. */
  private overrides(owner: ts.ClassLikeDeclaration | ts.InterfaceDeclaration, table: DeclarationTable): void {
    for (const member of owner.members) {
      const name = member.name;
      if (!name || ts.isComputedPropertyName(name) || ts.isConstructorDeclaration(member)) continue;
      if (ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
      const memberKey = this.declarationKey(member, table);
      if (!memberKey) continue;
      for (const clause of owner.heritageClauses ?? []) {
        for (const type of clause.types) {
          const base = this.checker.getTypeAtLocation(type);
          const property = base && this.checker.getPropertyOfType(base, ts.isPrivateIdentifier(name) ? name.escapedText as string : (name as ts.Identifier).text);
          if (!property) continue;
          for (const root of this.checker.getRootSymbols(property)) {
            const key = this.keyOf(root);
            if (key && key !== memberKey) this.collector.addEdge(memberKey, 'overrides', key);
          }
        }
      }
    }
  }

  private declarationKey(node: ts.Node, table: DeclarationTable): string | undefined {
    const name = ts.getNameOfDeclaration(node as ts.Declaration);
    const symbol = name ? this.checker.getSymbolAtLocation(name) : undefined;
    if (symbol) return this.keyOf(symbol);
    const decl = table.lookup(node, { flags: 0 } as ts.Symbol);
    if (decl) this.ensure(decl.key, table);
    return decl?.key;
  }

  /** Makes sure the symbol record of a declaration of this file exists (enclosing scopes may be unnamed by the checker). */
  private ensure(key: string, table: DeclarationTable): void {
    if (this.collector.has(key)) return;
    const decl = table.declarations.find((d) => d.key === key);
    if (decl) this.addRepoSymbol(decl, [decl.node]);
  }

  /** The key of a symbol, creating its record on first sight; undefined for symbols without declarations. */
  keyOf(symbol: ts.Symbol): string | undefined {
    if (this.keys.has(symbol)) return this.keys.get(symbol);
    const key = this.computeKey(symbol);
    this.keys.set(symbol, key);
    return key;
  }

  private computeKey(symbol: ts.Symbol): string | undefined {
    const declarations = symbol.declarations?.filter((d) => kindOf(d) || ts.isBinaryExpression(d) || ts.isPropertyAccessExpression(d)) ?? [];
    if (declarations.length === 0) return undefined;
    const inRepo = declarations
      .map((d) => ({ d, path: this.host.relative(d.getSourceFile().fileName) }))
      .filter((x): x is { d: ts.Declaration; path: string } => x.path !== undefined)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.d.pos - b.d.pos));
    if (inRepo.length === 0) return this.externalKey(symbol, declarations[0]!);
    const primary = inRepo[0]!;
    const decl = this.table(primary.d.getSourceFile()).lookup(primary.d, symbol);
    if (decl) {
      this.addRepoSymbol(decl, inRepo.map((x) => x.d));
      return decl.key;
    }
    // JS assignment declarations (`exports.x = …`, `this.x = …`): no declaration node of their own.
    const name = symbol.getName();
    const key = symbolKey(`${primary.path}|${name}|property|@${primary.d.pos}`);
    if (!this.collector.has(key)) {
      this.collector.addSymbol({
        key, name, kind: 'property', qname: name, lang: languageOf(primary.path), path: primary.path, mods: 0,
        defs: inRepo.map((x) => defOf(x.d, x.path)),
      });
    }
    return key;
  }

  private addRepoSymbol(decl: Declaration, declarations: ts.Node[]): void {
    if (this.collector.has(decl.key)) return;
    const first = declarations[0]!;
    const path = this.host.relative(first.getSourceFile().fileName)!;
    this.collector.addSymbol({
      key: decl.key,
      name: decl.name,
      kind: decl.kind,
      qname: decl.qname,
      lang: languageOf(path),
      path,
      mods: decl.mods,
      signature: signatureOf(decl.node),
      doc: docOf(decl.node),
      container: decl.container,
      ...(decl.local ? { local: true } : {}),
      defs: declarations.map((d) => defOf(d, this.host.relative(d.getSourceFile().fileName)!)),
    });
  }

  private externalKey(symbol: ts.Symbol, declaration: ts.Declaration): string {
    const fileName = declaration.getSourceFile().fileName.replace(/\\/g, '/');
    const origin = fileName.startsWith(`${this.libDir}/`) ? { package: 'typescript', version: ts.version } : this.packages.originOf(fileName);
    const qname = this.checker.getFullyQualifiedName(symbol).replace(/^"[^"]*"\./, '');
    const kind = kindOf(declaration) ?? 'variable';
    const key = symbolKey(`ext|${origin.package}|${qname}|${kind}`);
    if (!this.collector.has(key)) {
      this.collector.addSymbol({
        key, name: symbol.getName(), kind, qname, lang: languageOf(fileName), mods: 0,
        signature: signatureOf(declaration), external: origin, defs: [],
      });
    }
    return key;
  }
}

function resolveAlias(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  if (!(symbol.flags & ts.SymbolFlags.Alias)) return symbol;
  const target = checker.getAliasedSymbol(symbol);
  return target.declarations?.length ? target : symbol;
}

function siteOf(sourceFile: ts.SourceFile, path: string, node: ts.Node): Site {
  const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  const end = sourceFile.getLineAndCharacterOfPosition(node.getEnd());
  return { path, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

function defOf(declaration: ts.Node, path: string): [string, number, number, number, number] {
  const nameNode = ts.getNameOfDeclaration(declaration as ts.Declaration) ?? declaration;
  const site = siteOf(declaration.getSourceFile(), path, ts.isConstructorDeclaration(declaration) ? declaration.getFirstToken()! : nameNode);
  return [path, site.line, site.column, site.endLine, site.endColumn];
}

/** A property name written as a string: `obj['name']`, `{ 'name': 1 }`. */
function isPropertyNameLiteral(node: ts.StringLiteral): boolean {
  const parent = node.parent;
  return ts.isElementAccessExpression(parent) && parent.argumentExpression === node
    || (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent)) && parent.name === node;
}

function aliasKind(node: ts.Node): ReferenceKind {
  for (let current: ts.Node = node; current; current = current.parent) {
    if (ts.isImportDeclaration(current) || ts.isImportEqualsDeclaration(current)) return 'import';
    if (ts.isExportDeclaration(current) || ts.isExportAssignment(current)) return 'export';
    if (ts.isSourceFile(current)) break;
  }
  return 'import';
}

/** The access kind of a reference, from its syntactic position. */
export function referenceKind(node: ts.Node): ReferenceKind {
  let expression: ts.Node = node;
  let parent = node.parent;
  while ((ts.isPropertyAccessExpression(parent) && parent.name === expression) || ts.isQualifiedName(parent) && parent.right === expression) {
    expression = parent;
    parent = parent.parent;
  }
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isImportEqualsDeclaration(parent)) return 'import';
  if (ts.isExportSpecifier(parent) || ts.isExportAssignment(parent)) return 'export';
  if (ts.isExpressionWithTypeArguments(parent) && ts.isHeritageClause(parent.parent)) return 'inherit';
  if (ts.isDecorator(parent) || ts.isCallExpression(parent) && ts.isDecorator(parent.parent) && parent.expression === expression) return 'decorator';
  if ((ts.isJsxOpeningElement(parent) || ts.isJsxSelfClosingElement(parent) || ts.isJsxClosingElement(parent)) && parent.tagName === expression) return 'jsx';
  if (ts.isNewExpression(parent) && parent.expression === expression) return 'new';
  if ((ts.isCallExpression(parent) && parent.expression === expression) || (ts.isTaggedTemplateExpression(parent) && parent.tag === expression)) return 'call';
  if (ts.isTypeReferenceNode(parent) || ts.isTypeQueryNode(parent) || ts.isExpressionWithTypeArguments(parent) || ts.isImportTypeNode(parent) || ts.isTypePredicateNode(parent)) return 'type';
  if (isWriteTarget(expression)) return 'write';
  return 'read';
}

function isWriteTarget(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.left === node) {
    return parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  }
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent))
    && (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) return true;
  if ((ts.isForInStatement(parent) || ts.isForOfStatement(parent)) && parent.initializer === node) return true;
  if (ts.isShorthandPropertyAssignment(parent) || ts.isPropertyAssignment(parent) && parent.initializer === node
    || ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent)) {
    // Inside a destructuring assignment target: `[a, b] = …`, `({ a } = …)`.
    let outer: ts.Node = parent;
    while (ts.isObjectLiteralExpression(outer) || ts.isArrayLiteralExpression(outer) || ts.isShorthandPropertyAssignment(outer)
      || ts.isPropertyAssignment(outer) || ts.isSpreadElement(outer)) {
      const up = outer.parent;
      if (ts.isBinaryExpression(up) && up.left === outer && up.operatorToken.kind === ts.SyntaxKind.EqualsToken) return true;
      outer = up;
    }
  }
  return false;
}

/** Declaration text up to its body, on one line: `submit(order: Order): Promise<void>`. */
function signatureOf(node: ts.Node): string | undefined {
  const sourceFile = node.getSourceFile();
  let target = node;
  if (ts.isVariableDeclaration(node) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
    target = node;
  }
  const body = (target as { body?: ts.Node }).body
    ?? (ts.isClassLike(target) || ts.isInterfaceDeclaration(target) || ts.isEnumDeclaration(target) ? findOpenBrace(target, sourceFile) : undefined)
    ?? (ts.isVariableDeclaration(target) && target.initializer && !ts.isArrowFunction(target.initializer) && !ts.isFunctionExpression(target.initializer) ? target.initializer : undefined);
  const start = ts.isVariableDeclaration(target) ? target.parent.getStart(sourceFile) : target.getStart(sourceFile);
  const end = body ? body.getStart(sourceFile) : target.getEnd();
  let text = sourceFile.text.slice(start, end).replace(/\s+/g, ' ').replace(/[\s=]+$/, '').replace(/\s*\{$/, '').trim();
  if (ts.isVariableDeclaration(target) && target.initializer && (ts.isArrowFunction(target.initializer) || ts.isFunctionExpression(target.initializer))) {
    const fn = target.initializer;
    text = sourceFile.text.slice(target.parent.getStart(sourceFile), fn.body.getStart(sourceFile)).replace(/\s+/g, ' ').replace(/\s*=>\s*$/, '').trim();
  }
  return text.length > 300 ? `${text.slice(0, 297)}...` : text || undefined;
}

function findOpenBrace(node: ts.Node, sourceFile: ts.SourceFile): ts.Node | undefined {
  return node.getChildren(sourceFile).find((child) => child.kind === ts.SyntaxKind.OpenBraceToken);
}

/** First paragraph of the declaration's JSDoc comment. */
function docOf(node: ts.Node): string | undefined {
  const target = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const docs = (target as { jsDoc?: ts.JSDoc[] }).jsDoc;
  const comment = docs?.[docs.length - 1]?.comment;
  if (!comment) return undefined;
  const text = (typeof comment === 'string' ? comment : ts.getTextOfJSDocComment(comment) ?? '').split(/\n\s*\n/)[0]!.trim();
  return text ? (text.length > 1000 ? `${text.slice(0, 997)}...` : text) : undefined;
}

/** npm package name and version of a declaration file under node_modules. */
export class PackageCache {
  private readonly versions = new Map<string, string | undefined>();

  originOf(fileName: string): ExternalOrigin {
    const parts = fileName.split('/');
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) return { package: fileName };
    const scoped = parts[at + 1]?.startsWith('@');
    const name = parts.slice(at + 1, at + (scoped ? 3 : 2)).join('/');
    const dir = parts.slice(0, at + (scoped ? 3 : 2)).join('/');
    if (!this.versions.has(dir)) {
      let version: string | undefined;
      try {
        version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
      } catch {
        version = undefined;
      }
      this.versions.set(dir, version);
    }
    const version = this.versions.get(dir);
    return version ? { package: name, version } : { package: name };
  }
}
