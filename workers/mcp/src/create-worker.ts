// The worker's fetch handler, as a factory so tests can run it in Node over any R2 binding:
//   GET  /health                 -> 200 JSON
//   POST /mcp/<owner>/<repo>     -> MCP Streamable HTTP, stateless: a fresh server per request
//   anything else                -> 404 / 405 JSON with a hint
// Stateless because any isolate may get any request; all state lives in R2 and in the cursors.
import { isValidRepoName } from '@sextant/format';
import { createSextantServer, type ServerOptions } from '@sextant/mcp';
import type { ShardCache } from '@sextant/query';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import packageJson from '../package.json';
import type { R2BucketLike } from './r2-bucket.ts';
import { R2IndexProvider, SHARED_SHARD_CACHE } from './r2-index-provider.ts';

export interface WorkerEnv {
  INDEX: R2BucketLike;
}

/** The part of the Workers ExecutionContext used here. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

export type LogLine = Record<string, unknown>;

export interface WorkerOptions {
  cache?: ShardCache;
  /** One structured line per event; defaults to JSON on console.log (Workers Logs / wrangler tail). */
  log?: (line: LogLine) => void;
  bucketName?: string;
  jsonSchemaValidator?: ServerOptions['jsonSchemaValidator'];
}

export interface WorkerHandler {
  fetch(request: Request, env: WorkerEnv, ctx?: WorkerContext): Promise<Response>;
}

export const SERVER_INFO = { name: 'sextant', version: packageJson.version };
/**
 * The SDK Server only validates with this when it elicits input from the client, which Sextant
 * never does; Ajv compiles with `new Function` (forbidden in workerd) only then. Shared per isolate
 * because building it per request costs ~0.5 ms of CPU for nothing.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();
const MCP_PATH = /^\/mcp\/([^/]+)\/([^/]+)\/?$/;
const ROUTES_HINT = 'The MCP endpoint is POST /mcp/<owner>/<repo> (e.g. /mcp/acme/widgets); GET /health answers when the server is up.';

export function createWorker(options: WorkerOptions = {}): WorkerHandler {
  const log = options.log ?? ((line: LogLine) => console.log(JSON.stringify(line)));
  return {
    async fetch(request, env, ctx) {
      const url = new URL(request.url);
      try {
        if (url.pathname === '/health') {
          return json(200, { status: 'ok', service: SERVER_INFO.name, version: SERVER_INFO.version });
        }
        const match = MCP_PATH.exec(url.pathname);
        if (!match) {
          return json(404, { error: { code: 'NOT_FOUND', message: `Nothing is served at ${url.pathname}.`, hint: ROUTES_HINT } });
        }
        const repo = `${safeDecode(match[1]!)}/${safeDecode(match[2]!)}`;
        if (!isValidRepoName(repo)) {
          return json(400, { error: { code: 'INVALID_ARGUMENT', message: `"${repo}" is not a repository name of the form owner/name.`, hint: ROUTES_HINT } });
        }
        if (request.method !== 'POST') {
          // Stateless: no session to stream to (GET) or to end (DELETE); the spec allows 405 for both.
          return json(405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${request.method} is not served on the MCP endpoint; this server is stateless.`, hint: 'Send MCP messages with POST.' } },
            { allow: 'POST' });
        }
        return await serveMcp(request, env, repo, options, log, ctx);
      } catch (error) {
        log({ event: 'error', path: url.pathname, message: error instanceof Error ? error.message : String(error) });
        return json(500, { error: { code: 'INTERNAL', message: 'Internal error.', hint: 'This is a bug in Sextant; retry, and report it if it persists.' } });
      }
    },
  };
}

async function serveMcp(
  request: Request, env: WorkerEnv, repo: string, options: WorkerOptions, log: (line: LogLine) => void, ctx?: WorkerContext,
): Promise<Response> {
  let commit: string | undefined;
  const provider = new R2IndexProvider(env.INDEX, repo, {
    cache: options.cache ?? SHARED_SHARD_CACHE,
    bucketName: options.bucketName,
    onOpen: (reader) => { commit = reader.commit; },
  });
  const server = createSextantServer(provider, SERVER_INFO, {
    jsonSchemaValidator: options.jsonSchemaValidator ?? SHARED_VALIDATOR,
    onCall: (record) => {
      log({ event: 'tool_call', tool: record.tool, repo, ...(commit ? { commit } : {}), outcome: record.outcome, ms: record.ms });
      commit = undefined;
    },
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // With enableJsonResponse the Response holds the complete answer, so closing after is safe.
    return await transport.handleRequest(request);
  } finally {
    const closing = server.close();
    if (ctx) ctx.waitUntil(closing);
    else await closing;
  }
}

/** A malformed escape must be a 400 for that name, not a 500. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
