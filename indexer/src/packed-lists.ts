// The references and edges a build collects, packed: every symbol's in one store of Int32 fields, 32
// bytes an entry, instead of objects (a reference and its site took 128 bytes, an edge's two ends
// and its site about 190); java.base's build holds 858,000 references and 189,000 edges until its
// shards are written (issue #32). The store grows by chunks, so it never holds a copy of itself nor
// more than a chunk unused. A symbol's list is a chain through the store, last to first; an entry
// is made into an object only when it is read.
import { CONFIDENCES, EDGE_KINDS, REFERENCE_KINDS, type Confidence, type EdgeKind, type ReferenceKind } from '@sextant/format';
import type { ResolvedDeclaration, Site } from './index-collector.ts';

/** A reference as it is read. */
export interface CollectedRef {
  site: Site;
  kind: ReferenceKind;
  from?: string;
  confidence: Confidence;
  decl?: ResolvedDeclaration;
}

/** One end of an edge as it is read: each edge is kept at both ends, so either side answers from its own shard. */
export interface CollectedEdge {
  kind: EdgeKind;
  out: boolean;
  peer: string;
  site?: Site;
}

/** Int32 fields of an entry: site (path, line, column, endLine, endColumn; path -1: none), meta (the list's), text (-1: none), the entry before it in its list. */
const STRIDE = 8;
/** Entries a chunk of the store holds: the store grows a chunk at a time, never copying what it holds. */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const NONE = -1;

/** The store the lists of one collection share (a build's collector; a previous index read back). */
export class PackedStore {
  private readonly chunks: Int32Array[] = [];
  /** Paths and keys, each once, by the number the fields hold. */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  /** What a few entries carry beside their fields (the declaration a call chose). */
  private readonly extras = new Map<number, unknown>();
  /** Entries stored. */
  size = 0;

  /** Stores an entry after `previous` (-1: the first of its list); returns its index. */
  add(site: Site | undefined, meta: number, text: string | undefined, extra: unknown, previous: number): number {
    const index = this.size++;
    if (index >>> CHUNK_BITS >= this.chunks.length) this.chunks.push(new Int32Array(CHUNK * STRIDE));
    const ints = this.chunks[index >>> CHUNK_BITS]!;
    const at = (index & (CHUNK - 1)) * STRIDE;
    if (site) {
      ints[at] = this.idOf(site.path);
      ints[at + 1] = site.line;
      ints[at + 2] = site.column;
      ints[at + 3] = site.endLine;
      ints[at + 4] = site.endColumn;
    } else ints[at] = NONE;
    ints[at + 5] = meta;
    ints[at + 6] = text === undefined ? NONE : this.idOf(text);
    ints[at + 7] = previous;
    if (extra !== undefined) this.extras.set(index, extra);
    return index;
  }

  /** Takes the last entry stored away (undoing an analysis); returns the one before it in its list. */
  removeLast(index: number): number {
    if (index !== this.size - 1) throw new Error(`PackedStore.removeLast: entry ${index} is not the last stored (${this.size - 1})`);
    const previous = this.previous(index);
    this.size--;
    this.extras.delete(index);
    return previous;
  }

  previous(index: number): number {
    return this.field(index, 7);
  }

  /** The entry's site (a new object on every read), if it has one. */
  site(index: number): Site | undefined {
    const ints = this.chunks[index >>> CHUNK_BITS]!;
    const at = (index & (CHUNK - 1)) * STRIDE;
    const path = ints[at]!;
    return path === NONE ? undefined : { path: this.strings[path]!, line: ints[at + 1]!, column: ints[at + 2]!, endLine: ints[at + 3]!, endColumn: ints[at + 4]! };
  }

  meta(index: number): number {
    return this.field(index, 5);
  }

  text(index: number): string | undefined {
    const id = this.field(index, 6);
    return id === NONE ? undefined : this.strings[id];
  }

  extra(index: number): unknown {
    return this.extras.get(index);
  }

  private field(index: number, field: number): number {
    return this.chunks[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * STRIDE + field]!;
  }

  private idOf(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.strings.push(text) - 1;
      this.ids.set(text, id);
    }
    return id;
  }
}

/** One symbol's entries in the order they were added, in a PackedStore. */
abstract class PackedList<T> implements Iterable<T> {
  private last = -1;
  length = 0;

  constructor(protected readonly store: PackedStore) {}

  /** Stores the entry after `previous`; returns its index. */
  protected abstract write(entry: T, previous: number): number;
  /** Entry `index` as an object. */
  protected abstract read(index: number): T;

  push(entry: T): void {
    this.last = this.write(entry, this.last);
    this.length++;
  }

  /** Removes the last entry pushed, which must be the last its store holds (an analysis undone). */
  pop(): void {
    if (this.length === 0) return;
    this.last = this.store.removeLast(this.last);
    this.length--;
  }

  [Symbol.iterator](): Iterator<T> {
    return this.toArray()[Symbol.iterator]();
  }

  /** What JSON.stringify shows: the entries, not the store they are packed in. */
  toJSON(): T[] {
    return this.toArray();
  }

  /** The entries as objects (made anew), in the order they were pushed. */
  toArray(): T[] {
    const entries = new Array<T>(this.length);
    for (let at = this.last, i = this.length - 1; i >= 0; at = this.store.previous(at), i--) entries[i] = this.read(at);
    return entries;
  }

  /** Whether any entry passes `test`, read last to first and only until one does. */
  some(test: (entry: T) => boolean): boolean {
    for (let at = this.last, i = 0; i < this.length; at = this.store.previous(at), i++) if (test(this.read(at))) return true;
    return false;
  }
}

/** A symbol's references. */
export class RefList extends PackedList<CollectedRef> {
  protected write(ref: CollectedRef, previous: number): number {
    const kind = REFERENCE_KINDS.indexOf(ref.kind);
    const confidence = CONFIDENCES.indexOf(ref.confidence);
    if (kind < 0 || confidence < 0) throw new Error(`RefList.push: no such reference kind or confidence (${ref.kind}, ${ref.confidence})`);
    return this.store.add(ref.site, (kind << 4) | confidence, ref.from, ref.decl, previous);
  }

  protected read(index: number): CollectedRef {
    const meta = this.store.meta(index);
    const site = this.store.site(index)!;
    const kind = REFERENCE_KINDS[meta >> 4]!;
    const from = this.store.text(index);
    const confidence = CONFIDENCES[meta & 15]!;
    const decl = this.store.extra(index) as ResolvedDeclaration | undefined;
    // Two literal shapes, as references were made before they were packed.
    return decl ? { site, kind, from, confidence, decl } : { site, kind, from, confidence };
  }
}

/** A symbol's ends of edges. */
export class EdgeList extends PackedList<CollectedEdge> {
  protected write(edge: CollectedEdge, previous: number): number {
    const kind = EDGE_KINDS.indexOf(edge.kind);
    if (kind < 0) throw new Error(`EdgeList.push: no such edge kind (${edge.kind})`);
    return this.store.add(edge.site, (kind << 1) | (edge.out ? 1 : 0), edge.peer, undefined, previous);
  }

  protected read(index: number): CollectedEdge {
    const meta = this.store.meta(index);
    const site = this.store.site(index);
    const edge: CollectedEdge = { kind: EDGE_KINDS[meta >> 1]!, out: (meta & 1) === 1, peer: this.store.text(index)! };
    if (site) edge.site = site;
    return edge;
  }
}
