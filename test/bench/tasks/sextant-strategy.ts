// The Sextant side of the task benchmark: the fewest tool calls a model would make through the
// real MCP SDK client against `runner mcp --index <corpus index>` over stdio: a position → the tool
// → reading only what the answer lacks. Every call's `content` text is counted (what the model
// reads); the answer is taken from structuredContent, which says the same in fields.
//
// Steps that later tools make cheaper are named (readDeclaration, and the `context` argument of
// site lists) and switch on from the tools' own input schemas in tools/list, so the bench measures
// whatever the server serves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parsePosition, type Answer, type Attempt, type Task } from './task-types.ts';

const RUNNER = new URL('../../../packages/runner/bin/runner.js', import.meta.url).pathname;

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
}

/** What the served tools accept, read from tools/list: the steps that use newer inputs switch on by it. */
export interface ServedFeatures {
  /** read_file takes a symbolId and answers with the symbol's declaration. */
  readBySymbol: boolean;
  /** Site lists take `context` and give each site its own line. */
  siteContext: boolean;
}

export class SextantSession {
  private constructor(private readonly client: Client, private readonly configHome: string, readonly features: ServedFeatures, readonly toolsListChars: number) {}

  static async start(index: string): Promise<SextantSession> {
    // The runner keeps per-user state under XDG_CONFIG_HOME: a scratch one, never the user's.
    const configHome = mkdtempSync(join(tmpdir(), 'sextant-tasks-config-'));
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    const client = new Client({ name: 'sextant-task-bench', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [RUNNER, 'mcp', '--index', index], env: { ...env, XDG_CONFIG_HOME: configHome }, stderr: 'ignore' }));
    const { tools } = await client.listTools();
    const inputOf = (name: string) => (tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as Record<string, unknown>;
    const features = { readBySymbol: 'symbolId' in inputOf('read_file'), siteContext: 'context' in inputOf('find_references') };
    return new SextantSession(client, configHome, features, JSON.stringify(tools).length);
  }

  async close(): Promise<void> {
    await this.client.close();
    rmSync(this.configHome, { recursive: true, force: true });
  }

  /** Solves one task, counting calls and the characters of every content text returned. */
  async solve(task: Task): Promise<Attempt> {
    const trace: string[] = [];
    let chars = 0;
    const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, any>> => {
      trace.push(`${name} ${JSON.stringify(args)}`);
      const result = (await this.client.callTool({ name, arguments: args })) as ToolResult;
      const text = result.content.map((c) => c.text ?? '').join('\n');
      chars += text.length;
      if (result.isError) throw new ToolError(name, text);
      return result.structuredContent!;
    };
    const { path, line, column } = parsePosition(task.at);
    const at = { path, line, column };
    let answer: Answer;
    try {
      answer = await STRATEGIES[task.kind]({ call, at, features: this.features });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      answer = { items: [], note: error.message };
    }
    return { calls: trace.length, chars, answer, trace };
  }
}

class ToolError extends Error {
  constructor(tool: string, text: string) {
    super(`${tool} failed: ${text.split('\n')[0]}`);
  }
}

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, any>>;

interface StrategyContext {
  call: Call;
  at: { path: string; line: number; column: number };
  features: ServedFeatures;
}

type Strategy = (context: StrategyContext) => Promise<Answer>;

/** Every page of a paged list (a model continues with nextCursor while hasMore). */
async function allPages(call: Call, name: string, args: Record<string, unknown>, field: string): Promise<{ first: Record<string, any>; items: any[] }> {
  let page = await call(name, args);
  const first = page;
  const items = [...page[field]];
  while (page.hasMore && page.nextCursor) {
    page = await call(name, { ...args, cursor: page.nextCursor });
    items.push(...page[field]);
  }
  return { first, items };
}

/**
 * A call graph one step deep; asked again at the largest bound when maxNodes cut it (a cut by depth
 * 1 is the question asked: the callers' own callers are not wanted).
 */
async function callGraph(call: Call, args: Record<string, unknown>): Promise<Record<string, any>> {
  const graph = await call('call_hierarchy', { ...args, depth: 1 });
  return /maxNodes/.test(graph.truncationReason ?? '') ? call('call_hierarchy', { ...args, depth: 1, maxNodes: 1000 }) : graph;
}

/** A called parameter is a value passed in, not a function of the repository: the reader leaves it out. */
const NOT_DECLARED_FUNCTIONS = new Set(['parameter']);

/**
 * Reads a declaration the answer points at but does not show. Today: read_file by path from the
 * declaration's line (30 lines); with read_file by symbol, the symbol's own range.
 */
async function readDeclaration(context: StrategyContext, symbol: { symbolId: string }, location: { path: string; line: number }): Promise<void> {
  if (context.features.readBySymbol) await context.call('read_file', { symbolId: symbol.symbolId });
  else await context.call('read_file', { path: location.path, startLine: location.line, limit: 30 });
}

const USE_KINDS = ['call', 'new', 'read', 'write', 'type', 'inherit', 'jsx', 'decorator'];

export const STRATEGIES: Record<Task['kind'], Strategy> = {
  async callers({ call, at }) {
    const graph = await callGraph(call, { ...at, direction: 'callers' });
    const sites = graph.edges.filter((e: any) => e.to === graph.symbol.symbolId).flatMap((e: any) => e.sites);
    return { items: unique(sites.map((s: any) => `${s.path}:${s.line}`)) };
  },
  async callees({ call, at }) {
    const graph = await callGraph(call, { ...at, direction: 'callees' });
    const nodes = graph.nodes.filter((n: any) => n.depth === 1 && n.path !== undefined && !n.external && !NOT_DECLARED_FUNCTIONS.has(n.kind));
    return { items: unique(nodes.map((n: any) => `${n.name}@${n.path}`)) };
  },
  async implementations({ call, at }) {
    const { items } = await allPages(call, 'find_implementations', { ...at, limit: 1000 }, 'results');
    return { items: unique(items.filter((r: any) => r.kind === 'class').map((r: any) => `${r.path}#${r.name}`)) };
  },
  async 'used-outside-tests'({ call, at }) {
    const answer = await call('find_references', { ...at, includeTests: false, kinds: USE_KINDS, limit: 1 });
    return { items: [answer.total > 0 ? 'yes' : 'no'] };
  },
  async overload({ call, at }) {
    const answer = await call('goto_definition', at);
    return { items: unique(answer.definitions.map((d: any) => `${d.path}:${d.line}`)) };
  },
  async definition(context) {
    const answer = await context.call('goto_definition', context.at);
    const definitions = answer.definitions as { path: string; line: number }[];
    // The question asks for the definition: a model reads it (the answer has one preview line).
    if (definitions[0]) await readDeclaration(context, answer.symbol, definitions[0]);
    return { items: unique(definitions.map((d) => `${d.path}:${d.line}`)) };
  },
  async 'rename-files'({ call, at }) {
    const answer = await call('find_references', { ...at, includeDeclaration: true, groupByFile: true, limit: 1 });
    return { items: unique((answer.files ?? []).map((f: any) => f.path)) };
  },
};

function unique(items: string[]): string[] {
  return [...new Set(items)].sort();
}
