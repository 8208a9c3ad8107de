// @sextant/worker-mcp: the worker's building blocks, for tests and tools that run them outside
// workerd (the deployed entry is src/worker.ts).
export * from './r2-shard-source.ts';
export * from './r2-index-provider.ts';
export * from './create-worker.ts';
