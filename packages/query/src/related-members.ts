// The members a reference search treats as one: a member together with every member it overrides or
// implements and every member that overrides or implements it, transitively (the connected group
// the TypeScript language service searches when it finds references to a member, and that a rename
// must change together). Members of external types (the TypeScript lib, node_modules, the JDK) are
// not followed: through Error.message or Object.toString every class in the repository would join.
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { walk } from './edges.ts';

export const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property', 'field', 'getter', 'setter', 'enumMember', 'constructor']);

/** Generous for real hierarchies (a base method with hundreds of overrides) while bounding the work of one call. */
export const RELATED_BOUND = { depth: 64, maxNodes: 5000 };

export interface RelatedMembers {
  /** The start first, then the group in breadth-first order. */
  members: LoadedSymbol[];
  /** Set when the group is larger than RELATED_BOUND allows: members is then a part of it. */
  truncatedBy?: 'depth' | 'maxNodes';
}

export async function relatedMembers(reader: IndexReader, start: LoadedSymbol): Promise<RelatedMembers> {
  if (!MEMBER_KINDS.has(start.record.kind)) return { members: [start] };
  const result = await walk(reader, start, (e) => e.kind === 'overrides', RELATED_BOUND, (s) => !s.record.external);
  return { members: [start, ...result.steps.map((s) => s.symbol)], ...(result.truncatedBy ? { truncatedBy: result.truncatedBy } : {}) };
}
