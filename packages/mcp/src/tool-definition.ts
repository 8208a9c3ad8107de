// The shape of one tool: schemas, description for a model, the handler over an index, and the
// one-line-per-result text rendering.
import type * as z from 'zod';
import type { IndexProvider } from './index-provider.ts';

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(provider: IndexProvider, args: z.infer<I>): Promise<z.infer<O>>;
  render(result: z.infer<O>): string;
  /** MCP behaviour hints; absent: read-only, idempotent, closed-world (every read tool). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}
