// Compiler-grade checks of a planned change. Collisions and shadowing: at the declaration and at
// every renamed reference, the new name must not already be visible (scopes, as the checker sees
// them) or be a member of the type the renamed member belongs to. New errors: the program with the
// plan's edits laid over it must not have errors the program without them did not.
import { ts } from 'ts-morph';
import { lineStarts, positionAt } from '@sextant/format';
import type { PlanConflict } from '@sextant/plan';
import { resultText, type FileDraft } from '../planning/file-draft.ts';
import { isMemberDeclaration, nodeAt } from './ts-nodes.ts';
import type { Project, TypeScriptWorkspace } from './ts-workspace.ts';

const MAX_REPORTED_ERRORS = 20;

function where(workspace: TypeScriptWorkspace, sourceFile: ts.SourceFile, offset: number): { path: string; line: number; column: number } {
  const { line, column } = positionAt(lineStarts(sourceFile.text), offset);
  return { path: workspace.relative(sourceFile.fileName) ?? sourceFile.fileName, line, column };
}

function scopeOf(node: ts.Node): ts.Node {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isSourceFile(n) || ts.isBlock(n) || ts.isModuleBlock(n) || ts.isFunctionLike(n) || ts.isClassLike(n) || ts.isCaseBlock(n)) return n;
  }
  return node.getSourceFile();
}

export interface RenameLocation {
  fileName: string;
  start: number;
}

export function renameConflicts(
  workspace: TypeScriptWorkspace, project: Project, declaration: { fileName: string; offset: number }, locations: RenameLocation[], newName: string,
): PlanConflict[] {
  const program = project.service.getProgram()!;
  const checker = program.getTypeChecker();
  const declFile = program.getSourceFile(declaration.fileName)!;
  const declNode = nodeAt(declFile, declaration.offset);
  const target = checker.getSymbolAtLocation(declNode);
  const member = declNode.parent !== undefined && isMemberDeclaration(declNode.parent);
  const conflicts = new Map<string, PlanConflict>();
  const add = (c: PlanConflict) => conflicts.set(`${c.kind}:${c.path}:${c.line}:${c.column}`, c);
  const scopesSeen = new Set<ts.Node>();
  for (const location of locations) {
    const sourceFile = program.getSourceFile(location.fileName);
    if (!sourceFile) continue;
    const node = nodeAt(sourceFile, location.start);
    if (member) {
      const declared = node.parent;
      if (!declared || !isMemberDeclaration(declared) || (declared as { name?: ts.Node }).name !== node) continue;
      const container = declared.parent;
      const existing = ts.isClassLike(container) || ts.isInterfaceDeclaration(container) || ts.isTypeLiteralNode(container)
        ? checker.getTypeAtLocation(container).getProperty(newName)
        : undefined;
      const sibling = (ts.isObjectLiteralExpression(container) ? container.properties : ts.isEnumDeclaration(container) ? container.members : [])
        .find((m) => m.name?.getText(sourceFile) === newName);
      if (existing || sibling) {
        const at = where(workspace, sourceFile, location.start);
        const other = existing?.declarations?.[0] ?? sibling;
        const declaredAt = other ? where(workspace, other.getSourceFile(), other.getStart()) : undefined;
        add({
          kind: 'name-collision', ...at,
          message: `${newName} is already a member of the type declaring ${at.path}:${at.line}${declaredAt ? ` (declared at ${declaredAt.path}:${declaredAt.line})` : ''}.`,
        });
      }
      continue;
    }
    const scope = scopeOf(node);
    if (scopesSeen.has(scope)) continue;
    scopesSeen.add(scope);
    const visible = checker.getSymbolsInScope(node, ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias);
    for (const symbol of visible) {
      if (symbol.name !== newName || symbol === target) continue;
      if (symbol.flags & ts.SymbolFlags.Alias && checker.getAliasedSymbol(symbol) === target) continue;
      const other = symbol.declarations?.[0];
      const at = where(workspace, sourceFile, location.start);
      const declaredAt = other ? where(workspace, other.getSourceFile(), other.getStart()) : undefined;
      const same = other !== undefined && other.getSourceFile() === sourceFile && scopeOf(other) === scope;
      add({
        kind: same ? 'name-collision' : 'shadowing', ...at,
        message: same
          ? `${newName} is already declared in the same scope (${declaredAt!.path}:${declaredAt!.line}).`
          : `${newName} is already visible at ${at.path}:${at.line} (${declaredAt ? `declared at ${declaredAt.path}:${declaredAt.line}` : 'a global'}); the renamed symbol would shadow it or be shadowed by it.`,
      });
    }
  }
  return [...conflicts.values()];
}

type DiagnosticKeys = Map<string, string[]>;

function diagnosticsOf(workspace: TypeScriptWorkspace, projects: Project[], only?: Set<string>): { keys: DiagnosticKeys; all: { path: string; key: string; diagnostic: ts.Diagnostic }[] } {
  const keys: DiagnosticKeys = new Map();
  const all: { path: string; key: string; diagnostic: ts.Diagnostic }[] = [];
  const seen = new Set<string>();
  for (const project of projects) {
    const program = project.service.getProgram()!;
    for (const sourceFile of program.getSourceFiles()) {
      const path = workspace.relative(sourceFile.fileName);
      if (!path || (only && !only.has(path)) || seen.has(`${project.config}:${path}`)) continue;
      seen.add(`${project.config}:${path}`);
      const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]
        .filter((d) => d.category === ts.DiagnosticCategory.Error);
      for (const diagnostic of diagnostics) {
        const key = `${diagnostic.code}:${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
        keys.set(path, [...(keys.get(path) ?? []), key]);
        all.push({ path, key, diagnostic });
      }
    }
  }
  return { keys, all };
}

/** Errors the program has with the drafts applied that it did not have before. */
export function introducedErrors(workspace: TypeScriptWorkspace, projects: Project[], drafts: FileDraft[]): PlanConflict[] {
  workspace.setOverlay(new Map(drafts.map((d) => [d.path, resultText(d)])));
  let after;
  try {
    after = diagnosticsOf(workspace, projects);
  } finally {
    workspace.clearOverlay();
  }
  if (after.all.length === 0) return [];
  const before = diagnosticsOf(workspace, projects, new Set(after.keys.keys()));
  const conflicts: PlanConflict[] = [];
  const remaining = new Map([...before.keys].map(([path, keys]) => [path, [...keys]]));
  for (const { path, key, diagnostic } of after.all) {
    const old = remaining.get(path);
    const index = old?.indexOf(key) ?? -1;
    if (index >= 0) {
      old!.splice(index, 1);
      continue;
    }
    const at = diagnostic.file && diagnostic.start !== undefined ? positionAt(lineStarts(diagnostic.file.text), diagnostic.start) : undefined;
    conflicts.push({
      kind: 'introduces-errors', path, ...(at ? { line: at.line, column: at.column } : {}),
      message: `after the change, ${path}${at ? `:${at.line}:${at.column}` : ''} has error TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
    });
  }
  if (conflicts.length > MAX_REPORTED_ERRORS) {
    const more = conflicts.length - MAX_REPORTED_ERRORS;
    conflicts.length = MAX_REPORTED_ERRORS;
    conflicts.push({ kind: 'introduces-errors', message: `and ${more} more new errors` });
  }
  return conflicts;
}
