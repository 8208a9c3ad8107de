// The references a build collects, packed: every symbol's in one store of Int32 fields, 32 bytes a
// reference, instead of two objects each (the reference and its site), which took 128; java.base's
// build holds 858,000 of them until its shards are written (issue #32). The store grows by chunks,
// so it never holds a copy of itself nor more than a chunk unused. A symbol's list is a chain
// through the store, last to first; a reference is made into an object only when it is read.
import { CONFIDENCES, REFERENCE_KINDS, type Confidence, type ReferenceKind } from '@sextant/format';
import type { ResolvedDeclaration, Site } from './index-collector.ts';

/** A reference as it is read. */
export interface CollectedRef {
  site: Site;
  kind: ReferenceKind;
  from?: string;
  confidence: Confidence;
  decl?: ResolvedDeclaration;
}

/** Int32 fields of a reference: path, line, column, endLine, endColumn, kind and confidence, from (-1: none), the reference before it in its list. */
const STRIDE = 8;
/** References a chunk of the store holds: the store grows a chunk at a time, never copying what it holds. */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const NONE = -1;

/** The store the lists of one collection share (a build's collector; a previous index read back). */
export class RefStore {
  private readonly chunks: Int32Array[] = [];
  /** Paths and from keys, each once, by the number the columns hold. */
  private readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  /** The declaration a call chose, for the few references that have one. */
  private readonly decls = new Map<number, ResolvedDeclaration>();
  /** References stored. */
  size = 0;

  /** Stores a reference after `previous` (-1: the first of its list); returns its index. */
  add(ref: CollectedRef, previous: number): number {
    const kind = REFERENCE_KINDS.indexOf(ref.kind);
    const confidence = CONFIDENCES.indexOf(ref.confidence);
    if (kind < 0 || confidence < 0) throw new Error(`RefStore.add: no such reference kind or confidence (${ref.kind}, ${ref.confidence})`);
    const index = this.size++;
    if (index >>> CHUNK_BITS >= this.chunks.length) this.chunks.push(new Int32Array(CHUNK * STRIDE));
    const ints = this.chunks[index >>> CHUNK_BITS]!;
    const at = (index & (CHUNK - 1)) * STRIDE;
    const { site } = ref;
    ints[at] = this.idOf(site.path);
    ints[at + 1] = site.line;
    ints[at + 2] = site.column;
    ints[at + 3] = site.endLine;
    ints[at + 4] = site.endColumn;
    ints[at + 5] = (kind << 4) | confidence;
    ints[at + 6] = ref.from === undefined ? NONE : this.idOf(ref.from);
    ints[at + 7] = previous;
    if (ref.decl) this.decls.set(index, ref.decl);
    return index;
  }

  /** Takes the last reference stored away (undoing an analysis); returns the one before it in its list. */
  removeLast(index: number): number {
    if (index !== this.size - 1) throw new Error(`RefStore.removeLast: reference ${index} is not the last stored (${this.size - 1})`);
    const previous = this.previous(index);
    this.size--;
    this.decls.delete(index);
    return previous;
  }

  previous(index: number): number {
    return this.chunks[index >>> CHUNK_BITS]![(index & (CHUNK - 1)) * STRIDE + 7]!;
  }

  /** Reference `index` as an object (a new one on every read). */
  read(index: number): CollectedRef {
    const ints = this.chunks[index >>> CHUNK_BITS]!;
    const at = (index & (CHUNK - 1)) * STRIDE;
    const { strings } = this;
    const site: Site = { path: strings[ints[at]!]!, line: ints[at + 1]!, column: ints[at + 2]!, endLine: ints[at + 3]!, endColumn: ints[at + 4]! };
    const meta = ints[at + 5]!;
    const kind = REFERENCE_KINDS[meta >> 4]!;
    const confidence = CONFIDENCES[meta & 15]!;
    const from = ints[at + 6] === NONE ? undefined : strings[ints[at + 6]!];
    const decl = this.decls.get(index);
    // Two literal shapes, as references were made before they were packed.
    return decl ? { site, kind, from, confidence, decl } : { site, kind, from, confidence };
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

/** One symbol's references in the order they were added, in a RefStore. */
export class RefList implements Iterable<CollectedRef> {
  private last = -1;
  length = 0;

  constructor(private readonly store: RefStore) {}

  push(ref: CollectedRef): void {
    this.last = this.store.add(ref, this.last);
    this.length++;
  }

  /** Removes the last reference pushed, which must be the last its store holds (an analysis undone). */
  pop(): void {
    if (this.length === 0) return;
    this.last = this.store.removeLast(this.last);
    this.length--;
  }

  [Symbol.iterator](): Iterator<CollectedRef> {
    return this.toArray()[Symbol.iterator]();
  }

  /** What JSON.stringify shows: the references, not the store they are packed in. */
  toJSON(): CollectedRef[] {
    return this.toArray();
  }

  /** The references as objects (made anew), in the order they were pushed. */
  toArray(): CollectedRef[] {
    const refs = new Array<CollectedRef>(this.length);
    for (let at = this.last, i = this.length - 1; i >= 0; at = this.store.previous(at), i--) refs[i] = this.store.read(at);
    return refs;
  }

  some(test: (ref: CollectedRef) => boolean): boolean {
    for (const ref of this) if (test(ref)) return true;
    return false;
  }
}
