// The local R2 bucket `wrangler dev --persist-to <dir>` serves, opened for `indexer publish --local`
// and `indexer gc --local`: Miniflare runs the bridge worker (@sextant/format's r2-http-bridge.ts)
// over the same storage (`<dir>/v3/r2/<bucket>`, the root wrangler's own local R2 commands use), and
// every operation is one async request to it.
import { Miniflare } from 'miniflare';
import { BRIDGE_SCRIPT, httpBucket, type BridgeFetch, type R2BucketLike } from '@sextant/format';

/** `persistRoot` as wrangler passes Miniflare's defaultPersistRoot (`<persist-to>/v3`); undefined keeps it in memory. */
export async function startBridge(bucketName: string, persistRoot: string | undefined): Promise<{ bucket: R2BucketLike; dispose: () => Promise<void> }> {
  const mf = new Miniflare({
    modules: true, script: BRIDGE_SCRIPT, r2Buckets: { INDEX: bucketName },
    ...(persistRoot === undefined ? { r2Persist: false } : { defaultPersistRoot: persistRoot }),
  });
  await mf.ready;
  return { bucket: httpBucket(mf.dispatchFetch as unknown as BridgeFetch), dispose: () => mf.dispose() };
}
