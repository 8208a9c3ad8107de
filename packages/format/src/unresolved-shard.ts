// Unresolved shards: every identifier in a reference position that the indexer resolved to nothing
// (a name no declaration matched, a member of a receiver whose type is unknown, a name matched by
// too many declarations to say which), bucketed by the identifier's name. A find_references or a
// rename asks for one name and reads one shard: the sites that might be references the index could
// not decide, so that an answer can say how many there are instead of claiming to be complete.
import { encodeShard } from './codec.ts';
import { corrupt } from './packed-records.ts';
import { LANGUAGES, REFERENCE_KINDS, SYMBOL_KINDS, type Language, type PeerRecord, type ReferenceKind } from './records.ts';
import { base32, sha256Bytes } from './hash.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { packInts, unpackInts, type DeltaBase } from './varint.ts';

/** One unresolved identifier, as a writer gives it. */
export interface UnresolvedSiteData {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  kind: ReferenceKind;
  /** Key of the innermost enclosing symbol that holds code, when there is one. */
  from?: string;
}

/** What a writer builds: the bucket's names, each with its sites in REFERENCE_ORDER. */
export interface UnresolvedShardData {
  /** Every path the sites name, with its FILE_FLAGS and language. */
  paths: { path: string; flags: number; lang: Language }[];
  /** Enclosing symbols the sites name. */
  peers: PeerRecord[];
  names: { name: string; sites: UnresolvedSiteData[] }[];
}

/** A site as read: its path, flags and language resolved, its enclosing symbol as a peer. */
export interface UnresolvedSite {
  path: string;
  flags: number;
  lang: Language;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  kind: ReferenceKind;
  from?: PeerRecord;
}

/** Stride of a stored site: path, line, column, endLine, endColumn, kind, from (-1: none). */
const SITE_STRIDE = 7;
const SITE_BASES: DeltaBase[] = ['none', 'none', 'none', 1, 'none', 'none', 'none'];
const NAME_SEPARATOR = '\0';

interface StoredUnresolvedShard {
  v: 1;
  paths: string[];
  pathFlags: Uint8Array;
  pathLangs: Uint8Array;
  /** Keys joined, then names and kinds of the peers. */
  peerKeys: string;
  peerNames: string[];
  peerKinds: Uint8Array;
  /** Names sorted (code unit order), each followed by NAME_SEPARATOR. */
  names: string;
  /** Sites per name, as varints. */
  counts: Uint8Array;
  sites: Uint8Array;
}

/** The hash a name is bucketed by; a reader and the writer must agree on it. */
export function unresolvedNameKey(name: string): string {
  return base32(sha256Bytes(`unresolved\0${name}`), KEY_LENGTH);
}

export function encodeUnresolvedShard(data: UnresolvedShardData): Uint8Array {
  const pathIndex = new Map(data.paths.map((p, i) => [p.path, i]));
  const peerIndex = new Map(data.peers.map((p, i) => [p.key, i]));
  const sorted = [...data.names].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sites: number[] = [];
  for (const { sites: list } of sorted) {
    for (const s of list) {
      sites.push(pathIndex.get(s.path)!, s.line, s.column, s.endLine, s.endColumn, REFERENCE_KINDS.indexOf(s.kind), s.from === undefined ? -1 : peerIndex.get(s.from)!);
    }
  }
  const stored: StoredUnresolvedShard = {
    v: 1,
    paths: data.paths.map((p) => p.path),
    pathFlags: Uint8Array.from(data.paths, (p) => p.flags),
    pathLangs: Uint8Array.from(data.paths, (p) => LANGUAGES.indexOf(p.lang)),
    peerKeys: data.peers.map((p) => p.key).join(''),
    peerNames: data.peers.map((p) => p.name),
    peerKinds: Uint8Array.from(data.peers, (p) => SYMBOL_KINDS.indexOf(p.kind)),
    names: sorted.map((n) => n.name.replaceAll(NAME_SEPARATOR, '\uFFFD') + NAME_SEPARATOR).join(''),
    counts: packInts(sorted.map((n) => n.sites.length), ['none']),
    sites: packInts(sites, SITE_BASES),
  };
  return encodeShard(stored);
}

