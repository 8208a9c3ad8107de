// What a module exports that is declared in another file, by the name importers use: the checker's
// export table of the module (export { x } from, export *, export * as ns from, export { y } of an
// import), each with the statement or specifier that exports it. Comparing two commits' lists tells
// a barrel that lost or gained a name (change-set.ts), which none of its own declarations shows.
import { ts } from 'ts-morph';
import type { ReexportRecord } from '@sextant/format';
import { resolveAlias } from './contextual-symbols.ts';
import type { Declaration } from './declaration-table.ts';

export function moduleReexports(
  checker: ts.TypeChecker, sourceFile: ts.SourceFile, repoDeclarationOf: (symbol: ts.Symbol) => Declaration | undefined,
): ReexportRecord[] {
  // Only a module with an export statement can export what it does not declare.
  if (!ts.isExternalModule(sourceFile) || !sourceFile.statements.some((s) => ts.isExportDeclaration(s) || ts.isExportAssignment(s))) return [];
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile) ?? (sourceFile as { symbol?: ts.Symbol }).symbol;
  if (!moduleSymbol) return [];
  const stars = sourceFile.statements.filter((s): s is ts.ExportDeclaration => ts.isExportDeclaration(s) && !s.exportClause && s.moduleSpecifier !== undefined);
  const starExports = new Map<ts.ExportDeclaration, Set<string>>();
  const starOf = (name: string) => stars.find((s) => {
    let names = starExports.get(s);
    if (!names) {
      const target = checker.getSymbolAtLocation(s.moduleSpecifier!);
      starExports.set(s, (names = new Set(target ? checker.getExportsOfModule(target).map((e) => e.getName()) : [])));
    }
    return names.has(name);
  });
  const list: ReexportRecord[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    // What uses of the name refer to: the declaration, or for a namespace (`export * as ns`, which
    // ends at a module) the last alias before the module (contextual-symbols.ts resolveAlias).
    const target = resolveAlias(checker, exported);
    // Declared here (`export * as ns from` in this file too): a declaration of the file, compared as one.
    if (!target.declarations?.length || target.declarations.some((d) => d.getSourceFile() === sourceFile)) continue;
    const declaration = repoDeclarationOf(target);
    if (!declaration) continue; // an external package's: never a change of this repository
    const name = exported.getName();
    const at = exported.declarations?.find((d) => d.getSourceFile() === sourceFile) ?? starOf(name);
    if (!at) continue;
    list.push({ name, key: declaration.key, kind: declaration.kind, qname: declaration.qname, at: rangeOf(sourceFile, at) });
  }
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function rangeOf(sourceFile: ts.SourceFile, node: ts.Node): [number, number, number, number] {
  const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  const end = sourceFile.getLineAndCharacterOfPosition(node.getEnd());
  return [start.line + 1, start.character + 1, end.line + 1, end.character + 1];
}
