// Connects the real MCP SDK client to a Streamable HTTP endpoint, as an MCP host would.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface ConnectedClient {
  client: Client;
  close(): Promise<void>;
}

/** `endpoint` is the full MCP URL, e.g. `${worker.url}/mcp/acme/tiny`. */
export async function connectMcpClient(endpoint: string): Promise<ConnectedClient> {
  const client = new Client({ name: 'sextant-e2e', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint));
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** A tool call's structuredContent, or a thrown error with the tool's text when it failed. */
export async function callTool<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    throw Object.assign(new Error(`${name} failed: ${text}`), { structuredContent: result.structuredContent });
  }
  return result.structuredContent as T;
}
