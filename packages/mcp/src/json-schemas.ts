// JSON Schemas of the tools' input and output, generated from the zod schemas. tools/list serves
// these and `schemas/` publishes them; a test keeps the two equal.
import * as z from 'zod';
import { schemaParts } from './schema-parts.ts';
import type { ToolDefinition } from './tool-definition.ts';

type JsonSchema = Record<string, unknown>;

// Generated once per tool and process: converting every tool's schemas costs milliseconds, and the
// worker would otherwise pay it on every tools/list (a fresh server per request).
const inputs = new WeakMap<ToolDefinition, JsonSchema>();
const outputs = new WeakMap<ToolDefinition, JsonSchema>();
const argumentSchemas = new WeakMap<ToolDefinition, JsonSchema>();

export function inputJsonSchema(tool: ToolDefinition): JsonSchema {
  let schema = inputs.get(tool);
  if (!schema) {
    const generated = strip(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    inputs.set(tool, schema = without(generated, isArgumentGuard) as JsonSchema);
  }
  return schema;
}

/**
 * What a call's arguments are checked against (argument-check.ts): the input schema with every bound
 * the server enforces, which the model-facing inputJsonSchema leaves out, and no descriptions.
 */
export function argumentJsonSchema(tool: ToolDefinition): JsonSchema {
  let schema = argumentSchemas.get(tool);
  if (!schema) {
    const generated = strip(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    argumentSchemas.set(tool, schema = without(generated, (key, value) => key === 'description' && typeof value === 'string') as JsonSchema);
  }
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
  const error = strip(z.toJSONSchema(schemaParts().errorOutput, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  // `#/$defs/…` references (recursive outlines) resolve from the root, so the definitions live there.
  return { type: 'object', anyOf: [success, error], ...(successDefs ? { $defs: successDefs } : {}) };
}

function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return without(rest, isSafeIntegerBound) as JsonSchema;
}

/** The schema with every keyword `drop` picks left out, at any depth. */
function without(node: unknown, drop: (key: string, value: unknown) => boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => without(item, drop));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (!drop(key, value)) out[key] = without(value, drop);
  return out;
}

/**
 * zod states every `int()` as bounded by ±(2^53 - 1): true of every JSON number a client can send
 * exactly, so it says nothing, and it is 40 bytes per integer in a tools/list a model pays for.
 */
function isSafeIntegerBound(key: string, value: unknown): boolean {
  return (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER);
}

/**
 * Arguments' string lengths and array sizes are bounded against abuse, not to say what a value
 * means: the server enforces them (an InvalidParams error names the bound), and the input schemas
 * a model reads in every session leave them out. So do the natural lower bound of a count or a
 * 1-based position (the instructions say it once) and `additionalProperties: false` (an unknown
 * argument is rejected by name). Upper integer bounds stay: they are meaning (limit at most 500,
 * context at most 3).
 */
function isArgumentGuard(key: string, value: unknown): boolean {
  return (typeof value === 'number' && SIZE_BOUNDS.has(key)) || (key === 'minimum' && (value === 0 || value === 1))
    || (key === 'additionalProperties' && value === false);
}

const SIZE_BOUNDS = new Set(['minLength', 'maxLength', 'maxItems']);
