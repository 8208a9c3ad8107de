// The Cloudflare Worker entry: the handler from createWorker with the isolate-wide caches, after
// the isolate's one-time warm-up. Runs in workerd: nothing here or below may import Node-only
// modules.
import { createWorker } from './create-worker.ts';
import { warmUp } from './warm-up.ts';

warmUp();

export default createWorker();
