// @sextant/runner: everything in this barrel is public API. Node-only: local index access.
export * from './dir-shard-source.ts';
export * from './local-index-provider.ts';
