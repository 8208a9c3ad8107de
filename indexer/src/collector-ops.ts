// The collector's additions as data: a walk on another thread (ts/off-thread-walk.ts) records every
// call it makes to its collector, in order, and the build replays them into its own, so the build's
// collector ends as it would had the walk run on its thread. The recording collector starts from the
// build's state (the symbols it knows, and which of them are stale), so that the walk asks `has` and
// gets the same answers, and therefore makes the same calls.
import type { Confidence, EdgeKind, ReferenceKind } from '@sextant/format';
import { IndexCollector, type ResolvedDeclaration, type Site, type SymbolInfo } from './index-collector.ts';

export type CollectorOp =
  | ['symbol', SymbolInfo]
  | ['reference', string, Site, ReferenceKind, string | undefined, Confidence, ResolvedDeclaration | undefined]
  | ['edge', string, EdgeKind, string, Site | undefined];

/** What a recording collector must know of the build's collector: each known symbol's key and kind, and the stale keys. */
export interface CollectorState {
  known: [string, SymbolInfo['kind']][];
  stale: string[];
}

/** The state a recording collector starts from, taken from the build's collector once the reused files are in. */
export function collectorState(collector: IndexCollector): CollectorState {
  return { known: [...collector.symbols.values()].map((s) => [s.info.key, s.info.kind]), stale: [...collector.stale ?? []] };
}

/**
 * A collector that records every addition (ops, taken with `take`). The symbols it starts from are
 * placeholders (a key and a kind, which is all a walk reads of a symbol it did not add); a file whose
 * analysis throws leaves no op behind, as it leaves no addition in the build's collector.
 */
export class RecordingCollector extends IndexCollector {
  private ops: CollectorOp[] = [];

  /** Takes on the build's state (once, before the walk). */
  start(state: CollectorState): void {
    for (const [key, kind] of state.known) this.symbols.set(key, { info: { key, kind, name: '', qname: '', lang: 'typescript', mods: 0, defs: [] }, refs: [], edges: [] });
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
