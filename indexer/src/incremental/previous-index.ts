// A built index read back into what the build collected: the collector's symbols (with their
// references and edges), files, change records and unresolved identifiers, and the file table. An
// incremental build starts from this, drops what the files it walks again contributed, and adds what
// their new walk finds; laid out again, an unchanged collection gives the same shards byte for byte
// (the round trip incremental-build.test.ts checks). Read through the format's own decoders.
import {
  defsOf, FILE_TABLE_SHARD, FileTable, graphRecords, graphShardName, graphStarts, gramShardName, refsOf, signaturesOf, type ChangeRecord, type ChangeShard, type FileRecord,
  type FileShard, type FileTableEntry, type GraphShard, type Manifest, type SymbolRecord, type SymbolShard, type UnresolvedShard, type UnresolvedSiteData,
  packShard, packingOf, type ShardCompressor, type ShardEntry, type ShardPacking,
} from '@sextant/format';
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { IndexReader, ShardCache, type ShardSource } from '@sextant/query';
import { checkBytes, checkedInflate, DirShardSource } from '@sextant/query/node';
import type { CollectedSymbol, ResolvedDeclaration, SymbolInfo } from '../index-collector.ts';
import { EdgeList, PackedStore, RefList } from '../packed-lists.ts';

/** What an incremental build reads of a previous index first: its manifest and file table, enough for most reasons to build in full. */
export interface PreviousTable {
  manifest: Manifest;
  entries: FileTableEntry[];
  /** Whether this indexer compresses as the one that built it did: its file table, compressed again, is the same bytes. */
  compressesAlike: boolean;
  /** A file's text at the previous commit (read when asked: a build needs few). */
  text(path: string): Promise<string | undefined>;
  /** The file and change records. */
  records(): Promise<PreviousFiles>;
}

/** Then its file and change records: enough to see how far a change reaches by the declarations files name. */
export interface PreviousFiles extends Omit<PreviousTable, 'records'> {
  files: Map<string, FileRecord>;
  changes: Map<string, ChangeRecord>;
  /** Everything else: symbols, edges, unresolved identifiers, and every shard's bytes. */
  rest(): Promise<PreviousIndex>;
}

export interface PreviousIndex extends Omit<PreviousFiles, 'rest'> {
  symbols: Map<string, CollectedSymbol>;
  unresolved: Map<string, UnresolvedSiteData[]>;
  /** Compresses a shard as a full build would, giving the previous shard's bytes for equal content instead of compressing again. */
  compressor: ShardCompressor;
  /** A shard's bytes as the previous index holds them (every shard was read). */
  shardBytes(name: string): Uint8Array | undefined;
  /** Each symbol's graph ordinal (-1: no edges), as its record holds it. */
  graphOrdinals: Map<string, number>;
  /** Its gram shards as stored, in bucket order (gram-job.ts gramsOfShards: each gram with its postings, the ordinals in its file table of the files holding it with their follow masks). */
  gramShards: Uint8Array[];
}

/**
 * An index directory's shards, checked (size and sha256) and inflated by Node's native zlib (text
 * shards copied out of their stored blocks), each remembered by the hash of its content and its
 * packing with its bytes (the compressor).
 */
class PreviousShards implements ShardSource {
  readonly where: string;
  private readonly dir: DirShardSource;
  readonly byContent = new Map<string, Uint8Array>();
  readonly byName = new Map<string, Uint8Array>();

  constructor(dir: string) {
    this.dir = new DirShardSource(dir, 'Pass --from an index directory that `indexer build --out <dir>` wrote, or build without --from.');
    this.where = this.dir.where;
  }

  readManifest(): Promise<string> {
    return this.dir.readManifest();
  }

  recordedManifestSha256(): Promise<{ expected: string | undefined; recordedIn: string }> {
    return this.dir.recordedManifestSha256();
  }

  readShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    return this.dir.readShard(name, entry);
  }

  /**
   * A shard read and checked but not inflated: one the writer keeps as it is or lays out anew (texts,
   * stored, cost nothing to pack again; grams the walk's thread lays out), never asks the compressor for.
   */
  async readCheckedShard(name: string, entry: ShardEntry): Promise<void> {
    const bytes = await this.dir.readShard(name, entry);
    if (!bytes) return;
    checkBytes(name, this.where, entry, bytes, REBUILD_HINT);
    this.byName.set(name, bytes);
  }

  async readInflatedShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined> {
    const bytes = await this.dir.readShard(name, entry);
    if (!bytes) return undefined;
    const raw = checkedInflate(name, this.where, entry, bytes, REBUILD_HINT);
    this.byContent.set(contentKey(raw, packingOf(bytes)), bytes);
    this.byName.set(name, bytes);
    return raw;
  }
}

const REBUILD_HINT = 'Rebuild that index with `indexer build`, or build without --from.';

/** What the compressor knows a shard by: its content and how it is packed (text shards are stored, not deflated). */
function contentKey(raw: Uint8Array, packing: ShardPacking): string {
  return `${packing} ${createHash('sha256').update(raw).digest('base64')}`;
}

/** The manifest and file table of the index in `dir`, checked as any reader checks them; the rest in stages, when asked. */
export async function readPreviousIndex(dir: string): Promise<PreviousTable> {
  const source = new PreviousShards(dir);
  // Each shard is read once: a cache that keeps nothing.
  const reader = await IndexReader.open(source, new ShardCache(0));
  const { manifest } = reader;
  const names = Object.keys(manifest.shards);
  const of = async <T>(prefix: string): Promise<T[]> => Promise.all(names.filter((n) => n.startsWith(prefix)).map(async (n) => (await reader.shard<T>(n))!));

  const table = (await reader.shard<FileTable>(FILE_TABLE_SHARD))!;
  const entries = Array.from({ length: table.size }, (_, i) => table.entry(i));
  const tableBytes = source.byName.get(FILE_TABLE_SHARD)!;
  const compressesAlike = Buffer.from(packShard(new Uint8Array(inflateRawSync(tableBytes)), 'deflated')).equals(tableBytes);
  const first = { manifest, entries, compressesAlike, text: (path: string) => reader.text(path) };

  const records = async (): Promise<PreviousFiles> => {
    const files = new Map<string, FileRecord>();
    for (const shard of await of<FileShard>('files/')) for (const file of shard.files()) files.set(file.path, file);
    const changes = new Map<string, ChangeRecord>();
    for (const shard of await of<ChangeShard>('changes/')) for (const change of shard.files()) changes.set(change.path, change);
    const head = { ...first, files, changes };
    return { ...head, rest: async () => ({ ...head, ...(await theRest()) }) };
  };

  const theRest = async (): Promise<Omit<PreviousIndex, keyof PreviousFiles>> => {
    const symbols = new Map<string, CollectedSymbol>();
    const store = new PackedStore();
    const graphOrdinals = new Map<string, number>();
    for (const shard of await of<SymbolShard>('symbols/')) {
      // The keys of the shard's peers (the symbols its references are in), each read once.
      const peerKeys: string[] = [];
      const peerKey = (index: number) => (peerKeys[index] ??= shard.peer(index).key);
      for (const record of shard.records()) {
        symbols.set(record.key, collected(record, shard.paths, peerKey, store));
        graphOrdinals.set(record.key, record.graph);
      }
    }

    // Each edge is stored at both ends; its incoming entry keeps its site (an outgoing call's is dropped).
    const starts = graphStarts(graphRecords(manifest));
    const graphs = await Promise.all(starts.slice(0, -1).map((_, bucket) => reader.shard<GraphShard>(graphShardName(bucket))));
    const keyOf = (ordinal: number) => graphs.find((g) => g!.holds(ordinal))!.key(ordinal);
    for (const graph of graphs) {
      for (let ordinal = graph!.start; ordinal < graph!.start + graph!.size; ordinal++) {
        const to = graph!.key(ordinal);
        for (const edge of graph!.edges(ordinal)) {
          if (edge.out) continue;
          const from = keyOf(edge.peer);
          symbols.get(from)!.edges.push({ kind: edge.kind, out: true, peer: to, site: edge.site });
          symbols.get(to)!.edges.push({ kind: edge.kind, out: false, peer: from, site: edge.site });
        }
      }
    }

    const unresolved = new Map<string, UnresolvedSiteData[]>();
    for (const shard of await of<UnresolvedShard>('unresolved/')) {
      for (const name of shard.names) {
        unresolved.set(name, shard.sitesNamed(name).map((s) => ({
          path: s.path, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn, kind: s.kind, ...(s.from ? { from: s.from.key } : {}),
        })));
      }
    }
    // The shards not decoded (texts, grams, names), read for the writer (which moves the grams'
    // postings rather than reading every text again) and the compressor.
    await Promise.all(names.filter((n) => !source.byName.has(n)).map((n) => (n.startsWith('texts/') || n.startsWith('grams/')
      ? source.readCheckedShard(n, manifest.shards[n]!) : source.readInflatedShard(n, manifest.shards[n]!))));
    const compressor: ShardCompressor = (raw, packing) => source.byContent.get(contentKey(raw, packing)) ?? packShard(raw, packing);
    // Every bucket the layout implies is in the manifest (parseManifest checked), so was read.
    const gramShards = Array.from({ length: 2 ** manifest.layout.gramBucketBits }, (_, bucket) => source.byName.get(gramShardName(bucket))!);
    return { compressor, shardBytes: (name) => source.byName.get(name), graphOrdinals, symbols, unresolved, gramShards };
  };
  return { ...first, records };
}

