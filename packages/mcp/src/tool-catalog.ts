// The tool catalog: tools/list as the registry's zod schemas describe it, and each tool's argument
// schema, generated ahead of time into tool-catalog-data.ts (`npm run schemas -w @sextant/mcp`; a
// test fails on any drift). The worker serves READ_TOOLS from it, so a fresh isolate neither
// converts zod schemas to JSON Schema nor builds a zod parser before its first answer.
import { ARGUMENT_SCHEMAS, TOOLS_LIST_JSON } from './tool-catalog-data.ts';
import { checkArguments } from './argument-check.ts';
import type { ServedTool } from './tool-call.ts';
import type { ToolDefinition } from './tool-definition.ts';

/** The `tools` of a tools/list result, as JSON text. */
export const TOOLS_LIST_TEXT: string = TOOLS_LIST_JSON;

/**
 * The tools as served from the catalog, by name. A tool the catalog does not hold (a catalog older
 * than the code) fails here, when the server is built, rather than being served unchecked.
 */
export function catalogTools(tools: readonly ToolDefinition[], schemas: Record<string, Record<string, unknown>> = ARGUMENT_SCHEMAS): Map<string, ServedTool> {
  return new Map(tools.map((tool) => {
    const schema = schemas[tool.name];
    if (!schema) throw new Error(`tool-catalog-data.ts has no ${tool.name}; regenerate it with \`npm run schemas -w @sextant/mcp\``);
    return [tool.name, { definition: tool, check: (args: unknown) => checkArguments(schema, args) }];
  }));
}
