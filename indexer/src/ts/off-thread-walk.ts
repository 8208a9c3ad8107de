// An incremental build's TypeScript walk on a second thread. Creating and binding the program is
// most of a small change's walk (3 to 4 s on effect) and needs nothing from the previous index but
// which files to walk, while reading that index back and taking the reused files' records from it
// (2 to 3 s) needs nothing from the program. So the worker is started with the build (loading the
// compiler while git is read), creates the programs once the plan names the files to walk, while the
// build reads the previous index, then waits for the build's collector state, walks, and sends each
// file with the collector calls it made, which the build replays in order (collector-ops.ts); then,
// idle otherwise, it lays out the gram shards while the build lays out the rest (gram-job.ts). The
// shards are the in-process walk's, byte for byte (incremental-property.test.ts runs both).
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { ERROR_CODES, SextantError } from '@sextant/format';
import { collectorState, replay, type CollectorOp, type CollectorState } from '../collector-ops.ts';
import type { TrackedFile } from '../git/git-snapshot.ts';
import type { IndexCollector } from '../index-collector.ts';
import type { IndexContext, IndexedFile } from '../language-indexer.ts';
import type { GramJob } from '../shards/gram-job.ts';
import type { GramLayout } from '../shards/shard-writer.ts';

/** What the worker is asked to walk. */
export interface WalkInput {
  root: string;
  texts: ReadonlyMap<string, string>;
  /** The TypeScript and JavaScript files (their texts are in `texts`). */
  files: TrackedFile[];
  walk: string[];
  globals?: string[];
  /** The build's warnings so far (the indexer adds a program's warning only once). */
  warnings: string[];
}

/**
 * What the build sends the worker, on the port it is started with: the walk, then its collector's
 * state, with the gram shards to lay out once the walk is done (an incremental build's).
 */
export type BuildMessage = WalkInput | (CollectorState & { grams?: GramJob });

/** What the worker sends. */
export type WalkMessage =
  | { type: 'log'; text: string }
  | { type: 'file'; ops: CollectorOp[]; file: IndexedFile }
  | { type: 'done'; ops: CollectorOp[]; warnings: string[] }
  | { type: 'grams'; layout: GramLayout }
  | { type: 'error'; error: { name: string; message: string; stack?: string; code?: string; hint?: string; data?: Record<string, unknown> } };

export class OffThreadWalk {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly messages: WalkMessage[] = [];
  private wake?: () => void;
  private failure?: Error;
  private asked?: { walk: ReadonlySet<string>; globals: ReadonlySet<string> | undefined };
  /** Whether it lays out gram shards after its walk. */
  private gramJob = false;

  /** A worker thread that loads the compiler and waits to be asked for a walk. */
  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(new URL('./walk-worker-bootstrap.mjs', import.meta.url), {
      workerData: { port: port2 }, transferList: [port2], resourceLimits: { stackSizeMb: workerStackMb() },
    });
    this.worker.on('message', (message: WalkMessage) => this.push(message));
    this.worker.on('error', (error) => {
      this.failure = error;
      this.wake?.();
    });
    this.worker.on('exit', (code) => {
      this.failure ??= new Error(`the TypeScript walk's worker thread exited (code ${code}) before its work was done (the walk, then any gram shards asked of it)`);
      this.wake?.();
    });
  }

  /** Whether it was asked for a walk. */
  get started(): boolean {
    return this.asked !== undefined;
  }

  /** Starts creating the programs of `walk` (with `globals`). */
  start(files: readonly TrackedFile[], context: Pick<IndexContext, 'root' | 'texts' | 'warnings'>, walk: ReadonlySet<string>, globals?: ReadonlySet<string>): void {
    this.asked = { walk, globals };
    const input: WalkInput = {
      root: context.root, texts: context.texts, files: files.map(({ path, blob, bytes }) => ({ path, blob, bytes })),
      walk: [...walk], ...(globals ? { globals: [...globals] } : {}), warnings: [...context.warnings],
    };
    this.port.postMessage(input satisfies BuildMessage);
  }

  /** Whether it walks what a plan asks: those files, with those globals. */
  walks(walk: ReadonlySet<string>, globals: ReadonlySet<string> | undefined): boolean {
    const asked = this.asked;
    return asked !== undefined && sameSet(walk, asked.walk) && (globals === undefined ? asked.globals === undefined : asked.globals !== undefined && sameSet(globals, asked.globals));
  }

  /**
   * Sends the build's collector once the reused symbols are in: the walk starts then. With `grams`,
   * the worker lays those gram shards out once its walk is done (grams()).
   */
  provide(collector: IndexCollector, grams?: GramJob): void {
    this.gramJob = grams !== undefined;
    this.port.postMessage({ ...collectorState(collector), ...(grams ? { grams } : {}) } satisfies BuildMessage);
  }

  /**
   * The walked files in the walk's order, each once the collector calls made for it are replayed into
   * `context.collector`. The worker stops at the end, unless it has gram shards to lay out.
   */
  async *results(context: IndexContext): AsyncGenerator<IndexedFile> {
    let done = false;
    try {
      for (;;) {
        const message = await this.next(context);
        if (message.type === 'grams') throw new Error("the TypeScript walk's worker thread sent gram shards before its walk was done");
        replay(message.ops, context.collector);
        if (message.type === 'done') {
          for (const warning of message.warnings) if (!context.warnings.includes(warning)) context.warnings.push(warning);
          done = true;
          return;
        }
        yield message.file;
      }
    } finally {
      if (!done || !this.gramJob) await this.stop();
    }
  }

  /** The gram shards provide() asked for, once the worker has laid them out after its walk; the worker stops then. */
  async grams(context: Pick<IndexContext, 'progress'>): Promise<GramLayout> {
    try {
      for (;;) {
        const message = await this.next(context);
        if (message.type === 'grams') return message.layout;
      }
    } finally {
      await this.stop();
    }
  }

  /** Stops the worker (a build that did not use its walk, or failed). */
  async stop(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }

  private push(message: WalkMessage): void {
    this.messages.push(message);
    this.wake?.();
  }

  /** The worker's next file, end of its walk, or gram shards; its log lines are logged, its error thrown. */
  private async next(context: Pick<IndexContext, 'progress'>): Promise<Exclude<WalkMessage, { type: 'log' | 'error' }>> {
    for (;;) {
      const message = this.messages.shift();
      if (message?.type === 'log') {
        context.progress.log(message.text.replace(/\n$/, ''));
        continue;
      }
      if (message?.type === 'error') throw revived(message.error);
      if (message) return message;
      // Messages come before the exit that follows them: a failure is met only once they are read.
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/**
 * A worker's stack as deep as this thread's: a file whose analysis overflows the stack in process
 * (600 nested calls) must fail on the worker too, or the index would differ from a full build's. V8's
 * limit on the main thread is --stack-size (984 KiB unless set); a worker's is its stack less the
 * 192 KiB Node keeps for itself.
 */
function workerStackMb(): number {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const set = flags.map((flag) => /^--stack[-_]size=(\d+)$/.exec(flag)?.[1]).filter((kib) => kib !== undefined).at(-1);
  return (Number(set ?? 984) + 192) / 1024;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** An error of the worker as the in-process walk would have thrown it (a SextantError keeps its code and hint). */
function revived(error: Extract<WalkMessage, { type: 'error' }>['error']): Error {
  const code = ERROR_CODES.find((known) => known === error.code);
  const revivedError = code && error.hint !== undefined ? new SextantError(code, error.message, error.hint, error.data) : Object.assign(new Error(error.message), { name: error.name });
  if (error.stack) revivedError.stack = error.stack;
  return revivedError;
}
