// symbol_info: everything the index knows about one symbol, with the counts a reviewer asks first
// (how many references, implementations, callers) and how precisely it was resolved.
import { MODIFIERS, refCount, type GraphEdge, type Precision } from '@sextant/format';
import { nodeOf, rawEdgesOf } from './edges.ts';
import type { IndexReader } from './index-reader.ts';
import type { Answer, SymbolSummary } from './results.ts';
import { definitionsWithPreview, type PreviewedLocation } from './preview.ts';
import { summarize } from './symbols.ts';
import { resolveTarget, type Target } from './target.ts';

interface SymbolInfoAnswer extends Answer {
  symbol: SymbolSummary;
  signature?: string;
  doc?: string;
  modifiers: string[];
  container?: SymbolSummary;
  local: boolean;
  precision: Precision;
  definitions: PreviewedLocation[];
  counts: {
    references: number;
    /** Direct subtypes (for a type) or overriding members (for a member). */
    implementations: number;
    /** Distinct symbols whose bodies call this one. */
    callers: number;
    callees: number;
    supertypes: number;
    superMethods: number;
  };
}

export async function symbolInfo(reader: IndexReader, target: Target): Promise<SymbolInfoAnswer> {
  const { record, shard } = await resolveTarget(reader, target);
  // Counts only: peers by ordinal, so no peer's graph shard is read.
  const node = await nodeOf(reader, { record, shard });
  const edges = node ? await rawEdgesOf(reader, node) : [];
  const distinct = (pick: (e: GraphEdge) => boolean) => new Set(edges.filter(pick).map((e) => e.peer)).size;
  const container = record.container ? await reader.symbol(record.container) : undefined;
  return {
    repo: reader.repo,
    commit: reader.commit,
    symbol: summarize(reader, record, shard.paths),
    ...(record.signature ? { signature: record.signature } : {}),
    ...(record.doc ? { doc: record.doc } : {}),
    modifiers: Object.entries(MODIFIERS).filter(([, bit]) => record.mods & bit).map(([name]) => name),
    ...(container ? { container: summarize(reader, container.record, container.shard.paths) } : {}),
    local: record.local === true,
    precision: reader.manifest.languages[record.lang]?.precision ?? 'syntactic',
    definitions: await definitionsWithPreview(reader, record, shard),
    counts: {
      references: refCount(record),
      implementations: distinct((e) => !e.out && (e.kind === 'extends' || e.kind === 'implements' || e.kind === 'overrides')),
      callers: distinct((e) => !e.out && e.kind === 'calls'),
      callees: distinct((e) => e.out && e.kind === 'calls'),
      supertypes: distinct((e) => e.out && (e.kind === 'extends' || e.kind === 'implements')),
      superMethods: distinct((e) => e.out && e.kind === 'overrides'),
    },
  };
}
