// Symbol shards: the symbols of one key bucket with their declarations and references, and the
// peers (other symbols) those name; a symbol's edges are in the graph shards (graph-shard.ts), its
// record names its node there. Stored so that a reader decodes only what one question
// needs: the keys are one string searched in place, and each symbol is its own small MessagePack
// record (references as delta varints) decoded when asked for. A cold worker answering about one
// symbol pays for one record, not for the 500 around it.
import { encodeShard } from './codec.ts';
import { corrupt, PackedRecords, packRecords, type PackedRecordColumns } from './packed-records.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { LANGUAGES, SYMBOL_KINDS, type PeerRecord, type SymbolRecord } from './records.ts';
import { packInts, unpackInts, type DeltaBase } from './varint.ts';

/** What a writer builds: symbols sorted by key; indexes in defs and refs point into paths and peers. */
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

type StoredRecord = [
  name: string, kind: number, qname: string, lang: number, path: string | null, mods: number, signature: string | null,
  doc: string | null, container: string | null, external: SymbolRecord['external'] | null, local: 0 | 1,
  defs: Uint8Array, refs: Uint8Array, graph: number, previews: string[] | null, refDecls: Uint8Array | null,
  signatures: Uint8Array | null,
];

interface StoredSymbolShard extends PackedRecordColumns {
  v: 5;
  paths: string[];
  pathFlags: Uint8Array;
  /** Keys of the symbols, KEY_LENGTH characters each, sorted. */
  keys: string;
  peerKeys: string;
  peerNames: string[];
  peerKinds: Uint8Array;
}

export function encodeSymbolShard(data: SymbolShardData): Uint8Array {
  const records = data.symbols.map((s): StoredRecord => [
    s.name, SYMBOL_KINDS.indexOf(s.kind), s.qname, LANGUAGES.indexOf(s.lang), s.path ?? null, s.mods, s.signature ?? null,
    s.doc ?? null, s.container ?? null, s.external ?? null, s.local ? 1 : 0,
    packInts(s.defs, DEF_BASES), packInts(s.refs, REF_BASES), s.graph, s.previews ?? null,
    s.refDecls ? packInts(s.refDecls, REF_DECL_BASES) : null, s.signatures ? packInts(s.signatures, DEF_BASES) : null,
  ]);
  const stored: StoredSymbolShard = {
    v: 5,
    paths: data.paths,
    pathFlags: Uint8Array.from(data.pathFlags),
    keys: data.symbols.map((s) => s.key).join(''),
    ...packRecords(records),
    peerKeys: data.peers.map((p) => p.key).join(''),
    peerNames: data.peers.map((p) => p.name),
    peerKinds: Uint8Array.from(data.peers.map((p) => SYMBOL_KINDS.indexOf(p.kind))),
  };
  return encodeShard(stored);
}

/** A decoded symbol shard: keys and peers are read in place, records decoded on demand. */
export class SymbolShard {
  readonly paths: string[];
  readonly pathFlags: Uint8Array;
  readonly size: number;
  private readonly name: string;
  private readonly stored: StoredSymbolShard;
  private readonly packed: PackedRecords;

  constructor(name: string, value: unknown) {
    const stored = value as StoredSymbolShard;
    if (!isStored(stored)) throw corrupt(name, 'is not a version 5 symbol shard');
    this.name = name;
    this.stored = stored;
    this.paths = stored.paths;
    this.pathFlags = stored.pathFlags;
    this.size = stored.keys.length / KEY_LENGTH;
    if (stored.peerKeys.length !== stored.peerNames.length * KEY_LENGTH
      || stored.peerKinds.length !== stored.peerNames.length || stored.pathFlags.length !== stored.paths.length) {
      throw corrupt(name, 'has columns of different lengths');
    }
    this.packed = new PackedRecords(name, stored, this.size);
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
    const r = this.packed.get(index, 17) as StoredRecord;
    if (r[14] !== null && !Array.isArray(r[14])) throw corrupt(this.name, 'has a malformed record');
    if ((r[15] !== null && !(r[15] instanceof Uint8Array)) || (r[16] !== null && !(r[16] instanceof Uint8Array)) || !Number.isInteger(r[13]) || r[13] < -1) {
      throw corrupt(this.name, 'has a malformed record');
    }
    const refDecls = r[15] === null ? undefined : unpackInts(r[15], REF_DECL_BASES, this.name);
    // References are unpacked when first read: a definition or a summary needs none, and a much-used
    // symbol has tens of thousands of them.
    const name = this.name;
    let refs: Int32Array | undefined;
    return {
      key: this.key(index),
      name: r[0],
      kind: SYMBOL_KINDS[r[1]]!,
      qname: r[2],
      lang: LANGUAGES[r[3]]!,
      ...(r[4] !== null ? { path: r[4] } : {}),
      mods: r[5],
      ...(r[6] !== null ? { signature: r[6] } : {}),
      ...(r[7] !== null ? { doc: r[7] } : {}),
      ...(r[8] !== null ? { container: r[8] } : {}),
      ...(r[9] !== null ? { external: r[9] } : {}),
      ...(r[10] ? { local: true } : {}),
      defs: unpackInts(r[11], DEF_BASES, this.name),
      ...(r[14] !== null ? { previews: r[14] } : {}),
      ...(refDecls ? { refDecls } : {}),
      ...(r[16] !== null ? { signatures: unpackInts(r[16], DEF_BASES, this.name) } : {}),
      graph: r[13],
      get refs() {
        return (refs ??= unpackInts(r[12], REF_BASES, name));
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
      key: this.stored.peerKeys.slice(index * KEY_LENGTH, (index + 1) * KEY_LENGTH),
      name: this.stored.peerNames[index]!,
      kind: SYMBOL_KINDS[this.stored.peerKinds[index]!]!,
    };
  }
}

function isStored(s: StoredSymbolShard): boolean {
  return typeof s === 'object' && s !== null && s.v === 5 && Array.isArray(s.paths) && s.pathFlags instanceof Uint8Array
    && typeof s.keys === 'string' && s.keys.length % KEY_LENGTH === 0 && s.lengths instanceof Uint8Array
    && s.records instanceof Uint8Array && typeof s.peerKeys === 'string' && Array.isArray(s.peerNames) && s.peerKinds instanceof Uint8Array;
}
