// goto_definition: every declaration of the target (overloads and merged declarations give
// several), or, for an external symbol, which package it comes from.
import type { IndexReader } from './index-reader.ts';
import type { Answer, SymbolSummary } from './results.ts';
import { definitionsWithPreview, type PreviewedLocation } from './preview.ts';
import { summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';

export interface DefinitionAnswer extends Answer {
  symbol: SymbolSummary;
  external: boolean;
  definitions: PreviewedLocation[];
}

export async function gotoDefinition(reader: IndexReader, target: Target): Promise<DefinitionAnswer> {
  const { record, shard } = await resolveTarget(reader, target);
  const definitions = await definitionsWithPreview(reader, record, shard);
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, record, shard.paths),
    external: record.external !== undefined,
    definitions,
  };
}
