// The review comment the change tools return with `format: "markdown"`: a summary line, the broken
// sites with their compiler messages grouped by changed symbol, the affected tests, and what the
// answer could not see, written to be posted on a pull request as it is.
import { shortCommit } from '@sextant/format';
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
  const { skipped, syntactic } = a.coverage.files;
  if (skipped.length) lines.push(`- Not analysed: ${skipped.slice(0, 10).map((s) => `\`${s.path}\` (${escape(s.reason)})`).join(', ')}${skipped.length > 10 ? `, and ${skipped.length - 10} more` : ''}.`);
  if (syntactic.length) lines.push(`- Resolved without a compiler (Java/Kotlin rules; broken sites found by rule): ${plural(syntactic.length, 'changed file')}.`);
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

export function renderImpactMarkdown(a: ImpactAnswer): string {
  const sites = a.impacts.flatMap((i) => i.sites);
  const broken = sites.filter((s) => s.status === 'broken').length;
  const atRisk = sites.filter((s) => s.status === 'at-risk').length;
  const lines = [
    `### Sextant review of \`${shortCommit(a.base)}..${shortCommit(a.head)}\``,
    '',
    `**${plural(a.total, 'symbol')} changed, ${plural(broken, 'site')} broken, ${atRisk} at risk, ${plural(a.affectedTests.length, 'test file')} affected, ${plural(a.introducedProblems.length, 'problem')} introduced.**`,
  ];
  const withBroken = a.impacts.filter((i) => i.sites.some((s) => s.status === 'broken'));
  if (withBroken.length) {
    lines.push('', '#### Broken');
    for (const impact of withBroken) {
      const s = impact.symbol;
      lines.push('', `${impact.change}${impact.aspects.length ? ` (${impact.aspects.join(', ')})` : ''} ${s.kind} \`${escape(s.qualifiedName)}\` ${link(a.repo, impact.change === 'removed' ? a.base : a.head, s.path!, s.line!)}`);
      for (const site of impact.sites.filter((x) => x.status === 'broken')) {
        lines.push(`- ${link(a.repo, a.head, site.path, site.line)}${site.enclosing ? ` in \`${escape(site.enclosing.name)}\`` : ''}: ${escape(site.reason)}${site.confidence !== 'exact' ? ` (${site.confidence})` : ''}`);
      }
    }
  }
  const risky = a.impacts.filter((i) => i.sites.some((s) => s.status === 'at-risk'));
  if (risky.length) {
    lines.push('', '#### At risk', '');
    for (const impact of risky) {
      const n = impact.sites.filter((s) => s.status === 'at-risk').length;
      lines.push(`- \`${escape(impact.symbol.qualifiedName)}\` (${impact.aspects.join(', ') || impact.change}): ${plural(n, 'site')}, e.g. ${impact.sites.filter((s) => s.status === 'at-risk').slice(0, 3).map((s) => link(a.repo, a.head, s.path, s.line)).join(', ')}`);
    }
  }
  if (a.affectedTests.length) {
    lines.push('', '#### Affected tests', '');
    for (const test of a.affectedTests) {
      lines.push(`- \`${test.path}\`${test.tests.length ? `: ${test.tests.map((t) => `\`${escape(t.name)}\``).join(', ')}` : ''}`);
    }
  }
  if (a.introducedProblems.length) {
    lines.push('', '#### Problems introduced', '');
    for (const p of a.introducedProblems.slice(0, 50)) lines.push(`- ${link(a.repo, a.head, p.path, p.line)}: ${p.code !== undefined ? `TS${p.code}: ` : ''}${escape(p.message)}`);
    if (a.introducedProblems.length > 50) lines.push(`- … and ${a.introducedProblems.length - 50} more`);
  }
  if (a.hasMore) lines.push('', `_${a.total - a.impacts.length} more changed symbols: page with the cursor for the rest._`);
  lines.push(...coverageLines(a));
  return lines.join('\n');
}
