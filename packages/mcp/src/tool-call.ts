// tools/list and tools/call for any server of Sextant's tools: what a listed tool looks like, and
// one call (arguments checked, the tool run over a tracked provider, its answer rendered, its
// failure turned into a structured tool error, one CallRecord). The runner's SDK server
// (create-server.ts) and the worker's own stateless endpoint both call these, so a tool behaves
// the same behind either; neither needs zod at run time (arguments are checked by
// argument-check.ts against JSON Schemas, which the worker reads pre-generated).
import type { PlanSigner } from '@sextant/plan';
import type { IndexReader } from '@sextant/query';
import { describeIssues, type ArgumentIssue } from './argument-check.ts';
import { errorResult } from './error-result.ts';
import type { IndexProvider } from './index-provider.ts';
import type { ToolContext, ToolDefinition } from './tool-definition.ts';

type JsonSchema = Record<string, unknown>;

/** A tools/list entry, as MCP's Tool (a plain object: no SDK type, so the worker need not load the SDK). */
interface ListedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object' } & JsonSchema;
  outputSchema: { type: 'object' } & JsonSchema;
  annotations: Record<string, boolean>;
}

/** MCP's CallToolResult as Sextant's tools answer it. */
interface ToolCallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
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

/**
 * A tool as a server serves it: its definition (run, render) and the check of its arguments (the
 * worker's against the generated catalog's JSON Schema, argument-check.ts; the runner's with the
 * tool's zod input, which every schema its tools use can state).
 */
export interface ServedTool {
  definition: ToolDefinition;
  check: (args: unknown) => ArgumentIssue[];
}

export interface CallOptions {
  /** Called once per call, for structured logs. Never receives credentials. */
  onCall?: (record: CallRecord) => void;
  /** Signs every plan a tool answers with; absent: plans are unsigned. */
  planSigner?: Pick<PlanSigner, 'sign'>;
}

/** Arguments refused before the tool runs: a protocol error (JSON-RPC InvalidParams, -32602), not a tool result. */
export class InvalidParams extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidParams';
  }
}

// MCP's hints: idempotentHint and destructiveHint mean something only when readOnlyHint is false,
// and the title is the tool's own; a read tool says read-only and closed-world, nothing more.
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** The tools/list entry of a tool, from its schemas (no title: a host falls back to the name, and a model never reads it). */
export function listedTool(tool: ToolDefinition, inputSchema: JsonSchema, outputSchema: JsonSchema): ListedTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as ListedTool['inputSchema'],
    outputSchema: outputSchema as ListedTool['outputSchema'],
    annotations: { ...READ_ONLY, ...tool.annotations },
  };
}

/** The tool a tools/call names, or InvalidParams naming the known ones. */
export function toolNamed(tools: ReadonlyMap<string, ServedTool>, name: unknown): ServedTool {
  const tool = typeof name === 'string' ? tools.get(name) : undefined;
  if (!tool) throw new InvalidParams(`Unknown tool "${String(name)}". Known tools: ${[...tools.keys()].join(', ')}.`);
  return tool;
}

/**
 * One tools/call: InvalidParams for arguments the schema refuses; otherwise the tool's answer,
 * or its failure as an isError result with { error: { code, message, hint, data } }.
 */
export async function callTool(tool: ServedTool, provider: IndexProvider, args: unknown, options: CallOptions = {}): Promise<ToolCallResult> {
  const given = args ?? {};
  const issues = tool.check(given);
  if (issues.length) throw new InvalidParams(`Invalid arguments for ${tool.definition.name}: ${describeIssues(issues)}`);
  const signer = options.planSigner;
  const context: ToolContext = { signPlan: async (plan) => (signer ? signer.sign(plan) : plan) };
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
  let result: ToolCallResult;
  try {
    const answer = await tool.definition.run(tracked, given as never, context);
    result = { content: [{ type: 'text', text: tool.definition.render(answer, given as never) }], structuredContent: answer as Record<string, unknown> };
  } catch (error) {
    result = errorResult(error) as ToolCallResult;
  }
  if (options.onCall) {
    const reader = opened.at(-1)?.reader;
    const read = new Set(opened.flatMap((o) => o.reader.shardsRead.slice(o.read)));
    const fetched = new Set(opened.flatMap((o) => o.reader.shardsFetched.slice(o.fetched)));
    options.onCall({
      tool: tool.definition.name,
      outcome: result.isError ? String((result.structuredContent as { error: { code: string } }).error.code) : 'ok',
      ms: Date.now() - started,
      ...(reader ? { repo: reader.repo, commit: reader.commit } : {}),
      shardsRead: read.size,
      cacheHits: [...read].filter((name) => !fetched.has(name)).length,
    });
  }
  return result;
}
