// An in-memory Sextant index for tests: real shards (encodeShard) with real checksums (sha256Hex)
// and a real manifest, laid out the way indexer/src/shards/shard-writer.ts lays them out (symbols
// bucketed by key, files and their texts by path, one name shard sorted by lowercased name then
// key), and served by a ShardSource over a Map. It stands in for the indexer's *output*, not for
// any code under test: IndexReader, the query functions and the MCP server all run unmodified on
// top of it.
//
// Fixtures are written as source text plus declarations and references by identifier, and the
// builder checks every site against the text (the identifier must be there), so a fixture cannot
// silently describe positions that do not exist. Used by packages/query/test and, by relative
// path, by packages/mcp/test.
import {
  collectGrams, encodeGramShard, gramShardName, gramShardsOf, compareInReferenceOrder, defColumn, encodeFileShard, graphShardName, layoutGraph, encodeFileTable, encodeNameShard, encodeSymbolShard, encodeTextShard, FILE_TABLE_SHARD, FORMAT_VERSION, LANGUAGES, NAME_FLAG_EXTERNAL, NAMES_SHARD, pushOccurrence, refColumn, shortCommit,
  unresolvedColumn, fileShardName, impliedShardNames, recordsOf, previewOf, sha256Hex, siteClass, splitLines, symbolKey, symbolShardName, textShardName,
  changeShardName, encodeChangeShard, encodeUnresolvedShard, ShardLayout, unresolvedShardName, type UnresolvedSiteData, type ChangeRecord, type Confidence, type DeclRecord, type ExternalOrigin, type FileRecord, type FileTableEntry, type GraphNodeData, type Language, type Manifest, type NameShardData,
  type OutlineNode, type PeerRecord, type ReferenceKind, type SkippedFile, type SymbolKind, type SymbolRecord,
} from '@sextant/format';
import { openShard } from '../../../format/test/support/open-shard.ts';
import { IndexReader, ShardCache, type ShardSource } from '@sextant/query';

/** Where an identifier sits: its line, and either its column or the how-manyth whole-word match on that line it is. */
export interface SiteSpec {
  path: string;
  line: number;
  /** 1-based UTF-16 column of the identifier's first character; found from `nth` when absent. */
  column?: number;
  /** 1-based: which whole-word occurrence of the identifier on the line (default 1). */
  nth?: number;
}

export interface RefSpec extends SiteSpec {
  kind: ReferenceKind;
  /** `id` of the symbol whose body holds the reference; module scope when absent. */
  from?: string;
  /** The text at the site when it is not the symbol's name (an alias). */
  text?: string;
  confidence?: Confidence;
}

export interface SymbolSpec {
  /** Handle for `from` and `container`; defaults to qname, which must then be unique. */
  id?: string;
  name: string;
  kind: SymbolKind;
  /** Dotted name inside its module; defaults to name. */
  qname?: string;
  lang?: Language;
  /** Declaration name sites; none for an external symbol. */
  defs: SiteSpec[];
  refs?: RefSpec[];
  mods?: number;
  signature?: string;
  doc?: string;
  /** `id` of the enclosing symbol. */
  container?: string;
  external?: ExternalOrigin;
  local?: boolean;
  /** `id`s of the members this one overrides or implements (an `overrides` edge to each). */
  overrides?: string[];
  /** `id`s of the types this one extends (an `extends` edge to each). */
  extends?: string[];
  /** `id`s of the interfaces this one implements (an `implements` edge to each). */
  implements?: string[];
}

export interface FileSpec {
  path: string;
  text: string;
  lang?: Language;
  /** FILE_FLAGS bits (test, generated, vendored). */
  flags?: number;
  /** ChangeRecord.decls as given (default none). */
  decls?: DeclRecord[];
  /**
   * Identifiers the indexer resolved to nothing (ChangeRecord.unresolved and the unresolved shards);
   * default null: not recorded.
   */
  unresolved?: UnresolvedSpec[] | null;
}

export interface UnresolvedSpec extends Omit<SiteSpec, 'path'> {
  name: string;
  kind: ReferenceKind;
  /** `id` of the symbol whose body holds it. */
  from?: string;
}

