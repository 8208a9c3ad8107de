// How the review benchmarks judge the tools: change_impact's `broken` sites against the compiler's
// new diagnostics (or, for the JVM fixtures, the sites known by construction), and diff_symbols'
// entry for the mutated symbol against the change and aspects the mutation must produce.
import type { OracleDiagnostic } from './compiler-oracle.ts';
import type { ExpectedChange } from './mutation-generator.ts';

/** A site of change_impact, as the tool returns it. */
export interface ImpactSite {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  kind?: string;
  confidence?: string;
  status: string;
  cause?: string;
  reason?: string;
}

export interface Impact {
  symbol: { qualifiedName?: string; path?: string; line?: number; symbolId?: string };
  change: string;
  aspects: string[];
  sites: ImpactSite[];
}

export interface SymbolSummary {
  symbolId: string;
  name: string;
  qualifiedName: string;
  kind: string;
  path: string;
  line: number;
}

export interface SymbolChange {
  change: string;
  aspects: string[];
  base?: SymbolSummary;
  head?: SymbolSummary;
}

/** A site covers a diagnostic when both are in one file and the diagnostic's lines meet the site's. */
export function covers(site: { path: string; line: number; endLine?: number }, d: { path: string; line: number; endLine: number }): boolean {
  return site.path === d.path && d.line <= (site.endLine ?? site.line) && d.endLine >= site.line;
}

export interface SiteScore {
  /** Oracle sites (outside the changed declaration) and how many a broken site covers (an impact's or an unattributed one). */
  oracle: number;
  covered: number;
  /** Of the covered, those a broken site of an impact covers: attributed to a changed symbol. */
  attributed: number;
  /** The answer said totalIsExact while it missed an oracle site. */
  falselyExact: boolean;
  /** Broken sites, and how many match some new diagnostic (in the change or not). */
  broken: number;
  matched: number;
  missed: (OracleDiagnostic & { cause: string })[];
  /** Covered, but by an unattributed site only: what the compiler's blame did not tie to a change. */
  unattributedOnly: OracleDiagnostic[];
  extra: ImpactSite[];
}

export function scoreSites(
  oracleSites: OracleDiagnostic[], allIntroduced: OracleDiagnostic[], impacts: Impact[], unattributed: ImpactSite[], totalIsExact: boolean,
): SiteScore {
  const sites = impacts.flatMap((i) => i.sites);
  const attributedSites = sites.filter((s) => s.status === 'broken');
  const broken = [...attributedSites, ...unattributed];
  // Why a diagnostic is missed: a site is there with another status, or no site of any changed
  // symbol is on it (the error is not at a reference: an assignment checked structurally, a class
  // that no longer implements its interface, a use through a re-export the index does not follow).
  const missed = oracleSites.filter((d) => !broken.some((s) => covers(s, d))).map((d) => {
    const other = sites.find((s) => covers(s, d));
    return { ...d, cause: other ? `site is ${other.status}${other.reason ? ` (${other.reason})` : ''}` : 'no site of a changed symbol on it' };
  });
  const extra = broken.filter((s) => !allIntroduced.some((d) => covers(s, d)));
  const attributed = oracleSites.filter((d) => attributedSites.some((s) => covers(s, d)));
  const unattributedOnly = oracleSites.filter((d) => !attributed.includes(d) && unattributed.some((s) => covers(s, d)));
  return {
    oracle: oracleSites.length, covered: oracleSites.length - missed.length, attributed: attributed.length, falselyExact: totalIsExact && missed.length > 0,
    broken: broken.length, matched: broken.length - extra.length, missed, unattributedOnly, extra,
  };
}

export interface DiffScore {
  ok: boolean;
  /** What diff_symbols said about the symbol: `renamed [signature]`, or `not found`. */
  got: string;
  /** Aspects reported beyond the expected ones (a failure: the edit changed nothing else). */
  extraAspects: string[];
}

/** The change diff_symbols lists for the mutated symbol: on the expected side, in the file, at the name's line (else by name). */
export function scoreDiff(changes: SymbolChange[], path: string, expected: ExpectedChange): DiffScore {
  const onSide = changes.filter((c) => c[expected.side]?.path === path);
  const found = onSide.find((c) => c[expected.side]!.line === expected.line)
    ?? onSide.find((c) => c[expected.side]!.name === expected.name);
  if (!found) return { ok: false, got: 'not found', extraAspects: [] };
  const extraAspects = found.aspects.filter((a) => !expected.aspects.includes(a));
  // The aspects say what changed: all of the expected ones, and nothing the edit did not change.
  const ok = found.change === expected.change && expected.aspects.every((a) => found.aspects.includes(a)) && extraAspects.length === 0;
  return { ok, got: `${found.change}${found.aspects.length ? ` [${found.aspects.join(', ')}]` : ''}`, extraAspects };
}

export function ratio(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
}
