// JSON Schemas of the tools' input and output, generated from the zod schemas. tools/list serves
// these and `schemas/` publishes them; a test keeps the two equal.
import * as z from 'zod';
import { errorOutput } from './schema-parts.ts';
import type { ToolDefinition } from './tool-definition.ts';

type JsonSchema = Record<string, unknown>;

// Generated once per tool and process: converting every tool's schemas costs milliseconds, and the
// worker would otherwise pay it on every tools/list (a fresh server per request).
const inputs = new WeakMap<ToolDefinition, JsonSchema>();
const outputs = new WeakMap<ToolDefinition, JsonSchema>();

export function inputJsonSchema(tool: ToolDefinition): JsonSchema {
  let schema = inputs.get(tool);
  if (!schema) inputs.set(tool, schema = strip(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema));
  return schema;
}

/** Success or a structured tool error; MCP wants an object at the root, so both sit under anyOf. */
export function outputJsonSchema(tool: ToolDefinition): JsonSchema {
  let schema = outputs.get(tool);
  if (!schema) outputs.set(tool, schema = buildOutputJsonSchema(tool));
  return schema;
}

function buildOutputJsonSchema(tool: ToolDefinition): JsonSchema {
  const { $defs: successDefs, ...success } = strip(z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  const error = strip(z.toJSONSchema(errorOutput, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  // `#/$defs/…` references (recursive outlines) resolve from the root, so the definitions live there.
  return { type: 'object', anyOf: [success, error], ...(successDefs ? { $defs: successDefs } : {}) };
}

function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
