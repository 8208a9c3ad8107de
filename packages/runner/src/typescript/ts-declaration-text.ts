// Replacing a TypeScript declaration's text, or inserting code before or after it. The declaration
// is what TypeScript parses at the symbol's name in the working tree: from its first decorator or
// modifier to its end.
import { ts } from 'ts-morph';
import { declarationTextEdit, type DeclarationEdit } from '../planning/declaration-text-edit.ts';
import { offsetEdits, type FileDraft } from '../planning/file-draft.ts';
import type { DeclarationSite } from '../planning/declaration-site.ts';
import { declarationAt, declarationExtent, startWithComments } from './ts-nodes.ts';

export function planTsDeclarationEdit(site: DeclarationSite, name: string, operation: DeclarationEdit, code: string): FileDraft {
  const sourceFile = ts.createSourceFile(site.path, site.file.text, ts.ScriptTarget.Latest, true);
  const extent = declarationExtent(declarationAt(sourceFile, site.offset, name));
  const span = declarationTextEdit(site.file.text, site.file.eol, {
    start: extent.getStart(sourceFile), end: extent.end, startWithComments: startWithComments(extent, sourceFile),
  }, operation, code);
  return { path: site.path, change: 'modify', before: site.file, edits: offsetEdits(site.file, [span]) };
}
