// Symbol shards: the symbols of one key bucket with their declarations and references, and the
// peers (other symbols) those name; a symbol's edges are in the graph shards (graph-shard.ts), its
// record names its node there. Stored column by column: each field of the bucket's symbols together
// (names with names, signatures with signatures, reference lists with reference lists), which
// compresses a tenth better than a record after record and reads in place: the keys are one string
// searched by bisection, and a symbol's record is assembled from its slice of each column when asked
// for (references as delta varints, unpacked when first read). A cold worker answering about one
// symbol decodes one symbol, not the 300 around it.
import { encodeShard } from './codec.ts';
import { Column, corrupt, packColumn, type StoredColumn } from './packed-records.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { LANGUAGES, SYMBOL_KINDS, type ExternalOrigin, type PeerRecord, type SymbolRecord } from './records.ts';
import { packInts, unpackInts, type DeltaBase } from './varint.ts';

/**
 * What a writer builds: symbols sorted by key; indexes in defs and refs point into paths and peers,
 * and every symbol's container is among the peers (stored as its index there).
 */
export interface SymbolShardData {
  paths: string[];
  /** FILE_FLAGS of each path (parallel to paths), so references filter by test/generated in place. */
  pathFlags: number[];
  peers: PeerRecord[];
  symbols: SymbolRecord[];
}

const DEF_BASES: DeltaBase[] = ['prev', 'prev', 'none', 1, 2];
const REF_BASES: DeltaBase[] = ['prev', 'prev', 'none', 1, 2, 'none', 'none', 'none'];
const REF_DECL_BASES: DeltaBase[] = ['none'];
/** Previews of one symbol's declarations, joined: a source line holds no line break (splitLines). */
const PREVIEW_SEPARATOR = '\n';

/** A symbol shard as stored: the bucket's paths and peers, then one column per field, each parallel to the keys. */
interface StoredSymbolShard {
  v: 6;
  paths: string[];
  pathFlags: Uint8Array;
  /** Keys of the symbols, KEY_LENGTH characters each, sorted. */
  keys: string;
  peerKeys: string;
  peerNames: string[];
  peerKinds: Uint8Array;
  kinds: Uint8Array;
  langs: Uint8Array;
  locals: Uint8Array;
  /** MODIFIERS bits, varints. */
  mods: Uint8Array;
  /** Graph node ordinals (-1: none), zigzag varints. */
  graph: Uint8Array;
  names: StoredColumn;
  qnames: StoredColumn;
  recordPaths: StoredColumn;
  signatures: StoredColumn;
  docs: StoredColumn;
  /** Per symbol its container's index among the peers + 1 (0: none), varints. */
  containers: Uint8Array;
  externals: (ExternalOrigin | null)[];
  previews: StoredColumn;
  defs: StoredColumn;
  refs: StoredColumn;
  refDecls: StoredColumn;
  callSignatures: StoredColumn;
}

const TEXT_COLUMNS = ['names', 'qnames', 'recordPaths', 'signatures', 'docs', 'previews'] as const;
const INT_COLUMNS = ['defs', 'refs', 'refDecls', 'callSignatures'] as const;

export function encodeSymbolShard(data: SymbolShardData): Uint8Array {
  const symbols = data.symbols;
  const peerIndex = new Map(data.peers.map((p, i) => [p.key, i]));
  const containerOf = (s: SymbolRecord) => {
    if (s.container === undefined) return 0;
    const index = peerIndex.get(s.container);
    if (index === undefined) throw new Error(`encodeSymbolShard: the container ${s.container} of ${s.key} is none of the shard's peers`);
    return index + 1;
  };
  const stored: StoredSymbolShard = {
    v: 6,
    paths: data.paths,
    pathFlags: Uint8Array.from(data.pathFlags),
    keys: symbols.map((s) => s.key).join(''),
    kinds: Uint8Array.from(symbols, (s) => SYMBOL_KINDS.indexOf(s.kind)),
    langs: Uint8Array.from(symbols, (s) => LANGUAGES.indexOf(s.lang)),
    locals: Uint8Array.from(symbols, (s) => (s.local ? 1 : 0)),
    mods: packInts(symbols.map((s) => s.mods), ['none']),
    graph: packInts(symbols.map((s) => s.graph), ['none']),
    names: packColumn(symbols.map((s) => s.name)),
    qnames: packColumn(symbols.map((s) => s.qname)),
    recordPaths: packColumn(symbols.map((s) => s.path)),
    signatures: packColumn(symbols.map((s) => s.signature)),
    docs: packColumn(symbols.map((s) => s.doc)),
    containers: packInts(symbols.map(containerOf), ['none']),
    externals: symbols.map((s) => s.external ?? null),
    previews: packColumn(symbols.map((s) => (s.previews?.length ? s.previews.join(PREVIEW_SEPARATOR) : null))),
    defs: packColumn(symbols.map((s) => packInts(s.defs, DEF_BASES))),
    refs: packColumn(symbols.map((s) => packInts(s.refs, REF_BASES))),
    refDecls: packColumn(symbols.map((s) => s.refDecls && packInts(s.refDecls, REF_DECL_BASES))),
    callSignatures: packColumn(symbols.map((s) => s.signatures && packInts(s.signatures, DEF_BASES))),
    peerKeys: data.peers.map((p) => p.key).join(''),
    peerNames: data.peers.map((p) => p.name),
    peerKinds: Uint8Array.from(data.peers.map((p) => SYMBOL_KINDS.indexOf(p.kind))),
  };
  return encodeShard(stored);
}

