// Where `indexer publish` writes: an R2 bucket. Remotely, wrangler's getPlatformProxy hands Node a
// remote binding (`"remote": true`) to the real bucket, authenticated with wrangler's credentials.
// Locally (--local) it is wrangler's own local R2, the storage `wrangler dev --persist-to <dir>`
// serves (`<dir>/v3/r2/…`), opened by Miniflare behind the HTTP bridge (local-bucket.ts), never
// through the platform proxy, whose synchronous fetches failed under concurrent callers. One
// ObjectStore over either binding, with cheap HEAD checks and parallel puts; spawning `wrangler r2
// object put` per object would cost about a second of process start each.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SextantError, type R2BucketLike, type R2ObjectLike } from '@sextant/format';
import { startBridge } from './local-bucket.ts';

/** The binding name the worker reads (workers/mcp/wrangler.jsonc). */
export const INDEX_BINDING = 'INDEX';

export interface PutOptions {
  /** R2 verifies the body against it and refuses a mismatch; it is then the checksum head reports. */
  sha256?: string;
  contentType?: string;
  /** Write only if the object is as read: `{ etag }` its etag still matches, `{ absent: true }` it does not exist. */
  onlyIf?: { etag: string } | { absent: true };
}

/** What R2 says of a stored object without reading its body. */
export interface ObjectInfo {
  size: number;
  /** Changes whenever the object is written with other bytes; what onlyIf compares. */
  etag: string;
  /** The sha256 R2 verified when the object was uploaded (hex); absent when the upload gave none. */
  sha256?: string;
}

export interface StoredObject {
  key: string;
  size: number;
  uploaded: Date;
}

export interface ObjectStore {
  /** For messages: `local R2 bucket sextant-index (<dir>)`, `R2 bucket sextant-index`. */
  readonly description: string;
  head(key: string): Promise<ObjectInfo | null>;
  /** The object's bytes and, from the same read, its etag. */
  get(key: string): Promise<{ bytes: Uint8Array; info: ObjectInfo } | null>;
  getText(key: string): Promise<string | null>;
  /** The stored object's info, or null when `onlyIf` did not hold and nothing was written. */
  put(key: string, body: Uint8Array | string, options?: PutOptions): Promise<ObjectInfo | null>;
  /** Every object under `prefix`, page by page. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Deletes the keys (R2 takes up to 1000 per call); a missing key is not an error. */
  delete(keys: string[]): Promise<void>;
  close(): Promise<void>;
}

export interface WranglerStoreOptions {
  /** The worker's wrangler config (wrangler.jsonc); its INDEX binding names the bucket. */
  configPath: string;
  local: boolean;
  /** Local only: the directory given to `wrangler dev --persist-to`; default `<config dir>/.wrangler/state`, as wrangler's. */
  persistTo?: string;
}

/** R2's limit for one delete call. */
const DELETE_BATCH = 1000;

interface R2BucketConfig {
  binding: string;
  bucket_name?: string;
  jurisdiction?: string;
}

