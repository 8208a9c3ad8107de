// read_file: lines of a file as it is at the indexed commit.
import * as z from 'zod';
import { READ_FILE_PAGE, readFile } from '@sextant/query';
import { openIndex } from '../index-provider.ts';
import { defineTool } from '../tool-definition.ts';
import { answerOutput, commitInput, pageInput, pageOutput } from '../schema-parts.ts';
import { renderPage } from '../render.ts';

export const readFileTool = defineTool({
  name: 'read_file',
  title: 'Read file',
  description:
    'Numbered lines of a file at the indexed commit, from startLine; continue with nextCursor.',
  input: z.strictObject({
    path: z.string().min(1).max(4096),
    startLine: z.number().int().min(1).optional().describe('First line to return, 1-based (default 1).'),
    ...pageInput(READ_FILE_PAGE),
    ...commitInput,
  }),
  output: z.object({
    ...answerOutput,
    path: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    lines: z.array(z.object({ line: z.number().int(), text: z.string() })),
    ...pageOutput,
  }),
  async run(provider, { repo, commit, path, ...params }) {
    return readFile(await openIndex(provider, { repo, commit, cursor: params.cursor }), path, params);
  },
  render(a) {
    const width = String(a.endLine).length;
    return [`${a.path}:${a.startLine}-${a.endLine} of ${a.total}`, ...a.lines.map((l) => `${String(l.line).padStart(width)}| ${l.text}`), ...renderPage(a)].join('\n');
  },
});
