// Compact text renderings for the `content` of tool results: one line per result, readable by a
// model without the JSON.

interface Located {
  path: string;
  line: number;
  column: number;
}

export function renderLocation(l: Located): string {
  return `${l.path}:${l.line}:${l.column}`;
}

export function renderSymbol(s: {
  symbolId: string; kind: string; qualifiedName: string; path?: string; line?: number; column?: number;
  external?: { package: string; version?: string };
}): string {
  const where = s.path !== undefined ? renderLocation(s as Located)
    : `external ${s.external?.package ?? ''}${s.external?.version ? `@${s.external.version}` : ''}`.trim();
  return `${s.kind} ${s.qualifiedName} ${where} ${s.symbolId}`;
}

export function renderPage(p: { total: number; hasMore: boolean; nextCursor?: string; truncationReason?: string }): string[] {
  return p.hasMore ? [`(more: ${p.total} in all, cut by ${p.truncationReason}; pass cursor "${p.nextCursor}")`] : [];
}

interface Site extends Located {
  text: string;
  before?: string[];
  after?: string[];
}

/**
 * One site of a list: `head` (its location and what it is) and, after a bar, the site's own line;
 * or, with context, the numbered lines around it under it (`>` marks the site's line).
 */
export function renderSite(site: Site, head: string, indent = '  '): string[] {
  if (!site.before && !site.after) return [`${indent}${head} | ${site.text.trim()}`];
  const first = site.line - (site.before?.length ?? 0);
  const numbered = [...(site.before ?? []), undefined, ...(site.after ?? [])].map((l, i) =>
    l === undefined ? `${indent}> ${site.line} ${site.text}` : `${indent}  ${first + i} ${l}`);
  return [`${indent}${head}`, ...numbered];
}

/** Sites under a line per file (the path said once), each as line:column. */
export function renderSitesByFile<T extends Site>(
  sites: readonly T[], head: (site: T) => string, fileLine: (path: string) => string = (path) => path,
): string[] {
  const out: string[] = [];
  let path: string | undefined;
  for (const site of sites) {
    if (site.path !== path) out.push(fileLine(path = site.path));
    out.push(...renderSite(site, `${site.line}:${site.column} ${head(site)}`.trimEnd(), '  '));
  }
  return out;
}
