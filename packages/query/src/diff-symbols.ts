// diff_symbols: what a change does at the symbol level between two indexed commits (change-set.ts
// has the matching rule), with every changed file, symbols or not, and what the comparison could
// not see (coverage.ts).
import { FILE_FLAGS, pathFilter } from '@sextant/format';
import { computeChangeSet, inTestFile, sideSummary, type ChangeAspect, type ChangedFile, type ChangeKind, type ChangeSet } from './change-set.ts';
import { coverageOf, precisionShifts, type Coverage } from './change-coverage.ts';
import type { IndexReader } from './index-reader.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Answer, PageInfo, SymbolSummary } from './results.ts';

export interface ChangeFilter {
  /** Globs over either side's path; `!` excludes. */
  paths?: string[];
  /** Default true: a pull request's tests are part of it. */
  includeTests?: boolean;
}

interface DiffParams extends ChangeFilter, PageRequest {}

export type ChangeSide = SymbolSummary & { signature?: string };

export interface SymbolChangeHit {
  change: ChangeKind;
  aspects: ChangeAspect[];
  base?: ChangeSide;
  head?: ChangeSide;
}

export interface ChangeAnswer extends Answer {
  /** Full shas of the two commits; `commit` is the head's. */
  base: string;
  head: string;
}

export interface DiffAnswer extends ChangeAnswer, PageInfo {
  changes: SymbolChangeHit[];
  files: ChangedFile[];
  coverage: Coverage;
}

export const DIFF_PAGE = { defaultLimit: 100, maxLimit: 1000 };

export async function diffSymbols(base: IndexReader, head: IndexReader, params: DiffParams): Promise<DiffAnswer> {
  const set = await computeChangeSet(base, head);
  const selected = selectChanges(set, params);
  const query = { tool: 'diff_symbols', base: base.commit, paths: params.paths, includeTests: params.includeTests };
  const { items, page } = pageOf(selected, head.commit, query, params, DIFF_PAGE);
  const coverage = await coverageOf(set, selected, []);
  const skipped = skippedChanges(set);
  // A changed file the indexer skipped may hold changed symbols nobody can list. (A file of a
  // language no indexer reads is listed in coverage too, but holds no symbol this tool claims to know.)
  const cuts = [...(skipped > 0 ? [`${skipped} changed files were skipped by the indexer (coverage.files.skipped)`] : []), ...precisionShifts(set)];
  if (cuts.length > 0) {
    page.totalIsExact = false;
    page.truncationReason = [page.truncationReason, ...cuts].filter(Boolean).join('; ');
  }
  return {
    ...changeAnswer(set),
    changes: items.map((c) => ({
      change: c.change, aspects: c.aspects,
      ...(c.base ? { base: sideSummary(base, c.base) } : {}),
      ...(c.head ? { head: sideSummary(head, c.head) } : {}),
    })),
    files: filterFiles(set.files, params),
    ...page,
    coverage,
  };
}

/** Changed files the indexer skipped (not those of a language no indexer reads). */
export function skippedChanges(set: ChangeSet): number {
  return set.unanalysed.filter((u) => u.reason !== 'not-indexed').length;
}

export function changeAnswer(set: ChangeSet): ChangeAnswer {
  return { repo: set.head.repo, commit: set.head.commit, base: set.base.commit, head: set.head.commit };
}

export function selectChanges(set: ChangeSet, filter: ChangeFilter): ChangeSet['changes'] {
  const inPaths = pathFilter(filter.paths);
  return set.changes.filter((c) => {
    if (filter.includeTests === false && inTestFile(c)) return false;
    return [c.base, c.head].some((s) => s && inPaths(s.file.path));
  });
}

function filterFiles(files: ChangedFile[], filter: ChangeFilter): ChangedFile[] {
  const inPaths = pathFilter(filter.paths);
  return files.filter((f) => (filter.includeTests !== false || !(f.flags & FILE_FLAGS.test)) && (inPaths(f.path) || (f.from !== undefined && inPaths(f.from))));
}
