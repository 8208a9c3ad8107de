// The collector's additions as data: a walk on another thread (ts/off-thread-walk.ts) records every
// call it makes to its collector, in order, and the build replays them into its own, so the build's
// collector ends as it would had the walk run on its thread. The recording collector starts from the
// build's state (the symbols it knows, and which of them are stale), so that the walk asks `has` and
// gets the same answers, and therefore makes the same calls.
import { SYMBOL_KINDS, type Confidence, type EdgeKind, type ReferenceKind } from '@sextant/format';
import { IndexCollector, type ResolvedDeclaration, type Site, type SymbolInfo } from './index-collector.ts';
import { EdgeList, RefList } from './packed-lists.ts';

export type CollectorOp =
  | ['symbol', SymbolInfo]
  | ['reference', string, Site, ReferenceKind, string | undefined, Confidence, ResolvedDeclaration | undefined]
  | ['edge', string, EdgeKind, string, Site | undefined];

/**
 * What a recording collector must know of the build's collector: each known symbol's key and kind,
 * and the stale keys. Packed (the keys one string, cut at their lengths; the kinds as indexes into
 * SYMBOL_KINDS): a list of 150,000 small tuples took a tenth of a second to copy to the thread.
 */
export interface CollectorState {
  keys: string;
  keyLengths: Uint32Array;
  kinds: Uint8Array;
  stale: string[];
}

/** The state a recording collector starts from, taken from the build's collector once the reused symbols are in. */
export function collectorState(collector: IndexCollector): CollectorState {
  const keys: string[] = new Array<string>(collector.symbols.size);
  const keyLengths = new Uint32Array(collector.symbols.size);
  const kinds = new Uint8Array(collector.symbols.size);
  let i = 0;
  for (const { info } of collector.symbols.values()) {
    keys[i] = info.key;
    keyLengths[i] = info.key.length;
    kinds[i++] = KIND_INDEX.get(info.kind)!;
  }
  return { keys: keys.join(''), keyLengths, kinds, stale: [...collector.stale ?? []] };
}

const KIND_INDEX = new Map(SYMBOL_KINDS.map((kind, index) => [kind, index]));

/**
 * A collector that records every addition (ops, taken with `take`). The symbols it starts from are
 * placeholders (a key and a kind, which is all a walk reads of a symbol it did not add); a file whose
 * analysis throws leaves no op behind, as it leaves no addition in the build's collector.
 */
export class RecordingCollector extends IndexCollector {
  private ops: CollectorOp[] = [];

  /** Takes on the build's state (once, before the walk). */
  start(state: CollectorState): void {
    for (let i = 0, at = 0; i < state.kinds.length; at += state.keyLengths[i++]!) {
      const key = state.keys.slice(at, at + state.keyLengths[i]!);
      this.symbols.set(key, { info: { key, kind: SYMBOL_KINDS[state.kinds[i]!]!, name: '', qname: '', lang: 'typescript', mods: 0, defs: [] }, refs: new RefList(this.store), edges: new EdgeList(this.store) });
    }
    this.stale = new Set(state.stale);
  }

  /** The ops recorded since the last take. */
  take(): CollectorOp[] {
    const ops = this.ops;
    this.ops = [];
    return ops;
  }

  override addSymbol(info: SymbolInfo): void {
    super.addSymbol(info);
    this.ops.push(['symbol', info]);
  }

  override addReference(key: string, site: Site, kind: ReferenceKind, from: string | undefined, confidence: Confidence, decl?: ResolvedDeclaration): void {
    super.addReference(key, site, kind, from, confidence, decl);
    this.ops.push(['reference', key, site, kind, from, confidence, decl]);
  }

  override addEdge(from: string, kind: EdgeKind, to: string, site?: Site): void {
    super.addEdge(from, kind, to, site);
    this.ops.push(['edge', from, kind, to, site]);
  }

  override atomically<T>(analyse: () => T): T {
    const mark = this.ops.length;
    try {
      return super.atomically(analyse);
    } catch (error) {
      this.ops.length = mark;
      throw error;
    }
  }
}

/** Makes the recorded calls on `collector`, in order. */
export function replay(ops: readonly CollectorOp[], collector: IndexCollector): void {
  for (const op of ops) {
    if (op[0] === 'symbol') collector.addSymbol(op[1]);
    else if (op[0] === 'reference') collector.addReference(op[1], op[2], op[3], op[4], op[5], op[6]);
    else collector.addEdge(op[1], op[2], op[3], op[4]);
  }
}
