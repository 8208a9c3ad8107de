// The entries of a record's integer columns (a symbol's defs, refs, signatures and refDecls,
// a file's occurrences, a change record's unresolved identifiers) as named fields, and the
// builders that lay them out: the only code that knows a column's stride and field order, so the
// layout can change here without a reader or writer elsewhere noticing.
//
// Iterating (`refsOf`, `occurrencesOf`, ...) yields ONE cursor object per loop, moved to the next
// entry at each step (a flyweight): find_references walks tens of thousands of references per
// call, and an object per entry would be garbage a warm worker collects. Read the fields in the
// loop body; copy what must outlive the step (`refAt(record, cursor.index)` gives an own object).
import {
  CONFIDENCES, DEF_STRIDE, OCC_STRIDE, REF_STRIDE, REFERENCE_KINDS, UNRESOLVED_STRIDE,
  type ChangeRecord, type Confidence, type FileRecord, type IntList, type ReferenceKind, type SymbolRecord,
} from './records.ts';

/** A range in one of the shard's files; `pathIndex` indexes the symbol shard's `paths`. */
export interface SiteFields {
  pathIndex: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A declaration's name range (SymbolRecord.defs) or a call signature of the symbol's type (signatures). */
export type DefFields = SiteFields;

export interface RefFields extends SiteFields {
  kind: ReferenceKind;
  /** Index of the enclosing symbol among the shard's peers; -1 at module scope. */
  fromIndex: number;
  confidence: Confidence;
  /**
   * Which declaration a call here resolved to (refDecls): an index into defs, or past them into
   * signatures (`decl - defCount(record)`); -1 where none was chosen.
   */
  decl: number;
}

export interface OccurrenceFields {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Index into FileRecord.syms. */
  symbolIndex: number;
  kind: ReferenceKind;
}

export interface UnresolvedFields {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  kind: ReferenceKind;
}

/** What an iteration yields: the fields of the entry it stands on, and that entry's ordinal. */
export type Cursor<F> = Readonly<F> & { readonly index: number };

// ---- counts and random access -------------------------------------------------------------------

export function defCount(record: Pick<SymbolRecord, 'defs'>): number {
  return record.defs.length / DEF_STRIDE;
}

export function defAt(record: Pick<SymbolRecord, 'defs'>, index: number): DefFields {
  return siteAt(record.defs, index * DEF_STRIDE);
}

export function signatureCount(record: Pick<SymbolRecord, 'signatures'>): number {
  return (record.signatures?.length ?? 0) / DEF_STRIDE;
}

export function signatureAt(record: Pick<SymbolRecord, 'signatures'>, index: number): DefFields {
  if (!record.signatures || index < 0 || index >= signatureCount(record)) throw new RangeError(`signature ${index} of ${signatureCount(record)}`);
  return siteAt(record.signatures, index * DEF_STRIDE);
}

/** Whether any call to the symbol chose among several declarations (then RefFields.decl says which). */
export function callsChoseDeclarations(record: Pick<SymbolRecord, 'refDecls'>): boolean {
  return record.refDecls !== undefined;
}

export function refCount(record: Pick<SymbolRecord, 'refs'>): number {
  return record.refs.length / REF_STRIDE;
}

export function refAt(record: Pick<SymbolRecord, 'refs' | 'refDecls'>, index: number): RefFields {
  const r = record.refs;
  const at = index * REF_STRIDE;
  if (index < 0 || at >= r.length) throw new RangeError(`reference ${index} of ${r.length / REF_STRIDE}`);
  return {
    pathIndex: r[at]!, line: r[at + 1]!, column: r[at + 2]!, endLine: r[at + 3]!, endColumn: r[at + 4]!,
    kind: REFERENCE_KINDS[r[at + 5]!]!, fromIndex: r[at + 6]!, confidence: CONFIDENCES[r[at + 7]!]!,
    decl: record.refDecls?.[index] ?? -1,
  };
}

export function occurrenceCount(file: Pick<FileRecord, 'occ'>): number {
  return file.occ.length / OCC_STRIDE;
}

/** Unresolved identifiers recorded for the file; null when its indexer does not record them. */
export function unresolvedCount(change: Pick<ChangeRecord, 'unresolved'>): number | null {
  return change.unresolved === null ? null : change.unresolved.length / UNRESOLVED_STRIDE;
}

function siteAt(list: IntList, at: number): SiteFields {
  if (at < 0 || at >= list.length) throw new RangeError(`entry at ${at} of a list of ${list.length}`);
  return { pathIndex: list[at]!, line: list[at + 1]!, column: list[at + 2]!, endLine: list[at + 3]!, endColumn: list[at + 4]! };
}

// ---- iteration (flyweight cursors) ---------------------------------------------------------------

/**
 * A cursor over a strided list: `load` copies the entry at `at` into the cursor's fields. Its own
 * state is in #private fields, so that spreading a cursor (`{ ...ref }`) copies the fields only.
 */
abstract class StridedCursor<F> implements IterableIterator<Cursor<F>> {
  index = -1;
  readonly #list: IntList;
  readonly #stride: number;
  #at: number;
  readonly #step: IteratorResult<Cursor<F>> = { done: false, value: this as unknown as Cursor<F> };

