// The comments the change tools return with `format: "markdown"`, written to be posted on a pull
// request as they are: diff_symbols' list of changed symbols, and change_impact's review (what the
// change breaks, with each site's line and the compiler's message, what is at risk and why).
import { abbreviatesCommit, parseSymbolId, shortCommit } from '@sextant/format';
import type { DiffAnswer, ImpactAnswer, SymbolChangeHit } from '@sextant/query';

/** One change on one line: `modified (signature, body) method OrderService.submit src/orders.ts:12 <id>`. */
export function renderChangeLine(c: Pick<SymbolChangeHit, 'change' | 'aspects' | 'base' | 'head'>): string {
  const side = (c.head ?? c.base)!;
  const was = c.base && c.head && (c.base.qualifiedName !== c.head.qualifiedName || c.base.path !== c.head.path)
    ? ` (was ${c.base.qualifiedName} ${c.base.path}:${c.base.line})` : '';
  return `${c.change}${c.aspects.length ? ` (${c.aspects.join(', ')})` : ''} ${side.kind} ${side.qualifiedName} ${side.path}:${side.line}${was} ${side.symbolId}`;
}

/** `path:line`, linked to the file at the commit when the repository is a hosted one (owner/name, not local/...). */
function link(repo: string, commit: string, path: string, line: number): string {
  const text = `${path}:${line}`;
  if (repo.startsWith('local/')) return `\`${text}\``;
  return `[\`${text}\`](https://github.com/${repo}/blob/${commit}/${path.split('/').map(encodeURIComponent).join('/')}#L${line})`;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|]/g, (ch) => `\\${ch}`).replace(/\r?\n/g, ' ');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function coverageLines(a: Pick<DiffAnswer, 'coverage'>): string[] {
  const lines: string[] = [];
  const { skipped, scip, syntactic } = a.coverage.files;
  if (skipped.length) lines.push(`- Not analysed: ${skipped.slice(0, 10).map((s) => `\`${s.path}\` (${escape(s.reason)})`).join(', ')}${skipped.length > 10 ? `, and ${skipped.length - 10} more` : ''}.`);
  if (scip.length) lines.push(`- Imported from a SCIP index (references exact; broken sites found by rule): ${plural(scip.length, 'changed file')}.`);
  if (syntactic.length) lines.push(`- Resolved without a compiler (on the syntax tree; broken sites found by rule): ${plural(syntactic.length, 'changed file')}.`);
  const unresolved = a.coverage.unresolved;
  if (unresolved === null) lines.push('- Unresolved identifiers are not recorded for a language in this change, so sites the resolver missed are unknown.');
  else if (unresolved.count > 0) {
    lines.push(`- ${plural(unresolved.count, 'identifier')} could not be resolved, so sites there are unknown: ${unresolved.examples.slice(0, 5).map((u) => `\`${escape(u.name)}\` at \`${u.path}:${u.line}\``).join(', ')}.`);
  }
  return lines.length ? ['', '**Coverage**', '', ...lines] : [];
}

export function renderDiffMarkdown(a: DiffAnswer): string {
  const counts = new Map<string, number>();
  for (const c of a.changes) counts.set(c.change, (counts.get(c.change) ?? 0) + 1);
  const lines = [
    `### Sextant: ${plural(a.total, 'symbol')} changed in ${plural(a.files.length, 'file')} (\`${shortCommit(a.base)}..${shortCommit(a.head)}\`)`,
    '',
    [...counts].map(([change, n]) => `${n} ${change}`).join(', ') || 'No symbol changed.',
    '',
    ...a.changes.map((c) => {
      const side = (c.head ?? c.base)!;
      const commit = c.head ? a.head : a.base;
      const was = c.base && c.head && (c.base.qualifiedName !== c.head.qualifiedName || c.base.path !== c.head.path)
        ? `, was \`${escape(c.base.qualifiedName)}\` at ${link(a.repo, a.base, c.base.path!, c.base.line!)}` : '';
      return `- **${c.change}**${c.aspects.length ? ` (${c.aspects.join(', ')})` : ''} ${side.kind} \`${escape(side.qualifiedName)}\` ${link(a.repo, commit, side.path!, side.line!)}${was}`;
    }),
    ...(a.hasMore ? [`- … and ${a.total - a.changes.length} more`] : []),
    ...coverageLines(a),
  ];
  return lines.join('\n');
}

/** For an entry holding part of a symbol's sites (sitesFrom): which of them, as ` (sites 1001 to 1203 of 1203)`; else ''. */
export function sitesRange(impact: { sitesFrom?: number; sites: readonly unknown[]; sitesTotal: number }): string {
  return impact.sitesFrom === undefined ? '' : ` (sites ${impact.sitesFrom + 1} to ${impact.sitesFrom + impact.sites.length} of ${impact.sitesTotal})`;
}

/** Site lines a comment lists in all (broken first, then at risk); the rest are counted. */
const MAX_COMMENT_SITES = 100;

/**
 * The review comment: one heading, a summary line with every count, the broken sites grouped by the
 * changed symbol each is attributed to (then the new errors no changed symbol explains), the sites
 * at risk with why, the updated ones counted, the affected tests, the changed symbols, and what the
 * answer could not see. Each site carries its line of code at head.
 */
