// Graph shards: every symbol that has an edge (extends, implements, overrides, calls, sameProperty),
// with what an answer says about it (name, kind, qualified name, first declaration) and its edges,
// so that a hierarchy or call-graph walk reads graph shards only, never the symbol shards of the
// nodes it passes. The nodes are numbered (their ordinal) in declaration-path order and split into
// at most 2^GRAPH_MAX_BUCKET_BITS contiguous ranges, one shard each: a walk reads at most that many
// shards whatever the repository's size, and since callers and subtypes mostly sit near the code
// they use, a walk usually reads far fewer. An edge names its peer by ordinal; the manifest's
// record counts of the graph shards say which shard holds which ordinals (graphStarts). A call's
// site is stored once, with the callee's incoming edge: the caller's outgoing edge names the callee
// once, however many times it calls it, and a callee walk reads the sites from the callee's node.
import { encodeShard } from './codec.ts';
import { corrupt } from './packed-records.ts';
import { EDGE_KINDS, LANGUAGES, SYMBOL_KINDS, type EdgeKind, type ExternalOrigin, type Language, type SymbolKind } from './records.ts';
import { KEY_LENGTH } from './symbol-id.ts';
import { packInts, unpackInts, type DeltaBase } from './varint.ts';

/** Nodes a graph shard holds at most, until the graph has 2^GRAPH_MAX_BUCKET_BITS shards (then each holds more). */
export const GRAPH_NODES_PER_BUCKET = 2048;
/** At most 16 graph shards: the bound on the shards a walk reads. */
export const GRAPH_MAX_BUCKET_BITS = 4;

/** A position in a file: path, line, column, endLine, endColumn. */
export type SiteTuple = readonly [path: string, line: number, column: number, endLine: number, endColumn: number];

/** An edge as a writer gives it: its peer by key. */
export interface GraphEdgeData {
  kind: EdgeKind;
  /** true: from this node to the peer (this extends/implements/overrides/calls the peer). */
  out: boolean;
  peer: string;
  /** Where it is written; an outgoing call's is dropped (its callee's incoming edge keeps it). */
  site?: SiteTuple;
}

/** What a node says of its symbol, as written and as read. */
interface GraphNodeFacts {
  key: string;
  name: string;
  kind: SymbolKind;
  qname: string;
  lang: Language;
  /** MODIFIERS bits. */
  mods: number;
  /** A local or parameter (SymbolRecord.local): never searched, and no identifier elsewhere can name it. */
  local?: boolean;
  external?: ExternalOrigin;
}

/** A node as a writer gives it. */
export interface GraphNodeData extends GraphNodeFacts {
  /** The name of the first declaration; absent for external symbols. */
  def?: SiteTuple;
  edges: readonly GraphEdgeData[];
}

/** The graph laid out: one shard per range of ordinals, and each node's ordinal (for its symbol record). */
export interface GraphLayout {
  bits: number;
  shards: Uint8Array[];
  /** Nodes per shard, for the manifest (readers derive the ranges from these). */
  records: number[];
  ordinalOf: ReadonlyMap<string, number>;
}