type Columns = Record<(typeof TEXT_COLUMNS)[number] | (typeof INT_COLUMNS)[number], Column>;

/** A decoded symbol shard: keys and peers are read in place, a record assembled from the columns on demand. */
export class SymbolShard {
  readonly paths: string[];
  readonly pathFlags: Uint8Array;
  readonly size: number;
  private readonly name: string;
  private readonly stored: StoredSymbolShard;
  private readonly columns: Columns;
  private readonly mods: Int32Array;
  private readonly graph: Int32Array;
  private readonly containers: Int32Array;

  constructor(name: string, value: unknown) {
    const stored = value as StoredSymbolShard;
    if (!isStored(stored)) throw corrupt(name, 'is not a version 6 symbol shard');
    this.name = name;
    this.stored = stored;
    this.paths = stored.paths;
    this.pathFlags = stored.pathFlags;
    const size = (this.size = stored.keys.length / KEY_LENGTH);
    this.mods = unpackInts(stored.mods, ['none'], name);
    this.graph = unpackInts(stored.graph, ['none'], name);
    this.containers = unpackInts(stored.containers, ['none'], name);
    if (stored.peerKeys.length !== stored.peerNames.length * KEY_LENGTH
      || stored.peerKinds.length !== stored.peerNames.length || stored.pathFlags.length !== stored.paths.length
      || [stored.kinds, stored.langs, stored.locals, this.mods, this.graph, this.containers, stored.externals].some((column) => column.length !== size)) {
      throw corrupt(name, 'has columns of different lengths');
    }
    this.columns = Object.fromEntries([...TEXT_COLUMNS, ...INT_COLUMNS].map((c) => [c, new Column(name, stored[c], size)])) as Columns;
  }

  key(index: number): string {
    return this.stored.keys.slice(index * KEY_LENGTH, (index + 1) * KEY_LENGTH);
  }

  /** Index of the symbol with this key, or -1; keys are sorted, so this is a binary search in place. */
  indexOf(key: string): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const candidate = this.key(mid);
      if (candidate === key) return mid;
      if (candidate < key) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  find(key: string): SymbolRecord | undefined {
    const index = this.indexOf(key);
    return index < 0 ? undefined : this.record(index);
  }

  record(index: number): SymbolRecord {
    const { stored, columns: c, name } = this;
    const kind = SYMBOL_KINDS[stored.kinds[index]!];
    const lang = LANGUAGES[stored.langs[index]!];
    const symbolName = c.names.text(index);
    const qname = c.qnames.text(index);
    const defs = c.defs.bytes(index);
    const refBytes = c.refs.bytes(index);
    const graph = this.graph[index]!;
    const container = this.containers[index]! - 1;
    if (!kind || !lang || symbolName === null || qname === null || !defs || !refBytes || graph < -1 || container < -1 || container >= this.peerCount) {
      throw corrupt(name, 'has a malformed record');
    }
    const path = c.recordPaths.text(index);
    const signature = c.signatures.text(index);
    const doc = c.docs.text(index);
    const external = stored.externals[index];
    const previews = c.previews.text(index);
    const refDecls = c.refDecls.bytes(index);
    const signatures = c.callSignatures.bytes(index);
    // References are unpacked when first read: a definition or a summary needs none, and a much-used
    // symbol has tens of thousands of them.
    let refs: Int32Array | undefined;
    return {
      key: this.key(index),
      name: symbolName,
      kind,
      qname,
      lang,
      ...(path !== null ? { path } : {}),
      mods: this.mods[index]!,
      ...(signature !== null ? { signature } : {}),
      ...(doc !== null ? { doc } : {}),
      ...(container >= 0 ? { container: this.peerKey(container) } : {}),
      ...(external ? { external } : {}),
      ...(stored.locals[index] ? { local: true } : {}),
      defs: unpackInts(defs, DEF_BASES, name),
      ...(previews !== null ? { previews: previews.split(PREVIEW_SEPARATOR) } : {}),
      ...(refDecls ? { refDecls: unpackInts(refDecls, REF_DECL_BASES, name) } : {}),
      ...(signatures ? { signatures: unpackInts(signatures, DEF_BASES, name) } : {}),
      graph,
      get refs() {
        return (refs ??= unpackInts(refBytes, REF_BASES, name));
      },
    };
  }

  *records(): Generator<SymbolRecord> {
    for (let i = 0; i < this.size; i++) yield this.record(i);
  }

  get peerCount(): number {
    return this.stored.peerNames.length;
  }

  peer(index: number): PeerRecord {
    return {
      key: this.peerKey(index),
      name: this.stored.peerNames[index]!,
      kind: SYMBOL_KINDS[this.stored.peerKinds[index]!]!,
    };
  }

  private peerKey(index: number): string {
    return this.stored.peerKeys.slice(index * KEY_LENGTH, (index + 1) * KEY_LENGTH);
  }
}

function isStored(s: StoredSymbolShard): boolean {
  return typeof s === 'object' && s !== null && s.v === 6 && Array.isArray(s.paths) && s.pathFlags instanceof Uint8Array
    && typeof s.keys === 'string' && s.keys.length % KEY_LENGTH === 0 && s.kinds instanceof Uint8Array && s.langs instanceof Uint8Array
    && s.locals instanceof Uint8Array && s.mods instanceof Uint8Array && s.containers instanceof Uint8Array && s.graph instanceof Uint8Array && Array.isArray(s.externals)
    && typeof s.peerKeys === 'string' && Array.isArray(s.peerNames) && s.peerKinds instanceof Uint8Array;
}
