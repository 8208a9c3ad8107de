// One commit's index, opened from a shard source: checks the manifest (parseManifest), verifies each
// shard's checksum before decoding it and checks every shard it hands out against its manifest entry
// (checkShardHolds), and caches decoded shards (symbol and file shards as views that decode one
// record at a time). Reads only the shards a question needs.
import {
  checkShardHolds, decodeInflatedShard, decodeShard, manifestSha256, NAMES_SHARD, parseManifest,
  SextantError, sha256Hex, ShardLayout, shardView, type FileShard, type SymbolShard,
  NameShard, FILE_TABLE_SHARD, FileTable, graphBucketOf, graphRecords, graphShardName, graphStarts, type GraphNode, type GraphShard, type UnresolvedShard, type UnresolvedSite, type TextShard, type ChangeRecord, type ChangeShard, type FileRecord, type Manifest, type ShardEntry, type SymbolRecord,
} from '@sextant/format';
import type { ShardCache } from './shard-cache.ts';
import { checksumMismatch, type ShardSource } from './shard-source.ts';

export interface LoadedSymbol {
  record: SymbolRecord;
  shard: SymbolShard;
}

export class IndexReader {
  readonly manifest: Manifest;
  /** Which shard holds a key, path or name under this index's manifest. */
  readonly layout: ShardLayout;
  private readonly source: ShardSource;
  private readonly cache: ShardCache;
  /** Names of the shards this reader fetched or found cached, for logs. */
  readonly shardsRead: string[] = [];
  /** Names of the shards this reader had to fetch from its source (not in the cache), for logs. */
  readonly shardsFetched: string[] = [];

  /** First ordinal of each graph shard (graphStarts), derived from the manifest when first needed. */
  private starts?: number[];
  /** The graph shards and nodes this reader has read: a reader answers one call, so these stay small. */
  private readonly graphShards = new Map<string, GraphShard>();
  private readonly nodes = new Map<number, GraphNode>();

  private constructor(source: ShardSource, manifest: Manifest, cache: ShardCache) {
    this.source = source;
    this.manifest = manifest;
    this.layout = new ShardLayout(manifest.layout);
    this.cache = cache;
  }

  static async open(source: ShardSource, cache: ShardCache): Promise<IndexReader> {
    const text = await source.readManifest();
    const recorded = await source.recordedManifestSha256?.();
    const manifest = parseManifest(text, source.where, recorded && { ...recorded, actual: manifestSha256(text) });
    return new IndexReader(source, manifest, cache);
  }

  /** A reader over a manifest already parsed with parseManifest (the worker keeps them per isolate). */
  static fromManifest(source: ShardSource, manifest: Manifest, cache: ShardCache): IndexReader {
    return new IndexReader(source, manifest, cache);
  }

  get repo(): string {
    return this.manifest.repo;
  }

  get commit(): string {
    return this.manifest.commit;
  }

  /** Fetches several shards at once (one round trip to the store), for callers that know them all. */
  async prefetch(names: string[]): Promise<void> {
    await Promise.all(names.map((name) => this.shard(name)));
  }

  async shard<T>(name: string): Promise<T | undefined> {
    const entry = this.manifest.shards[name];
    if (!entry) return undefined; // parseManifest saw every shard the layout implies listed: not one of them
    this.shardsRead.push(name);
    const cached = this.cache.get<T>(entry.sha256);
    if (cached) {
      checkShardHolds(name, cached, entry, this.manifest, this.source.where);
      return cached;
    }
    this.shardsFetched.push(name);
    const { value, rawBytes } = await this.fetchAndDecode<T>(name, entry);
    checkShardHolds(name, value, entry, this.manifest, this.source.where);
    this.cache.set(entry.sha256, value, rawBytes);
    return value;
  }

  private async fetchAndDecode<T>(name: string, entry: ShardEntry): Promise<{ value: T; rawBytes: number }> {
    if (this.source.readInflatedShard) {
      const raw = await this.source.readInflatedShard(name, entry);
      if (!raw) throw this.missing(name, entry);
      return { value: shardView<T>(name, decodeInflatedShard(name, raw)), rawBytes: raw.byteLength };
    }
    const bytes = await this.source.readShard(name, entry);
    if (!bytes) throw this.missing(name, entry);
    if (bytes.byteLength !== entry.bytes || sha256Hex(bytes) !== entry.sha256) throw checksumMismatch(name, this.source.where, entry, bytes);
    const { value, rawBytes } = decodeShard(name, bytes);
    return { value: shardView<T>(name, value), rawBytes };
  }

  private missing(name: string, entry: ShardEntry): SextantError {
    const object = this.source.objectOf?.(entry);
    return new SextantError('INDEX_CORRUPT',
      `Shard ${name} (${object ?? entry.sha256}) listed in the manifest of ${this.source.where} is missing.`,
      'Publish the index for this commit again, or rebuild it with `indexer build`.', { shard: name, ...(object ? { object } : {}) });
  }

