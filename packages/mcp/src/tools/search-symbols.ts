// search_symbols: find declarations by name.
import * as z from 'zod';
import { MATCH_MODES, SEARCH_PAGE, searchSymbols } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { answerOutput, commitInput, language, pageInput, pageOutput, pathsInput, symbolKind, symbolSummary } from '../schema-parts.ts';
import { renderSymbol, renderPage } from '../render.ts';

export const searchSymbolsTool = defineTool({
  name: 'search_symbols',
  title: 'Search symbols',
  description:
    'Find classes, interfaces, functions, methods, properties, types and other declarations by name. Use it to turn a name into a symbolId for goto_definition / find_references. matchMode: substring (default, case-insensitive), prefix, exact, camelCase (`OSvc` finds `OrderService`), wildcard (`Order*Impl`); a dotted query (`OrderService.submit`, `com.example.OrderService#submit(String)`) matches qualified names. Page size default 50, at most 500. Ranked exact, then prefix, then the rest; production code before tests. Locals and parameters are not searchable (target them by position). Tests and generated code are left out unless asked for.',
  input: z.strictObject({
    query: z.string().min(1).max(512).describe('Part of a symbol name, or a dotted qualified name.'),
    matchMode: z.enum(MATCH_MODES).optional().describe('How query matches names; default substring.'),
    kinds: z.array(symbolKind).max(32).optional().describe('Only these symbol kinds.'),
    language: language.optional().describe('Only symbols of this language.'),
    paths: pathsInput.optional(),
    includeTests: z.boolean().optional().describe('Include declarations in test files (default false).'),
    includeGenerated: z.boolean().optional().describe('Include declarations in generated files (default false).'),
    includeExternal: z.boolean().optional().describe('Include symbols from dependencies and the standard library that the repository uses (default false).'),
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
  async run(provider, { repo, commit, ...params }) {
    return searchSymbols(await openIndex(provider, { repo, commit, cursor: params.cursor }), params);
  },
  render(a) {
    return [`${a.total} symbols match "${a.query}" in ${a.repo}@${a.commit.slice(0, 12)}`, ...a.results.map(renderSymbol), ...renderPage(a)].join('\n');
  },
});
