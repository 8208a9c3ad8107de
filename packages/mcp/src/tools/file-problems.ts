// file_problems: syntax and compiler errors recorded at index time.
import * as z from 'zod';
import { fileProblems, PROBLEMS_PAGE } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderLocation, renderPage, renderSite } from '../render.ts';

export const fileProblemsTool = defineTool({
  name: 'file_problems',
  title: 'File problems',
  description:
    'Syntax errors and compiler diagnostics (TypeScript/JavaScript) for path or paths.',
  schemas: () => {
    const { answerOutput, commitInput, contextInput, location, pageOutput, pathsInput, siteLines } = schemaParts();
    return {
      input: z.strictObject({
        path: z.string().min(1).max(4096).optional(),
        paths: pathsInput.optional(),
        severity: z.enum(['error', 'warning']).optional(),
        source: z.enum(['syntax', 'compiler']).optional(),
        ...contextInput,
        ...pageInput(PROBLEMS_PAGE),
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        files: z.number().int().describe('Files examined.'),
        problems: z.array(z.object({
          ...location, ...siteLines, source: z.enum(['syntax', 'compiler']), severity: z.enum(['error', 'warning']), code: z.number().int().optional(), message: z.string(),
        })),
        ...pageOutput,
      }),
    };
  },
  async run(provider, { repo, commit, ...params }) {
    return fileProblems(await openIndex(provider, { repo, commit, cursor: params.cursor }), params);
  },
  render(a) {
    return [
      `${a.total} problems in ${a.files} files`,
      ...a.problems.flatMap((p) => renderSite(p, `${renderLocation(p)} ${p.severity} ${p.source}${p.code ? ` TS${p.code}` : ''} ${p.message.split('\n')[0]}`)),
      ...renderPage(a),
    ].join('\n');
  },
});
