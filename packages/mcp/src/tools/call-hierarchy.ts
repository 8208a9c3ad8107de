// call_hierarchy: who calls a function (or what it calls), as a bounded graph.
import * as z from 'zod';
import { CALL_HIERARCHY_BOUNDS, callHierarchy } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { graphBounds, schemaParts } from '../schema-parts.ts';
import { distinctNames, renderLocation, renderSite, renderSymbol, renderUnresolved } from '../render.ts';

export const callHierarchyTool = defineTool({
  name: 'call_hierarchy',
  title: 'Call hierarchy',
  description:
    'Callers (default) or callees, transitively: nodes with depth, edges with call sites; calls through an interface count for its implementations.',
  schemas: () => {
    const { answerOutput, commitInput, contextInput, graphOutput, location, peer, siteLines, symbolSummary, targetInput, unresolvedOutput } = schemaParts();
    return {
      input: z.strictObject({
        ...targetInput,
        direction: z.enum(['callers', 'callees']).optional(),
        ...graphBounds(CALL_HIERARCHY_BOUNDS),
        ...contextInput,
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        symbol: symbolSummary,
        direction: z.enum(['callers', 'callees']),
        nodes: z.array(symbolSummary.extend({ depth: z.number().int() })),
        edges: z.array(z.object({ from: z.string(), to: z.string(), sites: z.array(z.object({ ...location, ...siteLines })), through: peer.optional() })),
        unresolved: unresolvedOutput.describe('Calls that resolved to nothing and may be edges: named like a node (callers) or made inside one (callees).'),
        ...graphOutput,
      }),
    };
  },
  async run(provider, { repo, commit, direction, depth, maxNodes, context, ...target }) {
    return callHierarchy(await openIndex(provider, { repo, commit }), target, { direction, depth, maxNodes, context });
  },
  render(a) {
    const names = distinctNames(a.nodes);
    return [
      `${a.direction} of ${renderSymbol(a.symbol)}: ${a.nodes.length - 1} symbols${a.truncationReason ? ` (cut by ${a.truncationReason})` : ''}`,
      ...a.nodes.slice(1).map((n) => `  ${'  '.repeat(n.depth - 1)}${renderSymbol(n)}`),
      ...a.edges.flatMap((e) => [
        `  ${names.get(e.from)} -> ${names.get(e.to)}${e.through ? ` through ${e.through.name}` : ''}`,
        ...e.sites.flatMap((site) => renderSite(site, renderLocation(site), '    ')),
      ]),
      ...renderUnresolved(a.unresolved),
    ].join('\n');
  },
});
