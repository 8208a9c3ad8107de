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

interface Named {
  symbolId: string;
  qualifiedName: string;
  path?: string;
  external?: { package: string };
}

/**
 * Names for symbols listed together (the nodes of a graph, a target and its related members) that
 * tell them apart, for the lines that mention them again (edges, via): the qualified name, prefixed
 * by the declaring path (`src/hono.ts:Hono`, a form qualifiedName targets accept) or an external's
 * package where two listed symbols share it. Java's qualified names carry their package and rarely
 * need the prefix; TypeScript's are dotted inside their module only, so three classes named Hono
 * would otherwise print as one.
 */
export function distinctNames(symbols: readonly Named[]): Map<string, string> {
  const unique = [...new Map(symbols.map((s) => [s.symbolId, s])).values()];
  const count = new Map<string, number>();
  for (const s of unique) count.set(s.qualifiedName, (count.get(s.qualifiedName) ?? 0) + 1);
  return new Map(unique.map((s) => [s.symbolId,
    count.get(s.qualifiedName)! > 1 ? `${s.path ?? s.external?.package ?? ''}:${s.qualifiedName}` : s.qualifiedName]));
}

export function renderPage(p: { total: number; hasMore: boolean; nextCursor?: string; truncationReason?: string }): string[] {
  return p.hasMore ? [`(more: ${p.total} in all, cut by ${p.truncationReason}; pass cursor "${p.nextCursor}")`] : [];
}

/** What an answer could not decide, on one line; nothing when it could decide everything. */
export function renderUnresolved(u: { count: number; examples: { path: string; line: number; column: number; name: string }[] }): string[] {
  if (u.count === 0) return [];
  const shown = u.examples.map((e) => `${e.path}:${e.line}:${e.column} ${e.name}`).join(', ');
  return [`(${u.count} same-named identifier${u.count === 1 ? '' : 's'} could not be resolved and may belong here: ${shown}${u.count > u.examples.length ? ', ...' : ''})`];
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
export function renderSitesByFile<T extends Site>(sites: readonly T[], head: (site: T) => string, fileLine: (path: string) => string): string[] {
  const out: string[] = [];
  let path: string | undefined;
  for (const site of sites) {
    if (site.path !== path) out.push(fileLine(path = site.path));
    out.push(...renderSite(site, `${site.line}:${site.column} ${head(site)}`.trimEnd(), '  '));
  }
  return out;
}