export async function openWranglerStore(options: WranglerStoreOptions): Promise<ObjectStore> {
  const configPath = resolve(options.configPath);
  // Imported lazily: wrangler is large, and only publishing needs it.
  const wrangler = await import('wrangler');
  let config: ReturnType<typeof wrangler.unstable_readConfig>;
  try {
    config = wrangler.unstable_readConfig({ config: configPath });
  } catch (error) {
    throw new SextantError('INVALID_ARGUMENT', `Cannot read the wrangler config ${configPath}: ${(error as Error).message}`,
      'Pass the worker\'s config with --config (e.g. workers/mcp/wrangler.jsonc).');
  }
  const bucket = (config.r2_buckets as R2BucketConfig[]).find((b) => b.binding === INDEX_BINDING);
  if (!bucket?.bucket_name) {
    throw new SextantError('INVALID_ARGUMENT', `${configPath} has no R2 binding named ${INDEX_BINDING}.`,
      `Pass the Sextant worker's config with --config, or add { "binding": "${INDEX_BINDING}", "bucket_name": "sextant-index" } to its r2_buckets.`);
  }

  if (options.local) {
    const persistTo = resolve(options.persistTo ?? join(dirname(configPath), '.wrangler', 'state'));
    // The root wrangler dev puts under `<persist-to>/v3`, as wrangler's own local R2 commands open it.
    const local = await startBridge(bucket.bucket_name, join(persistTo, 'v3'));
    return bindingStore(local.bucket, `local R2 bucket ${bucket.bucket_name} (${persistTo})`, local.dispose);
  }

  // A remote binding to the real bucket. A throwaway config holds only that binding, so nothing
  // else of the worker's config (other bindings, routes) is started or proxied.
  const scratch = await mkdtemp(join(tmpdir(), 'sextant-publish-'));
  const remoteConfig = join(scratch, 'wrangler.json');
  await writeFile(remoteConfig, JSON.stringify({
    name: config.name ? `${config.name}-publish` : 'sextant-publish',
    compatibility_date: config.compatibility_date ?? '2025-09-01',
    ...(config.account_id ? { account_id: config.account_id } : {}),
    r2_buckets: [{
      binding: INDEX_BINDING, bucket_name: bucket.bucket_name, remote: true,
      ...(bucket.jurisdiction ? { jurisdiction: bucket.jurisdiction } : {}),
    }],
  }, null, 2));
  try {
    const proxy = await wrangler.getPlatformProxy<Record<string, R2BucketLike>>({ configPath: remoteConfig, persist: false });
    return bindingStore(proxy.env[INDEX_BINDING]!, `R2 bucket ${bucket.bucket_name}`, async () => {
      await proxy.dispose();
      await rm(scratch, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw new SextantError('INVALID_ARGUMENT', `Cannot reach R2 bucket ${bucket.bucket_name}: ${(error as Error).message}`,
      'Log in with `npx --no-install wrangler login` in the Sextant checkout (or set CLOUDFLARE_API_TOKEN with R2 and Workers edit rights, and CLOUDFLARE_ACCOUNT_ID), make sure the bucket exists (`npx --no-install wrangler r2 bucket create ' + bucket.bucket_name + '`), or publish with --local.');
  }
}

/** An ObjectStore over an R2 binding (wrangler's platform proxy, local or remote). */
export function bindingStore(binding: R2BucketLike, description: string, close: () => Promise<void> = async () => {}): ObjectStore {
  const get = async (key: string) => {
    const object = await binding.get(key);
    return object ? { bytes: new Uint8Array(await object.arrayBuffer()), info: infoOf(object) } : null;
  };
  return {
    description,
    async head(key) {
      const object = await binding.head(key);
      return object ? infoOf(object) : null;
    },
    get,
    async getText(key) {
      const object = await get(key);
      return object ? new TextDecoder().decode(object.bytes) : null;
    },
    async put(key, body, options = {}) {
      // The proxy's serializer accepts plain Uint8Arrays only (a Node Buffer fails an assertion): copy.
      const payload = typeof body === 'string' || body.constructor === Uint8Array ? body : new Uint8Array(body);
      const { onlyIf } = options;
      const object = await binding.put(key, payload, {
        ...(options.sha256 ? { sha256: options.sha256 } : {}),
        ...(options.contentType ? { httpMetadata: { contentType: options.contentType } } : {}),
        // R2 answers a failed condition with null, not an error. `etagDoesNotMatch: '*'` is If-None-Match: *.
        ...(onlyIf ? { onlyIf: 'etag' in onlyIf ? { etagMatches: onlyIf.etag } : { etagDoesNotMatch: '*' } } : {}),
      });
      return object ? infoOf(object) : null;
    },
    async *list(prefix) {
      let cursor: string | undefined;
      do {
        const page = await binding.list({ prefix, limit: 1000, ...(cursor ? { cursor } : {}) });
        for (const object of page.objects) yield { key: object.key, size: object.size, uploaded: new Date(object.uploaded) };
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += DELETE_BATCH) await binding.delete(keys.slice(i, i + DELETE_BATCH));
    },
    close,
  };
}

function infoOf(object: R2ObjectLike): ObjectInfo {
  const sha256 = object.checksums?.sha256;
  return { size: object.size, etag: object.etag, ...(sha256 ? { sha256: Buffer.from(sha256).toString('hex') } : {}) };
}
