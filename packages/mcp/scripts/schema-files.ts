// The contents of schemas/: one input and one output JSON Schema per tool of READ_TOOLS, plus the
// schemas of the index manifest and of a refactoring plan. Pure (no file system), so
// write-schemas.ts writes exactly what test/schemas.test.ts compares against.
//
// A tool's published schema is what tools/list serves (inputJsonSchema / outputJsonSchema) with
// `$schema`, `$id`, `title` and `description` in front: zod's toJSONSchema targets draft 2020-12,
// and the MCP SDK strips nothing else, so clients see the same constraints the files state.
import * as z from 'zod';
import { inputJsonSchema, outputJsonSchema, planSchema, READ_TOOLS, type ToolDefinition } from '../src/index.ts';
import { manifestSchema } from './manifest-schema.ts';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
/**
 * Base of every `$id`. A URN, because the project has no public URL to host the files under and an
 * `https://` id would claim a domain; it is one constant to change when one exists.
 */
export const SCHEMA_ID_BASE = 'urn:sextant:schemas:';
export const REGENERATE_COMMAND = 'npm run schemas -w @sextant/mcp';
export const MANIFEST_SCHEMA_FILE = 'manifest.schema.json';
export const PLAN_SCHEMA_FILE = 'plan.schema.json';

type JsonSchema = Record<string, unknown>;

/** Pretty JSON, two spaces, trailing newline: the one serialization, so comparisons are byte-exact. */
export function serialize(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function toolSchemaPaths(tool: Pick<ToolDefinition, 'name'>): { input: string; output: string } {
  return { input: `tools/${tool.name}.input.json`, output: `tools/${tool.name}.output.json` };
}

function header(path: string, title: string, description: string): JsonSchema {
  return { $schema: SCHEMA_DIALECT, $id: `${SCHEMA_ID_BASE}${path}`, title, description };
}

/** Published schemas by path relative to schemas/, in a stable order. */
export function schemaFiles(tools: readonly ToolDefinition[] = READ_TOOLS): Map<string, string> {
  const files = new Map<string, string>();
  for (const tool of tools) {
    const paths = toolSchemaPaths(tool);
    files.set(paths.input, serialize({
      ...header(paths.input, `${tool.title} (${tool.name}): arguments`, tool.description),
      ...inputJsonSchema(tool),
    }));
    files.set(paths.output, serialize({
      ...header(paths.output, `${tool.title} (${tool.name}): structuredContent`,
        `The structuredContent of a ${tool.name} result: the answer, or, when isError is true, { error: { code, message, hint, data } }.`),
      ...outputJsonSchema(tool),
    }));
  }
  // io 'input': objects stay open (no additionalProperties: false), as parseManifest ignores fields
  // it does not know, so a newer indexer of the same format version may add some.
  const { $schema: _dialect, ...manifest } = z.toJSONSchema(manifestSchema, { io: 'input' }) as JsonSchema;
  files.set(MANIFEST_SCHEMA_FILE, serialize({
    ...header(MANIFEST_SCHEMA_FILE, 'Sextant index manifest',
      'manifest.json of a Sextant index: what the index is (repo, commit, tool versions), what it holds, and the checksum of every shard.'),
    ...manifest,
  }));
  // Open objects too: parsePlan ignores fields it does not know, and the plan hash covers them all.
  const { $schema: _planDialect, ...plan } = z.toJSONSchema(planSchema, { io: 'input' }) as JsonSchema;
  files.set(PLAN_SCHEMA_FILE, serialize({
    ...header(PLAN_SCHEMA_FILE, 'Sextant refactoring plan',
      'A refactoring planned by plan_rename, plan_safe_delete or a runner preview: the operation and its arguments, the repo and commit it was planned against, per file the BLAKE3 hash of the content it expects and the edits, the conflicts found, and a planHash over all of it in canonical form. Applied by `runner apply`.'),
    ...plan,
  }));
  return files;
}
