// Work an isolate does once, when it starts, so that the first request does not pay for it. zod 4
// builds a schema's parser on its first use, which in a fresh isolate costs tens of milliseconds
// of CPU across the MCP SDK's message schemas and the tools' input schemas. Workers run a module's
// top level when they start an isolate (often while the TLS handshake is still going on), under
// the startup limit rather than the per-request CPU limit, so that is where this belongs.
import { CallToolRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { READ_TOOLS } from '@sextant/mcp';

export function warmUp(): void {
  const call = { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'index_status', arguments: { repo: 'a/b', commit: 'main' } } };
  JSONRPCMessageSchema.safeParse(call);
  CallToolRequestSchema.safeParse(call);
  ListToolsRequestSchema.safeParse({ method: 'tools/list', params: {} });
  for (const tool of READ_TOOLS) tool.input.safeParse({ repo: 'a/b', commit: 'main' });
}
