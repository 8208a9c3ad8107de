// The worker's MCP endpoint: the Streamable HTTP transport, stateless and answered with JSON (no
// session, no SSE stream), for initialize, ping, tools/list and tools/call. Tools are served from the
// generated catalog (@sextant/mcp tool-catalog) and called through the same callTool as the
// runner's SDK server. The MCP SDK's server is not loaded here: its message schemas are some 300
// zod objects, whose construction at startup and first parse in each fresh isolate cost more CPU
// than a cold call's whole budget, for a protocol that is, statelessly, these four methods. What the
// SDK's transport checks (Accept, Content-Type, protocol version, JSON-RPC shape) is checked here
// the same way, with the same status codes and messages; end-to-end tests drive it with the SDK's
// client.
import {
  callTool, catalogTools, InvalidParams, READ_TOOLS, SERVER_INSTRUCTIONS, toolNamed, TOOLS_LIST_TEXT, type CallOptions, type IndexProvider,
} from '@sextant/mcp';

/** MCP revisions this endpoint speaks, newest first (the SDK's SUPPORTED_PROTOCOL_VERSIONS; a test keeps them equal). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0]!;

/** JSON-RPC and MCP error codes (the SDK's ErrorCode). */
const RPC_ERROR = { connectionClosed: -32000, parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internalError: -32603 } as const;

/** The tools, checked against the catalog once per isolate. */
const SERVED = catalogTools(READ_TOOLS);

interface EndpointOptions extends CallOptions {
  serverInfo: { name: string; version: string };
  provider: IndexProvider;
}

type Id = string | number;
interface RpcRequest { jsonrpc: '2.0'; id: Id; method: string; params?: Record<string, unknown> }

/**
 * The answer to one POST of already-parsed JSON (`body`: one message or a batch): 406 / 415 / 400
 * as the SDK's transport answers them, 202 when it carries no request, else 200 with the responses.
 */
export async function answerMcp(request: Request, body: unknown, options: EndpointOptions): Promise<Response> {
  const accept = request.headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcErrorResponse(406, RPC_ERROR.connectionClosed, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return rpcErrorResponse(415, RPC_ERROR.connectionClosed, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const messages = Array.isArray(body) ? body : [body];
  if (!messages.every(isJsonRpcMessage)) return rpcErrorResponse(400, RPC_ERROR.parseError, 'Parse error: Invalid JSON-RPC message');
  const requests = messages.filter(isRequest);
  const initializing = requests.some((m) => m.method === 'initialize');
  if (initializing && messages.length > 1) {
    return rpcErrorResponse(400, RPC_ERROR.invalidRequest, 'Invalid Request: Only one initialization request is allowed');
  }
  if (!initializing) {
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return rpcErrorResponse(400, RPC_ERROR.connectionClosed,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
  }
  // Notifications (initialized, cancelled) and responses ask for nothing back.
  if (requests.length === 0) return new Response(null, { status: 202 });
  const answers = await Promise.all(requests.map((message) => answer(message, options)));
  const text = answers.length === 1 ? answers[0]! : `[${answers.join(',')}]`;
  return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
}

/** One request's JSON-RPC response, as JSON text. */
async function answer(message: RpcRequest, options: EndpointOptions): Promise<string> {
  const params = message.params ?? {};
  try {
    switch (message.method) {
      case 'initialize': {
        if (typeof params.protocolVersion !== 'string') throw new InvalidParams('Invalid initialize request: protocolVersion must be a string.');
        const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
        return result(message.id, { protocolVersion, capabilities: { tools: {} }, serverInfo: options.serverInfo, instructions: SERVER_INSTRUCTIONS });
      }
      case 'ping':
        return result(message.id, {});
      case 'tools/list':
        // The catalog's text as it is: nothing to build or serialize.
        return `{"result":{"tools":${TOOLS_LIST_TEXT}},"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`;
      case 'tools/call': {
        if (typeof params.name !== 'string') throw new InvalidParams('Invalid tools/call request: params.name must be a string.');
        const args = params.arguments;
        if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
          throw new InvalidParams('Invalid tools/call request: params.arguments must be an object.');
        }
        return result(message.id, await callTool(toolNamed(SERVED, params.name), options.provider, args, options));
      }
      default:
        return error(message.id, RPC_ERROR.methodNotFound, 'Method not found');
    }
  } catch (thrown) {
    // As the SDK words an McpError, so both servers' refusals read the same.
    if (thrown instanceof InvalidParams) return error(message.id, RPC_ERROR.invalidParams, `MCP error ${RPC_ERROR.invalidParams}: ${thrown.message}`);
    throw thrown;
  }
}

function result(id: Id, value: unknown): string {
  return JSON.stringify({ result: value, jsonrpc: '2.0', id });
}

function error(id: Id, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

function rpcErrorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

/** A request, a notification, or a response of JSON-RPC 2.0 (what the SDK's JSONRPCMessageSchema accepts). */
function isJsonRpcMessage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const params = message.params;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return false;
  const hasId = typeof message.id === 'string' || (typeof message.id === 'number' && Number.isInteger(message.id));
  if (typeof message.method === 'string') return message.id === undefined || hasId;
  // A response (to nothing: this server sends no requests), accepted and ignored as the SDK does.
  return hasId && ('result' in message || 'error' in message);
}

function isRequest(message: unknown): message is RpcRequest {
  const m = message as { method?: unknown; id?: unknown };
  return typeof m.method === 'string' && m.id !== undefined;
}

/** application/json with any parameters (charset), as the SDK's isJsonContentType. */
function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
