// The Cloudflare Worker entry: the handler from createWorker with the isolate-wide shard cache.
// Runs in workerd: nothing here or below may import Node-only modules.
import { createWorker } from './create-worker.ts';

export default createWorker();
