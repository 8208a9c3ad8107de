// @sextant/worker-mcp: everything in this barrel is public API. The worker's building blocks, for
// tests and tools that run them outside workerd (the deployed entry is src/worker.ts).
export { R2ShardSource } from './r2-shard-source.ts';
export type { EdgeCacheLike } from './r2-shard-source.ts';
export { R2IndexProvider } from './r2-index-provider.ts';
export { createWorker, MAX_BODY_BYTES } from './create-worker.ts';
export type { LogLine, WorkerEnv } from './create-worker.ts';
