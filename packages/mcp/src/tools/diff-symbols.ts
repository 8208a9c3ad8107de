// diff_symbols: what a change does at the symbol level between two indexed commits.
import * as z from 'zod';
import { DIFF_PAGE, diffSymbols } from '@sextant/query';
import { shortCommit } from '@sextant/format';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderPage } from '../render.ts';
import { renderChangeLine, renderDiffMarkdown } from '../review-markdown.ts';
import { changeParts, openPair } from './change-parts.ts';

export const diffSymbolsTool = defineTool({
  name: 'diff_symbols',
  title: 'Diff symbols',
  description:
    'Per-symbol changes between two indexed commits (added, removed, modified, renamed, moved), aspects, both sides\' symbolIds; changed files; coverage.',
  schemas: () => {
    const { pageOutput } = schemaParts();
    const { changeAspect, changeInput, changeKind, changeOutput, changeSide, coverage, fileChange } = changeParts();
    return {
      input: z.strictObject({ ...changeInput, ...pageInput(DIFF_PAGE) }),
      output: z.object({
        ...changeOutput,
        changes: z.array(z.object({ change: changeKind, aspects: z.array(changeAspect), base: changeSide.optional(), head: changeSide.optional() })),
        files: z.array(fileChange),
        ...pageOutput,
        coverage,
      }),
    };
  },
  async run(provider, { repo, base, head, format: _format, ...params }) {
    const [baseIndex, headIndex] = await openPair(provider, { repo, base, head });
    return diffSymbols(baseIndex, headIndex, params);
  },
  render(a, args) {
    if (args.format === 'markdown') return renderDiffMarkdown(a);
    return [
      `${a.total} symbol changes in ${a.files.length} changed files, ${a.repo} ${shortCommit(a.base)}..${shortCommit(a.head)}${a.coverage.files.skipped.length ? ` (${a.coverage.files.skipped.length} changed files not analysed)` : ''}`,
      ...a.changes.map((c) => `  ${renderChangeLine(c)}`),
      ...a.files.map((f) => `  file ${f.change} ${f.from ? `${f.from} -> ` : ''}${f.path}${f.linesAdded !== undefined ? ` +${f.linesAdded} -${f.linesRemoved}` : ''}${f.status !== 'indexed' ? ` (${f.status})` : ''}`),
      ...renderPage(a),
    ].join('\n');
  },
});
