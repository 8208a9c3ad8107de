// goto_definition: every declaration of the target (overloads and merged declarations give
// several), or, for an external symbol, which package it comes from.
import type { IndexReader } from './index-reader.ts';
import type { Answer, Location, SymbolSummary } from './results.ts';
import { defLocation, summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';
import { DEF_STRIDE } from '@sextant/format';

export interface DefinitionAnswer extends Answer {
  symbol: SymbolSummary;
  external: boolean;
  definitions: Location[];
}

export async function gotoDefinition(reader: IndexReader, target: Target): Promise<DefinitionAnswer> {
  const { record, shard } = await resolveTarget(reader, target);
  const definitions: Location[] = [];
  for (let i = 0; i * DEF_STRIDE < record.defs.length; i++) definitions.push(defLocation(record, i, shard.paths));
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, record, shard.paths),
    external: record.external !== undefined,
    definitions,
  };
}
