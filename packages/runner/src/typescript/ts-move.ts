// Moving a top-level declaration to another module with TypeScript's "Move to file" refactoring,
// which moves the code with the imports it needs and rewrites the imports of every module that
// used it. TypeScript leaves re-exports (`export { X } from './old'`, `export * from './old'`)
// pointing at the old module; they are rewritten here so that every importer of a barrel keeps
// working.
import { posix } from 'node:path';
import { ts } from 'ts-morph';
import { SextantError } from '@sextant/format';
import type { PlanConflict } from '@sextant/plan';
import type { FileDraft } from '../planning/file-draft.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import type { DeclarationSite } from '../planning/declaration-site.ts';
import { formatSettingsFor, USER_PREFERENCES } from './ts-format-settings.ts';
import { nodeAt } from './ts-nodes.ts';
import { collectChanges, draftsOf, type Span } from './ts-text-changes.ts';
import { isTypeScriptPath } from './ts-paths.ts';
import type { TypeScriptWorkspace } from './ts-workspace.ts';

export async function planTsMove(
  ctx: RefactorContext, workspace: TypeScriptWorkspace, site: DeclarationSite, name: string, toFile: string,
): Promise<{ drafts: FileDraft[]; conflicts: PlanConflict[] }> {
  await ctx.jail.resolve(toFile);
  if (!isTypeScriptPath(toFile)) {
    throw new SextantError('INVALID_ARGUMENT', `${toFile} is not a TypeScript or JavaScript module.`, 'Move to a .ts, .tsx, .js (or .mts/.cts/.mjs/.cjs) file.');
  }
  if (toFile === site.path) throw new SextantError('INVALID_ARGUMENT', `${name} is already in ${toFile}.`, 'Pass another module.');
  const fileName = workspace.absolute(site.path);
  const project = workspace.projectOf(site.path);
  const program = project.service.getProgram()!;
  const sourceFile = program.getSourceFile(fileName)!;
  const statement = sourceFile.statements.find((s) => s.getStart(sourceFile) <= site.offset && site.offset < s.end);
  const declared = statement && nodeAt(sourceFile, site.offset);
  if (!statement || !declared || !declaresAtTopLevel(statement, declared)) {
    throw new SextantError('INVALID_ARGUMENT', `${name} is not a top-level declaration of ${site.path}.`,
      'Move top-level functions, classes, interfaces, types, enums and variables; members move with their class.');
  }
  const range = { pos: statement.getStart(sourceFile), end: statement.end };
  const settings = formatSettingsFor(site.file.text, site.file.eol);
  const edits = project.service.getEditsForRefactor(fileName, settings, range, 'Move to file', 'Move to file', USER_PREFERENCES, { targetFile: workspace.absolute(toFile) });
  if (!edits || edits.edits.length === 0) {
    throw new SextantError('INVALID_ARGUMENT', `TypeScript cannot move ${name} to ${toFile}.`, 'Move it by hand, or pick another target module.');
  }
  const { spans, created } = collectChanges(workspace, edits.edits);
  const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  rewriteReExports(workspace, program, fileName, toFile, name, exported, spans);
  return { drafts: await draftsOf(ctx, spans, created), conflicts: [] };
}

function declaresAtTopLevel(statement: ts.Statement, name: ts.Node): boolean {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.some((d) => d.name === name);
  return (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)
    || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) && statement.name === name;
}

/** Re-exports of the moved name from the old module now name the new one. */
function rewriteReExports(
  workspace: TypeScriptWorkspace, program: ts.Program, oldFile: string, toFile: string, name: string, exported: boolean, spans: Map<string, Span[]>,
): void {
  const options = program.getCompilerOptions();
  const host: ts.ModuleResolutionHost = { fileExists: ts.sys.fileExists, readFile: ts.sys.readFile };
  for (const sourceFile of program.getSourceFiles()) {
    const path = workspace.relative(sourceFile.fileName);
    if (!path || sourceFile.fileName === oldFile) continue;
    for (const statement of sourceFile.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const resolved = ts.resolveModuleName(specifier, sourceFile.fileName, options, host).resolvedModule?.resolvedFileName;
      if (resolved !== oldFile) continue;
      const newSpecifier = moduleSpecifier(path, toFile, specifier);
      const typeOnly = statement.isTypeOnly ? 'type ' : '';
      const eol = sourceFile.text.includes('\r\n') ? '\r\n' : '\n';
      const add = (text: string) => list(spans, path).push({ start: statement.end, end: statement.end, newText: `${eol}${text}` });
      if (!statement.exportClause) {
        if (exported) add(`export ${typeOnly}{ ${name} } from '${newSpecifier}';`);
        continue;
      }
      if (!ts.isNamedExports(statement.exportClause)) continue;
      const elements = statement.exportClause.elements;
      const moved = elements.filter((e) => (e.propertyName ?? e.name).getText(sourceFile) === name);
      if (moved.length === 0) continue;
      if (moved.length === elements.length) {
        list(spans, path).push({ start: statement.moduleSpecifier.getStart(sourceFile) + 1, end: statement.moduleSpecifier.end - 1, newText: newSpecifier });
        continue;
      }
      for (const element of moved) {
        const index = elements.indexOf(element);
        const start = index === 0 ? element.getStart(sourceFile) : elements[index - 1]!.end;
        const end = index === 0 ? elements[1]!.getStart(sourceFile) : element.end;
        list(spans, path).push({ start, end, newText: '' });
        add(`export ${typeOnly}{ ${element.getText(sourceFile)} } from '${newSpecifier}';`);
      }
    }
  }
}

function list(spans: Map<string, Span[]>, path: string): Span[] {
  let spansOfPath = spans.get(path);
  if (!spansOfPath) spans.set(path, (spansOfPath = []));
  return spansOfPath;
}

/** A relative specifier from `fromPath` to `toFile`, in the style of the specifier it replaces (extension or none). */
function moduleSpecifier(fromPath: string, toFile: string, style: string): string {
  let relative = posix.relative(posix.dirname(fromPath), toFile);
  if (!relative.startsWith('.')) relative = `./${relative}`;
  const withoutExtension = relative.replace(/\.(d\.)?[cm]?[jt]sx?$/, '');
  if (/\.[cm]?js$/.test(style)) return `${withoutExtension}${toFile.match(/\.[cm]?[jt]sx?$/)![0].replace('ts', 'js')}`;
  if (/\.[cm]?tsx?$/.test(style)) return relative;
  return withoutExtension;
}
