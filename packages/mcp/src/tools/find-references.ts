// find_references: every use of one symbol, resolved by the compiler.
import * as z from 'zod';
import { findReferences, REFERENCES_PAGE } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import {
  answerOutput, commitInput, confidence, location, pageInput, pageOutput, pathsInput, peer, referenceKind, symbolSummary, targetInput,
} from '../schema-parts.ts';
import { renderLocation, renderPage, renderSymbol } from '../render.ts';

export const findReferencesTool = defineTool({
  name: 'find_references',
  title: 'Find references',
  description:
    'Every place that uses one symbol, resolved semantically: through aliased imports, re-exports and default exports, and never mixing up two symbols that share a name (OrderRepository.save vs ImageCache.save). Target by symbolId, path + line + column, qualifiedName or exact name. Each reference has a kind (call, new, read, write, type, import, export, inherit, jsx, decorator) and the symbol whose body contains it (its symbolId chains to other tools). For a member, the references of related members are included, as Find All References in an editor does: the members it overrides or implements, every member overriding or implementing those, and the same-named members of the other object types of a union it is declared in (each such hit names that member in via; related lists them; includeRelated false turns it off). Filter with kinds; includeDeclaration adds the declarations (default false). Ordered by path and position; page size default 200, at most 2000; page with nextCursor until hasMore is false.',
  input: z.strictObject({
    ...targetInput,
    kinds: z.array(referenceKind).max(16).optional().describe('Only references of these kinds.'),
    includeDeclaration: z.boolean().optional().describe('Also list the declarations, first (default false).'),
    paths: pathsInput.optional(),
    includeTests: z.boolean().optional().describe('Include references in test files (default true).'),
    includeGenerated: z.boolean().optional().describe('Include references in generated files (default true: generated code is sometimes the only path between two calls).'),
    minConfidence: confidence.optional().describe('Lowest confidence to return (default resolved: candidates, which are name matches only, are left out and counted in omittedBelowConfidence).'),
    groupByFile: z.boolean().optional().describe('Also return every referencing file of the whole result with its count.'),
    includeRelated: z.boolean().optional().describe('For a member, also the references of related members: those it overrides or implements, those overriding or implementing these, and the same-named members of the other object types of a union it is declared in (default true).'),
    ...pageInput(REFERENCES_PAGE),
    ...commitInput,
  }),
  output: z.object({
    ...answerOutput,
    symbol: symbolSummary,
    related: z.array(symbolSummary).describe('The other members whose references are included (includeRelated), each with its qualified name and declaration.'),
    references: z.array(z.object({
      ...location, kind: referenceKind, confidence, enclosing: peer.optional(),
      via: peer.optional().describe('The related member this reference names, when it is not the target itself.'),
    })),
    omittedBelowConfidence: z.number().int().describe('References that matched every other filter but are below minConfidence.'),
    files: z.array(z.object({ path: z.string(), count: z.number().int() })).optional(),
    ...pageOutput,
  }),
  async run(provider, { repo, commit, symbolId, path, line, column, qualifiedName, name, ...params }) {
    return findReferences(await openIndex(provider, { repo, commit, cursor: params.cursor }), { symbolId, path, line, column, qualifiedName, name }, params);
  },
  render(a) {
    const qualified = new Map(a.related.map((r) => [r.symbolId, r.qualifiedName]));
    return [
      `${a.total} references to ${renderSymbol(a.symbol)}${a.related.length ? ` and ${a.related.length} related members (${a.related.map((r) => r.qualifiedName).slice(0, 5).join(', ')}${a.related.length > 5 ? ', ...' : ''})` : ''}${a.omittedBelowConfidence ? ` (${a.omittedBelowConfidence} name-only candidates left out; pass minConfidence "candidate" to see them)` : ''}`,
      ...(a.files ?? []).map((f) => `  file ${f.path}: ${f.count}`),
      ...a.references.map((r) => `  ${renderLocation(r)} ${r.kind}${r.via ? ` via ${qualified.get(r.via.symbolId) ?? r.via.name} ${r.via.symbolId}` : ''}${r.enclosing ? ` in ${r.enclosing.name} ${r.enclosing.symbolId}` : ''}`),
      ...renderPage(a),
    ].join('\n');
  },
});
