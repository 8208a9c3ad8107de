// What a change answer could see: which changed files a compiler resolved and which only the syntax
// tree, which were skipped or not indexed, and the identifiers the compiler could not resolve where
// they matter (inside a changed declaration at head, or named like a changed symbol in a file the
// answer read). With none, "no broken sites" is exhaustive; with some, the answer says where not.
import { splitLines, unresolvedCount, unresolvedOf, type ChangeRecord } from '@sextant/format';
import type { ChangeSet, SymbolChange } from './change-set.ts';
import { UNRESOLVED_EXAMPLES, type UnresolvedIdentifier, type UnresolvedReport } from './unresolved.ts';

export interface Coverage {
  files: {
    compiler: string[];
    syntactic: string[];
    skipped: { path: string; reason: string; detail: string }[];
  };
  /** null: a file read records no unresolved identifiers (its language's indexer does not), so nobody knows. */
  unresolved: UnresolvedReport | null;
}

/**
 * `others`: files the answer read besides the changed ones (a site's), by their change records at
 * head. A file's text is read only to name its unresolved identifiers, when it has some.
 */
export async function coverageOf(set: ChangeSet, changes: readonly SymbolChange[], others: readonly ChangeRecord[]): Promise<Coverage> {
  const compiler: string[] = [];
  const syntactic: string[] = [];
  for (const file of set.files) {
    if (file.status !== 'indexed' || !file.language) continue;
    const reader = file.change === 'removed' ? set.base : set.head;
    (reader.manifest.languages[file.language]?.precision === 'compiler' ? compiler : syntactic).push(file.path);
  }
  const skipped = set.unanalysed.map((u) => ({ path: u.path, reason: u.reason, detail: u.detail }));

  const names = new Set<string>();
  for (const c of changes) for (const side of [c.base, c.head]) if (side) names.add(side.decl.name);
  let unknown = false;
  let count = 0;
  const examples: UnresolvedIdentifier[] = [];
  const seen = new Set<string>();
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
      if (!keep(line, name)) continue;
      count++;
      if (examples.length < UNRESOLVED_EXAMPLES) examples.push({ path: record.path, line, column, name });
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
  return { files: { compiler, syntactic, skipped }, unresolved: unknown ? null : { count, examples } };
}
