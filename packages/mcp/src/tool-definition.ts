// The shape of one tool: schemas, description for a model, the handler over an index, and the
// one-line-per-result text rendering.
import type * as z from 'zod';
import type { Plan } from '@sextant/plan';
import type { IndexProvider } from './index-provider.ts';

/** What a tool gets from the server it runs in, besides the index. */
export interface ToolContext {
  /** Signs a plan the tool hands out with the server's key (the worker's secret, the runner's user key); unchanged where there is none. */
  signPlan(plan: Plan): Promise<Plan>;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  readonly input: I;
  readonly output: O;
  run(provider: IndexProvider, args: z.infer<I>, context: ToolContext): Promise<z.infer<O>>;
  /** The `content` text; `args` are the call's, for tools whose rendering the caller chooses (format). */
  render(result: z.infer<O>, args: z.infer<I>): string;
  /** MCP behaviour hints; absent: read-only, idempotent, closed-world (every read tool). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
}

/**
 * What a tool module declares: the definition, with its zod schemas behind a function, so they are
 * built (once) when something reads `input` or `output`, never merely because the module was
 * loaded. The worker never reads them: it checks arguments against the generated catalog, so a
 * fresh isolate builds none of the tools' zod schemas.
 */
interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> extends Omit<ToolDefinition<I, O>, 'input' | 'output'> {
  schemas(): { input: I; output: O };
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>({ schemas, ...spec }: ToolSpec<I, O>): ToolDefinition {
  let built: { input: I; output: O } | undefined;
  const schema = () => (built ??= schemas());
  return Object.defineProperties(spec, {
    input: { get: () => schema().input, enumerable: true },
    output: { get: () => schema().output, enumerable: true },
  }) as unknown as ToolDefinition;
}
