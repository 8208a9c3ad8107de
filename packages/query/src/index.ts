// @sextant/query: everything in this barrel is public API. Pure navigation over a ShardSource; no I/O.
export * from './shard-source.ts';
export * from './shard-cache.ts';
export * from './index-reader.ts';
export * from './cursor.ts';
export * from './paging.ts';
export * from './results.ts';
export * from './symbols.ts';
export * from './target.ts';
export * from './index-status.ts';
export * from './search-symbols.ts';
export * from './goto-definition.ts';
export * from './find-references.ts';