/** A stored symbol as the collector held it: its declarations as tuples, its references with the declaration each call chose. */
function collected(record: SymbolRecord, paths: readonly string[], peerKey: (index: number) => string, store: PackedStore): CollectedSymbol {
  // What the indexer said of the symbol, built in one object (half a million temporary objects
  // fewer for a large index than spreading its optional fields); its columns (declarations,
  // references) are read through the format's cursors, flyweights read as they are visited.
  const defs = Array.from(defsOf(record), (d) => siteTuple(paths, d));
  const info: SymbolInfo = { key: record.key, name: record.name, kind: record.kind, qname: record.qname, lang: record.lang, mods: record.mods, defs };
  if (record.path !== undefined) info.path = record.path;
  if (record.signature !== undefined) info.signature = record.signature;
  if (record.doc !== undefined) info.doc = record.doc;
  if (record.container !== undefined) info.container = record.container;
  if (record.external !== undefined) info.external = record.external;
  if (record.local) info.local = true;
  // A call's chosen signature (past the declarations) is rare: the signatures are read for the first.
  let signatures: [string, number, number, number, number][] | undefined;
  const refs = new RefList(store);
  for (const r of refsOf(record)) {
    const site = { path: paths[r.pathIndex]!, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn };
    const from = r.fromIndex >= 0 ? peerKey(r.fromIndex) : undefined;
    if (r.decl < 0) {
      refs.push({ site, kind: r.kind, from, confidence: r.confidence });
      continue;
    }
    const decl: ResolvedDeclaration = r.decl < defs.length ? { def: defs[r.decl]! }
      : { def: (signatures ??= Array.from(signaturesOf(record), (d) => siteTuple(paths, d)))[r.decl - defs.length]!, signature: true };
    refs.push({ site, kind: r.kind, from, confidence: r.confidence, decl });
  }
  return { info, refs, edges: new EdgeList(store) };
}

/** A declaration's site as the collector holds it: [path, line, column, endLine, endColumn]. */
function siteTuple(paths: readonly string[], d: { pathIndex: number; line: number; column: number; endLine: number; endColumn: number }): [string, number, number, number, number] {
  return [paths[d.pathIndex]!, d.line, d.column, d.endLine, d.endColumn];
}
