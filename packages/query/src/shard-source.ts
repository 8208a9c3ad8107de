// Where an index's bytes come from. Implementations live at the edges (a directory in the runner,
// R2 in the worker); everything in this package is pure over this interface.
import { SextantError, type ShardEntry } from '@sextant/format';

export interface ShardSource {
  /** Where the index lives, for messages: a directory, an object-store prefix. */
  readonly where: string;
  /** The manifest's text; throws INDEX_NOT_FOUND when there is none. */
  readManifest(): Promise<string>;
  /**
   * Optional, for sources that keep a record of the manifest's sha256 beside it (an index
   * directory's manifest.sha256): what it says (undefined when it says nothing) and where it is.
   * IndexReader.open then refuses a manifest whose sha256 differs (INDEX_CORRUPT).
   */
  recordedManifestSha256?(): Promise<{ expected: string | undefined; recordedIn: string }>;
  /** A shard's bytes, or undefined when the store does not have it. */
  readShard(name: string, entry: ShardEntry): Promise<Uint8Array | undefined>;
  /**
   * Optional, for platforms with native hashing and inflating (the worker: crypto.subtle and
   * DecompressionStream), which cost a fraction of the portable code's CPU: the shard checked
   * against `entry` (size and sha256; INDEX_CORRUPT naming the shard when it differs) and inflated,
   * or undefined when the store does not have it. The reader then only decodes it.
   */
  readInflatedShard?(name: string, entry: ShardEntry): Promise<Uint8Array | undefined>;
  /** Optional: the stored object a shard is (an R2 key), named in errors when it is missing or bad. */
  objectOf?(entry: ShardEntry): string;
}

/** What a reader should do about a shard that is not the one its manifest names. */
export const REPUBLISH_HINT = 'Publish the index for this commit again, or rebuild it with `indexer build`.';

/** A shard whose bytes are not the ones its manifest entry names: INDEX_CORRUPT naming it, both sizes and the sha256 expected. */
export function checksumMismatch(name: string, where: string, entry: ShardEntry, got: Uint8Array, hint = REPUBLISH_HINT): SextantError {
  return new SextantError('INDEX_CORRUPT', `Shard ${name} of ${where} fails its checksum (expected ${entry.sha256}, ${entry.bytes} bytes; got ${got.byteLength} bytes).`, hint, { shard: name });
}
