// @sextant/mcp: everything in this barrel is public API. The one tool registry, served by the worker
// (Streamable HTTP) and the runner (stdio). Runtime-neutral, and free of the MCP SDK at run time:
// the SDK's server, which the runner serves over stdio, is `@sextant/mcp/sdk-server`.
export type { IndexProvider, IndexRequest } from './index-provider.ts';
export { IndexSetProvider } from './index-set-provider.ts';
export type { DefaultChoice, IndexCatalog, IndexedCommit } from './index-set-provider.ts';
export { defineTool } from './tool-definition.ts';
export type { ToolContext, ToolDefinition } from './tool-definition.ts';
export { READ_TOOLS } from './registry.ts';
export { argumentJsonSchema, inputJsonSchema, outputJsonSchema } from './json-schemas.ts';
export { callTool, InvalidParams, listedTool, toolNamed } from './tool-call.ts';
export type { CallOptions, CallRecord } from './tool-call.ts';
export { catalogTools, TOOLS_LIST_TEXT } from './tool-catalog.ts';
export { checkArguments, describeIssues, unknownKeywords } from './argument-check.ts';
export { SERVER_INSTRUCTIONS } from './server-instructions.ts';
export { modelFacingBytes, TOOLS_LIST_BUDGET } from './tools-list-cost.ts';
export { planSchemas } from './tools/plan-schema.ts';
export { schemaParts } from './schema-parts.ts';
