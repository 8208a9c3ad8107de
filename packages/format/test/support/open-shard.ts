// A shard's encoded bytes decoded and read through its view, as a reader gets them: what tests check
// an encoder's or a build's output with (readers decode through the ShardCache instead). Shared by
// the tests of other packages too, by relative path, like thrown.ts.
import { decodeShard, shardView } from '../../src/index.ts';

export function openShard<T>(name: string, bytes: Uint8Array): T {
  return shardView<T>(name, decodeShard(name, bytes).value);
}
