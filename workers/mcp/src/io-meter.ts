// Per-request accounting of what a request waited for: R2 reads, edge-cache hits, and the time
// spent with at least one read in flight. CPU time is then the request's wall time minus that
// wait, by the isolate's clock. In local workerd (wrangler dev) the clock advances in 1 ms steps;
// in production Workers it only advances across I/O (a Spectre mitigation), so there the CPU
// figure reads near zero and the platform's own cpuTime (Workers Logs, `wrangler tail`) is the
// one to trust. Nothing here is shared between requests.

export class IoMeter {
  /** Objects requested from R2 (gets, heads and lists). */
  r2Reads = 0;
  /** Shards served by the Cache API instead of R2. */
  edgeCacheHits = 0;
  /** Bytes of shards fetched (from R2 or the edge cache), before inflating. */
  shardBytes = 0;
  private readonly clock: () => number;
  private inFlight = 0;
  private since = 0;
  /** Closed intervals [start, end] during which at least one read was in flight, in order. */
  private readonly waits: [number, number][] = [];

  constructor(clock: () => number = () => Date.now()) {
    this.clock = clock;
  }

  now(): number {
    return this.clock();
  }

  /** Awaits `work`, counting the time it is in flight as waiting. */
  async wait<T>(work: Promise<T>): Promise<T> {
    if (this.inFlight++ === 0) this.since = this.clock();
    try {
      return await work;
    } finally {
      if (--this.inFlight === 0) this.waits.push([this.since, this.clock()]);
    }
  }

  /** Time between `start` and `end` with at least one read in flight. */
  waitedBetween(start: number, end: number): number {
    let total = 0;
    for (const [from, to] of this.waits) total += Math.max(0, Math.min(to, end) - Math.max(from, start));
    if (this.inFlight > 0) total += Math.max(0, end - Math.max(this.since, start));
    return total;
  }
}
