// @sextant/mcp: everything in this barrel is public API. The one tool registry, served by the worker
// (Streamable HTTP) and the runner (stdio). Runtime-neutral, and free of the MCP SDK at run time:
// the SDK's server, which the runner serves over stdio, is `@sextant/mcp/sdk-server`.
export * from './index-provider.ts';
export * from './index-set-provider.ts';
export * from './tool-definition.ts';
export * from './registry.ts';
export * from './json-schemas.ts';
export * from './error-result.ts';
export * from './tool-call.ts';
export * from './tool-catalog.ts';
export * from './argument-check.ts';
export * from './server-instructions.ts';
export * from './tools-list-cost.ts';
export * from './tools/plan-schema.ts';
export { schemaParts } from './schema-parts.ts';