export function renderImpactMarkdown(a: ImpactAnswer): string {
  const sites = a.impacts.flatMap((i) => i.sites);
  const count = (status: string) => sites.filter((s) => s.status === status).length;
  const broken = count('broken') + a.unattributed.length;
  const side = (symbolId: string) => (abbreviatesCommit(parseSymbolId(symbolId).commit, a.head) ? a.head : a.base);
  const lines = [
    `### Sextant review of \`${shortCommit(a.base)}..${shortCommit(a.head)}\``,
    '',
    `**${plural(a.changed, 'symbol')} changed: ${plural(broken, 'site')} broken${a.unattributed.length ? ` (${a.unattributed.length} by no changed symbol)` : ''}, ${count('at-risk')} at risk, ${count('updated')} updated; `
      + `${plural(a.affectedTests.length, 'test file')} affected; ${plural(a.introducedProblems.length, 'problem')} introduced, ${a.resolvedProblems.length} resolved.**`,
  ];
  let budget = MAX_COMMENT_SITES;
  let left = 0;
  const siteLines = (list: readonly ({ path: string; line: number; text?: string; reason: string; enclosing?: { name: string }; cause?: string; confidence?: string })[]) => {
    for (const site of list) {
      if (budget-- <= 0) {
        left++;
        continue;
      }
      const how = site.cause === 'flow' ? ' (its value or type flows here)' : site.cause === 'declaration' ? ' (inside the changed declaration)'
        : site.confidence && site.confidence !== 'exact' ? ` (${site.confidence})` : '';
      lines.push(`- ${link(a.repo, a.head, site.path, site.line)}${site.enclosing ? ` in \`${escape(site.enclosing.name)}\`` : ''}: ${escape(site.reason)}${how}`);
      if (site.text?.trim()) lines.push(`  ${code(site.text.trim())}`);
    }
  };
  const heading = (impact: ImpactAnswer['impacts'][number]) => {
    const s = impact.symbol;
    return `${impact.change}${impact.aspects.length ? ` (${impact.aspects.join(', ')})` : ''} ${s.kind} \`${escape(s.qualifiedName)}\` ${link(a.repo, side(s.symbolId), s.path!, s.line!)}`;
  };
  for (const [status, title] of [['broken', 'Broken'], ['at-risk', 'At risk']] as const) {
    const withStatus = a.impacts.filter((i) => i.sites.some((s) => s.status === status));
    if (withStatus.length === 0 && (status !== 'broken' || a.unattributed.length === 0)) continue;
    lines.push('', `#### ${title}`);
    for (const impact of withStatus) {
      lines.push('', `${heading(impact)}${sitesRange(impact)}`);
      siteLines(impact.sites.filter((s) => s.status === status));
    }
    if (status === 'broken' && a.unattributed.length) {
      lines.push('', 'New errors at head that no changed symbol explains (a change in a file no indexer reads, a configuration):');
      siteLines(a.unattributed);
    }
  }
  if (left > 0) lines.push('', `_${left} more sites: ask change_impact for every one._`);
  const updated = a.impacts.filter((i) => i.sites.some((s) => s.status === 'updated'));
  if (updated.length) {
    lines.push('', '#### Updated by the change itself', '');
    for (const impact of updated) {
      const list = impact.sites.filter((s) => s.status === 'updated');
      lines.push(`- \`${escape(impact.symbol.qualifiedName)}\`: ${plural(list.length, 'site')} on lines the change edited, e.g. ${list.slice(0, 3).map((s) => link(a.repo, a.head, s.path, s.line)).join(', ')}`);
    }
  }
  if (a.affectedTests.length) {
    lines.push('', '#### Affected tests', '');
    for (const test of a.affectedTests) {
      lines.push(`- \`${test.path}\`${test.tests.length ? `: ${test.tests.map((t) => `\`${escape(t.name)}\``).join(', ')}` : ''}`);
    }
  }
  // Every new error is a broken site above; the other new problems (warnings) are listed here.
  const otherProblems = a.introducedProblems.filter((p) => p.severity !== 'error');
  if (otherProblems.length) {
    lines.push('', '#### Warnings introduced', '');
    for (const p of otherProblems.slice(0, 50)) lines.push(`- ${link(a.repo, a.head, p.path, p.line)}: ${p.code !== undefined ? `TS${p.code}: ` : ''}${escape(p.message)}`);
    if (otherProblems.length > 50) lines.push(`- … and ${otherProblems.length - 50} more`);
  }
  lines.push('', '#### Changed symbols', '');
  // A symbol whose sites fill several entries is listed once.
  for (const impact of a.impacts) if (!impact.sitesFrom) lines.push(`- ${heading(impact)}`);
  if (a.hasMore) lines.push('', `_${a.total - a.impacts.length} more entries (changed symbols, or more sites of one): page with the cursor for the rest._`);
  if (!a.totalIsExact && a.truncationReason) lines.push('', `_Not complete: ${escape(a.truncationReason)}._`);
  lines.push(...coverageLines(a));
  return lines.join('\n');
}

/** A line of code as inline code (a backtick inside takes a longer fence), cut to a readable width. */
function code(text: string): string {
  const cut = text.length > 160 ? `${text.slice(0, 157)}...` : text;
  const fence = cut.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${cut}${fence.length > 1 ? ' ' : ''}${fence}`;
}
