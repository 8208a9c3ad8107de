// @sextant/format: everything in this barrel is public API. Runtime-neutral (Node and workerd).
export * from './errors.ts';
export * from './codec.ts';
export * from './hash.ts';
export * from './symbol-id.ts';
export * from './records.ts';
export * from './varint.ts';
export * from './packed-records.ts';
export * from './symbol-shard.ts';
export * from './file-shard.ts';
export * from './name-shard.ts';
export * from './text-shard.ts';
export * from './shard-view.ts';
export * from './manifest.ts';
export * from './glob.ts';
export * from './object-layout.ts';
export * from './plan.ts';
export * from './plan-signature.ts';
