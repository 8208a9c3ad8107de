// read_file: lines of a file as it is at the indexed commit, or of one symbol's declaration.
import * as z from 'zod';
import { READ_FILE_PAGE, readFile } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderLocation, renderPage, renderSymbol } from '../render.ts';

export const readFileTool = defineTool({
  name: 'read_file',
  title: 'Read file',
  description:
    'Numbered lines at the commit of a file (path; startLine, endLine inclusive) or of a symbol\'s declaration and doc comment (any target).',
  schemas: () => {
    const { answerOutput, commitInput, location, pageOutput, symbolSummary, targetInput } = schemaParts();
    return {
      input: z.strictObject({
        ...targetInput,
        path: z.string().min(1).max(4096).optional(),
        startLine: z.number().int().min(1).optional(),
        endLine: z.number().int().min(1).optional(),
        ...pageInput(READ_FILE_PAGE),
        ...commitInput,
      }),
      output: z.object({
        ...answerOutput,
        path: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        lines: z.array(z.object({ line: z.number().int(), text: z.string() })),
        symbol: symbolSummary.optional().describe('Read by symbol: the symbol read.'),
        declaration: z.object({ startLine: z.number().int(), endLine: z.number().int() }).optional()
          .describe('Read by symbol: the whole declaration\'s lines, doc comment included.'),
        otherDeclarations: z.array(z.object(location)).optional().describe('Read by symbol: its other declarations, not read.'),
        ...pageOutput,
      }),
    };
  },
  async run(provider, { repo, commit, ...params }) {
    return readFile(await openIndex(provider, { repo, commit, cursor: params.cursor }), params);
  },
  render(a) {
    const width = String(a.endLine).length;
    const head = a.symbol ? [renderSymbol(a.symbol)] : [];
    const others = (a.otherDeclarations ?? []).map((d) => `  also declared at ${renderLocation(d)}`);
    const more = a.declaration && a.hasMore
      ? [`(cut at line ${a.endLine}; the declaration runs to line ${a.declaration.endLine}; pass cursor "${a.nextCursor}")`]
      : renderPage(a);
    return [...head, `${a.path}:${a.startLine}-${a.endLine} of ${a.total}`, ...a.lines.map((l) => `${String(l.line).padStart(width)}| ${l.text}`), ...more, ...others].join('\n');
  },
});
