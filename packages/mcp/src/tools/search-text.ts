// search_text: grep at the indexed commit, every tracked text file, each hit with the declaration it is in.
import * as z from 'zod';
import { MAX_TEXT_QUERY, SEARCH_TEXT_PAGE, searchText } from '@sextant/query';
import { shortCommit } from '@sextant/format';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderPage } from '../render.ts';

export const searchTextTool = defineTool({
  name: 'search_text',
  title: 'Search text',
  description:
    'Grep every tracked text file at the commit, as ripgrep: literal or RE2 regex, smart case, languages as rg -t; hits name their enclosing declaration.',
  schemas: () => {
    const { answerOutput, commitInput, location, pageOutput, pathsInput, peer, siteLines } = schemaParts();
    return {
      input: z.strictObject({
        query: z.string().min(1).max(MAX_TEXT_QUERY),
        mode: z.enum(['literal', 'regex']).optional(),
        caseSensitive: z.boolean().optional(),
        wholeWord: z.boolean().optional(),
        paths: pathsInput.optional(),
        languages: z.array(z.string()).optional(),
        includeTests: z.boolean().optional(),
        includeGenerated: z.boolean().optional(),
        context: z.number().int().min(0).max(5).optional(),
        ...pageInput(SEARCH_TEXT_PAGE),
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        matches: z.array(z.object({
          ...location, ...siteLines,
          enclosing: peer.optional().describe('The innermost declaration around the match.'),
          symbol: z.object({ symbolId: z.string(), name: z.string() }).optional().describe('Set when the match is exactly an identifier the index resolved.'),
        })),
        files: z.number().int().describe('Files with a match, in all.'),
        unsearched: z.object({
          count: z.number().int(),
          examples: z.array(z.object({ path: z.string(), reason: z.string() })),
        }).describe('Tracked files the path filter lets through that are not searched (binary, too large, not UTF-8, links), as ripgrep skips them.'),
        ...pageOutput,
      }),
    };
  },
  async run(provider, { repo, commit, ...params }) {
    return searchText(await openIndex(provider, { repo, commit, cursor: params.cursor }), params);
  },
  render(a) {
    const lines = [`${a.total} matches in ${a.files} files in ${a.repo}@${shortCommit(a.commit)}`];
    for (const m of a.matches) {
      const first = m.line - (m.before?.length ?? 0);
      (m.before ?? []).forEach((text, i) => lines.push(`${m.path}-${first + i}- ${text}`));
      lines.push(`${m.path}:${m.line}:${m.column}: ${m.text}${m.enclosing ? `  [in ${m.enclosing.name}]` : ''}`);
      (m.after ?? []).forEach((text, i) => lines.push(`${m.path}-${m.line + 1 + i}- ${text}`));
    }
    if (a.unsearched.count > 0) lines.push(`${a.unsearched.count} files not searched (${a.unsearched.examples.map((e) => `${e.path}: ${e.reason}`).join(', ')}${a.unsearched.count > a.unsearched.examples.length ? ', …' : ''})`);
    return [...lines, ...renderPage(a)].join('\n');
  },
});
