// find_implementations: walks over inheritance edges, down (implementations, overrides) or up (the
// members a member overrides or implements), as paged lists.
import * as z from 'zod';
import { findImplementations, findSuperMethods, IMPLEMENTATIONS_PAGE } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderPage, renderSymbol, renderUnresolved } from '../render.ts';

export const findImplementationsTool = defineTool({
  name: 'find_implementations',
  title: 'Find implementations',
  description:
    'What implements or extends a type or overrides a member, transitively (via: the step between); on an interface method, the code that runs. direction supers: what it overrides, up the chain.',
  schemas: () => {
    const { answerOutput, commitInput, pageOutput, peer, symbolSummary, targetInput, unresolvedOutput } = schemaParts();
    const output = z.object({
      ...answerOutput,
      symbol: symbolSummary,
      results: z.array(symbolSummary.extend({
        depth: z.number().int().describe('Steps from the target (1: direct).'),
        relation: z.enum(['extends', 'implements', 'overrides']),
        via: peer.optional().describe('The symbol one step closer to the target, for depth > 1.'),
      })),
      unresolved: unresolvedOutput.describe('What could not be decided: supertypes named like a type found that resolved to nothing; same-named members with as many parameters that no override links.'),
      ...pageOutput,
    });
    return {
      input: z.strictObject({
        ...targetInput,
        direction: z.enum(['implementations', 'supers']).optional(),
        ...pageInput(IMPLEMENTATIONS_PAGE),
        ...commitInput,
      }),
      output,
    };
  },
  async run(provider, { repo, commit, limit, cursor, direction, ...target }) {
    const reader = await openIndex(provider, { repo, commit, cursor });
    return (direction === 'supers' ? findSuperMethods : findImplementations)(reader, target, { limit, cursor });
  },
  render(a, { direction }) {
    return [
      `${a.total} ${direction === 'supers' ? 'super members' : 'implementations'} of ${renderSymbol(a.symbol)}`,
      ...a.results.map((r) => `  ${'  '.repeat(r.depth - 1)}${r.relation} ${renderSymbol(r)}`),
      ...renderUnresolved(a.unresolved),
      ...renderPage(a),
    ].join('\n');
  },
});
