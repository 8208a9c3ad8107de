// The MCP server of the SDK over an index provider, as the runner serves it (stdio) and the in-process
// tests connect to it: tools/list and tools/call for the registry, both through tool-call.ts, so bad
// arguments are protocol errors (InvalidParams) for every tool, as in the worker.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { IndexProvider } from './index-provider.ts';
import { inputJsonSchema, outputJsonSchema } from './json-schemas.ts';
import { READ_TOOLS } from './registry.ts';
import { SERVER_INSTRUCTIONS } from './server-instructions.ts';
import { callTool, InvalidParams, listedTool, toolNamed, type CallOptions, type ServedTool } from './tool-call.ts';
import type { ToolDefinition } from './tool-definition.ts';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export type { CallRecord } from './tool-call.ts';

interface ServerInfo {
  name: string;
  version: string;
}

export interface ServerOptions extends CallOptions {
  tools?: readonly ToolDefinition[];
  /** Passed to the SDK Server (which builds an Ajv instance per server when absent). */
  jsonSchemaValidator?: jsonSchemaValidator;
}

export function createSextantServer(provider: IndexProvider, info: ServerInfo, options: ServerOptions = {}): Server {
  const tools = options.tools ?? READ_TOOLS;
  const served = new Map<string, ServedTool>(tools.map((tool) => [tool.name, { definition: tool, check: zodCheck(tool) }]));
  const server = new Server(info, {
    capabilities: { tools: {} },
    ...(options.jsonSchemaValidator ? { jsonSchemaValidator: options.jsonSchemaValidator } : {}),
    instructions: SERVER_INSTRUCTIONS,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => listedTool(tool, inputJsonSchema(tool), outputJsonSchema(tool))),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      return await callTool(toolNamed(served, request.params.name), provider, request.params.arguments, options);
    } catch (error) {
      if (error instanceof InvalidParams) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  });

  return server;
}

/**
 * The arguments' issues by the tool's zod input (built on first use): the runner serves write tools
 * whose plans have shapes (unions, record keys) the catalog's argument check does not state.
 */
function zodCheck(tool: ToolDefinition): ServedTool['check'] {
  return (args) => {
    const parsed = tool.input.safeParse(args);
    return parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path as (string | number)[], message: issue.message }));
  };
}
