// search_symbols: find declarations by name.
import * as z from 'zod';
import { MATCH_MODES, SEARCH_PAGE, searchSymbols } from '@sextant/query';
import { shortCommit } from '@sextant/format';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderSymbol, renderPage } from '../render.ts';

export const searchSymbolsTool = defineTool({
  name: 'search_symbols',
  title: 'Search symbols',
  description:
    'Declarations by name, as symbolIds. matchMode: substring (default), prefix, exact, camelCase (`OSvc`), wildcard (`Ord*Impl`); dotted queries match qualified names.',
  schemas: () => {
    const { answerOutput, commitInput, language, pageOutput, pathsInput, symbolKind, symbolSummary } = schemaParts();
    return {
      input: z.strictObject({
        query: z.string().min(1).max(512),
        matchMode: z.enum(MATCH_MODES).optional(),
        kinds: z.array(symbolKind).max(32).optional(),
        language: language.optional(),
        paths: pathsInput.optional(),
        includeTests: z.boolean().optional(),
        includeGenerated: z.boolean().optional(),
        includeExternal: z.boolean().optional().describe('Dependencies\' symbols it uses too.'),
        ...pageInput(SEARCH_PAGE),
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        query: z.string(),
        matchMode: z.enum(MATCH_MODES),
        results: z.array(symbolSummary.extend({ match: z.enum(['exact', 'prefix', 'substring', 'camelCase', 'wildcard']) })),
        ...pageOutput,
      }),
    };
  },
  async run(provider, { repo, commit, ...params }) {
    return searchSymbols(await openIndex(provider, { repo, commit, cursor: params.cursor }), params);
  },
  render(a) {
    return [`${a.total} symbols match "${a.query}" in ${a.repo}@${shortCommit(a.commit)}`, ...a.results.map(renderSymbol), ...renderPage(a)].join('\n');
  },
});
