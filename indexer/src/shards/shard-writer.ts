// Lays collected records out as shards: symbols (with their references) bucketed by key, the graph
// of their edges (graph-shard.ts lays it out), files bucketed by path (with the texts of every text
// file, indexed or not), the text index's posting lists bucketed by gram, one name shard for search,
// one file table of every tracked file. Every order is total, so the same commit gives byte-identical shards. Written to a temporary directory that replaces the output at once.
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  changeShardName, compareInReferenceOrder, collectGrams, encodeGramShard, regrammed, type GramPostings, gramShardName, gramShardsOf, siteClass, encodeChangeShardOf, defColumn, encodeFileShardOf, graphShardName, layoutGraph, encodeFileTable, encodeNameShard, encodeSymbolShard, encodeTextShard, fileShardName, MANIFEST_DIGEST_FILE, MANIFEST_FILE, manifestDigestLine,
  FILE_TABLE_SHARD, NAME_FLAG_EXTERNAL, NAMES_SHARD, previewOf, refColumn, refDeclColumn, splitLines, symbolShardName, textShardName,
  encodeUnresolvedShard, ioErrorOf, SextantError, ShardLayout, unresolvedShardName, type UnresolvedShardData,
  type DefFields, type EncodedRecord, type FileTableEntry, type GraphNodeData, type Manifest, type NameShardData, type PeerRecord, type ShardEntry, type SymbolRecord, type SymbolShardData,
} from '@sextant/format';
import { forEachLimited } from '../for-each-limited.ts';
import type { CollectedFile, CollectedSymbol, IndexCollector } from '../index-collector.ts';
import type { CollectedRef } from '../packed-lists.ts';

const SYMBOLS_PER_BUCKET = 512;
const FILES_PER_BUCKET = 8;
/** Change records per bucket: a review reads the records of a few changed files; few neighbours ride along. */
const CHANGES_PER_BUCKET = 2;
/** Unresolved sites per bucket: a find_references reads the one bucket of its name. */
const UNRESOLVED_SITES_PER_BUCKET = 4096;
/** Postings (a gram in a file) per gram bucket: a search_text reads the buckets of the few grams it plans on. */
const POSTINGS_PER_GRAM_BUCKET = 65536;

