// schemas/ must be exactly what the code generates now: a changed tool schema, a tool without
// files or a file without a tool fails here, and the failure says how to regenerate. The manifest
// schema is also checked against manifests built with the format package's own types, using the
// JSON Schema validator the MCP SDK ships (a declared dependency of this package), so it is known
// to accept real manifests and to reject broken ones.
/// <reference types="node" />
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { FORMAT_VERSION, type Manifest } from '@sextant/format';
import { sealPlan, textHash } from '@sextant/plan';
import { READ_TOOLS, TOOLS_LIST_TEXT } from '../src/index.ts';
import {
  MANIFEST_SCHEMA_FILE, PLAN_SCHEMA_FILE, REGENERATE_COMMAND, schemaFiles, SCHEMA_DIALECT, SCHEMA_ID_BASE, TOOL_CATALOG_FILE, toolCatalogSource,
} from '../scripts/schema-files.ts';
import { writeSchemas } from '../scripts/write-schemas.ts';
import { buildMemoryIndex, shopSpec } from '../../query/test/support/memory-index.ts';

const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));
const STALE = `schemas/ is out of date with the code. Regenerate it with \`${REGENERATE_COMMAND}\` and commit the result.`;

const generated = schemaFiles();

function published(path: string): string | undefined {
  const file = join(SCHEMAS_DIR, path);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

describe('schemas/ matches the code', () => {
  it('holds one input and one output schema per tool, and nothing else', () => {
    const expected = READ_TOOLS.flatMap((t) => [`${t.name}.input.json`, `${t.name}.output.json`]).sort();
    const actual = existsSync(join(SCHEMAS_DIR, 'tools')) ? readdirSync(join(SCHEMAS_DIR, 'tools')).sort() : [];
    const missing = expected.filter((name) => !actual.includes(name));
    const extra = actual.filter((name) => !expected.includes(name));
    expect({ missing, extra }, `${STALE}\nmissing: ${missing.join(', ') || 'none'}; files without a tool: ${extra.join(', ') || 'none'}`)
      .toEqual({ missing: [], extra: [] });
  });

  it.each([...generated.keys()])('%s is what the code generates now', (path) => {
    const actual = published(path);
    expect(actual, `${STALE}\nschemas/${path} is ${actual === undefined ? 'missing' : 'different'}.`).toBe(generated.get(path));
  });

  it('generates every tool schema with dialect, a unique $id and a title, as an object schema', () => {
    const ids = new Set<string>();
    for (const [path, text] of generated) {
      const schema = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(schema).slice(0, 4)).toEqual(['$schema', '$id', 'title', 'description']);
      expect(schema.$schema).toBe(SCHEMA_DIALECT);
      expect(schema.$id).toBe(`${SCHEMA_ID_BASE}${path}`);
      expect(schema.type).toBe('object');
      ids.add(schema.$id as string);
    }
    expect(ids.size).toBe(generated.size);
    expect(generated.size).toBe(READ_TOOLS.length * 2 + 2);
  });

  it('serializes as pretty JSON with two spaces and a trailing newline', () => {
    for (const text of generated.values()) {
      expect(text.endsWith('}\n')).toBe(true);
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});

describe('the worker\'s tool catalog (src/tool-catalog-data.ts)', () => {
  it('is what the code generates now', () => {
    const file = join(SCHEMAS_DIR, TOOL_CATALOG_FILE);
    const actual = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    expect(actual, `packages/mcp/src/tool-catalog-data.ts is out of date with the tools' schemas. Regenerate it with \`${REGENERATE_COMMAND}\` and commit the result.`)
      .toBe(toolCatalogSource());
  });

  it('lists every tool with the schemas schemas/ publishes for it', () => {
    const listed = JSON.parse(TOOLS_LIST_TEXT) as { name: string; description: string; inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> }[];
    expect(listed.map((t) => t.name)).toEqual(READ_TOOLS.map((t) => t.name));
    for (const tool of listed) {
      const { $schema: _i, $id: _ii, title: _it, description, ...input } = JSON.parse(generated.get(`tools/${tool.name}.input.json`)!) as Record<string, unknown>;
      const { $schema: _o, $id: _oi, title: _ot, description: _od, ...output } = JSON.parse(generated.get(`tools/${tool.name}.output.json`)!) as Record<string, unknown>;
      expect(tool.description).toBe(description);
      expect(tool.inputSchema).toEqual(input);
      expect(tool.outputSchema).toEqual(output);
    }
  });
});

describe('scripts/write-schemas.ts', () => {
  it('writes exactly the generated files, removes files of tools that do not exist, and is idempotent', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sextant-schemas-'));
    try {
      mkdirSync(join(root, 'tools'));
      writeFileSync(join(root, 'tools', 'retired_tool.input.json'), '{}\n');
      const first = await writeSchemas(root);
      expect(first.removed).toEqual(['tools/retired_tool.input.json']);
      expect(first.written.sort()).toEqual([...generated.keys()].sort());
      for (const [path, text] of generated) expect(readFileSync(join(root, path), 'utf8')).toBe(text);
      const second = await writeSchemas(root);
      expect(second).toEqual({ written: [], unchanged: [...generated.keys()], removed: [] });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('schemas/manifest.schema.json', () => {
  const schema = JSON.parse(generated.get(MANIFEST_SCHEMA_FILE)!) as Record<string, unknown>;
  const validate = new AjvJsonSchemaValidator().getValidator(schema);

  function complete(): Manifest {
    return {
      formatVersion: FORMAT_VERSION,
      repo: 'acme/widgets',
      commit: 'a'.repeat(40),
      commitDate: '2025-01-31T23:59:59-05:00',
      builtAt: '2025-02-01T05:00:00.123Z',
      indexer: { name: '@sextant/indexer', version: '0.1.0' },
      parsers: { typescript: '5.9.3', 'tree-sitter-typescript': '0.23.2' },
      layout: { symbolBucketBits: 16, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: 0, graphBucketBits: 0, gramBucketBits: 0 },
      counts: { files: 0, texts: 0, symbols: 0, references: 0, edges: 0, unresolved: 0 },
      languages: { typescript: { files: 3, precision: 'compiler' }, javascript: { files: 1, precision: 'syntactic' } },
      skipped: [
        { path: 'big.json', reason: 'too-large', detail: '2 MB over --max-file-bytes' },
        { path: 'vendor/lib', reason: 'submodule', detail: 'submodule' },
      ],
      warnings: ['tsconfig.json does not parse'],
      shards: { names: { sha256: '0'.repeat(64), bytes: 1, records: 0 }, 'symbols/ffff': { sha256: 'f'.repeat(64), bytes: 0, records: 0 } },
    };
  }

  it('accepts the manifest of an index built from the format package', () => {
    const { manifest } = buildMemoryIndex(shopSpec());
    expect(validate(JSON.parse(JSON.stringify(manifest))).errorMessage).toBeUndefined();
  });

  it('accepts a manifest using every optional shape (both languages, skipped files, warnings, unknown fields)', () => {
    expect(validate(complete()).errorMessage).toBeUndefined();
    expect(validate({ ...complete(), languages: {} }).valid).toBe(true);
    expect(validate({ ...complete(), addedLater: true }).valid).toBe(true);
  });

  const broken: [string, (m: Record<string, unknown>) => void][] = [
    ['another formatVersion', (m) => { m.formatVersion = FORMAT_VERSION + 1; }],
    ['an abbreviated commit', (m) => { m.commit = 'a'.repeat(12); }],
    ['an uppercase commit', (m) => { m.commit = 'A'.repeat(40); }],
    ['a commitDate that is not ISO 8601', (m) => { m.commitDate = 'yesterday'; }],
    ['no skipped list', (m) => { delete m.skipped; }],
    ['no shards', (m) => { delete m.shards; }],
    ['a shard checksum that is not 64 lowercase hex digits', (m) => { m.shards = { names: { sha256: 'abc', bytes: 1, records: 0 } }; }],
    ['a shard entry without its record count', (m) => { m.shards = { names: { sha256: '0'.repeat(64), bytes: 1 } }; }],
    ['a shard entry that is null', (m) => { m.shards = { names: null }; }],
    ['a negative count', (m) => { m.counts = { files: -1, symbols: 0, references: 0, edges: 0 }; }],
    ['a fractional count', (m) => { m.counts = { files: 1.5, symbols: 0, references: 0, edges: 0 }; }],
    ['an unknown language', (m) => { m.languages = { cobol: { files: 1, precision: 'compiler' } }; }],
    ['an unknown skip reason', (m) => { m.skipped = [{ path: 'x', reason: 'boring', detail: '' }]; }],
    ['more bucket bits than any reader addresses', (m) => { m.layout = { symbolBucketBits: 21, fileBucketBits: 0 }; }],
  ];

  it.each(broken)('rejects a manifest with %s', (_label, breakIt) => {
    const manifest = complete() as unknown as Record<string, unknown>;
    breakIt(manifest);
    expect(validate(manifest).valid).toBe(false);
  });
});

describe('schemas/plan.schema.json', () => {
  const validate = new AjvJsonSchemaValidator().getValidator(JSON.parse(generated.get(PLAN_SCHEMA_FILE)!) as Record<string, unknown>);
  const plan = () => sealPlan({
    format: 1, operation: 'safe_delete', arguments: { qualifiedName: 'Cache.drop' }, repo: 'acme/shop', commit: 'c'.repeat(40), planner: 'index',
    symbol: { symbolId: 'k@c', name: 'drop', kind: 'method', qualifiedName: 'Cache.drop', language: 'typescript', path: 'src/cache.ts', line: 3, column: 3 },
    files: [
      { path: 'src/cache.ts', change: 'modify', expectedHash: textHash('a'), resultHash: textHash(''), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 2, newText: '' }] },
      { path: 'src/new.ts', change: 'create', expectedHash: null, resultHash: textHash('b'), edits: [{ line: 1, column: 1, endLine: 1, endColumn: 1, newText: 'b' }] },
    ],
    conflicts: [{ kind: 'usage', message: 'call of Cache.drop', path: 'src/app.ts', line: 9, column: 5 }],
  });

  it('accepts a plan sealed by the format package', () => {
    expect(validate(JSON.parse(JSON.stringify(plan()))).errorMessage).toBeUndefined();
  });

  it.each([
    ['a plan hash that is not BLAKE3 hex', (p: Record<string, any>) => { p.planHash = 'x'; }],
    ['an unknown operation', (p: Record<string, any>) => { p.operation = 'explode'; }],
    ['an edit at column 0', (p: Record<string, any>) => { p.files[0].edits[0].column = 0; }],
    ['an unknown conflict kind', (p: Record<string, any>) => { p.conflicts[0].kind = 'bad-vibes'; }],
  ])('rejects %s', (_label, breakIt) => {
    const broken = JSON.parse(JSON.stringify(plan())) as Record<string, any>;
    breakIt(broken);
    expect(validate(broken).valid).toBe(false);
  });
});
