// Turning stored records into answer shapes.
import {
  defAt, defCount, formatSymbolId, NAME_FLAG_EXTERNAL, type GraphNode, type NameEntryData, type NameShard, type PeerRecord, type SymbolRecord,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import type { Location, PeerSummary, SymbolSummary } from './results.ts';

export function summarize(reader: IndexReader, record: SymbolRecord, paths: string[]): SymbolSummary {
  const first = defCount(record) > 0 ? defLocation(record, 0, paths) : undefined;
  return {
    symbolId: formatSymbolId(record.key, reader.commit),
    name: record.name,
    kind: record.kind,
    qualifiedName: record.qname,
    language: record.lang,
    ...(first ?? {}),
    ...(record.external ? { external: record.external } : {}),
  };
}

/** Summary of a graph node, the same shape as its loaded symbol's. */
export function nodeSummary(reader: IndexReader, node: GraphNode): SymbolSummary {
  return {
    symbolId: formatSymbolId(node.key, reader.commit),
    name: node.name,
    kind: node.kind,
    qualifiedName: node.qname,
    language: node.lang,
    ...(node.def ?? {}),
    ...(node.external ? { external: node.external } : {}),
  };
}

export function defLocation(record: SymbolRecord, index: number, paths: string[]): Location {
  const { pathIndex, line, column, endLine, endColumn } = defAt(record, index);
  return { path: paths[pathIndex]!, line, column, endLine, endColumn };
}

/** Every declaration of the symbol, in stored order. */
export function defLocations(record: SymbolRecord, paths: string[]): Location[] {
  return Array.from({ length: defCount(record) }, (_, i) => defLocation(record, i, paths));
}

/** A peer record's or graph node's summary as another answer mentions it. */
export function peerSummary(reader: IndexReader, peer: PeerRecord | GraphNode): PeerSummary {
  return { symbolId: formatSymbolId(peer.key, reader.commit), name: peer.name, kind: peer.kind };
}

/** Summary of a name-index entry, the same shape as a loaded symbol's. */
export function entrySummary(reader: IndexReader, entry: NameEntry): SymbolSummary {
  const external = (entry.flags & NAME_FLAG_EXTERNAL) !== 0;
  return {
    symbolId: formatSymbolId(entry.key, reader.commit),
    name: entry.name,
    kind: entry.kind,
    qualifiedName: entry.qname,
    language: entry.lang,
    ...(external
      ? { external: { package: entry.pkg } }
      : { path: entry.path, line: entry.line, column: entry.column, endLine: entry.endLine, endColumn: entry.endColumn }),
  };
}

/** A name-shard entry as queries use it: its index in the shard and its declaring file's path. */
export interface NameEntry extends Omit<NameEntryData, 'path'> {
  index: number;
  path: string;
}

export function nameEntry(names: NameShard, index: number): NameEntry {
  return {
    index,
    key: names.key(index),
    name: names.name(index),
    qname: names.qname(index),
    kind: names.kind(index),
    lang: names.lang(index),
    ...names.loc(index),
    flags: names.flags(index),
    pkg: names.pkg(index),
  };
}