  symbolShardNameOf(key: string): string {
    return this.layout.symbolShardOf(key);
  }

  textShardNameOf(path: string): string {
    return this.layout.textShardOf(path);
  }

  changeShardNameOf(path: string): string {
    return this.layout.changeShardOf(path);
  }

  /** The gram shard holding a gram's posting list (gram-shard.ts). */
  gramShardNameOf(gram: number): string {
    return this.layout.gramShardOf(gram);
  }

  /** The file's change record (declarations, unresolved identifiers, line hashes). */
  async change(path: string): Promise<ChangeRecord | undefined> {
    const shard = await this.shard<ChangeShard>(this.changeShardNameOf(path));
    return shard?.file(path);
  }

  unresolvedShardNameOf(name: string): string {
    return this.layout.unresolvedShardOf(name);
  }

  /** Identifiers named `name` that the indexer resolved to nothing, in REFERENCE_ORDER. */
  async unresolvedNamed(name: string): Promise<UnresolvedSite[]> {
    const shard = await this.shard<UnresolvedShard>(this.unresolvedShardNameOf(name));
    return shard?.sitesNamed(name) ?? [];
  }

  /** The file's text at the indexed commit. */
  async text(path: string): Promise<string | undefined> {
    const shard = await this.shard<TextShard>(this.textShardNameOf(path));
    return shard?.text(path);
  }

  fileShardNameOf(path: string): string {
    return this.layout.fileShardOf(path);
  }

  /** The graph shard holding node `ordinal`; INDEX_CORRUPT when no graph shard does (a record naming a node the graph lacks). */
  graphShardNameOf(ordinal: number): string {
    this.starts ??= graphStarts(graphRecords(this.manifest));
    const bucket = graphBucketOf(ordinal, this.starts);
    if (bucket < 0) {
      throw new SextantError('INDEX_CORRUPT', `Graph node ${ordinal} of ${this.source.where} is in no graph shard: the graph holds ${this.starts[this.starts.length - 1]} nodes.`,
        'Rebuild the index for this commit with `indexer build` and publish it again.', { ordinal });
    }
    return graphShardName(bucket);
  }

  /**
   * Graph nodes by ordinal, their shards fetched together (one round); in the order asked. A walk
   * asks for thousands of nodes in a handful of shards: each shard is looked up (and checked) once
   * per reader, and a node once.
   */
  async graphNodes(ordinals: readonly number[]): Promise<{ node: GraphNode; shard: GraphShard }[]> {
    const names = ordinals.map((o) => this.graphShardNameOf(o));
    const missing = [...new Set(names)].filter((name) => !this.graphShards.has(name));
    if (missing.length) {
      const shards = await Promise.all(missing.map((name) => this.shard<GraphShard>(name)));
      missing.forEach((name, i) => this.graphShards.set(name, shards[i]!));
    }
    return ordinals.map((ordinal, i) => {
      const shard = this.graphShards.get(names[i]!)!;
      let node = this.nodes.get(ordinal);
      if (!node) this.nodes.set(ordinal, (node = shard.node(ordinal)));
      return { node, shard };
    });
  }

  async symbol(key: string): Promise<LoadedSymbol | undefined> {
    const shard = await this.shard<SymbolShard>(this.symbolShardNameOf(key));
    const record = shard?.find(key);
    return shard && record ? { record, shard } : undefined;
  }

  async file(path: string): Promise<FileRecord | undefined> {
    const shard = await this.shard<FileShard>(this.fileShardNameOf(path));
    return shard?.file(path);
  }

  /**
   * Names this build of the index: its commit, when it was built and its file table. A value derived
   * from shards is keyed by it (derived), so an index rebuilt in place never answers from another build's.
   */
  get buildKey(): string {
    return `${this.manifest.commit}:${this.manifest.builtAt}:${this.manifest.shards[FILE_TABLE_SHARD]?.sha256 ?? ''}`;
  }

  /**
   * A value computed from shards (of this index and maybe others), kept in the shard cache under
   * `key`, which must name every build it depends on (buildKey). A cache hit reads no shard.
   */
  async derived<T>(key: string, compute: () => Promise<{ value: T; bytes: number }>): Promise<T> {
    const cached = this.cache.get<T>(`derived:${key}`);
    if (cached !== undefined) return cached;
    const { value, bytes } = await compute();
    this.cache.set(`derived:${key}`, value, bytes);
    return value;
  }

  async fileTable(): Promise<FileTable> {
    return (await this.shard<FileTable>(FILE_TABLE_SHARD)) ?? FileTable.empty();
  }

  async names(): Promise<NameShard> {
    return (await this.shard<NameShard>(NAMES_SHARD)) ?? NameShard.empty();
  }
}