export interface MemoryIndexSpec {
  repo?: string;
  commit?: string;
  files: FileSpec[];
  symbols: SymbolSpec[];
  /** Bucket bits; nonzero defaults so lookups really go through bucketing and several shards. */
  /** Bits of each bucketed family but the graph's, which follow from its node count as the indexer's do. */
  layout?: Omit<Manifest['layout'], 'graphBucketBits'>;
  skipped?: SkippedFile[];
  /** Tracked text files no indexer reads (README.md, data): in the file table and the text shards. */
  unindexed?: { path: string; text?: string }[];
  warnings?: string[];
  /** Store references in (path, position) order, as indexes written before REFERENCE_ORDER did. */
  pathOrderedRefs?: boolean;
}

export interface MemoryIndex {
  manifest: Manifest;
  /** Shard name -> bytes, exactly as the manifest lists them. */
  shards: Map<string, Uint8Array>;
  /** Symbol `id` -> key, to build symbolIds in assertions. */
  keys: Map<string, string>;
}

export const MEMORY_REPO = 'acme/shop';
export const MEMORY_COMMIT = 'c0ffee0000000000000000000000000000000001';
const DEFAULT_LAYOUT: Omit<Manifest['layout'], 'graphBucketBits'> = { symbolBucketBits: 2, fileBucketBits: 1, changeBucketBits: 2, unresolvedBucketBits: 1, gramBucketBits: 1 };