export class UnresolvedShard {
  /** The names, sorted. */
  readonly names: readonly string[];
  private readonly stored: StoredUnresolvedShard;
  private readonly name: string;
  /** Offset (in sites) of each name's first site, and one past the last. */
  private readonly starts: Int32Array;
  private siteValues?: Int32Array;

  constructor(name: string, value: unknown) {
    const s = value as StoredUnresolvedShard;
    if (typeof s !== 'object' || s === null || s.v !== 1 || !Array.isArray(s.paths) || !(s.pathFlags instanceof Uint8Array)
      || !(s.pathLangs instanceof Uint8Array) || typeof s.peerKeys !== 'string' || !Array.isArray(s.peerNames)
      || !(s.peerKinds instanceof Uint8Array) || typeof s.names !== 'string' || !(s.counts instanceof Uint8Array) || !(s.sites instanceof Uint8Array)
      || s.pathFlags.length !== s.paths.length || s.pathLangs.length !== s.paths.length
      || s.peerNames.length !== s.peerKinds.length || s.peerKeys.length !== s.peerNames.length * KEY_LENGTH) {
      throw corrupt(name, 'is not a version 1 unresolved shard');
    }
    this.name = name;
    this.stored = s;
    this.names = s.names === '' ? [] : s.names.slice(0, -1).split(NAME_SEPARATOR);
    const counts = unpackInts(s.counts, ['none'], name);
    if (counts.length !== this.names.length) throw corrupt(name, 'has a count for each of a different number of names');
    this.starts = new Int32Array(counts.length + 1);
    for (let i = 0; i < counts.length; i++) this.starts[i + 1] = this.starts[i]! + counts[i]!;
  }

  /** Names held: the record count of the manifest entry. */
  get size(): number {
    return this.names.length;
  }

  /** The sites of one name, in the order stored (REFERENCE_ORDER); empty when none is recorded. */
  sitesNamed(identifier: string): UnresolvedSite[] {
    let lo = 0;
    let hi = this.names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.names[mid]! < identifier) lo = mid + 1;
      else hi = mid;
    }
    if (this.names[lo] !== identifier) return [];
    const values = (this.siteValues ??= this.decodeSites());
    const { paths, pathFlags, pathLangs } = this.stored;
    const out: UnresolvedSite[] = [];
    for (let i = this.starts[lo]!; i < this.starts[lo + 1]!; i++) {
      const at = i * SITE_STRIDE;
      const path = values[at]!;
      const kind = REFERENCE_KINDS[values[at + 5]!];
      const lang = LANGUAGES[pathLangs[path]!];
      const from = values[at + 6]!;
      if (path >= paths.length || !kind || !lang || from >= this.stored.peerNames.length) throw corrupt(this.name, 'has a malformed site');
      out.push({
        path: paths[path]!, flags: pathFlags[path]!, lang, line: values[at + 1]!, column: values[at + 2]!, endLine: values[at + 3]!, endColumn: values[at + 4]!, kind,
        ...(from >= 0 ? { from: this.peer(from) } : {}),
      });
    }
    return out;
  }

  private peer(index: number): PeerRecord {
    const kind = SYMBOL_KINDS[this.stored.peerKinds[index]!];
    if (!kind) throw corrupt(this.name, 'has a malformed peer');
    return { key: this.stored.peerKeys.slice(index * KEY_LENGTH, (index + 1) * KEY_LENGTH), name: this.stored.peerNames[index]!, kind };
  }

  private decodeSites(): Int32Array {
    const values = unpackInts(this.stored.sites, SITE_BASES, this.name);
    if (values.length !== this.starts[this.starts.length - 1]! * SITE_STRIDE) throw corrupt(this.name, 'holds a different number of sites than its counts say');
    return values;
  }
}
