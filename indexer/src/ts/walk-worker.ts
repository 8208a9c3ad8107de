// The body of an off-thread walk (off-thread-walk.ts): the TypeScript indexer run on a worker thread
// over the build's texts, its collector a recording one. It loads the compiler at once, waits for
// the walk, creates its programs, then waits for the build's collector state (the symbols the reused
// files brought in) before the first file is walked, posts each file with the collector calls made
// for it, and then lays out the gram shards that came with the state, if any (shards/gram-job.ts).
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { RecordingCollector } from '../collector-ops.ts';
import type { IndexedFile } from '../language-indexer.ts';
import { Progress } from '../progress.ts';
import { runGramJob, type GramJob } from '../shards/gram-job.ts';
import { typescriptIndexer } from './typescript-indexer.ts';
import type { BuildMessage, WalkInput, WalkMessage } from './off-thread-walk.ts';

const { port } = workerData as { port: MessagePort };
const post = (message: WalkMessage) => parentPort!.postMessage(message);
const collector = new RecordingCollector();
let started = false;
let gramJob: GramJob | undefined;

/** The build's next message, waited for on this thread (nothing else runs here meanwhile). */
function receive<T extends BuildMessage>(): T {
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  let received: { message: unknown } | undefined;
  while (!(received = receiveMessageOnPort(port))) Atomics.wait(sleep, 0, 0, 2);
  return received.message as T;
}

/** Takes the build's collector state before the first file is walked (a program is ready by then; the walk needs the state). */
function awaitState(): void {
  if (started) return;
  started = true;
  const state = receive<Exclude<BuildMessage, WalkInput>>();
  collector.start(state);
  gramJob = state.grams;
}

try {
  const input = receive<WalkInput>();
  const warnings = [...input.warnings];
  const progress = new Progress({ write: (text) => post({ type: 'log', text }) });
  const files = input.files.map((file) => ({ ...file, text: input.texts.get(file.path)! }));
  const context = {
    root: input.root, texts: input.texts, collector, warnings, progress, parsers: {},
    walk: new Set(input.walk), ...(input.globals ? { globals: new Set(input.globals) } : {}), beforeWalk: awaitState,
  };
  for (const file of typescriptIndexer.index(files, context) as Iterable<IndexedFile>) {
    post({ type: 'file', ops: collector.take(), file });
  }
  post({ type: 'done', ops: collector.take(), warnings: warnings.slice(input.warnings.length) });
  // The gram shards come with the state, which a walk of no program never waited for.
  awaitState();
  if (gramJob) post({ type: 'grams', layout: runGramJob(gramJob) });
} catch (error) {
  const { name, message, stack, code, hint, data } = error as Error & { code?: string; hint?: string; data?: Record<string, unknown> };
  post({ type: 'error', error: { name, message, stack, code, hint, data } });
}
