// type_hierarchy: supertypes and subtypes of a type as a graph.
import * as z from 'zod';
import { TYPE_HIERARCHY_BOUNDS, typeHierarchy } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { graphBounds, schemaParts } from '../schema-parts.ts';
import { distinctNames, renderSymbol } from '../render.ts';

export const typeHierarchyTool = defineTool({
  name: 'type_hierarchy',
  title: 'Type hierarchy',
  description:
    'Supertypes and subtypes of a type: nodes (depth < 0 above, > 0 below) and extends/implements edges.',
  schemas: () => {
    const { answerOutput, commitInput, graphOutput, symbolSummary, targetInput } = schemaParts();
    return {
      input: z.strictObject({
        ...targetInput,
        direction: z.enum(['supertypes', 'subtypes', 'both']).optional().describe('Default both.'),
        ...graphBounds(TYPE_HIERARCHY_BOUNDS),
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        symbol: symbolSummary,
        direction: z.enum(['supertypes', 'subtypes', 'both']),
        nodes: z.array(symbolSummary.extend({ depth: z.number().int() })),
        edges: z.array(z.object({ from: z.string(), to: z.string(), kind: z.enum(['extends', 'implements']) })),
        ...graphOutput,
      }),
    };
  },
  async run(provider, { repo, commit, direction, depth, maxNodes, ...target }) {
    return typeHierarchy(await openIndex(provider, { repo, commit }), target, { direction, depth, maxNodes });
  },
  render(a) {
    const names = distinctNames(a.nodes);
    return [
      `${a.direction} of ${renderSymbol(a.symbol)}: ${a.nodes.length - 1} types${a.truncationReason ? ` (cut by ${a.truncationReason})` : ''}`,
      ...a.nodes.slice(1).map((n) => `  ${n.depth < 0 ? `up ${-n.depth}` : `down ${n.depth}`} ${renderSymbol(n)}`),
      ...a.edges.map((e) => `  ${names.get(e.from)} ${e.kind} ${names.get(e.to)}`),
    ].join('\n');
  },
});
