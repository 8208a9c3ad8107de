// find_references: every use of one symbol, resolved by the compiler.
import * as z from 'zod';
import { findReferences, REFERENCES_PAGE } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { distinctNames, renderLocation, renderPage, renderSite, renderSitesByFile, renderSymbol, renderUnresolved } from '../render.ts';

export const findReferencesTool = defineTool({
  name: 'find_references',
  title: 'Find references',
  description:
    'Every use of a symbol, with kind and enclosing symbol; for a member also related members\' uses (overrides, union siblings; via). Tests and generated last.',
  schemas: () => {
    const { answerOutput, commitInput, confidence, contextInput, location, pageOutput, pathsInput, peer, referenceKind, siteLines, symbolSummary, targetInput, unresolvedOutput } = schemaParts();
    return {
      input: z.strictObject({
        ...targetInput,
        kinds: z.array(referenceKind).max(16).optional(),
        includeDeclaration: z.boolean().optional(),
        paths: pathsInput.optional(),
        includeTests: z.boolean().optional(),
        includeGenerated: z.boolean().optional(),
        minConfidence: confidence.optional().describe('Default resolved; candidate where only names match.'),
        groupByFile: z.boolean().optional().describe('Sites by file, with counts.'),
        includeRelated: z.boolean().optional().describe('Related members\' uses (default true).'),
        ...contextInput,
        ...pageInput(REFERENCES_PAGE),
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        symbol: symbolSummary,
        related: z.array(symbolSummary).describe('The other members whose references are included (includeRelated), each with its qualified name and declaration.'),
        references: z.array(z.object({
          ...location, ...siteLines, kind: referenceKind, confidence, enclosing: peer.optional(),
          via: peer.optional().describe('The related member this reference names, when it is not the target itself.'),
        })),
        order: z.string().describe('The order of references, after any declarations.'),
        omittedBelowConfidence: z.number().int().describe('References that matched every other filter but are below minConfidence.'),
        unresolved: unresolvedOutput.describe('Same-named identifiers, used as this symbol could be, that resolved to nothing: each may be a reference this list lacks.'),
        files: z.array(z.object({ path: z.string(), count: z.number().int() })).optional(),
        ...pageOutput,
      }),
    };
  },
  async run(provider, { repo, commit, symbolId, path, line, column, qualifiedName, name, ...params }) {
    return findReferences(await openIndex(provider, { repo, commit, cursor: params.cursor }), { symbolId, path, line, column, qualifiedName, name }, params);
  },
  render(a, { groupByFile }) {
    const qualified = distinctNames([a.symbol, ...a.related]);
    const what = (r: (typeof a.references)[number]) =>
      `${r.kind}${r.via ? ` via ${qualified.get(r.via.symbolId) ?? r.via.name} ${r.via.symbolId}` : ''}${r.enclosing ? ` in ${r.enclosing.name} ${r.enclosing.symbolId}` : ''}`;
    const counts = new Map((a.files ?? []).map((f) => [f.path, f.count]));
    return [
      `${a.total} references to ${renderSymbol(a.symbol)}${a.related.length ? ` and ${a.related.length} related members (${a.related.map((r) => qualified.get(r.symbolId)).slice(0, 5).join(', ')}${a.related.length > 5 ? ', ...' : ''})` : ''}${a.omittedBelowConfidence ? ` (${a.omittedBelowConfidence} name-only candidates left out; pass minConfidence "candidate" to see them)` : ''}; ${a.order}`,
      ...(groupByFile
        ? renderSitesByFile(a.references, what, (path) => `${path} (${counts.get(path)})`)
        : a.references.flatMap((r) => renderSite(r, `${renderLocation(r)} ${what(r)}`))),
      ...renderUnresolved(a.unresolved),
      ...renderPage(a),
    ].join('\n');
  },
});
