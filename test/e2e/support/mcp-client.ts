// Connects the real MCP SDK client to a Streamable HTTP endpoint, as an MCP host would.
import { expect } from 'vitest';
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

/** A tools/call result as the SDK client returns it. */
export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text: string }[];
}

/**
 * A successful call's structuredContent, checked the way every answer must be: it names the index's
 * repo and commit and carries text for clients that read only content.
 */
export async function answerFrom(client: Client, index: { repo: string; commit: string }, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]!.text}`);
  expect(result.structuredContent).toMatchObject({ repo: index.repo, commit: index.commit });
  expect(result.content[0]!.text.length).toBeGreaterThan(0);
  return result.structuredContent!;
}

/** `path:line:column` of a location, for compact assertions. */
export const where = (r: { path: string; line: number; column: number }) => `${r.path}:${r.line}:${r.column}`;
