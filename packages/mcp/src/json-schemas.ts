// JSON Schemas of the tools' input and output, generated from the zod schemas. tools/list serves
// these and `schemas/` publishes them; a test keeps the two equal.
import * as z from 'zod';
import { errorOutput } from './schema-parts.ts';
import type { ToolDefinition } from './tool-definition.ts';

type JsonSchema = Record<string, unknown>;

export function inputJsonSchema(tool: ToolDefinition): JsonSchema {
  return strip(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

/** Success or a structured tool error; MCP wants an object at the root, so both sit under anyOf. */
export function outputJsonSchema(tool: ToolDefinition): JsonSchema {
  const { $defs: successDefs, ...success } = strip(z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  const error = strip(z.toJSONSchema(errorOutput, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  // `#/$defs/…` references (recursive outlines) resolve from the root, so the definitions live there.
  return { type: 'object', anyOf: [success, error], ...(successDefs ? { $defs: successDefs } : {}) };
}

function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
