// What a change answer could see: which changed files a compiler resolved, which a SCIP index and
// which only the syntax tree, which were skipped or not indexed, and the identifiers the indexer could not resolve where
// they matter (inside a changed declaration at head, or named like a changed symbol in a file the
// answer read; for Java and Kotlin, named like a changed symbol anywhere at base or head). With
// none, "no broken sites" is exhaustive; with some, the answer says where not.
import { MODIFIERS, splitLines, unresolvedCount, unresolvedOf, type ChangeRecord, type Precision, type ReferenceKind } from '@sextant/format';
import { headLineOf, headPathOf, type ChangeSet, type DeclSide, type SymbolChange } from './change-set.ts';
import { UNRESOLVED_EXAMPLES, unresolvedUsesOf, type UnresolvedIdentifier, type UnresolvedReport } from './unresolved.ts';

export interface Coverage {
  files: {
    compiler: string[];
    scip: string[];
    syntactic: string[];
    skipped: { path: string; reason: string; detail: string }[];
  };
  /** null: a file read records no unresolved identifiers (its language's indexer does not), so nobody knows. */
  unresolved: UnresolvedReport | null;
}

/**
 * `others`: files the answer read besides the changed ones (a site's), by their change records at
 * head. A file's text is read only to name its unresolved identifiers, when it has some.
 * `reported`: the answer's sites (`path:line:column` at head): an identifier that no longer
 * resolves there is already a broken site, not one more that may be missing.
 */
export async function coverageOf(set: ChangeSet, changes: readonly SymbolChange[], others: readonly ChangeRecord[], reported: ReadonlySet<string> = new Set()): Promise<Coverage> {
  const byPrecision: Record<Precision, string[]> = { compiler: [], scip: [], syntactic: [] };
  for (const file of set.files) {
    if (file.status !== 'indexed' || !file.language) continue;
    const reader = file.change === 'removed' ? set.base : set.head;
    byPrecision[reader.manifest.languages[file.language]?.precision ?? 'syntactic'].push(file.path);
  }
  const { compiler, scip, syntactic } = byPrecision;
  const skipped = set.unanalysed.map((u) => ({ path: u.path, reason: u.reason, detail: u.detail }));

  const names = new Set<string>();
  for (const c of changes) for (const side of [c.base, c.head]) if (side) names.add(side.decl.name);
  let unknown = false;
  let count = 0;
  const examples: UnresolvedIdentifier[] = [];
  const seen = new Set<string>();
  const counted = new Set(reported);
  const count1 = (site: UnresolvedIdentifier) => {
    const at = `${site.path}:${site.line}:${site.column}`;
    if (counted.has(at)) return;
    counted.add(at);
    count++;
    if (examples.length < UNRESOLVED_EXAMPLES) examples.push(site);
  };
  const scan = async (record: ChangeRecord, keep: (line: number, name: string) => boolean) => {
    if (seen.has(record.path)) return;
    seen.add(record.path);
    const recorded = unresolvedCount(record);
    if (recorded === null) {
      unknown = true;
      return;
    }
    if (recorded === 0) return;
    const text = await set.head.text(record.path);
    const lines = text === undefined ? [] : splitLines(text);
    for (const { line, column, endLine, endColumn } of unresolvedOf(record)) {
      const name = endLine === line ? (lines[line - 1] ?? '').slice(column - 1, endColumn - 1) : '';
      if (keep(line, name)) count1({ path: record.path, line, column, name });
    }
  };
  // Inside the changed declarations at head, first: whatever they use that the compiler could not resolve.
  const ranges = new Map<ChangeRecord, [number, number][]>();
  for (const c of changes) {
    if (!c.head) continue;
    const list = ranges.get(c.head.file) ?? [];
    list.push([c.head.decl.range[0], c.head.decl.range[2]]);
    ranges.set(c.head.file, list);
  }
  for (const [record, spans] of ranges) {
    await scan(record, (line, name) => names.has(name) || spans.some(([from, to]) => line >= from && line <= to));
  }
  for (const other of others) await scan(other, (_line, name) => names.has(name));
  for (const site of await undecidedJvmUses(set, changes)) count1(site);
  return { files: { compiler, scip, syntactic, skipped }, unresolved: unknown ? null : { count, examples } };
}

/**
 * The Java and Kotlin identifiers, anywhere in the repository at base or head, that the indexer
 * could not resolve and that may use a changed symbol: named like it (a use its kind allows, in a
 * file of its language family; see unresolvedUsesOf), or, for a Java getter or setter, named like
 * the Kotlin property it makes (`order.status` for getStatus and setStatus), and for a Kotlin
 * property, like the accessors Java calls (`getStatus()`). A syntactic resolver leaves these
 * undecided where a receiver's type is unknown, so an answer with any is not exact. One read of
 * the unresolved-by-name shard per name and side; the base's sites are placed at head (a line the
 * change edited is left to the head's own record of it).
 */
