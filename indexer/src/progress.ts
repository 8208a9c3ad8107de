// Progress of a build: a live line on a terminal (phase, done/total, rate), plain lines otherwise.

/** Where progress goes: a terminal, a log, or (an off-thread walk) a message to the build. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export class Progress {
  private readonly tty: boolean;
  private phase = '';
  private total = 0;
  private done = 0;
  private started = 0;
  private lastDraw = 0;

  constructor(private readonly stream: ProgressStream = process.stderr, private readonly quiet = false) {
    this.tty = Boolean(stream.isTTY) && !quiet;
  }

  start(phase: string, total = 0): void {
    this.finishLine();
    this.phase = phase;
    this.total = total;
    this.done = 0;
    this.started = performance.now();
    if (this.tty) this.draw();
    else if (!this.quiet) this.stream.write(`${phase}${total ? ` (${total} files)` : ''}...\n`);
  }

  tick(count = 1): void {
    this.done += count;
    if (!this.tty) return;
    const now = performance.now();
    if (now - this.lastDraw < 100 && this.done < this.total) return;
    this.draw();
  }

  /** A line of its own; on a terminal the live line is redrawn under it. */
  log(line: string): void {
    if (this.quiet) return;
    if (this.tty && this.phase) {
      this.stream.write(`\r\x1b[K${line}\n`);
      this.draw();
    } else {
      this.stream.write(`${line}\n`);
    }
  }

  finishLine(): void {
    if (this.tty && this.phase) {
      this.stream.write(`\r\x1b[K${this.phase}: ${this.counts()} in ${this.seconds().toFixed(1)}s\n`);
    }
    this.phase = '';
  }

  private draw(): void {
    this.lastDraw = performance.now();
    const seconds = this.seconds();
    const rate = this.done / Math.max(seconds, 0.001);
    this.stream.write(`\r\x1b[K${this.phase}: ${this.counts()}${this.total ? ` (${rate < 10 ? rate.toFixed(1) : rate.toFixed(0)} files/s)` : ''}`);
  }

  private counts(): string {
    return this.total ? `${this.done}/${this.total} files` : 'done';
  }

  private seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}