/** Site of a graph node or edge, as answers give locations. */
export interface GraphSite {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface GraphNode extends GraphNodeFacts {
  ordinal: number;
  def?: GraphSite;
}

export interface GraphEdge {
  kind: EdgeKind;
  out: boolean;
  /** The peer's ordinal. */
  peer: number;
  site?: GraphSite;
}

// Per node: kind, lang, mods, path (-1: none), line, column, endLine, endColumn, edge count, local (0 or 1).
const NODE_BASES: DeltaBase[] = ['none', 'none', 'none', 'prev', 'none', 'none', 4, 5, 'none', 'none'];
// Per edge: kind, direction (0 out, 1 in), peer ordinal, path (-1: none), line, column, endLine, endColumn.
const EDGE_BASES: DeltaBase[] = ['none', 'none', 'prev', 'none', 'none', 'none', 4, 5];
const NODE_FIELDS = NODE_BASES.length;
const EDGE_FIELDS = EDGE_BASES.length;

interface StoredGraphShard {
  v: 1;
  /** Ordinal of the first node. */
  start: number;
  keys: string;
  names: string[];
  qnames: string[];
  paths: string[];
  /** The origins of the external nodes: [index of the node in this shard, its origin] pairs, flattened. */
  externals: (number | ExternalOrigin)[];
  nodes: Uint8Array;
  edges: Uint8Array;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders the nodes (by first declaration's path and position, externals last, then key), numbers
 * them and splits them into equal shards of at most `nodesPerBucket` nodes (tests pass fewer), at most
 * 2^GRAPH_MAX_BUCKET_BITS shards. Every peer an edge names must be a node.
 */
export function layoutGraph(
  input: readonly GraphNodeData[], nodesPerBucket = GRAPH_NODES_PER_BUCKET,
  /**
   * An earlier layout's bytes for a bucket whose shard would be the same (an incremental build: the
   * same nodes at the same ordinals, none of the bucket's changed), or undefined to encode it.
   */
  kept?: (bucket: number, nodes: readonly GraphNodeData[], ordinalOf: ReadonlyMap<string, number>) => Uint8Array | undefined,
): GraphLayout {
  const nodes = [...input].sort((a, b) => {
    if (!a.def || !b.def) return Number(!a.def) - Number(!b.def) || compare(a.key, b.key);
    return compare(a.def[0], b.def[0]) || a.def[1] - b.def[1] || a.def[2] - b.def[2] || compare(a.key, b.key);
  });
  const ordinalOf = new Map(nodes.map((n, i) => [n.key, i]));
  const bits = Math.min(GRAPH_MAX_BUCKET_BITS, Math.max(0, Math.ceil(Math.log2(Math.max(1, nodes.length / nodesPerBucket)))));
  const count = 2 ** bits;
  const shards: Uint8Array[] = [];
  const records: number[] = [];
  for (let g = 0; g < count; g++) {
    const from = Math.floor((g * nodes.length) / count);
    const to = Math.floor(((g + 1) * nodes.length) / count);
    const bucket = nodes.slice(from, to);
    shards.push(kept?.(g, bucket, ordinalOf) ?? encodeGraphShard(from, bucket, ordinalOf));
    records.push(to - from);
  }
  return { bits, shards, records, ordinalOf };
}

function encodeGraphShard(start: number, nodes: readonly GraphNodeData[], ordinalOf: ReadonlyMap<string, number>): Uint8Array {
  const stored = nodes.map((n) => storedEdges(n, ordinalOf));
  const paths = new Set<string>();
  nodes.forEach((n, i) => {
    if (n.def) paths.add(n.def[0]);
    for (const { e } of stored[i]!) if (e.site) paths.add(e.site[0]);
  });
  const pathList = [...paths].sort(compare);
  const pathIndex = new Map(pathList.map((p, i) => [p, i]));
  const nodeInts: number[] = [];
  const edgeInts: number[] = [];
  const externals: (number | ExternalOrigin)[] = [];
  const site = (s: SiteTuple | undefined) => (s ? [pathIndex.get(s[0])!, s[1], s[2], s[3], s[4]] : [-1, 0, 0, 0, 0]);
  nodes.forEach((n, i) => {
    if (n.external) externals.push(i, n.external);
    const edges = stored[i]!;
    nodeInts.push(SYMBOL_KINDS.indexOf(n.kind), LANGUAGES.indexOf(n.lang), n.mods, ...site(n.def), edges.length, n.local ? 1 : 0);
    for (const { e, peer } of edges) edgeInts.push(EDGE_KINDS.indexOf(e.kind), e.out ? 0 : 1, peer, ...site(e.site));
  });
  const shard: StoredGraphShard = {
    v: 1,
    start,
    keys: nodes.map((n) => n.key).join(''),
    names: nodes.map((n) => n.name),
    qnames: nodes.map((n) => n.qname),
    paths: pathList,
    externals,
    nodes: packInts(nodeInts, NODE_BASES),
    edges: packInts(edgeInts, EDGE_BASES),
  };
  return encodeShard(shard);
}

/**
 * A node's edges as stored, in order (kind, direction, peer, site): peers by ordinal, and outgoing
 * calls once per callee without a site (the callee's incoming edges hold the sites).
 */
function storedEdges(n: GraphNodeData, ordinalOf: ReadonlyMap<string, number>): { e: GraphEdgeData; peer: number }[] {
  const callees = new Set<number>();
  return n.edges.flatMap((e) => {
    const peer = ordinalOf.get(e.peer);
    if (peer === undefined) throw new Error(`layoutGraph: edge of ${n.key} names ${e.peer}, which is no node`);
    if (e.kind !== 'calls' || !e.out) return [{ e, peer }];
    if (callees.has(peer)) return [];
    callees.add(peer);
    return [{ e: { kind: e.kind, out: e.out, peer: e.peer }, peer }];
  }).sort((a, b) => compare(a.e.kind, b.e.kind) || Number(a.e.out) - Number(b.e.out) || a.peer - b.peer || compareSite(a.e.site, b.e.site));
}

function compareSite(a: SiteTuple | undefined, b: SiteTuple | undefined): number {
  if (!a || !b) return Number(Boolean(a)) - Number(Boolean(b));
  return compare(a[0], b[0]) || a[1] - b[1] || a[2] - b[2] || a[3] - b[3] || a[4] - b[4];
}

/** A decoded graph shard: node and edge columns unpacked once, nodes and edges built when asked for. */
export class GraphShard {
  readonly start: number;
  readonly size: number;
  private readonly name: string;
  private readonly stored: StoredGraphShard;
  private readonly nodeInts: Int32Array;
  private readonly edgeInts: Int32Array;
  /** Index into edgeInts (in edges) of each node's first edge; size + 1 entries. */
  private readonly edgeStarts: Uint32Array;
  private readonly externals = new Map<number, ExternalOrigin>();

  constructor(name: string, value: unknown) {
    const s = value as StoredGraphShard;
    if (typeof s !== 'object' || s === null || s.v !== 1 || !Number.isInteger(s.start) || s.start < 0 || typeof s.keys !== 'string'
      || s.keys.length % KEY_LENGTH !== 0 || !Array.isArray(s.names) || !Array.isArray(s.qnames) || !Array.isArray(s.paths)
      || !Array.isArray(s.externals) || !(s.nodes instanceof Uint8Array) || !(s.edges instanceof Uint8Array)) {
      throw corrupt(name, 'is not a version 1 graph shard');
    }
    this.name = name;
    this.stored = s;
    this.start = s.start;
    this.size = s.keys.length / KEY_LENGTH;
    this.nodeInts = unpackInts(s.nodes, NODE_BASES, name);
    this.edgeInts = unpackInts(s.edges, EDGE_BASES, name);
    if (s.names.length !== this.size || s.qnames.length !== this.size || this.nodeInts.length !== this.size * NODE_FIELDS) {
      throw corrupt(name, 'has columns of different lengths');
    }
    this.edgeStarts = new Uint32Array(this.size + 1);
    for (let i = 0; i < this.size; i++) this.edgeStarts[i + 1] = this.edgeStarts[i]! + this.nodeInts[i * NODE_FIELDS + 8]!;
    if (this.edgeStarts[this.size]! * EDGE_FIELDS !== this.edgeInts.length) throw corrupt(name, 'has edges of the wrong total count');
    for (let i = 0; i + 1 < s.externals.length; i += 2) {
      const at = s.externals[i];
      const origin = s.externals[i + 1];
      if (typeof at !== 'number' || typeof origin !== 'object' || origin === null) throw corrupt(name, 'has a malformed external origin');
      this.externals.set(at, origin);
    }
  }

  /** Whether the shard holds this ordinal. */
  holds(ordinal: number): boolean {
    return ordinal >= this.start && ordinal < this.start + this.size;
  }

  key(ordinal: number): string {
    const i = this.index(ordinal);
    return this.stored.keys.slice(i * KEY_LENGTH, (i + 1) * KEY_LENGTH);
  }

  node(ordinal: number): GraphNode {
    const i = this.index(ordinal);
    const at = i * NODE_FIELDS;
    const n = this.nodeInts;
    const kind = SYMBOL_KINDS[n[at]!];
    const lang = LANGUAGES[n[at + 1]!];
    if (!kind || !lang) throw corrupt(this.name, 'has a node of an unknown kind or language');
    const external = this.externals.get(i);
    return {
      ordinal,
      key: this.key(ordinal),
      name: this.stored.names[i]!,
      kind,
      qname: this.stored.qnames[i]!,
      lang,
      mods: n[at + 2]!,
      ...(n[at + 9] === 1 ? { local: true } : {}),
      ...(n[at + 3]! >= 0 ? { def: this.site(n, at + 3) } : {}),
      ...(external ? { external } : {}),
    };
  }

  edges(ordinal: number): GraphEdge[] {
    const i = this.index(ordinal);
    const e = this.edgeInts;
    const out: GraphEdge[] = [];
    for (let at = this.edgeStarts[i]! * EDGE_FIELDS; at < this.edgeStarts[i + 1]! * EDGE_FIELDS; at += EDGE_FIELDS) {
      const kind = EDGE_KINDS[e[at]!];
      if (!kind) throw corrupt(this.name, 'has an edge of an unknown kind');
      out.push({ kind, out: e[at + 1] === 0, peer: e[at + 2]!, ...(e[at + 3]! >= 0 ? { site: this.site(e, at + 3) } : {}) });
    }
    return out;
  }

  private site(ints: Int32Array, at: number): GraphSite {
    const path = this.stored.paths[ints[at]!];
    if (path === undefined) throw corrupt(this.name, 'names a path it does not list');
    return { path, line: ints[at + 1]!, column: ints[at + 2]!, endLine: ints[at + 3]!, endColumn: ints[at + 4]! };
  }

  private index(ordinal: number): number {
    if (!this.holds(ordinal)) throw corrupt(this.name, `does not hold graph node ${ordinal}`);
    return ordinal - this.start;
  }
}

/**
 * The first ordinal of each graph shard, and one past the last: from the record counts of the
 * manifest's graph shards, in bucket order.
 */
export function graphStarts(records: readonly number[]): number[] {
  const starts = [0];
  for (const r of records) starts.push(starts[starts.length - 1]! + r);
  return starts;
}

/** The graph bucket holding `ordinal` under `starts` (graphStarts), or -1 when none does. */
export function graphBucketOf(ordinal: number, starts: readonly number[]): number {
  let low = 0;
  let high = starts.length - 2;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (ordinal < starts[mid]!) high = mid - 1;
    else if (ordinal >= starts[mid + 1]!) low = mid + 1;
    else return mid;
  }
  return -1;
}
