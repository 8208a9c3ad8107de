// A fresh MCP server over an index provider: tools/list and tools/call for the registry. Arguments
// are validated here, once, so bad arguments are protocol errors (InvalidParams) for every tool.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { PlanSigner } from '@sextant/format';
import { errorResult } from './error-result.ts';
import type { IndexReader } from '@sextant/query';
import type { IndexProvider } from './index-provider.ts';
import { inputJsonSchema, outputJsonSchema } from './json-schemas.ts';
import { READ_TOOLS } from './registry.ts';
import { SERVER_INSTRUCTIONS } from './server-instructions.ts';
import type { ToolContext, ToolDefinition } from './tool-definition.ts';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export interface ServerInfo {
  name: string;
  version: string;
}

export interface CallRecord {
  tool: string;
  outcome: string;
  ms: number;
  /** The index that answered, when the call got as far as opening one. */
  repo?: string;
  commit?: string;
  /** Distinct shards the call read, and how many of them were already decoded in memory. */
  shardsRead: number;
  cacheHits: number;
}

export interface ServerOptions {
  tools?: readonly ToolDefinition[];
  /** Called once per tools/call, for structured logs. Never receives credentials. */
  onCall?: (record: CallRecord) => void;
  /** Passed to the SDK Server (which builds an Ajv instance per server when absent); the worker shares one per isolate. */
  jsonSchemaValidator?: jsonSchemaValidator;
  /** Signs every plan a tool answers with; absent: plans are unsigned, and `runner apply` refuses them unless told otherwise. */
  planSigner?: Pick<PlanSigner, 'sign'>;
}

// MCP's hints: idempotentHint and destructiveHint mean something only when readOnlyHint is false,
// and the title is the tool's own; a read tool says read-only and closed-world, nothing more.
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function createSextantServer(provider: IndexProvider, info: ServerInfo, options: ServerOptions = {}): Server {
  const tools = options.tools ?? READ_TOOLS;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const signer = options.planSigner;
  const context: ToolContext = { signPlan: async (plan) => (signer ? signer.sign(plan) : plan) };
  const server = new Server(info, {
    capabilities: { tools: {} },
    ...(options.jsonSchemaValidator ? { jsonSchemaValidator: options.jsonSchemaValidator } : {}),
    instructions: SERVER_INSTRUCTIONS,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      // No title: it is for a host's display, which falls back to the name, and a model never reads it.
      name: tool.name,
      description: tool.description,
      inputSchema: inputJsonSchema(tool) as { type: 'object' },
      outputSchema: outputJsonSchema(tool) as { type: 'object' },
      annotations: { ...READ_ONLY, ...tool.annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Known tools: ${[...byName.keys()].join(', ')}.`);
    }
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`).join('; ');
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${issues}`);
    }
    const started = Date.now();
    // Counted from where each reader stood when this call opened it: a provider may hand the same
    // reader to several calls.
    const opened: { reader: IndexReader; read: number; fetched: number }[] = [];
    const tracked: IndexProvider = {
      open: async (indexRequest) => {
        const reader = await provider.open(indexRequest);
        opened.push({ reader, read: reader.shardsRead.length, fetched: reader.shardsFetched.length });
        return reader;
      },
    };
    let result: CallToolResult;
    try {
      const answer = await tool.run(tracked, parsed.data, context);
      result = { content: [{ type: 'text', text: tool.render(answer, parsed.data) }], structuredContent: answer as Record<string, unknown> };
    } catch (error) {
      result = errorResult(error);
    }
    const reader = opened.at(-1)?.reader;
    const read = new Set(opened.flatMap((o) => o.reader.shardsRead.slice(o.read)));
    const fetched = new Set(opened.flatMap((o) => o.reader.shardsFetched.slice(o.fetched)));
    options.onCall?.({
      tool: tool.name,
      outcome: result.isError ? String((result.structuredContent as { error: { code: string } }).error.code) : 'ok',
      ms: Date.now() - started,
      ...(reader ? { repo: reader.repo, commit: reader.commit } : {}),
      shardsRead: read.size,
      cacheHits: [...read].filter((name) => !fetched.has(name)).length,
    });
    return result;
  });

  return server;
}
