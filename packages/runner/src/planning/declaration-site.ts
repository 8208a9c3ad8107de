// The indexed symbol's declaration, found in the working tree: where the index says it is, checked
// to still be there (an index built before the file was edited must not aim a refactoring at
// whatever now sits at that position).
import { defAt, defCount, lineStarts, offsetAt, SextantError } from '@sextant/format';
import type { LoadedSymbol } from '@sextant/query';
import type { RefactorContext } from './refactor-context.ts';
import type { WorkingFile } from './working-tree.ts';

export interface DeclarationSite {
  path: string;
  file: WorkingFile;
  /** Offset of the declaration's name in the working-tree text. */
  offset: number;
}

export async function declarationSite(ctx: RefactorContext, symbol: LoadedSymbol): Promise<DeclarationSite> {
  const { record, shard } = symbol;
  if (defCount(record) === 0) {
    throw new SextantError('INVALID_ARGUMENT', `The index has no declaration of ${record.qname}.`, 'Target a symbol declared in this repository.');
  }
  const first = defAt(record, 0);
  const path = shard.paths[first.pathIndex]!;
  const { line, column } = first;
  const moved = () => new SextantError('CONFLICT',
    `${record.qname} is no longer at ${path}:${line}:${column} in the working tree (the file changed since the index was built).`,
    'Rebuild the index (`indexer build`) so that symbols resolve to the working tree, then plan again.', { path, line, column });
  const file = await ctx.read(path);
  if (!file) throw moved();
  let offset: number;
  try {
    offset = offsetAt(file.text, lineStarts(file.text), line, column);
  } catch {
    throw moved();
  }
  const name = record.name;
  const found = file.text.slice(offset, offset + name.length);
  const quoted = file.text.slice(offset + 1, offset + 1 + name.length);
  if (found !== name && !(/["'`]/.test(file.text[offset] ?? '') && quoted === name)) throw moved();
  return { path, file, offset };
}
