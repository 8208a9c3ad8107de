// The references a build collects, packed: every symbol's in one store of typed columns instead of
// two objects each (the reference and its site), which took 128 bytes a reference; java.base's
// build holds 858,000 of them until its shards are written (issue #32). A symbol's list is a chain
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

/** Int32 fields of a reference: path, line, column, endLine, endColumn, kind and confidence, the reference before it in its list. */
const STRIDE = 7;
const INITIAL = 1024;

/** The store the lists of one collection share (a build's collector; a previous index read back). */
export class RefStore {
  private ints = new Int32Array(INITIAL * STRIDE);
  private readonly froms: (string | undefined)[] = [];
  private readonly decls: (ResolvedDeclaration | undefined)[] = [];
  private readonly paths: string[] = [];
  private readonly pathIds = new Map<string, number>();
  /** References stored. */
  size = 0;

  /** Stores a reference after `previous` (-1: the first of its list); returns its index. */
  add(ref: CollectedRef, previous: number): number {
    const index = this.size++;
    if (this.size * STRIDE > this.ints.length) {
      const grown = new Int32Array(this.ints.length * 2);
      grown.set(this.ints);
      this.ints = grown;
    }
    const { site } = ref;
    let path = this.pathIds.get(site.path);
    if (path === undefined) {
      path = this.paths.length;
      this.paths.push(site.path);
      this.pathIds.set(site.path, path);
    }
    const at = index * STRIDE;
    const ints = this.ints;
    ints[at] = path;
    ints[at + 1] = site.line;
    ints[at + 2] = site.column;
    ints[at + 3] = site.endLine;
    ints[at + 4] = site.endColumn;
    const kind = REFERENCE_KINDS.indexOf(ref.kind);
    const confidence = CONFIDENCES.indexOf(ref.confidence);
    if (kind < 0 || confidence < 0) throw new Error(`RefStore.add: no such reference kind or confidence (${ref.kind}, ${ref.confidence})`);
    ints[at + 5] = (kind << 4) | confidence;
    ints[at + 6] = previous;
    this.froms.push(ref.from);
    this.decls.push(ref.decl);
    return index;
  }

  /** Takes the last reference stored away (undoing an analysis); returns the one before it in its list. */
  removeLast(index: number): number {
    if (index !== this.size - 1) throw new Error(`RefStore.removeLast: reference ${index} is not the last stored (${this.size - 1})`);
    this.size--;
    this.froms.pop();
    this.decls.pop();
    return this.ints[index * STRIDE + 6]!;
  }

  previous(index: number): number {
    return this.ints[index * STRIDE + 6]!;
  }

  /** Reference `index` as an object (a new one on every read). */
  read(index: number): CollectedRef {
    const at = index * STRIDE;
    const ints = this.ints;
    const site: Site = { path: this.paths[ints[at]!]!, line: ints[at + 1]!, column: ints[at + 2]!, endLine: ints[at + 3]!, endColumn: ints[at + 4]! };
    const meta = ints[at + 5]!;
    const kind = REFERENCE_KINDS[meta >> 4]!;
    const confidence = CONFIDENCES[meta & 15]!;
    const from = this.froms[index];
    const decl = this.decls[index];
    // Two literal shapes, as references were made before they were packed.
    return decl ? { site, kind, from, confidence, decl } : { site, kind, from, confidence };
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
