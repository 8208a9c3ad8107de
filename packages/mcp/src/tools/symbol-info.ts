// symbol_info: what one symbol is, in one call.
import * as z from 'zod';
import { PRECISIONS } from '@sextant/format';
import { symbolInfo } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { schemaParts } from '../schema-parts.ts';
import { renderLocation, renderSymbol } from '../render.ts';

export const symbolInfoTool = defineTool({
  name: 'symbol_info',
  title: 'Symbol info',
  description:
    'A symbol\'s signature, doc, modifiers, container, declarations, precision; counts of references, implementations, callers, callees, supertypes.',
  schemas: () => {
    const { answerOutput, commitInput, previewedLocation, symbolSummary, targetInput } = schemaParts();
    return {
      input: z.strictObject({ ...targetInput, ...commitInput }),
      output: z.object({
        ...answerOutput,
        symbol: symbolSummary,
        signature: z.string().optional(),
        doc: z.string().optional(),
        modifiers: z.array(z.string()),
        container: symbolSummary.optional(),
        local: z.boolean().describe('A local or parameter: found by position only, never by search.'),
        precision: z.enum(PRECISIONS),
        definitions: z.array(previewedLocation),
        counts: z.object({
          references: z.number().int(), implementations: z.number().int(), callers: z.number().int(),
          callees: z.number().int(), supertypes: z.number().int(), superMethods: z.number().int(),
        }),
      }),
    };
  },
  async run(provider, { repo, commit, ...target }) {
    return symbolInfo(await openIndex(provider, { repo, commit }), target);
  },
  render(a) {
    const c = a.counts;
    return [
      renderSymbol(a.symbol),
      ...(a.signature ? [`  signature: ${a.signature}`] : []),
      ...(a.doc ? [`  doc: ${a.doc}`] : []),
      ...(a.modifiers.length ? [`  modifiers: ${a.modifiers.join(' ')}`] : []),
      ...(a.container ? [`  in ${renderSymbol(a.container)}`] : []),
      `  ${a.precision} precision; ${c.references} references, ${c.implementations} implementations, ${c.callers} callers, ${c.callees} callees, ${c.supertypes} supertypes, ${c.superMethods} super methods`,
      ...a.definitions.map((d) => `  defined at ${renderLocation(d)}${d.preview ? `  ${d.preview}` : ''}`),
    ].join('\n');
  },
});
