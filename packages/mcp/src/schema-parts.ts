// Zod pieces shared by the tools' input and output schemas, built on first use (schemaParts): a tool's
// schemas are built only when something reads them (tool-definition.ts), which the worker never does.
import * as z from 'zod';
import { CONFIDENCES, ERROR_CODES, LANGUAGES, REFERENCE_KINDS, SYMBOL_KINDS } from '@sextant/format';

/** The shared pieces, built once, on the first call. */
export const schemaParts = once(() => {
  // Input descriptions of the arguments every tool shares are said once, in the server's instructions
  // (server-instructions.ts), not in each tool: a model pays for tools/list in every session.
  const commitInput = {
    repo: z.string().min(3).max(201).optional(),
    commit: z.string().min(1).max(256).optional(),
  };

  const targetInput = {
    symbolId: z.string().max(64).optional(),
    path: z.string().max(4096).optional(),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
    qualifiedName: z.string().max(1024).optional(),
    name: z.string().max(512).optional(),
  };

  /** Lines of source around each site of a list (the site's own line is always given). */
  const contextInput = { context: z.number().int().min(0).max(3).optional() };

  const symbolKind = z.enum(SYMBOL_KINDS);
  const referenceKind = z.enum(REFERENCE_KINDS);
  const language = z.enum(LANGUAGES);
  const confidence = z.enum(CONFIDENCES)
    .describe('exact: resolved by a compiler (or the precise indexer that wrote a SCIP index); resolved: scope and import resolution found exactly one declaration; candidate: a name match only.');

  const answerOutput = {
    repo: z.string().describe('Repository the answer comes from.'),
    commit: z.string().describe('Full sha of the indexed commit the answer comes from.'),
  };

  const location = {
    path: z.string(),
    line: z.number().int(),
    column: z.number().int(),
    endLine: z.number().int(),
    endColumn: z.number().int(),
  };

  const external = z.object({ package: z.string(), version: z.string().optional() });

  const symbolSummary = z.object({
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

  /** What withSiteLines adds to each site of a list. */
  const siteLines = {
    text: z.string().describe('The site\'s line.'),
    before: z.array(z.string()).optional().describe('With context: the lines before it.'),
    after: z.array(z.string()).optional().describe('With context: the lines after it.'),
  };

  const previewedLocation = z.object({ ...location, preview: z.string().optional().describe('The line, trimmed.') });

  const pathsInput = z.array(z.string().min(1).max(512)).max(64);

  const graphOutput = {
    total: z.number().int().describe('Number of nodes returned.'),
    totalIsExact: z.boolean().describe('False when a bound cut the graph.'),
    hasMore: z.boolean(),
    truncationReason: z.string().optional(),
  };

  const peer = z.object({ symbolId: z.string(), name: z.string(), kind: symbolKind });

  const pageOutput = {
    total: z.number().int().describe('Number of results for the whole query, not only this page.'),
    totalIsExact: z.boolean(),
    hasMore: z.boolean(),
    nextCursor: z.string().optional(),
    truncationReason: z.string().optional().describe('Which bound cut this answer (limit, depth, maxNodes).'),
  };

  /** Identifiers nobody could resolve that might belong in the answer (query unresolved.ts); with any, totalIsExact is false. */
  const unresolvedOutput = z.object({
    count: z.number().int(),
    examples: z.array(z.object({ path: z.string(), line: z.number().int(), column: z.number().int(), name: z.string() })).describe('The first few, production code first.'),
  });

  const errorOutput = z.object({
    repo: z.string().optional(),
    commit: z.string().optional(),
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      hint: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
    }),
  });
  return { commitInput, targetInput, contextInput, symbolKind, referenceKind, language, confidence, answerOutput, location, external, symbolSummary, siteLines, previewedLocation, pathsInput, graphOutput, peer, pageOutput, unresolvedOutput, errorOutput };
});

export const pageInput = (bounds: { defaultLimit: number; maxLimit: number }) => ({
  limit: z.number().int().min(1).max(bounds.maxLimit).optional(),
  cursor: z.string().max(2048).optional(),
});
export const graphBounds = (bounds: { depth: { default: number; max: number }; maxNodes: { default: number; max: number } }) => ({
  depth: z.number().int().min(1).max(bounds.depth.max).optional(),
  maxNodes: z.number().int().min(1).max(bounds.maxNodes.max).optional(),
});

/** `build`'s value, computed on the first call and kept. */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
