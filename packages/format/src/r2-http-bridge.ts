// A local R2 bucket reached over plain HTTP: BRIDGE_SCRIPT is a worker that serves its INDEX binding
// (run in workerd by Miniflare, for `indexer publish --local`, `indexer gc --local` and tests), and
// httpBucket is the R2BucketLike that calls it, one async request per operation. It replaces
// wrangler's getPlatformProxy for local buckets: that proxy answers property reads on the objects
// it returns with a synchronous fetch through a shared worker thread, whose bookkeeping failed an
// assertion (miniflare's fetch-sync.ts) when concurrent callers used it on a loaded machine. The
// two sides of the protocol are in this one file. Runtime-neutral: the client needs only `fetch`.
import type { R2BucketLike, R2ObjectLike } from './r2-bucket.ts';

/** An object's metadata as the bridge sends it: the sha256 checksum as hex, the upload time as ISO. */
interface WireObject {
  key: string;
  size: number;
  etag: string;
  uploaded: string;
  sha256?: string;
}

const META_HEADER = 'x-sextant-r2-object';
const PUT_HEADER = 'x-sextant-r2-put';
const ORIGIN = 'http://r2-bridge';

/**
 * The worker (ES module) that serves the INDEX binding: GET /object?key=K[&body=1] (404 when
 * absent; the metadata in a header, the bytes as the body), PUT /object?key=K (the put options in a
 * header; 412 when `onlyIf` did not hold), POST /delete (a JSON list of keys), GET /list?options=…
 * (JSON). A failure of the binding (a checksum R2 refused) is a 500 whose body is the message.
 */
export const BRIDGE_SCRIPT = `
const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
const wire = (o) => ({ key: o.key, size: o.size, etag: o.etag, uploaded: o.uploaded.toISOString(), ...(o.checksums?.sha256 ? { sha256: hex(o.checksums.sha256) } : {}) });
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/object' && request.method === 'GET') {
        const key = url.searchParams.get('key');
        const object = url.searchParams.get('body') === '1' ? await env.INDEX.get(key) : await env.INDEX.head(key);
        if (object === null) return new Response(null, { status: 404 });
        const body = url.searchParams.get('body') === '1' ? await object.arrayBuffer() : null;
        return new Response(body, { headers: { '${META_HEADER}': JSON.stringify(wire(object)) } });
      }
      if (url.pathname === '/object' && request.method === 'PUT') {
        const options = JSON.parse(request.headers.get('${PUT_HEADER}') ?? '{}');
        const written = await env.INDEX.put(url.searchParams.get('key'), await request.arrayBuffer(), options);
        if (written === null) return new Response(null, { status: 412 });
        return new Response(null, { headers: { '${META_HEADER}': JSON.stringify(wire(written)) } });
      }
      if (url.pathname === '/delete' && request.method === 'POST') {
        await env.INDEX.delete(await request.json());
        return new Response(null, { status: 204 });
      }
      if (url.pathname === '/list' && request.method === 'GET') {
        const listed = await env.INDEX.list(JSON.parse(url.searchParams.get('options') ?? '{}'));
        return Response.json({ objects: listed.objects.map(wire), delimitedPrefixes: listed.delimitedPrefixes, truncated: listed.truncated, cursor: listed.truncated ? listed.cursor : undefined });
      }
      return new Response('no such operation', { status: 404 });
    } catch (error) {
      return new Response(String(error && error.message ? error.message : error), { status: 500 });
    }
  },
};
`;

/** What httpBucket sends its requests with: Miniflare's dispatchFetch, or any fetch to the bridge. */
export type BridgeFetch = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: Uint8Array | string }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
  json(): Promise<unknown>;
}>;

/** The R2BucketLike over a bridge reached with `fetch`. */
export function httpBucket(fetch: BridgeFetch): R2BucketLike {
  const call = async (path: string, init?: Parameters<BridgeFetch>[1]) => {
    const response = await fetch(`${ORIGIN}${path}`, init);
    if (response.status >= 500) throw new Error(`local R2: ${await response.text()}`);
    return response;
  };
  const object = (response: Awaited<ReturnType<BridgeFetch>>): R2ObjectLike => fromWire(JSON.parse(response.headers.get(META_HEADER)!) as WireObject);
  const key = (k: string) => `key=${encodeURIComponent(k)}`;
  return {
    async head(k) {
      const response = await call(`/object?${key(k)}`);
      return response.status === 404 ? null : object(response);
    },
    async get(k) {
      const response = await call(`/object?${key(k)}&body=1`);
      if (response.status === 404) return null;
      const bytes = await response.arrayBuffer();
      return { ...object(response), arrayBuffer: async () => bytes, text: async () => new TextDecoder().decode(bytes) };
    },
    async put(k, body, options = {}) {
      const response = await call(`/object?${key(k)}`, { method: 'PUT', headers: { [PUT_HEADER]: JSON.stringify(options) }, body });
      return response.status === 412 ? null : object(response);
    },
    async delete(keys) {
      await call('/delete', { method: 'POST', body: JSON.stringify(keys) });
    },
    async list(options = {}) {
      const listed = await (await call(`/list?options=${encodeURIComponent(JSON.stringify(options))}`)).json() as { objects: WireObject[]; delimitedPrefixes: string[]; truncated: boolean; cursor?: string };
      return { ...listed, objects: listed.objects.map(fromWire) };
    },
  };
}

function fromWire(wire: WireObject): R2ObjectLike {
  const checksums = wire.sha256 === undefined ? {} : { sha256: Uint8Array.from(wire.sha256.match(/../g)!.map((h) => parseInt(h, 16))).buffer };
  return { key: wire.key, size: wire.size, etag: wire.etag, uploaded: new Date(wire.uploaded), checksums };
}
