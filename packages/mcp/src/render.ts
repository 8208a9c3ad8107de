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
  external?: { package: string };
}): string {
  const where = s.path !== undefined ? renderLocation(s as Located) : `external ${s.external?.package ?? ''}`.trim();
  return `${s.kind} ${s.qualifiedName} ${where} ${s.symbolId}`;
}

export function renderPage(p: { total: number; hasMore: boolean; nextCursor?: string; truncationReason?: string }): string[] {
  return p.hasMore ? [`(more: ${p.total} in all, cut by ${p.truncationReason}; pass cursor "${p.nextCursor}")`] : [];
}
