// Turning stored records into answer shapes.
import {
  DEF_STRIDE, formatSymbolId, LANGUAGES, SYMBOL_KINDS, type Language, type NameShard, type PeerRecord, type SymbolKind, type SymbolRecord,
} from '@sextant/format';
import type { IndexReader } from './index-reader.ts';
import type { Location, SymbolSummary } from './results.ts';

export function summarize(reader: IndexReader, record: SymbolRecord, paths: string[]): SymbolSummary {
  const first = record.defs.length >= DEF_STRIDE ? defLocation(record, 0, paths) : undefined;
  return {
    symbolId: formatSymbolId(record.key, reader.commit),
    name: record.name,
    kind: record.kind,
    qualifiedName: record.qname,
    language: record.lang,
    ...(first ? { path: first.path, line: first.line, column: first.column } : {}),
    ...(record.external ? { external: record.external } : {}),
  };
}

export function defLocation(record: SymbolRecord, index: number, paths: string[]): Location {
  const at = index * DEF_STRIDE;
  const d = record.defs;
  return { path: paths[d[at]!]!, line: d[at + 1]!, column: d[at + 2]!, endLine: d[at + 3]!, endColumn: d[at + 4]! };
}

export function peerSummary(reader: IndexReader, peer: PeerRecord) {
  return { symbolId: formatSymbolId(peer.key, reader.commit), name: peer.name, kind: peer.kind };
}

export interface NameEntry {
  index: number;
  key: string;
  name: string;
  qname: string;
  kind: SymbolKind;
  lang: Language;
  path: string;
  line: number;
  column: number;
  flags: number;
}

export function nameEntry(names: NameShard, index: number): NameEntry {
  return {
    index,
    key: names.key[index]!,
    name: names.name[index]!,
    qname: names.qname[index]!,
    kind: SYMBOL_KINDS[names.kind[index]!]!,
    lang: LANGUAGES[names.lang[index]!]!,
    path: names.paths[names.loc[index * 3]!]!,
    line: names.loc[index * 3 + 1]!,
    column: names.loc[index * 3 + 2]!,
    flags: names.flags[index]!,
  };
}
