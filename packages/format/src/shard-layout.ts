// Which shard holds a symbol key, a file path (its file record and its text), a path's change record
// or an unresolved name, under a manifest's layout: the one place that maps them, used by the
// indexer's shard writer, the query's IndexReader and the test memory index alike, so a writer and
// a reader cannot disagree about where something is stored.
import { gramBucketOf } from './gram-shard.ts';
import {
  changeShardName, fileShardName, gramShardName, symbolShardName, textShardName, unresolvedShardName, type Manifest,
} from './manifest.ts';
import { bucketOf, pathKey } from './symbol-id.ts';
import { unresolvedNameKey } from './unresolved-shard.ts';

export class ShardLayout {
  /** How many buckets of each kind the layout has (every one is written, empty ones too). */
  readonly symbolBuckets: number;
  readonly fileBuckets: number;
  readonly changeBuckets: number;
  readonly unresolvedBuckets: number;
  readonly gramBuckets: number;

  constructor(readonly bits: Manifest['layout']) {
    this.symbolBuckets = 2 ** bits.symbolBucketBits;
    this.fileBuckets = 2 ** bits.fileBucketBits;
    this.changeBuckets = 2 ** bits.changeBucketBits;
    this.unresolvedBuckets = 2 ** bits.unresolvedBucketBits;
    this.gramBuckets = 2 ** bits.gramBucketBits;
  }

  symbolBucketOf(key: string): number {
    return bucketOf(key, this.bits.symbolBucketBits);
  }

  /** The bucket of a path's file record and of its text (they share one). */
  fileBucketOf(path: string): number {
    return bucketOf(pathKey(path), this.bits.fileBucketBits);
  }

  changeBucketOf(path: string): number {
    return bucketOf(pathKey(path), this.bits.changeBucketBits);
  }

  unresolvedBucketOf(name: string): number {
    return bucketOf(unresolvedNameKey(name), this.bits.unresolvedBucketBits);
  }

  symbolShardOf(key: string): string {
    return symbolShardName(this.symbolBucketOf(key));
  }

  fileShardOf(path: string): string {
    return fileShardName(this.fileBucketOf(path));
  }

  textShardOf(path: string): string {
    return textShardName(this.fileBucketOf(path));
  }

  changeShardOf(path: string): string {
    return changeShardName(this.changeBucketOf(path));
  }

  unresolvedShardOf(name: string): string {
    return unresolvedShardName(this.unresolvedBucketOf(name));
  }

  gramBucketOf(gram: number): number {
    return gramBucketOf(gram, this.bits.gramBucketBits);
  }

  gramShardOf(gram: number): string {
    return gramShardName(this.gramBucketOf(gram));
  }
}
