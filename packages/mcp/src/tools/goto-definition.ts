// goto_definition: where a symbol is declared.
import * as z from 'zod';
import { gotoDefinition } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { schemaParts } from '../schema-parts.ts';
import { renderLocation, renderSymbol } from '../render.ts';

export const gotoDefinitionTool = defineTool({
  name: 'goto_definition',
  title: 'Go to definition',
  description:
    'Where a symbol is declared, through imports, re-exports and aliases; from a call, the overload it resolves to; external for a dependency\'s.',
  schemas: () => {
    const { answerOutput, commitInput, previewedLocation, symbolSummary, targetInput } = schemaParts();
    return {
      input: z.strictObject({ ...targetInput, ...commitInput }),
      output: z.object({
        ...answerOutput, symbol: symbolSummary, external: z.boolean(), definitions: z.array(previewedLocation),
        resolvedOverloadOf: z.number().int().optional()
          .describe('From a call: definitions holds only the declaration the compiler resolved the call to, of this many.'),
        resolvedSignature: z.literal(true).optional()
          .describe('From a call: definitions holds only the call signature of the symbol\'s type the call resolved to (a dual API).'),
      }),
    };
  },
  async run(provider, { repo, commit, ...target }) {
    return gotoDefinition(await openIndex(provider, { repo, commit }), target);
  },
  render(a) {
    return [
      renderSymbol(a.symbol),
      ...(a.external ? [`external: declared in ${a.symbol.external?.package}${a.symbol.external?.version ? `@${a.symbol.external.version}` : ''}`] : []),
      ...a.definitions.map((d) => `  defined at ${renderLocation(d)}${d.preview ? `  ${d.preview}` : ''}`),
      ...(a.resolvedOverloadOf ? [`  the overload this call resolves to, of ${a.resolvedOverloadOf} declarations (pass the symbolId for all)`] : []),
      ...(a.resolvedSignature ? ['  the call signature of its type this call resolves to (pass the symbolId for the declaration)'] : []),
    ].join('\n');
  },
});