  constructor(list: IntList, stride: number) {
    this.#list = list;
    this.#stride = stride;
    this.#at = -stride;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Cursor<F>> {
    this.#at += this.#stride;
    if (this.#at >= this.#list.length) return { done: true, value: undefined };
    this.index++;
    this.load(this.#list, this.#at);
    return this.#step;
  }

  protected abstract load(list: IntList, at: number): void;
}

class SiteCursor extends StridedCursor<SiteFields> implements SiteFields {
  pathIndex = 0;
  line = 0;
  column = 0;
  endLine = 0;
  endColumn = 0;

  protected load(l: IntList, at: number): void {
    this.pathIndex = l[at]!;
    this.line = l[at + 1]!;
    this.column = l[at + 2]!;
    this.endLine = l[at + 3]!;
    this.endColumn = l[at + 4]!;
  }
}

class RefCursor extends StridedCursor<RefFields> implements RefFields {
  pathIndex = 0;
  line = 0;
  column = 0;
  endLine = 0;
  endColumn = 0;
  kind: ReferenceKind = 'read';
  fromIndex = -1;
  confidence: Confidence = 'exact';
  decl = -1;

  readonly #decls: IntList | undefined;

  constructor(list: IntList, decls: IntList | undefined) {
    super(list, REF_STRIDE);
    this.#decls = decls;
  }

  protected load(l: IntList, at: number): void {
    this.pathIndex = l[at]!;
    this.line = l[at + 1]!;
    this.column = l[at + 2]!;
    this.endLine = l[at + 3]!;
    this.endColumn = l[at + 4]!;
    this.kind = REFERENCE_KINDS[l[at + 5]!]!;
    this.fromIndex = l[at + 6]!;
    this.confidence = CONFIDENCES[l[at + 7]!]!;
    this.decl = this.#decls ? this.#decls[this.index]! : -1;
  }
}

class OccurrenceCursor extends StridedCursor<OccurrenceFields> implements OccurrenceFields {
  line = 0;
  column = 0;
  endLine = 0;
  endColumn = 0;
  symbolIndex = 0;
  kind: ReferenceKind = 'read';

  protected load(l: IntList, at: number): void {
    this.line = l[at]!;
    this.column = l[at + 1]!;
    this.endLine = l[at + 2]!;
    this.endColumn = l[at + 3]!;
    this.symbolIndex = l[at + 4]!;
    this.kind = REFERENCE_KINDS[l[at + 5]!]!;
  }
}

class UnresolvedCursor extends StridedCursor<UnresolvedFields> implements UnresolvedFields {
  line = 0;
  column = 0;
  endLine = 0;
  endColumn = 0;
  kind: ReferenceKind = 'read';

  protected load(l: IntList, at: number): void {
    this.line = l[at]!;
    this.column = l[at + 1]!;
    this.endLine = l[at + 2]!;
    this.endColumn = l[at + 3]!;
    this.kind = REFERENCE_KINDS[l[at + 4]!]!;
  }
}

/** The symbol's declarations, in stored (path, position) order. */
export function defsOf(record: Pick<SymbolRecord, 'defs'>): IterableIterator<Cursor<DefFields>> {
  return new SiteCursor(record.defs, DEF_STRIDE);
}

/** The call signatures of the symbol's type that calls resolved to (none for most symbols). */
export function signaturesOf(record: Pick<SymbolRecord, 'signatures'>): IterableIterator<Cursor<DefFields>> {
  return new SiteCursor(record.signatures ?? [], DEF_STRIDE);
}

/** The symbol's references in stored order (REFERENCE_ORDER), each with the declaration its call chose. */
export function refsOf(record: Pick<SymbolRecord, 'refs' | 'refDecls'>): IterableIterator<Cursor<RefFields>> {
  return new RefCursor(record.refs, record.refDecls);
}

/** The file's occurrences in stored order (by position once a build has sorted them). */
export function occurrencesOf(file: Pick<FileRecord, 'occ'>): IterableIterator<Cursor<OccurrenceFields>> {
  return new OccurrenceCursor(file.occ, OCC_STRIDE);
}

/** The file's unresolved identifiers in position order; none when they are not recorded (see unresolvedCount). */
export function unresolvedOf(change: Pick<ChangeRecord, 'unresolved'>): IterableIterator<Cursor<UnresolvedFields>> {
  return new UnresolvedCursor(change.unresolved ?? [], UNRESOLVED_STRIDE);
}

// ---- builders ------------------------------------------------------------------------------------

/** A defs or signatures column, filled in place (one array per column, not one per entry). */
export function defColumn<T>(items: readonly T[], fields: (item: T) => DefFields): Int32Array {
  const out = new Int32Array(items.length * DEF_STRIDE);
  items.forEach((item, i) => putSite(out, i * DEF_STRIDE, fields(item)));
  return out;
}

/** A refs column; `decl` is not stored here but in refDecls (refDeclColumn). */
export function refColumn<T>(items: readonly T[], fields: (item: T) => Omit<RefFields, 'decl'>): Int32Array {
  const out = new Int32Array(items.length * REF_STRIDE);
  items.forEach((item, i) => {
    const r = fields(item);
    const at = i * REF_STRIDE;
    putSite(out, at, r);
    out[at + 5] = kindIndex(r.kind);
    out[at + 6] = r.fromIndex;
    out[at + 7] = confidenceIndex(r.confidence);
  });
  return out;
}

/** The refDecls column parallel to a refs column: each reference's `decl`, -1 where none. */
export function refDeclColumn<T>(items: readonly T[], decl: (item: T) => number): Int32Array {
  return Int32Array.from(items, decl);
}

/** Appends one occurrence to a file's occ list as an indexer builds it (any order; sortedOccurrences orders it). */
export function pushOccurrence(occ: number[], o: OccurrenceFields): void {
  occ.push(o.line, o.column, o.endLine, o.endColumn, o.symbolIndex, kindIndex(o.kind));
}

/**
 * A file's symbols in a canonical order (by their first occurrence's position, then key) and its
 * occurrences renumbered to match: the order no longer depends on the order an indexer met them in,
 * which for a compiler can depend on what it checked before (the members of a union are ordered by
 * when their types were made), so that an incremental build and a full one write the same record.
 */
export function canonicalSymbolOrder(syms: readonly string[], occ: IntList): { syms: string[]; occ: number[] } {
  const first = syms.map(() => [Infinity, Infinity]);
  for (let i = 0; i < occ.length; i += OCC_STRIDE) {
    const at = first[occ[i + 4]!]!;
    if (occ[i]! < at[0]! || (occ[i] === at[0] && occ[i + 1]! < at[1]!)) first[occ[i + 4]!] = [occ[i]!, occ[i + 1]!];
  }
  const order = [...syms.keys()].sort((a, b) => first[a]![0]! - first[b]![0]! || first[a]![1]! - first[b]![1]! || (syms[a]! < syms[b]! ? -1 : syms[a]! > syms[b]! ? 1 : 0));
  const renumber = new Array<number>(syms.length);
  order.forEach((old, index) => { renumber[old] = index; });
  const out = Array.prototype.slice.call(occ) as number[];
  for (let i = 0; i < out.length; i += OCC_STRIDE) out[i + 4] = renumber[out[i + 4]!]!;
  return { syms: order.map((i) => syms[i]!), occ: out };
}

/** A file's occurrences in the stored order: by position, then symbol, then kind. */
export function sortedOccurrences(occ: IntList): Int32Array {
  const order = [...Array(occ.length / OCC_STRIDE).keys()];
  const at = (i: number, k: number) => occ[i * OCC_STRIDE + k]!;
  order.sort((a, b) => at(a, 0) - at(b, 0) || at(a, 1) - at(b, 1) || at(a, 4) - at(b, 4) || at(a, 5) - at(b, 5));
  // Typed: a build holds every file's list until its shards are written (8 bytes an entry as an array).
  const sorted = new Int32Array(occ.length);
  order.forEach((from, to) => {
    for (let k = 0; k < OCC_STRIDE; k++) sorted[to * OCC_STRIDE + k] = occ[from * OCC_STRIDE + k]!;
  });
  return sorted;
}

/** A change record's unresolved column from its sites, in the order given (callers sort by position). */
export function unresolvedColumn(sites: readonly UnresolvedFields[]): number[] {
  return sites.flatMap((u) => [u.line, u.column, u.endLine, u.endColumn, kindIndex(u.kind)]);
}

function putSite(out: Int32Array, at: number, s: SiteFields): void {
  out[at] = s.pathIndex;
  out[at + 1] = s.line;
  out[at + 2] = s.column;
  out[at + 3] = s.endLine;
  out[at + 4] = s.endColumn;
}

function kindIndex(kind: ReferenceKind): number {
  const index = REFERENCE_KINDS.indexOf(kind);
  if (index < 0) throw new RangeError(`unknown reference kind ${kind}`);
  return index;
}

function confidenceIndex(confidence: Confidence): number {
  const index = CONFIDENCES.indexOf(confidence);
  if (index < 0) throw new RangeError(`unknown confidence ${confidence}`);
  return index;
}