export function bucketBits(count: number, perBucket: number): number {
  return Math.min(16, Math.max(0, Math.ceil(Math.log2(Math.max(1, count / perBucket)))));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface ShardSet {
  layout: Manifest['layout'];
  shards: Map<string, Uint8Array>;
  /** Records each shard holds, for its manifest entry (readers check a decoded shard against it). */
  records: Map<string, number>;
}

/**
 * What an incremental build lets the writer keep: the previous index's shards, and which records may
 * differ from it. A symbol, file, text or change bucket none of whose records may differ (under the
 * same bucket bits) is the previous shard, as it would be laid out again byte for byte.
 */
export interface LayoutReuse {
  layout: Manifest['layout'];
  /** A previous shard's bytes and records, by name. */
  shard(name: string): { bytes: Uint8Array; records: number } | undefined;
  /** Symbols whose records may differ: touched by the walk, losing what walked or removed files gave them, or gone. */
  dirtySymbols: ReadonlySet<string>;
  /** Each previous symbol's graph ordinal (-1: no edges): a symbol whose ordinal moved has another record. */
  graphOrdinals: ReadonlyMap<string, number>;
  /** Paths whose file, text or change record may differ: walked again, or changed, added or removed. */
  dirtyPaths: ReadonlySet<string>;
  grams: GramReuse;
}

/**
 * What the gram shards of an incremental build keep of the previous index: its gram postings and its
 * file table's paths by ordinal, whose postings are moved, not read again, except for the files whose
 * text may differ (`dirtyPaths`: changed, added or removed, or walked again).
 */
export interface GramReuse {
  earlier: () => Iterable<readonly [number, ArrayLike<number>]>;
  paths: readonly string[];
  dirtyPaths: ReadonlySet<string>;
}

/** The gram shards of a commit's text files, by bucket, under `bits` bucket bits. */
export interface GramLayout {
  bits: number;
  shards: Uint8Array[];
  records: number[];
}

/**
 * `fileTable`: every tracked file of the commit (build-command.ts fileTableOf); `texts`: the text of
 * every one of them that is indexed or unindexed (a text file no indexer reads).
 */
export function layoutShards(collector: IndexCollector, texts: ReadonlyMap<string, string>, fileTable: readonly FileTableEntry[], reuse?: LayoutReuse): ShardSet {
  return withGramShards(layoutRecordShards(collector, texts, fileTable, reuse), layoutGrams(fileTable, texts, reuse?.grams));
}

/** Every shard but the gram shards, which depend on nothing but the texts (layoutGrams; withGramShards adds them). */
export interface RecordShards extends Omit<ShardSet, 'layout'> {
  layout: Omit<Manifest['layout'], 'gramBucketBits'>;
}

/** A layout's shards with its gram shards. */
export function withGramShards(set: RecordShards, grams: GramLayout): ShardSet {
  const shards = new Map(set.shards);
  const records = new Map(set.records);
  grams.shards.forEach((bytes, bucket) => {
    shards.set(gramShardName(bucket), bytes);
    records.set(gramShardName(bucket), grams.records[bucket]!);
  });
  return { layout: { ...set.layout, gramBucketBits: grams.bits }, shards: new Map([...shards].sort(([a], [b]) => compare(a, b))), records };
}

/** layoutShards but the gram shards. */
export function layoutRecordShards(collector: IndexCollector, texts: ReadonlyMap<string, string>, fileTable: readonly FileTableEntry[], reuse?: LayoutReuse): RecordShards {
  const graph = layoutGraph(graphNodes(collector), undefined, reuse && keptGraphShards(reuse));
  const textFiles = textFilesOf(fileTable, texts);
  const bits: RecordShards['layout'] = {
    symbolBucketBits: bucketBits(collector.symbols.size, SYMBOLS_PER_BUCKET),
    fileBucketBits: bucketBits(collector.files.length, FILES_PER_BUCKET),
    changeBucketBits: bucketBits(collector.files.length, CHANGES_PER_BUCKET),
    unresolvedBucketBits: bucketBits(collector.unresolvedCount, UNRESOLVED_SITES_PER_BUCKET),
    graphBucketBits: graph.bits,
  };
  // No gram bucket is laid out here.
  const layout = new ShardLayout({ ...bits, gramBucketBits: 0 });
  const shards = new Map<string, Uint8Array>();
  const records = new Map<string, number>();
  graph.shards.forEach((bytes, bucket) => {
    shards.set(graphShardName(bucket), bytes);
    records.set(graphShardName(bucket), graph.records[bucket]!);
  });

  const symbolBuckets = new Map<number, CollectedSymbol[]>();
  for (const symbol of collector.symbols.values()) {
    const bucket = layout.symbolBucketOf(symbol.info.key);
    (symbolBuckets.get(bucket) ?? symbolBuckets.set(bucket, []).get(bucket)!).push(symbol);
  }
  const lines = new Map<string, string[]>();
  const linesOf = (path: string) => lines.get(path) ?? lines.set(path, splitLines(texts.get(path) ?? '')).get(path)!;
  // Every bucket is written, empty ones too (all equal, so stored once): a reader then knows that a
  // shard the layout implies and the manifest lacks was dropped, not empty.
  const kept = (name: string, dirty: ReadonlySet<number> | undefined, bucket: number) => {
    const previous = dirty && !dirty.has(bucket) ? reuse?.shard(name) : undefined;
    if (previous) {
      shards.set(name, previous.bytes);
      records.set(name, previous.records);
    }
    return previous !== undefined;
  };
  const dirtySymbolBuckets = reuse && reuse.layout.symbolBucketBits === layout.bits.symbolBucketBits ? dirtySymbolBucketsOf(reuse, collector, layout, graph.ordinalOf) : undefined;
  for (let bucket = 0; bucket < layout.symbolBuckets; bucket++) {
    if (kept(symbolShardName(bucket), dirtySymbolBuckets, bucket)) continue;
    const symbols = symbolBuckets.get(bucket) ?? [];
    shards.set(symbolShardName(bucket), encodeSymbolShard(symbolShard(collector, symbols, linesOf, graph.ordinalOf)));
    records.set(symbolShardName(bucket), symbols.length);
  }
  lines.clear();

  const fileBuckets = new Map<number, CollectedFile[]>();
  for (const file of collector.files) {
    const bucket = layout.fileBucketOf(file.path);
    (fileBuckets.get(bucket) ?? fileBuckets.set(bucket, []).get(bucket)!).push(file);
  }
  const textBuckets = new Map<number, { path: string; text: string }[]>();
  for (const file of textFiles) {
    const bucket = layout.fileBucketOf(file.path);
    (textBuckets.get(bucket) ?? textBuckets.set(bucket, []).get(bucket)!).push(file);
  }
  const dirtyFileBuckets = reuse && reuse.layout.fileBucketBits === layout.bits.fileBucketBits ? new Set([...reuse.dirtyPaths].map((p) => layout.fileBucketOf(p))) : undefined;
  for (let bucket = 0; bucket < layout.fileBuckets; bucket++) {
    if (!kept(fileShardName(bucket), dirtyFileBuckets, bucket)) {
      const files = fileBuckets.get(bucket) ?? [];
      files.sort((a, b) => compare(a.path, b.path));
      shards.set(fileShardName(bucket), encodeFileShardOf(files));
      records.set(fileShardName(bucket), files.length);
    }
    if (!kept(textShardName(bucket), dirtyFileBuckets, bucket)) {
      // In path order, as the text files are.
      const bucketTexts = textBuckets.get(bucket) ?? [];
      shards.set(textShardName(bucket), encodeTextShard({ files: bucketTexts.map(({ path, text }) => ({ path, text })) }));
      records.set(textShardName(bucket), bucketTexts.length);
    }
  }
  const changeBuckets = new Map<number, EncodedRecord[]>();
  for (const change of collector.changes) {
    const bucket = layout.changeBucketOf(change.path);
    (changeBuckets.get(bucket) ?? changeBuckets.set(bucket, []).get(bucket)!).push(change);
  }
  const dirtyChangeBuckets = reuse && reuse.layout.changeBucketBits === layout.bits.changeBucketBits ? new Set([...reuse.dirtyPaths].map((p) => layout.changeBucketOf(p))) : undefined;
  for (let bucket = 0; bucket < layout.changeBuckets; bucket++) {
    if (kept(changeShardName(bucket), dirtyChangeBuckets, bucket)) continue;
    const changes = (changeBuckets.get(bucket) ?? []).sort((a, b) => compare(a.path, b.path));
    shards.set(changeShardName(bucket), encodeChangeShardOf(changes));
    records.set(changeShardName(bucket), changes.length);
  }

  const unresolvedBuckets = new Map<number, string[]>();
  for (const name of collector.unresolved.keys()) {
    const bucket = layout.unresolvedBucketOf(name);
    (unresolvedBuckets.get(bucket) ?? unresolvedBuckets.set(bucket, []).get(bucket)!).push(name);
  }
  for (let bucket = 0; bucket < layout.unresolvedBuckets; bucket++) {
    const names = unresolvedBuckets.get(bucket) ?? [];
    shards.set(unresolvedShardName(bucket), encodeUnresolvedShard(unresolvedShard(collector, names)));
    records.set(unresolvedShardName(bucket), names.length);
  }

  const names = nameShard(collector);
  shards.set(NAMES_SHARD, encodeNameShard(names));
  records.set(NAMES_SHARD, names.entries.length);
  shards.set(FILE_TABLE_SHARD, encodeFileTable(fileTable));
  records.set(FILE_TABLE_SHARD, fileTable.length);
  return { layout: bits, shards, records };
}

/**
 * The text files (indexed or not) by their file-table ordinal (its position in path order, as the
 * file table stores them): the text shards hold them, the gram shards index them.
 */
function textFilesOf(fileTable: readonly FileTableEntry[], texts: ReadonlyMap<string, string>): { ordinal: number; path: string; text: string }[] {
  const sorted = [...fileTable].sort((a, b) => compare(a.path, b.path));
  return sorted.flatMap((entry, ordinal) => (entry.status === 'skipped' ? [] : [{ ordinal, path: entry.path, text: texts.get(entry.path) ?? '' }]));
}

/**
 * The gram shards of the text files of `fileTable` (they depend on nothing else: an incremental build
 * has the walk's thread lay them out, gram-job.ts). With `reuse`, the previous index's postings, each moved to its
 * file's ordinal now, with those of the files that may differ collected again from their texts:
 * what collectGrams over every text gives, without reading the unchanged ones (most of a build's
 * layout time on a large repository).
 */
export function layoutGrams(fileTable: readonly FileTableEntry[], texts: ReadonlyMap<string, string>, reuse?: GramReuse): GramLayout {
  const textFiles = textFilesOf(fileTable, texts);
  let grams: GramPostings;
  if (reuse) {
    const ordinals = new Map(textFiles.map((file) => [file.path, file.ordinal]));
    const ordinalNow = (earlier: number): number => {
      const path = reuse.paths[earlier];
      return (path === undefined || reuse.dirtyPaths.has(path) ? undefined : ordinals.get(path)) ?? -1;
    };
    grams = regrammed(reuse.earlier(), ordinalNow, textFiles.filter((file) => reuse.dirtyPaths.has(file.path)));
  } else grams = collectGrams(textFiles);
  const bits = bucketBits(grams.postings, POSTINGS_PER_GRAM_BUCKET);
  const data = gramShardsOf(grams, bits);
  return { bits, shards: data.map(encodeGramShard), records: data.map((bucket) => bucket.grams.length) };
}

/**
 * The previous index's graph shard of a bucket none of whose nodes may differ, when every node has
 * the ordinal it had there (so the same nodes are in each bucket, and every edge names the same peer
 * ordinal): what encoding the bucket again would give, byte for byte.
 */
function keptGraphShards(reuse: LayoutReuse): NonNullable<Parameters<typeof layoutGraph>[2]> {
  let sameOrdinals: boolean | undefined;
  return (bucket, nodes, ordinalOf) => {
    sameOrdinals ??= ordinalOf.size === [...reuse.graphOrdinals.values()].filter((ordinal) => ordinal >= 0).length
      && [...ordinalOf].every(([key, ordinal]) => reuse.graphOrdinals.get(key) === ordinal);
    return sameOrdinals && !nodes.some((node) => reuse.dirtySymbols.has(node.key)) ? reuse.shard(graphShardName(bucket))?.bytes : undefined;
  };
}

/** The symbol buckets whose records may differ from the previous index's: of a dirty symbol, or of one whose graph ordinal moved (or that is new). */
function dirtySymbolBucketsOf(reuse: LayoutReuse, collector: IndexCollector, layout: ShardLayout, ordinalOf: ReadonlyMap<string, number>): Set<number> {
  const dirty = new Set<number>();
  for (const key of reuse.dirtySymbols) dirty.add(layout.symbolBucketOf(key));
  for (const key of collector.symbols.keys()) {
    if ((ordinalOf.get(key) ?? -1) !== reuse.graphOrdinals.get(key)) dirty.add(layout.symbolBucketOf(key));
  }
  return dirty;
}

/** A symbol's declarations in (path, position) order: as its record stores them, and its graph node's first. */
function sortedDefs(info: CollectedSymbol['info']): CollectedSymbol['info']['defs'] {
  return info.defs.length < 2 ? info.defs : [...info.defs].sort((a, b) => compare(a[0], b[0]) || a[1] - b[1] || a[2] - b[2]);
}

/** Every symbol with an edge, as the graph holds it; the collector records each edge at both ends. */
function graphNodes(collector: IndexCollector): GraphNodeData[] {
  const nodes: GraphNodeData[] = [];
  for (const { info, edges } of collector.symbols.values()) {
    if (edges.length === 0) continue;
    const def = sortedDefs(info)[0];
    nodes.push({
      key: info.key, name: info.name, kind: info.kind, qname: info.qname, lang: info.lang, mods: info.mods,
      ...(info.local ? { local: true } : {}),
      ...(def ? { def } : {}),
      ...(info.external ? { external: info.external } : {}),
      edges: edges.toArray().map((e) => ({ kind: e.kind, out: e.out, peer: e.peer, ...(e.site ? { site: [e.site.path, e.site.line, e.site.column, e.site.endLine, e.site.endColumn] as const } : {}) })),
    });
  }
  return nodes;
}

function symbolShard(
  collector: IndexCollector, symbols: CollectedSymbol[], linesOf: (path: string) => string[], graphOrdinals: ReadonlyMap<string, number>,
): SymbolShardData {
  symbols.sort((a, b) => compare(a.info.key, b.info.key));
  const paths = new Set<string>();
  const peerKeys = new Set<string>();
  // Each symbol's references read once (a read makes them anew), for both passes.
  const refLists = symbols.map((s) => s.refs.toArray());
  symbols.forEach((s, i) => {
    if (s.info.container !== undefined) peerKeys.add(s.info.container);
    for (const d of s.info.defs) paths.add(d[0]);
    for (const r of refLists[i]!) {
      paths.add(r.site.path);
      if (r.decl?.signature) paths.add(r.decl.def[0]);
      if (r.from) peerKeys.add(r.from);
    }
  });
  const pathList = [...paths].sort(compare);
  const pathIndex = new Map(pathList.map((p, i) => [p, i]));
  const peers: PeerRecord[] = [...peerKeys].sort(compare).map((key) => peerOf(collector, key));
  const peerIndex = new Map(peers.map((p, i) => [p.key, i]));
  const fileFlags = collector.fileFlags();

  const records: SymbolRecord[] = symbols.map(({ info }, i) => {
    const refs = refLists[i]!;
    const defs = sortedDefs(info);
    // Stored in the order find_references answers in (REFERENCE_ORDER), so that it reads no more to sort.
    const sortedRefs = refs.map((r) => ({ r, site: { ...r.site, siteClass: siteClass(fileFlags.get(r.site.path) ?? 0) } }))
      .sort((a, b) => compareInReferenceOrder(a.site, b.site) || compare(a.r.kind, b.r.kind) || compare(a.r.confidence, b.r.confidence))
      .map(({ r }) => r);
    const record: SymbolRecord = {
      key: info.key,
      name: info.name,
      kind: info.kind,
      qname: info.qname,
      lang: info.lang,
      ...(info.path !== undefined ? { path: info.path } : {}),
      mods: info.mods,
      ...(info.signature !== undefined ? { signature: info.signature } : {}),
      ...(info.doc !== undefined ? { doc: info.doc } : {}),
      ...(info.container !== undefined ? { container: info.container } : {}),
      ...(info.external !== undefined ? { external: info.external } : {}),
      ...(info.local ? { local: true } : {}),
      // A definition's preview without its file's text shard: one round fewer for a cold call.
      ...(!info.local && defs.length ? { previews: defs.map((d) => previewOf(linesOf(d[0])[d[1] - 1] ?? '')) } : {}),
      // Filled in place by the format's builders: one array per column list, not one small array
      // per entry (effect has hundreds of thousands of references).
      defs: defColumn(defs, (d) => defFields(d, pathIndex)),
      refs: refColumn(sortedRefs, (r) => ({
        pathIndex: pathIndex.get(r.site.path)!, line: r.site.line, column: r.site.column, endLine: r.site.endLine, endColumn: r.site.endColumn,
        kind: r.kind, fromIndex: r.from ? peerIndex.get(r.from)! : -1, confidence: r.confidence,
      })),
      ...refDeclsOf(defs, sortedRefs, pathIndex),
      graph: graphOrdinals.get(info.key) ?? -1,
    };
    return record;
  });
  return { paths: pathList, pathFlags: pathList.map((p) => fileFlags.get(p) ?? 0), peers, symbols: records };
}

/**
 * Which declaration each call resolved to: an index into the sorted defs when the symbol has
 * several (an overload), or past them into `signatures` for a call signature of its type (a dual
 * API). Nothing when no call chose among several.
 */
function refDeclsOf(
  defs: readonly (readonly [string, number, number, number, number])[], refs: readonly CollectedRef[], pathIndex: Map<string, number>,
): { refDecls?: Int32Array; signatures?: Int32Array } {
  const at = (d: readonly [string, number, number, ...number[]]) => `${d[0]}:${d[1]}:${d[2]}`;
  const defIndex = new Map(defs.map((d, i) => [at(d), i]));
  const signatures: (readonly [string, number, number, number, number])[] = [];
  const signatureIndex = new Map<string, number>();
  const decls = refDeclColumn(refs, (r) => {
    if (!r.decl) return -1;
    const key = at(r.decl.def);
    if (!r.decl.signature) return defs.length > 1 ? defIndex.get(key) ?? -1 : -1;
    let index = signatureIndex.get(key);
    if (index === undefined) signatureIndex.set(key, index = signatures.push(r.decl.def) - 1);
    return defs.length + index;
  });
  if (!decls.some((d) => d >= 0)) return {};
  return {
    refDecls: decls,
    ...(signatures.length ? { signatures: defColumn(signatures, (d) => defFields(d, pathIndex)) } : {}),
  };
}

function defFields(d: readonly [string, number, number, number, number], pathIndex: Map<string, number>): DefFields {
  return { pathIndex: pathIndex.get(d[0])!, line: d[1], column: d[2], endLine: d[3], endColumn: d[4] };
}

function peerOf(collector: IndexCollector, key: string): PeerRecord {
  const { name, kind } = collector.symbols.get(key)!.info;
  return { key, name, kind };
}

/** One bucket's unresolved identifiers, each name's sites in REFERENCE_ORDER (as find_references lists). */
function unresolvedShard(collector: IndexCollector, names: readonly string[]): UnresolvedShardData {
  const fileFlags = collector.fileFlags();
  const langs = collector.fileLanguages();
  const paths = new Set<string>();
  const peers = new Set<string>();
  const entries = names.map((name) => {
    const sites = collector.unresolved.get(name)!
      .map((site) => ({ site, order: { ...site, siteClass: siteClass(fileFlags.get(site.path) ?? 0) } }))
      .sort((a, b) => compareInReferenceOrder(a.order, b.order) || compare(a.site.kind, b.site.kind))
      .map(({ site }) => site);
    for (const site of sites) {
      paths.add(site.path);
      if (site.from) peers.add(site.from);
    }
    return { name, sites };
  });
  return {
    paths: [...paths].sort(compare).map((path) => ({ path, flags: fileFlags.get(path) ?? 0, lang: langs.get(path)! })),
    peers: [...peers].sort(compare).map((key) => peerOf(collector, key)),
    names: entries,
  };
}

function nameShard(collector: IndexCollector): NameShardData {
  const fileFlags = collector.fileFlags();
  // Each at its first declaration in its own module (info.path: the class, not a module
  // augmentation elsewhere), in position order; not at the first the indexer met, which an
  // incremental build, walking fewer files, does not meet first.
  const entries = [...collector.symbols.values()]
    .filter((s) => !s.info.local)
    .map((s) => {
      const defs = sortedDefs(s.info);
      // Folded once, not at each of a sort's comparisons.
      return { info: s.info, def: defs.find((d) => d[0] === s.info.path) ?? defs[0], folded: s.info.name.toLowerCase() };
    })
    .sort((a, b) => compare(a.folded, b.folded) || compare(a.info.key, b.info.key));
  const paths = [...new Set(entries.map((e) => e.def?.[0] ?? ''))].sort(compare);
  const pathIndex = new Map(paths.map((p, i) => [p, i]));
  return {
    paths,
    entries: entries.map(({ info: e, def }) => ({
      key: e.key, name: e.name, qname: e.qname, kind: e.kind, lang: e.lang,
      path: pathIndex.get(def?.[0] ?? '')!, line: def?.[1] ?? 0, column: def?.[2] ?? 0, endLine: def?.[3] ?? 0, endColumn: def?.[4] ?? 0,
      flags: e.external ? NAME_FLAG_EXTERNAL : fileFlags.get(def?.[0] ?? '') ?? 0,
      pkg: e.external?.package ?? '',
    })),
  };
}

/** Shard files written at once. */
const WRITE_CONCURRENCY = 16;

/** Writes shards and manifest to `out`, replacing what was there only once everything is on disk. */
export async function writeIndex(out: string, set: ShardSet, manifest: Omit<Manifest, 'shards' | 'layout'>): Promise<Manifest> {
  const shards: Record<string, ShardEntry> = {};
  // Node's native SHA-256: the format's portable one costs ten times the CPU over a whole index's bytes.
  for (const [name, bytes] of set.shards) shards[name] = { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength, records: set.records.get(name)! };
  const complete: Manifest = { ...manifest, layout: set.layout, shards };
  // Refused before writing a byte or making a directory: what is at `out` goes only when it is an index (or empty).
  await ensureReplaceable(out);
  await mkdir(dirname(out), { recursive: true });
  // Fresh names beside `out`: nothing that was there before is ever removed on the way.
  const temporary = await mkdtemp(`${out}.tmp-`);
  try {
    // Each directory made once, then the files written sixteen at a time (one by one, a thousand
    // round trips through the thread pool were a quarter of a second of an incremental build).
    for (const dir of new Set([...set.shards.keys()].map((name) => dirname(join(temporary, name))))) await mkdir(dir, { recursive: true });
    await forEachLimited([...set.shards], WRITE_CONCURRENCY, ([name, bytes]) => writeFile(join(temporary, name), bytes));
    const manifestText = `${JSON.stringify(complete, null, 2)}\n`;
    await writeFile(join(temporary, MANIFEST_FILE), manifestText);
    await writeFile(join(temporary, MANIFEST_DIGEST_FILE), manifestDigestLine(manifestText));
    const previous = `${temporary}.old`;
    const hadPrevious = await rename(out, previous).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    });
    await rename(temporary, out);
    if (hadPrevious) await rm(previous, { recursive: true, force: true });
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
  return complete;
}

/**
 * Refuses to let an index replace what is at `dir` unless it is an index directory (it holds a
 * manifest.json, as every directory writeIndex leaves does), an empty directory, or nothing: an
 * `--out` that names a source tree or a home directory by mistake loses nothing.
 */
export async function ensureReplaceable(dir: string): Promise<void> {
  const entries: string[] = await lstat(dir).then(
    async (stats) => {
      if (!stats.isDirectory()) throw notAnIndex(dir, stats.isSymbolicLink() ? 'it is a symbolic link' : 'it is not a directory');
      return await readdir(dir);
    },
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw ioErrorOf(error) ?? error;
    },
  );
  if (entries.length > 0 && !entries.includes(MANIFEST_FILE)) throw notAnIndex(dir, `it holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} and no ${MANIFEST_FILE}`);
}

function notAnIndex(dir: string, why: string): SextantError {
  return new SextantError('INVALID_ARGUMENT',
    `${dir} is not an index directory (${why}), so an index does not replace it: nothing was written or removed.`,
    'Move it away, or write the index elsewhere: a new or empty directory, or an earlier index to replace (--out for indexer build, --out-root for indexer review).',
    { path: dir });
}
