// The worker's fetch handler, as a factory so tests can run it in Node over any R2 binding:
//   GET  /health               -> 200 JSON
//   GET  /.well-known/sextant-plan-keys -> the public keys plans are signed with (plan-signing.ts)
//   POST /mcp                  -> MCP Streamable HTTP for every repository; tools take `repo`
//   POST /mcp/<owner>/<repo>   -> the same, with <owner>/<repo> as the default `repo`
//   POST /r/<owner>/<repo>/mcp -> exactly what /mcp/<owner>/<repo> serves, for clients that need
//                                 the URL to end in /mcp (MCP Inspector 0.15 rewrites any other
//                                 URL to <origin>/mcp, which would drop the repository)
//   anything else              -> 404 / 405 JSON with a hint
// Stateless (nothing kept between requests but the isolate's caches) because any isolate may get any
// request: all state lives in R2 and in the cursors. MCP itself is answered by mcp-endpoint.ts. Before any R2 read: the Origin check, authentication, the body
// size bound and the token's scope over every repository the request names.
import { isValidRepoName } from '@sextant/format';
import type { CallRecord } from '@sextant/mcp';
import type { ShardCache } from '@sextant/query';
import packageJson from '../package.json';
import { authenticate, authMode, forbidden, type Access, type AuthEnv } from './auth.ts';
import { HttpError, json, readBody } from './http.ts';
import { IoMeter } from './io-meter.ts';
import { answerMcp } from './mcp-endpoint.ts';
import { PLAN_KEYS_PATH, planKeysDocument, workerPlanSigner, type PlanSigningEnv } from './plan-signing.ts';
import { SHARED_REF_CACHE, SHARED_SHARD_CACHE, type RefCache } from './isolate-caches.ts';
import type { R2BucketLike } from '@sextant/format';
import { R2IndexProvider } from './r2-index-provider.ts';
import type { EdgeCacheLike } from './r2-shard-source.ts';

export interface WorkerEnv extends AuthEnv, PlanSigningEnv {
  INDEX: R2BucketLike;
  /** Comma-separated origins (https://review.example.com) whose browser pages may call the MCP endpoints. */
  SEXTANT_ALLOWED_ORIGINS?: string;
}

/** The part of the Workers ExecutionContext used here. */
interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

export type LogLine = Record<string, unknown>;

interface WorkerOptions {
  cache?: ShardCache;
  refs?: RefCache;
  /** The Cache API for shards; default caches.default where it exists (workerd), none in Node. */
  edgeCache?: EdgeCacheLike | null;
  /** One structured line per event; defaults to JSON on console.log (Workers Logs / wrangler tail). */
  log?: (line: LogLine) => void;
  bucketName?: string;
}

interface WorkerHandler {
  fetch(request: Request, env: WorkerEnv, ctx?: WorkerContext): Promise<Response>;
}

const SERVER_INFO = { name: 'sextant', version: packageJson.version };
/** MCP messages are small (a tool call's arguments are names, paths and a cursor). */
export const MAX_BODY_BYTES = 64 * 1024;
/** JSON-RPC batches (allowed before MCP 2025-06-18) are capped, so one request is bounded work. */
const MAX_MESSAGES_PER_REQUEST = 4;
const MCP_PATH = /^\/mcp(?:\/([^/]+)\/([^/]+))?\/?$/;
/** Under its own prefix, so no path can be read as both forms (`/mcp/r/x` is the repository r/x). */
const REPO_MCP_PATH = /^\/r\/([^/]+)\/([^/]+)\/mcp\/?$/;
const ROUTES_HINT = 'The MCP endpoints are POST /mcp (tools take `repo`), and POST /mcp/<owner>/<repo> or POST /r/<owner>/<repo>/mcp '
  + '(the same endpoint, with <owner>/<repo> as the default `repo`; e.g. /mcp/acme/widgets or /r/acme/widgets/mcp); GET /health answers when the server is up.';
const CORS_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id';

export function createWorker(options: WorkerOptions = {}): WorkerHandler {
  const log = options.log ?? ((line: LogLine) => console.log(JSON.stringify(line)));
  const edgeCache = options.edgeCache === undefined ? defaultEdgeCache() : options.edgeCache ?? undefined;
  return {
    async fetch(request, env, ctx) {
      const url = new URL(request.url);
      let cors: Record<string, string> = {};
      try {
        if (url.pathname === '/health') {
          return json(200, { status: 'ok', service: SERVER_INFO.name, version: SERVER_INFO.version, auth: authMode(env, url) });
        }
        if (url.pathname === PLAN_KEYS_PATH) {
          if (request.method !== 'GET' && request.method !== 'HEAD') {
            throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not served at ${PLAN_KEYS_PATH}.`, 'Fetch it with GET.', { allow: 'GET, HEAD' });
          }
          // Public keys: no authentication, so a user can save them for `runner trust add` before holding a token.
          return json(200, await planKeysDocument(env), { 'cache-control': 'public, max-age=300' });
        }
        const match = MCP_PATH.exec(url.pathname) ?? REPO_MCP_PATH.exec(url.pathname);
        if (!match) throw new HttpError(404, 'NOT_FOUND', `Nothing is served at ${url.pathname}.`, ROUTES_HINT);
        cors = corsFor(request, env);
        if (request.method === 'OPTIONS') {
          return new Response(null, { status: 204, headers: { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': CORS_HEADERS, 'access-control-max-age': '600' } });
        }
        const endpointRepo = match[1] === undefined ? undefined : `${safeDecode(match[1])}/${safeDecode(match[2]!)}`;
        if (endpointRepo !== undefined && !isValidRepoName(endpointRepo)) {
          throw new HttpError(400, 'INVALID_ARGUMENT', `"${endpointRepo}" is not a repository name of the form owner/name.`, ROUTES_HINT);
        }
        if (request.method !== 'POST') {
          // Stateless: no session to stream to (GET) or to end (DELETE); the spec allows 405 for both.
          throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not served on the MCP endpoint; this server is stateless.`,
            'Send MCP messages with POST.', { allow: 'POST' });
        }
        const access = await authenticate(request, env, url);
        const response = await serveMcp(request, env, { endpointRepo, access, options, edgeCache, log, ctx });
        for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
        return response;
      } catch (error) {
        if (error instanceof HttpError) return error.toResponse(cors);
        log({ event: 'error', path: url.pathname, message: error instanceof Error ? error.message : String(error) });
        return json(500, { error: { code: 'INTERNAL', message: 'Internal error.', hint: 'This is a bug in Sextant; retry, and report it if it persists.' } }, cors);
      }
    },
  };
}

