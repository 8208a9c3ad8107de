// Where an index's bytes come from. Implementations live at the edges (a directory in the runner,
// R2 in the worker); everything in this package is pure over this interface.
import type { ShardEntry } from '@sextant/format';

export interface ShardSource {
  /** Where the index lives, for messages: a directory, an object-store prefix. */
  readonly where: string;
  /** The manifest's text; throws INDEX_NOT_FOUND when there is none. */
  readManifest(): Promise<string>;
  /** A shard's bytes, or undefined when the store does not have it. */
  readShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined>;
}
