// Where a build's time and memory go, stage by stage: wall and CPU seconds summed over every
// interval a stage ran (parse and extract alternate file by file, resolve and emit too), and the
// memory when the stage last ended: resident, the peak up to then, and the live JS heap (collected
// first when the process runs with --expose-gc, as the bench's does, so it is what the stage keeps).
// The bench prints the split; a build without a clock measures nothing.
import { getHeapStatistics } from 'node:v8';

export const STAGES = ['read', 'parse', 'extract', 'name', 'resolve', 'emit', 'records', 'shards'] as const;
export type Stage = (typeof STAGES)[number];

export interface StageSample {
  wallSeconds: number;
  cpuSeconds: number;
  /** Resident set size when the stage last ended, and the process's peak up to then, in bytes. */
  rssBytes: number;
  peakRssBytes: number;
  heapUsedBytes: number;
  /** Memory outside the JS heap: WebAssembly memories (tree-sitter's), array buffers. */
  externalBytes: number;
}

export class StageClock {
  private readonly samples = new Map<Stage, StageSample>();

  /** Starts an interval of `stage`; the function returned ends it. Costs two getrusage calls: time files or phases, not references. */
  begin(stage: Stage): () => void {
    const wall0 = performance.now();
    const cpu0 = process.cpuUsage();
    return () => {
      const cpu = process.cpuUsage(cpu0);
      const sample = this.sample(stage);
      sample.wallSeconds += (performance.now() - wall0) / 1000;
      sample.cpuSeconds += (cpu.user + cpu.system) / 1e6;
    };
  }

  time<T>(stage: Stage, work: () => T): T {
    const end = this.begin(stage);
    try {
      return work();
    } finally {
      end();
    }
  }

  /** Records the memory at the end of a stage (once per phase, not per file: it reads /proc). */
  mark(...stages: Stage[]): void {
    const peakRssBytes = process.resourceUsage().maxRSS * 1024;
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, external } = process.memoryUsage();
    const heapUsedBytes = getHeapStatistics().used_heap_size;
    for (const stage of stages) Object.assign(this.sample(stage), { rssBytes: rss, peakRssBytes, heapUsedBytes, externalBytes: external });
  }

  private sample(stage: Stage): StageSample {
    return this.samples.get(stage) ?? this.samples.set(stage, { wallSeconds: 0, cpuSeconds: 0, rssBytes: 0, peakRssBytes: 0, heapUsedBytes: 0, externalBytes: 0 }).get(stage)!;
  }

  /** The stages that ran, in pipeline order. */
  report(): Partial<Record<Stage, StageSample>> {
    return Object.fromEntries(STAGES.filter((s) => this.samples.has(s)).map((s) => [s, { ...this.samples.get(s)! }]));
  }
}