interface McpContext {
  endpointRepo: string | undefined;
  access: Access;
  options: WorkerOptions;
  edgeCache: EdgeCacheLike | undefined;
  log: (line: LogLine) => void;
  ctx: WorkerContext | undefined;
}

async function serveMcp(request: Request, env: WorkerEnv, { endpointRepo, access, options, edgeCache, log, ctx }: McpContext): Promise<Response> {
  const meter = new IoMeter();
  const started = meter.now();
  const body = await readBody(request, MAX_BODY_BYTES);
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return json(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON.' } });
  }
  const messages = Array.isArray(message) ? message : [message];
  if (messages.length > MAX_MESSAGES_PER_REQUEST) {
    throw new HttpError(400, 'TOO_MANY_MESSAGES', `The request holds ${messages.length} JSON-RPC messages; at most ${MAX_MESSAGES_PER_REQUEST} are served per request.`,
      'Send one MCP message per request.');
  }
  for (const repo of requestedRepos(messages, endpointRepo)) {
    if (!access.canRead(repo)) throw forbidden(repo);
  }

  const provider = new R2IndexProvider(env.INDEX, {
    repo: endpointRepo,
    canRead: access.canRead,
    cache: options.cache ?? SHARED_SHARD_CACHE,
    refs: options.refs ?? SHARED_REF_CACHE,
    bucketName: options.bucketName,
    edgeCache,
    waitUntil: ctx ? (promise) => ctx.waitUntil(promise) : undefined,
    meter,
  });
  const planSigner = await workerPlanSigner(env);
  const response = await answerMcp(request, message, {
    serverInfo: SERVER_INFO,
    provider,
    ...(planSigner ? { planSigner } : {}),
    onCall: (record: CallRecord) => {
      const end = meter.now();
      log({
        event: 'tool_call', tool: record.tool, repo: record.repo ?? requestedRepo(record, endpointRepo, messages), ...(record.commit ? { commit: record.commit } : {}),
        outcome: record.outcome, ms: record.ms, cpuMs: record.ms - meter.waitedBetween(end - record.ms, end),
        shardsRead: record.shardsRead, cacheHits: record.cacheHits, r2Reads: meter.r2Reads, edgeCacheHits: meter.edgeCacheHits, shardBytes: meter.shardBytes,
        principal: access.principal,
      });
    },
  });
  const wall = meter.now() - started;
  const io = meter.waitedBetween(started, started + wall);
  // Server-Timing: what a client (and `npm run bench:worker`) can see of the handler's time.
  response.headers.set('server-timing', `cpu;dur=${wall - io}, io;dur=${io}, total;dur=${wall}`);
  return response;
}

/**
 * Every repository the request will read: the endpoint's, and the `repo` argument of each tool
 * call. A name that is not owner/name is left to the tool, which refuses it before reading.
 */
function requestedRepos(messages: unknown[], endpointRepo: string | undefined): Set<string> {
  const repos = new Set<string>(endpointRepo ? [endpointRepo] : []);
  for (const message of messages) {
    const repo = (message as { method?: unknown; params?: { arguments?: { repo?: unknown } } } | null)?.params?.arguments?.repo;
    if ((message as { method?: unknown } | null)?.method === 'tools/call' && typeof repo === 'string' && isValidRepoName(repo)) repos.add(repo);
  }
  return repos;
}

/** For the log line of a call that failed before opening an index. */
function requestedRepo(record: CallRecord, endpointRepo: string | undefined, messages: unknown[]): string | undefined {
  for (const message of messages) {
    const params = (message as { params?: { name?: unknown; arguments?: { repo?: unknown } } } | null)?.params;
    if (params?.name === record.tool && typeof params.arguments?.repo === 'string') return params.arguments.repo;
  }
  return endpointRepo;
}

/**
 * Browsers send Origin; review bots and MCP hosts do not. A page may call only from an origin the
 * operator allowed (SEXTANT_ALLOWED_ORIGINS), which also stops DNS-rebinding pages from reaching a
 * local server. Returns the CORS headers for an allowed origin.
 */
function corsFor(request: Request, env: WorkerEnv): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  const allowed = (env.SEXTANT_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== '');
  if (!allowed.includes(origin)) {
    throw new HttpError(403, 'FORBIDDEN_ORIGIN', `Requests from the web origin ${origin} are not allowed.`,
      'Call from a server-side client (no Origin header), or ask the operator to add the origin to SEXTANT_ALLOWED_ORIGINS.');
  }
  return { 'access-control-allow-origin': origin, vary: 'origin', 'access-control-expose-headers': 'server-timing, www-authenticate' };
}

function defaultEdgeCache(): EdgeCacheLike | undefined {
  const storage = (globalThis as { caches?: { default?: EdgeCacheLike } }).caches;
  return storage?.default;
}

/** A malformed escape must be a 400 for that name, not a 500. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
