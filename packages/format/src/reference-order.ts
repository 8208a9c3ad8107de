// The order of a symbol's references: production code first, then tests, then generated and
// vendored code, each by path and position. A model reading the first page of find_references sees
// what the code does before what its tests do, whatever the paths sort like (`__tests__/` before
// `src/`). The shard writer stores SymbolRecord.refs in this order, so a reader answers in it
// without reading or sorting more; find_references states it in every answer.
import { FILE_FLAGS } from './records.ts';

/** The order find_references answers in, as its answers state it. */
export const REFERENCE_ORDER = 'production, then tests, then generated and vendored; each by path and position';

/** Rank of a file's class in REFERENCE_ORDER, from its FILE_FLAGS: 0 production, 1 test, 2 generated or vendored. */
export function siteClass(flags: number): number {
  return flags & (FILE_FLAGS.generated | FILE_FLAGS.vendored) ? 2 : flags & FILE_FLAGS.test ? 1 : 0;
}

/** A site with the class of its file (siteClass). */
export interface ClassedSite {
  siteClass: number;
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** REFERENCE_ORDER as a comparison: class, then path (UTF-16 code units), then position. */
export function compareInReferenceOrder(a: ClassedSite, b: ClassedSite): number {
  return a.siteClass - b.siteClass || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
    || a.line - b.line || a.column - b.column || a.endLine - b.endLine || a.endColumn - b.endColumn;
}
