// Properly nested intervals (syntax-node extents) and the innermost one around an offset: sorted
// once, then each lookup is a binary search plus a walk up the nesting. Two intervals with the same
// extent are siblings, not parent and child.

export interface Interval {
  start: number;
  end: number;
}

export class IntervalNesting {
  /** Indexes into the caller's intervals, by start ascending then end descending. */
  private readonly order: number[];
  private readonly starts: number[];
  /** Parent of each interval (caller's index), -1 for a root. */
  readonly parents: Int32Array;

  constructor(private readonly intervals: readonly Interval[]) {
    this.order = [...intervals.keys()].sort((a, b) => intervals[a]!.start - intervals[b]!.start || intervals[b]!.end - intervals[a]!.end || a - b);
    this.starts = this.order.map((i) => intervals[i]!.start);
    this.parents = new Int32Array(intervals.length).fill(-1);
    const open: number[] = [];
    for (const i of this.order) {
      while (open.length > 0 && !strictlyContains(intervals[open[open.length - 1]!]!, intervals[i]!)) open.pop();
      this.parents[i] = open.length > 0 ? open[open.length - 1]! : -1;
      open.push(i);
    }
  }

  /** The innermost interval containing `offset` (start <= offset < end), -1 when none. */
  innermost(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.starts[mid]! <= offset) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    for (let i = found >= 0 ? this.order[found]! : -1; i >= 0; i = this.parents[i]!) {
      if (offset < this.intervals[i]!.end) return i;
    }
    return -1;
  }

  /** The innermost interval that strictly contains interval `inner` (given by extent). */
  enclosing(inner: Interval): number {
    for (let i = this.innermost(inner.start); i >= 0; i = this.parents[i]!) {
      if (strictlyContains(this.intervals[i]!, inner)) return i;
    }
    return -1;
  }
}

function strictlyContains(outer: Interval, inner: Interval): boolean {
  return outer.start <= inner.start && inner.end <= outer.end && (outer.start !== inner.start || outer.end !== inner.end);
}
