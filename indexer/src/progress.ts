// Progress of a build: a live line on a terminal (phase, done/total, rate), plain lines otherwise.

export class Progress {
  private readonly tty: boolean;
  private phase = '';
  private total = 0;
  private done = 0;
  private started = 0;
  private lastDraw = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr, private readonly quiet = false) {
    this.tty = Boolean(stream.isTTY) && !quiet;
  }

  start(phase: string, total = 0): void {
    this.finishLine();
    this.phase = phase;
    this.total = total;
    this.done = 0;
    this.started = performance.now();
    if (!this.tty && !this.quiet) this.stream.write(`${phase}${total ? ` (${total})` : ''}...\n`);
  }

  tick(count = 1): void {
    this.done += count;
    if (!this.tty) return;
    const now = performance.now();
    if (now - this.lastDraw < 100 && this.done < this.total) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? (this.done / seconds).toFixed(0) : '-';
    this.stream.write(`\r\x1b[K${this.phase}: ${this.done}/${this.total} files (${rate}/s)`);
  }

  log(line: string): void {
    if (this.quiet) return;
    this.finishLine();
    this.stream.write(`${line}\n`);
  }

  finishLine(): void {
    if (this.tty && this.phase) {
      this.stream.write(`\r\x1b[K${this.phase}: ${this.done}/${this.total} files in ${((performance.now() - this.started) / 1000).toFixed(1)}s\n`);
      this.phase = '';
    }
  }
}
