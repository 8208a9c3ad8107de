// Zod pieces shared by the tools' input and output schemas.
import * as z from 'zod';
import { CONFIDENCES, ERROR_CODES, LANGUAGES, REFERENCE_KINDS, SYMBOL_KINDS } from '@sextant/format';

export const commitInput = {
  repo: z.string().min(3).max(201).optional()
    .describe('Repository as owner/name. Default: the repository of the endpoint (/mcp/<owner>/<repo>) or of the runner\'s index; required on the multi-repository endpoint /mcp.'),
  commit: z.string().min(1).max(256).optional()
    .describe('Commit sha (full or at least 7 characters) or ref to answer from. Default: the commit of `cursor` when continuing a list, else the indexed commit (runner) or the repository\'s default ref (worker). Never silently answered from another commit. The hosted server re-reads a ref at most every 5 s, so for up to 5 s after a ref moves it may answer from the ref\'s previous commit (every answer names its commit); a sha is never stale.'),
};

export const targetInput = {
  symbolId: z.string().max(64).optional()
    .describe('A symbolId exactly as a previous result gave it (`<key>@<commit>`). Preferred: it is exact and chains between tools.'),
  path: z.string().max(4096).optional().describe('Repository-relative file path; with line and column.'),
  line: z.number().int().min(1).optional().describe('1-based line; with path and column.'),
  column: z.number().int().min(1).optional()
    .describe('1-based column in UTF-16 code units, anywhere on the identifier; with path and line.'),
  qualifiedName: z.string().max(1024).optional()
    .describe('Dotted name inside its module, e.g. `OrderService.submit`, optionally `path:OrderService.submit`.'),
  name: z.string().max(512).optional()
    .describe('Exact, case-sensitive symbol name. Several matches give AMBIGUOUS_SYMBOL with the candidates.'),
};

export const pageInput = (bounds: { defaultLimit: number; maxLimit: number }) => ({
  limit: z.number().int().min(1).max(bounds.maxLimit).optional()
    .describe(`Page size, default ${bounds.defaultLimit}, at most ${bounds.maxLimit}.`),
  cursor: z.string().max(2048).optional()
    .describe('nextCursor from the previous page of the same call; stateless and valid for as long as the commit is indexed.'),
});

export const symbolKind = z.enum(SYMBOL_KINDS);
export const referenceKind = z.enum(REFERENCE_KINDS);
export const language = z.enum(LANGUAGES);
export const confidence = z.enum(CONFIDENCES)
  .describe('exact: resolved by a compiler; resolved: scope and import resolution found exactly one declaration; candidate: a name match only.');

export const answerOutput = {
  repo: z.string().describe('Repository the answer comes from.'),
  commit: z.string().describe('Full sha of the indexed commit the answer comes from.'),
};

export const location = {
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
};

export const external = z.object({ package: z.string(), version: z.string().optional() });

export const symbolSummary = z.object({
  symbolId: z.string(),
  name: z.string(),
  kind: symbolKind,
  qualifiedName: z.string(),
  language,
  path: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  endLine: z.number().int().optional(),
  endColumn: z.number().int().optional(),
  external: external.optional(),
});

export const previewedLocation = z.object({ ...location, preview: z.string().optional().describe('The line, trimmed.') });

export const pathsInput = z.array(z.string().min(1).max(512)).max(64)
  .describe('Globs over repository-relative paths (`src/**`, `*.test.ts`); a leading ! excludes (`!**/generated/**`).');

export const graphBounds = (bounds: { depth: { default: number; max: number }; maxNodes: { default: number; max: number } }) => ({
  depth: z.number().int().min(1).max(bounds.depth.max).optional()
    .describe(`How many steps from the target, default ${bounds.depth.default}, at most ${bounds.depth.max}.`),
  maxNodes: z.number().int().min(1).max(bounds.maxNodes.max).optional()
    .describe(`At most this many symbols in the graph, default ${bounds.maxNodes.default}, at most ${bounds.maxNodes.max}.`),
});

export const graphOutput = {
  total: z.number().int().describe('Number of nodes returned.'),
  totalIsExact: z.boolean().describe('False when a bound cut the graph.'),
  hasMore: z.boolean(),
  truncationReason: z.string().optional(),
};

export const peer = z.object({ symbolId: z.string(), name: z.string(), kind: symbolKind });

export const pageOutput = {
  total: z.number().int().describe('Number of results for the whole query, not only this page.'),
  totalIsExact: z.boolean(),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  truncationReason: z.string().optional().describe('Which bound cut this answer (limit, depth, maxNodes).'),
};

export const errorOutput = z.object({
  repo: z.string().optional(),
  commit: z.string().optional(),
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    hint: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
});
