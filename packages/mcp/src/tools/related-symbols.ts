// find_implementations and find_super_methods: walks over inheritance edges, as paged lists.
import * as z from 'zod';
import { findImplementations, findSuperMethods, IMPLEMENTATIONS_PAGE, type RelatedAnswer } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { answerOutput, commitInput, pageInput, pageOutput, peer, symbolSummary, targetInput } from '../schema-parts.ts';
import { renderPage, renderSymbol } from '../render.ts';

const output = z.object({
  ...answerOutput,
  symbol: symbolSummary,
  results: z.array(symbolSummary.extend({
    depth: z.number().int().describe('Steps from the target (1: direct).'),
    relation: z.enum(['extends', 'implements', 'overrides']),
    via: peer.optional().describe('The symbol one step closer to the target, for depth > 1.'),
  })),
  ...pageOutput,
});

function render(title: string) {
  return (a: RelatedAnswer) => [
    `${a.total} ${title} ${renderSymbol(a.symbol)}`,
    ...a.results.map((r) => `  ${'  '.repeat(r.depth - 1)}${r.relation} ${renderSymbol(r)}`),
    ...renderPage(a),
  ].join('\n');
}

export const findImplementationsTool = defineTool({
  name: 'find_implementations',
  title: 'Find implementations',
  description:
    'Everything that implements or extends a type (classes implementing an interface, subclasses, extending interfaces), or every member that overrides or implements a method or property, transitively (depth says how far down; via names the step in between). Use it on an interface method to find the code that actually runs. Target by symbolId, position, qualifiedName or exact name. Page size default 100, at most 1000.',
  input: z.strictObject({ ...targetInput, ...pageInput(IMPLEMENTATIONS_PAGE), ...commitInput }),
  output,
  async run(provider, { repo, commit, limit, cursor, ...target }) {
    return findImplementations(await openIndex(provider, { repo, commit, cursor }), target, { limit, cursor });
  },
  render: render('implementations of'),
});

export const findSuperMethodsTool = defineTool({
  name: 'find_super_methods',
  title: 'Find super methods',
  description:
    'The members a method, property or accessor overrides or implements, up the whole chain (base class methods, interface members). Use it to find the contract a method fulfils. Target by symbolId, position, qualifiedName or exact name. Page size default 100, at most 1000.',
  input: z.strictObject({ ...targetInput, ...pageInput(IMPLEMENTATIONS_PAGE), ...commitInput }),
  output,
  async run(provider, { repo, commit, limit, cursor, ...target }) {
    return findSuperMethods(await openIndex(provider, { repo, commit, cursor }), target, { limit, cursor });
  },
  render: render('super methods of'),
});