interface Site {
  path: string;
  line: number;
  column: number;
  endColumn: number;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function languageOfPath(path: string): Language {
  return /\.(c|m)?jsx?$/.test(path) ? 'javascript' : 'typescript';
}

/** Lines without their line breaks, as FileRecord.lineLengths counts them. */
function resolveSite(files: Map<string, string[]>, site: SiteSpec, identifier: string, what: string): Site {
  const lines = files.get(site.path);
  if (!lines) throw new Error(`memory-index: ${what} names ${site.path}, which is not a file of the fixture`);
  const text = lines[site.line - 1];
  if (text === undefined) throw new Error(`memory-index: ${what}: ${site.path} has no line ${site.line}`);
  let column = site.column;
  if (column === undefined) {
    const word = new RegExp(`(?<![\\w$])${identifier.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
    const matches = [...text.matchAll(word)];
    const match = matches[(site.nth ?? 1) - 1];
    if (!match) throw new Error(`memory-index: ${what}: "${identifier}" #${site.nth ?? 1} not on ${site.path}:${site.line}: ${text}`);
    column = match.index! + 1;
  }
  if (text.slice(column - 1, column - 1 + identifier.length) !== identifier) {
    throw new Error(`memory-index: ${what}: ${site.path}:${site.line}:${column} is not "${identifier}": ${text}`);
  }
  return { path: site.path, line: site.line, column, endColumn: column + identifier.length };
}

/** Builds the shards and manifest of a fixture. Deterministic: equal specs give equal bytes. */
export function buildMemoryIndex(spec: MemoryIndexSpec): MemoryIndex {
  const repo = spec.repo ?? MEMORY_REPO;
  const commit = spec.commit ?? MEMORY_COMMIT;
  const bucketBits = spec.layout ?? DEFAULT_LAYOUT;
  const fileLines = new Map(spec.files.map((file) => [file.path, splitLines(file.text)]));
  const fileFlags = new Map(spec.files.map((file) => [file.path, file.flags ?? 0]));

  // Resolve every symbol's identity and sites first: keys are needed before any record is written.
  const byId = new Map<string, { spec: SymbolSpec; key: string; defs: Site[]; refs: (Site & RefSpec)[] }>();
  for (const symbol of spec.symbols) {
    const id = symbol.id ?? symbol.qname ?? symbol.name;
    if (byId.has(id)) throw new Error(`memory-index: two symbols have id "${id}"; give one an explicit id`);
    const qname = symbol.qname ?? symbol.name;
    const lang = symbol.lang ?? (symbol.defs[0] ? languageOfPath(symbol.defs[0].path) : 'typescript');
    const where = symbol.external ? `external:${symbol.external.package}` : symbol.defs[0]?.path ?? '';
    const key = symbolKey(`${lang}\0${where}\0${qname}\0${symbol.kind}\0${id}`);
    const defs = symbol.defs.map((d, i) => resolveSite(fileLines, d, symbol.name, `definition ${i + 1} of ${id}`));
    const refs = (symbol.refs ?? []).map((r, i) => ({
      ...r, ...resolveSite(fileLines, r, r.text ?? symbol.name, `reference ${i + 1} of ${id}`),
    }));
    byId.set(id, { spec: { ...symbol, qname, lang }, key, defs, refs });
  }
  const keyOf = (id: string): string => {
    const entry = byId.get(id);
    if (!entry) throw new Error(`memory-index: no symbol with id "${id}"`);
    return entry.key;
  };

  // Each edge is stored at both ends, as the indexer stores it: out at the subtype or overrider, in at the other.
  const EDGE_SPECS = ['overrides', 'extends', 'implements'] as const;
  const incoming = new Map<string, { kind: (typeof EDGE_SPECS)[number]; from: string }[]>();
  for (const [id, { spec: s }] of byId) {
    for (const kind of EDGE_SPECS) {
      for (const to of s[kind] ?? []) {
        keyOf(to);
        const list = incoming.get(to) ?? [];
        list.push({ kind, from: id });
        incoming.set(to, list);
      }
    }
  }

  const edgesOf = (id: string) => [
    ...EDGE_SPECS.flatMap((kind) => (byId.get(id)!.spec[kind] ?? []).map((to) => ({ kind, out: true, peer: to }))),
    ...(incoming.get(id) ?? []).map(({ kind, from }) => ({ kind, out: false, peer: from })),
  ];
  // The graph: every symbol with an edge, laid out by the format's own layoutGraph, as the indexer does.
  const graphNodes: GraphNodeData[] = [];
  for (const [id, { spec: s, key, defs }] of byId) {
    const edges = edgesOf(id);
    if (edges.length === 0) continue;
    const def = [...defs].sort((a, b) => compare(a.path, b.path) || a.line - b.line || a.column - b.column)[0];
    graphNodes.push({
      key, name: s.name, kind: s.kind, qname: s.qname!, lang: s.lang!, mods: s.mods ?? 0,
      ...(s.local ? { local: true } : {}),
      ...(def ? { def: [def.path, def.line, def.column, def.line, def.endColumn] as const } : {}),
      ...(s.external ? { external: s.external } : {}),
      edges: edges.map((e) => ({ kind: e.kind, out: e.out, peer: keyOf(e.peer) })),
    });
  }
  const graph = layoutGraph(graphNodes);
  const layout: Manifest['layout'] = { ...bucketBits, graphBucketBits: graph.bits };
  const shardLayout = new ShardLayout(layout);
  const shards = new Map<string, Uint8Array>();
  graph.shards.forEach((bytes, bucket) => shards.set(graphShardName(bucket), bytes));

  // Symbol shards: bucketed by key, symbols sorted by key (IndexReader binary-searches them).
  const buckets = new Map<number, string[]>();
  for (const [id, { key }] of byId) {
    const bucket = shardLayout.symbolBucketOf(key);
    const list = buckets.get(bucket) ?? [];
    list.push(id);
    buckets.set(bucket, list);
  }
  for (const [bucket, ids] of buckets) {
    const members = ids.map((id) => byId.get(id)!).sort((a, b) => compare(a.key, b.key));
    const paths = [...new Set(members.flatMap((m) => [...m.defs, ...m.refs].map((s) => s.path)))].sort(compare);
    const peerIds = [...new Set(members.flatMap((m) => [
      ...(m.spec.container !== undefined ? [m.spec.container] : []), ...m.refs.flatMap((r) => (r.from ? [r.from] : [])),
    ]))]
      .sort((a, b) => compare(keyOf(a), keyOf(b)));
    const peerIndex = new Map(peerIds.map((id, i) => [id, i]));
    const peers: PeerRecord[] = peerIds.map((id) => {
      const peer = byId.get(id)!;
      return { key: peer.key, name: peer.spec.name, kind: peer.spec.kind };
    });
    const symbols: SymbolRecord[] = members.map(({ spec: s, key, defs, refs }) => {
      const id = s.id ?? s.qname!;
      const ordered = [...defs].sort((a, b) => compare(a.path, b.path) || a.line - b.line || a.column - b.column);
      // In REFERENCE_ORDER, as the shard writer stores them; `pathOrderedRefs` writes the (path,
      // position) order of indexes built before it.
      const classOf = (path: string) => (spec.pathOrderedRefs ? 0 : siteClass(fileFlags.get(path) ?? 0));
      const sortedRefs = [...refs].sort((a, b) => compareInReferenceOrder(
        { ...a, endLine: a.line, siteClass: classOf(a.path) }, { ...b, endLine: b.line, siteClass: classOf(b.path) }));
      return {
        key,
        name: s.name,
        kind: s.kind,
        qname: s.qname!,
        lang: s.lang!,
        ...(defs[0] ? { path: defs[0].path } : {}),
        mods: s.mods ?? 0,
        ...(s.signature !== undefined ? { signature: s.signature } : {}),
        ...(s.doc !== undefined ? { doc: s.doc } : {}),
        ...(s.container !== undefined ? { container: keyOf(s.container) } : {}),
        ...(s.external !== undefined ? { external: s.external } : {}),
        ...(s.local ? { local: true } : {}),
        // As the indexer's shard writer stores them: each declaration's line, for all but locals.
        ...(!s.local && ordered.length ? { previews: ordered.map((d) => previewOf(fileLines.get(d.path)![d.line - 1] ?? '')) } : {}),
        // Laid out by the format's builders, as the indexer's shard writer lays them out.
        defs: defColumn(ordered, (d) => ({ pathIndex: paths.indexOf(d.path), line: d.line, column: d.column, endLine: d.line, endColumn: d.endColumn })),
        refs: refColumn(sortedRefs, (r) => ({
          pathIndex: paths.indexOf(r.path), line: r.line, column: r.column, endLine: r.line, endColumn: r.endColumn, kind: r.kind,
          fromIndex: r.from ? peerIndex.get(r.from)! : -1, confidence: r.confidence ?? 'exact',
        })),
        graph: graph.ordinalOf.get(key) ?? -1,
      };
    });
    shards.set(symbolShardName(bucket), encodeSymbolShard({ paths, pathFlags: paths.map((p) => fileFlags.get(p) ?? 0), peers, symbols }));
  }

  // File shards: every definition and reference is an occurrence of its file, sorted by position.
  const fileBuckets = new Map<number, FileRecord[]>();
  const changes: ChangeRecord[] = [];
  const unresolvedByName = new Map<string, UnresolvedSiteData[]>();
  const unresolvedPaths = new Map<string, { path: string; flags: number; lang: Language }>();
  for (const file of spec.files) {
    const lines = fileLines.get(file.path)!;
    const occurrences: { site: Site; key: string; kind: ReferenceKind }[] = [];
    for (const { key, defs, refs } of byId.values()) {
      for (const site of defs) if (site.path === file.path) occurrences.push({ site, key, kind: 'definition' });
      for (const site of refs) if (site.path === file.path) occurrences.push({ site, key, kind: site.kind });
    }
    occurrences.sort((a, b) => a.site.line - b.site.line || a.site.column - b.site.column);
    const syms: string[] = [];
    const symIndex = new Map<string, number>();
    const occ: number[] = [];
    for (const { site, key, kind } of occurrences) {
      if (!symIndex.has(key)) symIndex.set(key, syms.push(key) - 1);
      pushOccurrence(occ, { line: site.line, column: site.column, endLine: site.line, endColumn: site.endColumn, symbolIndex: symIndex.get(key)!, kind });
    }
    const record: FileRecord = {
      path: file.path,
      lang: file.lang ?? languageOfPath(file.path),
      blob: blobOf(file.text),
      bytes: new TextEncoder().encode(file.text).byteLength,
      lineLengths: lines.map((line) => line.length),
      flags: file.flags ?? 0,
      syms,
      occ,
      outline: outlineOf(file.path, byId, syms),
      problems: [],
      problemsOmitted: 0,
    };
    const unresolved = (file.unresolved ?? []).map((u) => ({ ...u, ...resolveSite(fileLines, { ...u, path: file.path }, u.name, `unresolved ${u.name}`) }));
    for (const u of unresolved) {
      const from = u.from === undefined ? undefined : byId.get(u.from)?.key;
      if (u.from !== undefined && !from) throw new Error(`memory-index: unresolved ${u.name} names from ${u.from}, which is no symbol of the fixture`);
      const sites = unresolvedByName.get(u.name) ?? unresolvedByName.set(u.name, []).get(u.name)!;
      sites.push({ path: file.path, line: u.line, column: u.column, endLine: u.line, endColumn: u.endColumn, kind: u.kind, ...(from ? { from } : {}) });
      unresolvedPaths.set(file.path, { path: file.path, flags: file.flags ?? 0, lang: file.lang ?? languageOfPath(file.path) });
    }
    changes.push({
      path: file.path, decls: file.decls ?? [],
      unresolved: file.unresolved === undefined || file.unresolved === null ? null
        : unresolvedColumn(unresolved.sort((a, b) => a.line - b.line || a.column - b.column).map((u) => ({ ...u, endLine: u.line }))),
      reexports: [],
    });
    const bucket = shardLayout.fileBucketOf(file.path);
    const list = fileBuckets.get(bucket) ?? [];
    list.push(record);
    fileBuckets.set(bucket, list);
  }
  const texts = new Map([...spec.files.map((file) => [file.path, file.text] as const), ...(spec.unindexed ?? []).map((f) => [f.path, f.text ?? ''] as const)]);
  for (let bucket = 0; bucket < shardLayout.changeBuckets; bucket++) {
    const inBucket = changes.filter((c) => shardLayout.changeBucketOf(c.path) === bucket).sort((a, b) => compare(a.path, b.path));
    shards.set(changeShardName(bucket), encodeChangeShard({ files: inBucket }));
  }
  for (const [bucket, files] of fileBuckets) {
    files.sort((a, b) => compare(a.path, b.path));
    shards.set(fileShardName(bucket), encodeFileShard({ files }));
  }
  // File texts (read_file, previews, search_text) share the files' buckets; files no indexer reads have theirs too.
  for (let bucket = 0; bucket < shardLayout.fileBuckets; bucket++) {
    const paths = [...texts.keys()].filter((path) => shardLayout.fileBucketOf(path) === bucket).sort(compare);
    if (paths.length > 0) shards.set(textShardName(bucket), encodeTextShard({ files: paths.map((path) => ({ path, text: texts.get(path)! })) }));
  }

  // Unresolved identifiers by name, each name's sites in REFERENCE_ORDER, as the shard writer lays them out.
  for (let bucket = 0; bucket < shardLayout.unresolvedBuckets; bucket++) {
    const inBucket = [...unresolvedByName].filter(([name]) => shardLayout.unresolvedBucketOf(name) === bucket);
    const sitesOf = (list: UnresolvedSiteData[]) => list.sort((a, b) => compareInReferenceOrder(
      { ...a, siteClass: siteClass(unresolvedPaths.get(a.path)!.flags) }, { ...b, siteClass: siteClass(unresolvedPaths.get(b.path)!.flags) }));
    const names = inBucket.map(([name, list]) => ({ name, sites: sitesOf(list) }));
    const paths = [...new Set(names.flatMap((n) => n.sites.map((site) => site.path)))].sort(compare).map((path) => unresolvedPaths.get(path)!);
    const peers = [...new Set(names.flatMap((n) => n.sites.flatMap((site) => (site.from ? [site.from] : []))))].sort(compare)
      .map((key): PeerRecord => {
        const peer = [...byId.values()].find((b) => b.key === key)!;
        return { key, name: peer.spec.name, kind: peer.spec.kind };
      });
    shards.set(unresolvedShardName(bucket), encodeUnresolvedShard({ paths, peers, names }));
  }

  // The name shard: searchable (non-local) symbols, sorted by lowercased name then key.
  const named = [...byId.values()]
    .filter(({ spec: s }) => !s.local)
    .sort((a, b) => compare(a.spec.name.toLowerCase(), b.spec.name.toLowerCase()) || compare(a.key, b.key));
  const namePaths = [...new Set(named.map((n) => n.defs[0]?.path ?? ''))].sort(compare);
  const names: NameShardData = {
    paths: namePaths,
    entries: named.map((n) => {
      const d = n.defs[0];
      return {
        key: n.key, name: n.spec.name, qname: n.spec.qname!, kind: n.spec.kind, lang: n.spec.lang!,
        path: namePaths.indexOf(d?.path ?? ''), line: d?.line ?? 0, column: d?.column ?? 0, endLine: d?.line ?? 0, endColumn: d?.endColumn ?? 0,
        flags: n.spec.external ? NAME_FLAG_EXTERNAL : fileFlags.get(d?.path ?? '') ?? 0,
        pkg: n.spec.external?.package ?? '',
      };
    }),
  };
  shards.set(NAMES_SHARD, encodeNameShard(names));

  // The file table: every file of the fixture, as the indexer lists every tracked one.
  const fileTable: FileTableEntry[] = [
    ...spec.files.map((f): FileTableEntry => ({ path: f.path, blob: blobOf(f.text), status: 'indexed', lang: f.lang ?? languageOfPath(f.path), flags: f.flags ?? 0 })),
    ...(spec.skipped ?? []).map((f): FileTableEntry => ({ path: f.path, blob: blobOf(`skipped\0${f.path}`), status: 'skipped', flags: 0 })),
    ...(spec.unindexed ?? []).map((f): FileTableEntry => ({ path: f.path, blob: blobOf(f.text ?? f.path), status: 'unindexed', flags: 0 })),
  ];
  shards.set(FILE_TABLE_SHARD, encodeFileTable(fileTable));
  // The text index over the file table's ordinals (its paths sorted), as the shard writer builds it.
  const ordered = [...fileTable].sort((a, b) => compare(a.path, b.path));
  const grams = collectGrams(ordered.flatMap((entry, ordinal) => (entry.status === 'skipped' ? [] : [{ ordinal, text: texts.get(entry.path)! }])));
  gramShardsOf(grams, layout.gramBucketBits).forEach((data, bucket) => shards.set(gramShardName(bucket), encodeGramShard(data)));

  // Every bucket the layout implies is listed, empty ones too, as the indexer writes them.
  for (const name of impliedShardNames(layout)) {
    if (shards.has(name)) continue;
    if (name.startsWith('symbols/')) shards.set(name, encodeSymbolShard({ paths: [], pathFlags: [], peers: [], symbols: [] }));
    else if (name.startsWith('files/')) shards.set(name, encodeFileShard({ files: [] }));
    else if (name.startsWith('changes/')) shards.set(name, encodeChangeShard({ files: [] }));
    else shards.set(name, encodeTextShard({ files: [] }));
  }
  const sorted = new Map([...shards].sort(([a], [b]) => compare(a, b)));
  const languages: Manifest['languages'] = {};
  for (const file of spec.files) {
    const lang = file.lang ?? languageOfPath(file.path);
    // As the indexer reports them: Java and Kotlin are resolved by scope and imports, not by a compiler.
    languages[lang] = { files: (languages[lang]?.files ?? 0) + 1, precision: lang === 'java' || lang === 'kotlin' ? 'syntactic' : 'compiler' };
  }
  const manifest: Manifest = {
    formatVersion: FORMAT_VERSION,
    repo,
    commit,
    commitDate: '2025-06-01T12:00:00+02:00',
    builtAt: '2025-06-01T10:05:00.000Z',
    indexer: { name: 'memory-index', version: '0.0.0' },
    parsers: { typescript: '0.0.0' },
    layout,
    counts: {
      files: spec.files.length,
      texts: texts.size,
      symbols: byId.size,
      references: [...byId.values()].reduce((sum, s) => sum + s.refs.length, 0),
      edges: graphNodes.reduce((sum, n) => sum + n.edges.length, 0) / 2,
      unresolved: [...unresolvedByName.values()].reduce((sum, list) => sum + list.length, 0),
    },
    languages: Object.fromEntries(LANGUAGES.filter((l) => languages[l]).map((l) => [l, languages[l]])),
    skipped: spec.skipped ?? [],
    warnings: spec.warnings ?? [],
    shards: Object.fromEntries([...sorted].map(([name, bytes]) => [name, { sha256: sha256Hex(bytes), bytes: bytes.byteLength, records: recordsOf(openShard(name, bytes)) }])),
  };
  return { manifest, shards: sorted, keys: new Map([...byId].map(([id, { key }]) => [id, key])) };
}

/** A stand-in for a git blob id (40 hex): equal texts, equal ids, as git's are. */
function blobOf(text: string): string {
  return sha256Hex(new TextEncoder().encode(text)).slice(0, 40);
}

/** Outline of one file: its declarations nested by container (name ranges stand in for whole declarations). */
function outlineOf(
  path: string, byId: Map<string, { spec: SymbolSpec; key: string; defs: Site[] }>, syms: string[],
): OutlineNode[] {
  const declared = [...byId].filter(([, s]) => !s.spec.local && s.defs[0]?.path === path);
  const declaredIds = new Set(declared.map(([id]) => id));
  const children = new Map<string | undefined, string[]>();
  for (const [id, s] of declared) {
    const parent = s.spec.container !== undefined && declaredIds.has(s.spec.container) ? s.spec.container : undefined;
    const list = children.get(parent) ?? [];
    list.push(id);
    children.set(parent, list);
  }
  const symIndex = new Map(syms.map((key, i) => [key, i]));
  const node = (id: string): OutlineNode => {
    const { spec: s, key, defs } = byId.get(id)!;
    const d = defs[0]!;
    return {
      name: s.name, kind: s.kind, sym: symIndex.get(key) ?? -1, range: [d.line, d.column, d.line, d.endColumn], at: [d.line, d.column],
      children: (children.get(id) ?? []).map(node),
    };
  };
  return (children.get(undefined) ?? []).map(node);
}

/**
 * A name (`open`) that two functions of the repository, one of its tests and two externals share,
 * declared so that neither the name shard's order (by key) nor the declaration order is the order
 * candidates are listed in.
 */
export function sharedNameSpec(): MemoryIndexSpec {
  return {
    files: [
      { path: 'src/db.ts', text: 'export function connect() {}\nexport function open() {}' },
      { path: 'src/files.ts', text: 'export function open() {}' },
      { path: '__tests__/open.test.ts', flags: 1, text: 'function open() {}' },
      { path: 'src/app.ts', text: "import { open as openFile } from 'node:fs';\nexport const w = window.open;\nopenFile('a', () => {});" },
    ],
    symbols: [
      { id: 'fs.open', name: 'open', kind: 'function', external: { package: '@types/node', version: '20.19.43' }, defs: [] },
      { id: 'window.open', name: 'open', qname: 'Window.open', kind: 'method', external: { package: 'typescript/lib' }, defs: [] },
      { id: 'files.open', name: 'open', kind: 'function', defs: [{ path: 'src/files.ts', line: 1 }] },
      { id: 'db.open', name: 'open', kind: 'function', defs: [{ path: 'src/db.ts', line: 2 }] },
      { id: 'test.open', name: 'open', kind: 'function', defs: [{ path: '__tests__/open.test.ts', line: 1 }] },
    ],
  };
}

/**
 * A ShardSource over a Map: what the runner's directory source and the worker's R2 source are,
 * minus the I/O. Records which shards were fetched, so tests can see what the cache spared.
 */
export class MemoryShardSource implements ShardSource {
  readonly where: string;
  readonly reads: string[] = [];
  private readonly manifestText: string;
  private readonly shards: ReadonlyMap<string, Uint8Array>;

  constructor(manifestText: string, shards: ReadonlyMap<string, Uint8Array>, where = 'memory://index') {
    this.manifestText = manifestText;
    this.shards = shards;
    this.where = where;
  }

  static of(index: MemoryIndex): MemoryShardSource {
    return new MemoryShardSource(JSON.stringify(index.manifest), index.shards, `memory://${index.manifest.repo}@${shortCommit(index.manifest.commit)}`);
  }

  async readManifest(): Promise<string> {
    return this.manifestText;
  }

  async readShard(name: string): Promise<Uint8Array | undefined> {
    this.reads.push(name);
    return this.shards.get(name);
  }
}

export async function openMemoryIndex(index: MemoryIndex, cache = new ShardCache(64 * 1024 * 1024)): Promise<IndexReader> {
  return IndexReader.open(MemoryShardSource.of(index), cache);
}

const ORDER_SERVICE = `import { OrderRepository } from './order-repository';

export class OrderService {
  constructor(private readonly repository: OrderRepository) {}

  submit(order: string): void {
    this.repository.save(order);
  }
}
`;

const ORDER_REPOSITORY = `export interface OrderRepository {
  save(order: string): void;
}

export class OrderRepositoryImpl implements OrderRepository {
  save(order: string): void {}
}
`;

const IMAGE_CACHE = `export class ImageCache {
  save(key: string): void {}
}

export function createImageCache(): ImageCache {
  return new ImageCache();
}
`;

const MAIN = `import { readFileSync } from 'node:fs';
import { OrderService } from './orders/order-service';
import { OrderRepositoryImpl } from './orders/order-repository';

export function main(): void {
  const service = new OrderService(new OrderRepositoryImpl());
  service.submit(readFileSync('order.json', 'utf8'));
}
`;

const ORDER_TEST = `import { OrderService } from '../src/orders/order-service';

export class OrderStub extends OrderService {}
`;

const ORDER_DTO = `export interface OrderDto {}
`;

/**
 * A small shop: OrderService calls OrderRepository.save; three methods are named `save`
 * (OrderRepository, OrderRepositoryImpl, ImageCache), so the name is ambiguous; a test file
 * (OrderStub), a generated file (OrderDto), an external function (readFileSync) and a local
 * (service) cover every filter.
 */
export function shopSpec(overrides: Partial<MemoryIndexSpec> = {}): MemoryIndexSpec {
  const svc = 'src/orders/order-service.ts';
  const repo = 'src/orders/order-repository.ts';
  const img = 'src/images/image-cache.ts';
  const main = 'src/main.ts';
  const test = 'test/order-service.test.ts';
  const dto = 'src/generated/order-dto.ts';
  return {
    files: [
      { path: svc, text: ORDER_SERVICE },
      { path: repo, text: ORDER_REPOSITORY },
      { path: img, text: IMAGE_CACHE },
      { path: main, text: MAIN },
      { path: test, text: ORDER_TEST, flags: 1 },
      { path: dto, text: ORDER_DTO, flags: 2 },
    ],
    symbols: [
      {
        name: 'OrderService', kind: 'class', mods: 1, defs: [{ path: svc, line: 3 }],
        refs: [
          { path: main, line: 2, kind: 'import' },
          { path: main, line: 6, kind: 'new', from: 'main' },
          { path: test, line: 1, kind: 'import' },
          { path: test, line: 3, kind: 'inherit', from: 'OrderStub' },
        ],
      },
      {
        name: 'submit', qname: 'OrderService.submit', kind: 'method', container: 'OrderService', defs: [{ path: svc, line: 6 }],
        refs: [{ path: main, line: 7, kind: 'call', from: 'main' }],
      },
      {
        name: 'OrderRepository', kind: 'interface', mods: 1, defs: [{ path: repo, line: 1 }],
        refs: [
          { path: svc, line: 1, kind: 'import' },
          { path: svc, line: 4, kind: 'type', from: 'OrderService' },
          { path: repo, line: 5, kind: 'inherit', from: 'OrderRepositoryImpl' },
        ],
      },
      {
        name: 'save', qname: 'OrderRepository.save', kind: 'method', container: 'OrderRepository', defs: [{ path: repo, line: 2 }],
        refs: [{ path: svc, line: 7, kind: 'call', from: 'OrderService.submit' }],
      },
      {
        name: 'OrderRepositoryImpl', kind: 'class', mods: 1, defs: [{ path: repo, line: 5 }],
        refs: [
          { path: main, line: 3, kind: 'import' },
          { path: main, line: 6, kind: 'new', from: 'main' },
        ],
      },
      { name: 'save', qname: 'OrderRepositoryImpl.save', kind: 'method', container: 'OrderRepositoryImpl', defs: [{ path: repo, line: 6 }] },
      {
        name: 'ImageCache', kind: 'class', mods: 1, defs: [{ path: img, line: 1 }],
        refs: [
          { path: img, line: 5, kind: 'type', from: 'createImageCache' },
          { path: img, line: 6, kind: 'new', from: 'createImageCache' },
        ],
      },
      { name: 'save', qname: 'ImageCache.save', kind: 'method', container: 'ImageCache', defs: [{ path: img, line: 2 }] },
      { name: 'createImageCache', kind: 'function', mods: 1, defs: [{ path: img, line: 5 }] },
      { name: 'main', kind: 'function', mods: 1, defs: [{ path: main, line: 5 }] },
      {
        name: 'service', kind: 'local', local: true, container: 'main', defs: [{ path: main, line: 6 }],
        refs: [{ path: main, line: 7, kind: 'read', from: 'main' }],
      },
      {
        name: 'readFileSync', kind: 'function', external: { package: '@types/node', version: '20.19.43' }, defs: [],
        refs: [
          { path: main, line: 1, kind: 'import' },
          { path: main, line: 7, kind: 'call', from: 'main' },
        ],
      },
      { name: 'OrderStub', kind: 'class', mods: 1, defs: [{ path: test, line: 3 }] },
      { name: 'OrderDto', kind: 'interface', mods: 1, defs: [{ path: dto, line: 1 }] },
    ],
    ...overrides,
  };
}
