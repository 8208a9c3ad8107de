// Whether a TypeScript or JavaScript file's declarations reach beyond its module: a script (no import
// or export: its declarations are global), `declare global`, or `declare module "x"` (an augmentation
// or an ambient module). Such a file may change what any other file resolves to, so an incremental
// build builds in full when one changes (incremental-plan.ts) and holds every unchanged one in its
// programs whatever it walks (FILE_FLAGS.global, typescript-indexer.ts).
import { ts } from 'ts-morph';

/** Why the file's declarations reach beyond its module, or undefined when they do not. */
export function globalReach(sourceFile: ts.SourceFile): string | undefined {
  if (!ts.isExternalModule(sourceFile)) return 'is a script (no import or export), whose declarations are global';
  for (const statement of sourceFile.statements) {
    if (!ts.isModuleDeclaration(statement)) continue;
    if (statement.name.kind === ts.SyntaxKind.Identifier && statement.name.text === 'global') return 'declares globals (`declare global`)';
    if (ts.isStringLiteral(statement.name)) return `declares or augments the module "${statement.name.text}"`;
  }
  return undefined;
}
