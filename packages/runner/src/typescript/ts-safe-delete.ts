// Safe delete with the TypeScript language service: the declarations of the symbol (with their
// doc comments, and the comma of a list they sit in) are removed; every reference outside them
// that findReferences reports is a usage that blocks the plan.
import { ts } from 'ts-morph';
import { lineStarts, positionAt, SextantError, splitLines } from '@sextant/format';
import { wholeLines, withoutDoubleBlank, type PlanConflict } from '@sextant/plan';
import type { FileDraft } from '../planning/file-draft.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import type { DeclarationSite } from '../planning/declaration-site.ts';
import { declarationExtent, nodeAt, startWithComments } from './ts-nodes.ts';
import { draftsOf, repositoryPath, type Span } from './ts-text-changes.ts';
import type { TypeScriptWorkspace } from './ts-workspace.ts';

export async function planTsSafeDelete(
  ctx: RefactorContext, workspace: TypeScriptWorkspace, site: DeclarationSite, qualifiedName: string,
): Promise<{ drafts: FileDraft[]; conflicts: PlanConflict[] }> {
  const fileName = workspace.absolute(site.path);
  const projects = workspace.projectsOf(site.path);
  const program = projects[0]!.service.getProgram()!;
  const symbol = program.getTypeChecker().getSymbolAtLocation(nodeAt(program.getSourceFile(fileName)!, site.offset));
  if (!symbol?.declarations?.length) {
    throw new SextantError('INVALID_ARGUMENT', `TypeScript sees no declaration of ${qualifiedName} at ${site.path}.`, 'Target the symbol by its declaration.');
  }
  const spans = new Map<string, Span[]>();
  const deleted: { fileName: string; start: number; end: number }[] = [];
  for (const declaration of symbol.declarations) {
    if (ts.isParameter(declaration) || ts.isTypeParameterDeclaration(declaration)) {
      throw new SextantError('INVALID_ARGUMENT', `${qualifiedName} is a parameter; safe delete removes declarations of their own.`, 'Change the signature instead.');
    }
    const sourceFile = declaration.getSourceFile();
    const path = repositoryPath(workspace, sourceFile.fileName);
    const extent = declarationExtent(declaration);
    let start = startWithComments(extent, sourceFile);
    let end = extent.end;
    // One item of a comma-separated list (declarators, enum members, object properties) takes a comma with it.
    const text = sourceFile.text;
    const listItem = extent === declaration && (ts.isVariableDeclaration(declaration) || ts.isEnumMember(declaration) || ts.isObjectLiteralElement(declaration));
    const trailing = listItem ? /^\s*,/.exec(text.slice(end)) : null;
    if (trailing) end += trailing[0].length;
    else if (listItem && /,\s*$/.test(text.slice(0, start))) start = text.slice(0, start).replace(/,\s*$/, '').length;
    const span = withoutDoubleBlank(text, wholeLines(text, start, end));
    deleted.push({ fileName: sourceFile.fileName, ...span });
    spans.set(path, [...(spans.get(path) ?? []), { ...span, newText: '' }]);
  }
  const conflicts = new Map<string, PlanConflict>();
  for (const project of projects) {
    for (const referenced of project.service.findReferences(fileName, site.offset) ?? []) {
      for (const reference of referenced.references) {
        const start = reference.textSpan.start;
        if (reference.isDefinition) continue;
        if (deleted.some((d) => d.fileName === reference.fileName && start >= d.start && start < d.end)) continue;
        const path = repositoryPath(workspace, reference.fileName);
        const sourceFile = project.service.getProgram()!.getSourceFile(reference.fileName)!;
        const { line, column } = positionAt(lineStarts(sourceFile.text), start);
        const lineText = splitLines(sourceFile.text)[line - 1]!.trim();
        conflicts.set(`${path}:${line}:${column}`, {
          kind: 'usage', path, line, column,
          message: `${qualifiedName} is used at ${path}:${line}:${column}: ${lineText.slice(0, 120)}`,
        });
      }
    }
  }
  return { drafts: await draftsOf(ctx, spans), conflicts: [...conflicts.values()] };
}
