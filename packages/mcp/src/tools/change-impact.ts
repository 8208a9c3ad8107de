// change_impact: where a change between two indexed commits lands: broken, updated and at-risk
// sites, callers, affected tests and the problems introduced and resolved.
import * as z from 'zod';
import { changeImpact, DIFF_PAGE, IMPACT_BOUNDS, SITE_CAUSES, SITE_STATUSES } from '@sextant/query';
import { shortCommit } from '@sextant/format';
import { defineTool } from '../tool-definition.ts';
import { pageInput, schemaParts } from '../schema-parts.ts';
import { renderLocation, renderPage, renderSite } from '../render.ts';
import { renderImpactMarkdown, renderChangeLine, sitesRange } from '../review-markdown.ts';
import { changeParts, openPair } from './change-parts.ts';

export const changeImpactTool = defineTool({
  name: 'change_impact',
  title: 'Change impact',
  description:
    'Where a change between two indexed commits lands: sites at head broken, updated or at-risk; callers, affected tests, problems, coverage.',
  schemas: () => {
    const { confidence, contextInput, location, pageOutput, peer, referenceKind, siteLines, symbolKind } = schemaParts();
    const { changeAspect, changeInput, changeKind, changeOutput, changeSide, coverage } = changeParts();
    const problem = z.object({
      ...location,
      source: z.enum(['syntax', 'compiler']),
      severity: z.enum(['error', 'warning']),
      code: z.number().int().optional(),
      message: z.string(),
      symbolId: z.string().optional().describe('The changed symbol it is attributed to.'),
      cause: z.enum([...SITE_CAUSES, 'unattributed']).optional().describe('For a new error: how it is attributed (as a site\'s cause).'),
    });
    return {
      input: z.strictObject({
        ...changeInput,
        symbolId: z.string().max(64).optional().describe('Only this symbol\'s change (either commit\'s id).'),
        qualifiedName: z.string().max(1024).optional(),
        depth: z.number().int().min(1).max(IMPACT_BOUNDS.depth.max).optional().describe(`Of callers, default ${IMPACT_BOUNDS.depth.default}.`),
        ...contextInput,
        ...pageInput(DIFF_PAGE),
      }),
      output: z.object({
        ...changeOutput,
        changed: z.number().int().describe('Changed symbols in all (total counts entries of impacts).'),
        impacts: z.array(z.object({
          symbol: changeSide.describe('The changed symbol: at head, or at base when it was removed.'),
          change: changeKind,
          aspects: z.array(changeAspect),
          sites: z.array(z.object({
            ...location, ...siteLines, kind: referenceKind.optional().describe('Absent for a site that is no reference.'), confidence, enclosing: peer.optional(),
            status: z.enum(SITE_STATUSES),
            cause: z.enum(SITE_CAUSES).describe('reference: a use of the symbol; flow: a new compiler error the compiler ties to the symbol (an alias called, a result used, a type that no longer fits); declaration: an error inside the changed declaration.'),
            reason: z.string().describe('Why: the compiler\'s message for a broken site, what changed for an at-risk one.'),
          })),
          sitesTotal: z.number().int().describe('Sites of this symbol in all.'),
          sitesFrom: z.number().int().optional().describe('Set when the symbol has over 1000 sites: they fill several entries in a row (paged as any), and this one starts at this site.'),
        })),
        unattributed: z.array(z.object({
          ...location, ...siteLines, status: z.literal('broken'), cause: z.literal('unattributed'), code: z.number().int().optional(), reason: z.string(),
        })).describe('New compiler errors at head that no rule ties to a changed symbol: broken all the same, listed whatever changes are asked for.'),
        callers: z.array(z.object({
          symbolId: z.string(), name: z.string(), kind: symbolKind, qualifiedName: z.string(), path: z.string().optional(), line: z.number().int().optional(),
          depth: z.number().int(), reaches: z.array(z.string()).describe('The changed symbols (at head) it calls, directly or through the others.'),
        })),
        affectedTests: z.array(z.object({
          path: z.string(),
          tests: z.array(z.object({ name: z.string(), line: z.number().int(), symbolId: z.string().optional() })),
          chain: z.array(z.string()).describe('symbolIds from the changed symbol to the symbol in the test file that references the last one.'),
        })),
        introducedProblems: z.array(problem),
        resolvedProblems: z.array(problem),
        ...pageOutput,
        coverage,
      }),
    };
  },
  async run(provider, { repo, base, head, format: _format, ...params }) {
    const [baseIndex, headIndex] = await openPair(provider, { repo, base, head });
    return changeImpact(baseIndex, headIndex, params);
  },
  render(a, args) {
    if (args.format === 'markdown') return renderImpactMarkdown(a);
    const count = (status: string) => a.impacts.reduce((n, i) => n + i.sites.filter((s) => s.status === status).length, 0);
    return [
      `${a.changed} changed symbols, ${count('broken') + a.unattributed.length} broken sites, ${count('at-risk')} at risk, ${count('updated')} updated, ${a.affectedTests.length} test files affected, ${a.introducedProblems.length} problems introduced; ${a.repo} ${shortCommit(a.base)}..${shortCommit(a.head)}`,
      ...a.impacts.flatMap((i) => [
        `  ${renderChangeLine({ change: i.change, aspects: i.aspects, head: i.symbol })}${sitesRange(i)}`,
        ...i.sites.flatMap((s) => renderSite(s, `${s.status} ${renderLocation(s)} ${s.kind ?? s.cause}${s.enclosing ? ` in ${s.enclosing.name}` : ''}: ${s.reason}`, '    ')),
      ]),
      ...(a.unattributed.length > 0 ? ['  unattributed (a new error no changed symbol explains)'] : []),
      ...a.unattributed.flatMap((s) => renderSite(s, `broken ${renderLocation(s)}: ${s.reason}`, '    ')),
      ...a.callers.map((c) => `  caller ${c.qualifiedName} ${c.path ?? ''}:${c.line ?? ''} depth ${c.depth} ${c.symbolId}`),
      ...a.affectedTests.map((t) => `  test ${t.path}${t.tests.length ? ` (${t.tests.map((x) => x.name).join(', ')})` : ''}`),
      ...a.introducedProblems.map((p) => `  introduced ${renderLocation(p)} ${p.code !== undefined ? `TS${p.code} ` : ''}${p.message}`),
      ...(a.truncationReason && !a.hasMore ? [`(not exhaustive: ${a.truncationReason})`] : []),
      ...renderPage(a),
    ].join('\n');
  },
});
