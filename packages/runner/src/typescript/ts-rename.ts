// Rename with the TypeScript language service. Two runs of findRenameLocations are combined:
// without prefix/suffix text the rename goes through re-exports and imports to every module that
// uses the name (a complete rename; an explicit alias such as `export { A as B }` keeps B), and
// with it TypeScript says where a shorthand property or binding must be expanded (`{ total }` →
// `{ total: sum }`) so that object shapes do not change. String-literal property names are renamed
// inside their quotes, as the compiler reports them.
import { ts } from 'ts-morph';
import { SextantError } from '@sextant/format';
import type { PlanConflict } from '@sextant/plan';
import type { FileDraft } from '../planning/file-draft.ts';
import type { RefactorContext } from '../planning/refactor-context.ts';
import { renameConflicts, type RenameLocation } from './ts-checks.ts';
import type { DeclarationSite } from '../planning/declaration-site.ts';
import { draftsOf, repositoryPath, type Span } from './ts-text-changes.ts';
import type { TypeScriptWorkspace } from './ts-workspace.ts';

export async function planTsRename(
  ctx: RefactorContext, workspace: TypeScriptWorkspace, site: DeclarationSite, oldName: string, newName: string,
): Promise<{ drafts: FileDraft[]; conflicts: PlanConflict[] }> {
  const privateName = oldName.startsWith('#');
  if (privateName !== newName.startsWith('#') || !isPlainIdentifier(privateName ? newName.slice(1) : newName)) {
    throw new SextantError('INVALID_ARGUMENT', `"${newName}" is not a valid name for ${oldName}.`,
      `Pass an identifier that is not a keyword${privateName ? ', starting with # like the private name it replaces' : ''}.`);
  }
  if (newName === oldName) throw new SextantError('INVALID_ARGUMENT', `The symbol is already named "${newName}".`, 'Pass a different name.');
  const fileName = workspace.absolute(site.path);
  const projects = workspace.projectsOf(site.path);
  const info = projects[0]!.service.getRenameInfo(fileName, site.offset, { allowRenameOfImportPath: false });
  if (!info.canRename) {
    throw new SextantError('INVALID_ARGUMENT', `TypeScript cannot rename ${oldName}: ${info.localizedErrorMessage}`,
      'Rename a symbol declared in this repository (not in a dependency or the standard library).');
  }
  const spans = new Map<string, Span[]>();
  const seen = new Set<string>();
  const locations: RenameLocation[] = [];
  for (const project of projects) {
    const complete = project.service.findRenameLocations(fileName, site.offset, false, false, { providePrefixAndSuffixTextForRename: false }) ?? [];
    const expanded = project.service.findRenameLocations(fileName, site.offset, false, false, { providePrefixAndSuffixTextForRename: true }) ?? [];
    const affixes = new Map(expanded.map((l) => [`${l.fileName}:${l.textSpan.start}`, l]));
    for (const location of complete) {
      const key = `${location.fileName}:${location.textSpan.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const path = repositoryPath(workspace, location.fileName);
      const affixed = affixes.get(key);
      // Keep TypeScript's expansions of shorthands; its ` as old` aliases would stop the rename at a module boundary.
      const keepAffixes = affixed && !/ as $/.test(affixed.prefixText ?? '') && !/^ as /.test(affixed.suffixText ?? '');
      const newText = keepAffixes ? `${affixed.prefixText ?? ''}${newName}${affixed.suffixText ?? ''}` : newName;
      const list = spans.get(path) ?? [];
      list.push({ start: location.textSpan.start, end: location.textSpan.start + location.textSpan.length, newText });
      spans.set(path, list);
      locations.push({ fileName: location.fileName, start: location.textSpan.start });
    }
  }
  const drafts = await draftsOf(ctx, spans);
  const conflicts = renameConflicts(workspace, projects[0]!, { fileName, offset: site.offset }, locations, newName);
  return { drafts, conflicts };
}

/** An identifier that is not a reserved word (also in strict mode, as every module is), as TypeScript's scanner reads it. */
function isPlainIdentifier(name: string): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.ESNext, true, ts.LanguageVariant.Standard, name);
  const token = scanner.scan();
  if (scanner.getTokenEnd() !== name.length || name.length === 0) return false;
  if (token === ts.SyntaxKind.Identifier) return true;
  // Contextual keywords (type, of, async, …) scan as keywords but are identifiers wherever a name goes.
  return token > ts.SyntaxKind.LastReservedWord && token <= ts.SyntaxKind.LastKeyword && name !== 'await'
    && !(token >= ts.SyntaxKind.FirstFutureReservedWord && token <= ts.SyntaxKind.LastFutureReservedWord);
}