async function undecidedJvmUses(set: ChangeSet, changes: readonly SymbolChange[]): Promise<UnresolvedIdentifier[]> {
  const out: UnresolvedIdentifier[] = [];
  const placers = { head: (path: string, line: number) => ({ path, line }), base: (path: string, line: number) => headPlaceOf(set, path, line) };
  for (const change of changes) {
    // Each side's symbol names the identifiers of both commits (a removed symbol's old uses are undecided at head too).
    for (const decl of [change.head, change.base]) {
      if (!decl || !isJvm(decl)) continue;
      const loaded = await (decl === change.head ? set.head : set.base).symbol(decl.key);
      const accessors = decl.decl.mods & MODIFIERS.private ? [] : accessorNames(decl);
      for (const side of ['head', 'base'] as const) {
        const add = (site: { path: string; line: number; column: number }, name: string) => {
          const at = placers[side](site.path, site.line);
          if (at) out.push({ path: at.path, line: at.line, column: site.column, name });
        };
        for (const site of loaded ? await unresolvedUsesOf(set[side], [loaded]) : []) add(site, decl.decl.name);
        for (const { name, lang, kinds } of accessors) {
          for (const site of await set[side].unresolvedNamed(name)) if (site.lang === lang && kinds.has(site.kind)) add(site, name);
        }
      }
    }
  }
  return out;
}

function isJvm(side: DeclSide): boolean {
  return side.file.lang === 'java' || side.file.lang === 'kotlin';
}

const PROPERTY_USES: ReadonlySet<ReferenceKind> = new Set(['read', 'write']);
const ACCESSOR_CALLS: ReadonlySet<ReferenceKind> = new Set(['call', 'read']);

/**
 * The names a changed symbol is used by across the two languages: a Java getter or setter's as the
 * Kotlin property it makes (getURL → url or uRL, isOpen → isOpen, setOpen → open or isOpen), and a
 * Kotlin property's as the accessors Java calls (status → getStatus, setStatus; isOpen → isOpen, setOpen).
 */
function accessorNames({ decl, file }: DeclSide): { name: string; lang: 'java' | 'kotlin'; kinds: ReadonlySet<ReferenceKind> }[] {
  if (file.lang === 'java' && decl.kind === 'method') {
    const match = /^(get|set|is)([A-Z]\w*)$/.exec(decl.name);
    if (!match) return [];
    const rest = match[2]!;
    const names = match[1] === 'is' ? [decl.name] : [...new Set([decapitalized(rest), rest.charAt(0).toLowerCase() + rest.slice(1)])];
    if (match[1] === 'set') names.push(`is${rest}`);
    return names.map((name) => ({ name, lang: 'kotlin' as const, kinds: PROPERTY_USES }));
  }
  if (file.lang === 'kotlin' && decl.kind === 'property') {
    const boolean = /^is[A-Z]/.test(decl.name);
    const rest = boolean ? decl.name.slice(2) : decl.name.charAt(0).toUpperCase() + decl.name.slice(1);
    return [boolean ? decl.name : `get${rest}`, `set${rest}`].map((name) => ({ name, lang: 'java' as const, kinds: ACCESSOR_CALLS }));
  }
  return [];
}

/** Kotlin's name for the property of `get<Rest>`: a leading run of capitals lowered but for the one starting the next word (URLPath → urlPath). */
function decapitalized(rest: string): string {
  const run = /^[A-Z]+/.exec(rest)![0];
  if (run.length === 1) return rest.charAt(0).toLowerCase() + rest.slice(1);
  const keep = run.length < rest.length && /[a-z]/.test(rest.charAt(run.length)) ? run.length - 1 : run.length;
  return rest.slice(0, keep).toLowerCase() + rest.slice(keep);
}

/** Where a base line of a base path is at head: through a renamed file's path and a changed one's line diff; undefined when removed or edited. */
function headPlaceOf(set: ChangeSet, basePath: string, line: number): { path: string; line: number } | undefined {
  const path = headPathOf(set, basePath);
  const headLine = path === undefined ? undefined : headLineOf(set, path, line);
  return headLine === undefined ? undefined : { path: path!, line: headLine };
}

/**
 * Languages indexed with another precision at base than at head (a SCIP index imported for one
 * commit only, its indexer missing or failing for the other): their symbols are keyed differently
 * (a SCIP symbol's identity against a syntactic one's), so their unchanged declarations show as
 * removed and added. Each a reason the answer is not exact.
 */
export function precisionShifts(set: ChangeSet): string[] {
  const shifts: string[] = [];
  for (const [lang, atHead] of Object.entries(set.head.manifest.languages)) {
    const atBase = set.base.manifest.languages[lang as keyof typeof set.base.manifest.languages];
    if (atBase && atHead && atBase.precision !== atHead.precision) {
      shifts.push(`${lang} is indexed with precision ${atBase.precision} at base and ${atHead.precision} at head: its symbols are keyed apart, so unchanged ones show as removed and added (index both commits alike)`);
    }
  }
  return shifts;
}
