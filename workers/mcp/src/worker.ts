// The Cloudflare Worker entry: the handler from createWorker with the isolate-wide caches. Runs in
// workerd: nothing here or below may import Node-only modules. Nothing is warmed up at the top
// level: no zod schema is parsed on the request path (mcp-endpoint.ts), so there is nothing to warm.
import { createWorker } from './create-worker.ts';

export default createWorker();
