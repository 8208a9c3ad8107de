// goto_definition: every declaration of the target (overloads and merged declarations give
// several), or, for an external symbol, which package it comes from. From a call site, the one
// declaration the compiler resolved the call to where there were several to choose from: an
// overload, or a call signature of the symbol's type (a dual API).
import { callsChoseDeclarations, previewOf, refsOf, signatureAt, type SymbolRecord, type SymbolShard } from '@sextant/format';
import { fileLines } from './file-tools.ts';
import type { IndexReader } from './index-reader.ts';
import type { Answer, SymbolSummary } from './results.ts';
import { definitionsWithPreview, type PreviewedLocation } from './preview.ts';
import { summarize } from './symbols.ts';
import { normalizePath, occurrenceSiteAt, resolveTarget, targetForm, type Target } from './target.ts';

interface DefinitionAnswer extends Answer {
  symbol: SymbolSummary;
  external: boolean;
  definitions: PreviewedLocation[];
  /** From a call site: definitions holds only the declaration the call resolved to, of this many. */
  resolvedOverloadOf?: number;
  /** From a call site: definitions holds only the call signature of the symbol's type the call resolved to. */
  resolvedSignature?: true;
}

export async function gotoDefinition(reader: IndexReader, target: Target): Promise<DefinitionAnswer> {
  const { record, shard } = await resolveTarget(reader, target);
  const definitions = await definitionsWithPreview(reader, record, shard);
  const chosen = targetForm(target) === 'position' ? await declarationCalledAt(reader, record, shard, target) : -1;
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, record, shard.paths),
    external: record.external !== undefined,
    ...(chosen >= definitions.length
      ? { definitions: [await previewedSignatureAt(reader, record, shard, chosen - definitions.length)], resolvedSignature: true as const }
      : chosen >= 0 && definitions.length > 1
        ? { definitions: [definitions[chosen]!], resolvedOverloadOf: definitions.length }
        : { definitions }),
  };
}

async function previewedSignatureAt(reader: IndexReader, record: SymbolRecord, shard: SymbolShard, index: number): Promise<PreviewedLocation> {
  const { pathIndex, line, column, endLine, endColumn } = signatureAt(record, index);
  const path = shard.paths[pathIndex]!;
  const text = (await fileLines(reader, path))[line - 1];
  return {
    path, line, column, endLine, endColumn,
    ...(text !== undefined ? { preview: previewOf(text) } : {}),
  };
}

/** Index into the symbol's defs of the declaration the call at the target position resolved to, or -1. */
async function declarationCalledAt(reader: IndexReader, record: SymbolRecord, shard: SymbolShard, target: Target): Promise<number> {
  if (!callsChoseDeclarations(record)) return -1;
  const path = normalizePath(target.path!);
  const file = await reader.file(path);
  const at = file && occurrenceSiteAt(file, target.line!, target.column!);
  const pathIndex = shard.paths.indexOf(path);
  if (!at || pathIndex < 0) return -1;
  for (const ref of refsOf(record)) {
    if (ref.pathIndex === pathIndex && ref.line === at.line && ref.column === at.column && ref.decl >= 0) return ref.decl;
  }
  return -1;
}
