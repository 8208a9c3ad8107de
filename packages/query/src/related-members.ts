// The members a reference search or a rename treats together with a member, over `overrides` edges
// (a member overriding or implementing another). Two reaches:
// - 'hierarchy', for find_references: the members it overrides or implements, transitively, and
//   every member overriding or implementing one of those or itself, transitively; so a sibling
//   (another subclass's override of the same base member) is in, since a call through the base may
//   reach either. This is the language service's relation (a reference is related when it or one of
//   its base members is the target or one of the target's base members). It stops short of the
//   connected group: through a type that extends two hierarchies (zod's string formats are both
//   schemas and checks), going up again from a sibling would join every member of both.
// - 'group', for a rename: the whole connected group, since a base member and every override of it
//   must keep one name for the program to stay correct.
// Members of external types (the TypeScript lib, node_modules, the JDK) are not followed: through
// Error.message or Object.toString every class in the repository would join.
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { walk, type EdgeView, type WalkResult } from './edges.ts';

export const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property', 'field', 'getter', 'setter', 'enumMember', 'constructor']);

/** Generous for real hierarchies (a base method with hundreds of overrides) while bounding the work of one call. */
export const RELATED_BOUND = { depth: 64, maxNodes: 5000 };

export type RelatedReach = 'hierarchy' | 'group';

export interface RelatedMembers {
  /** The start first, then the others in breadth-first order (for 'hierarchy': the overridden ones, then the overriding ones). */
  members: LoadedSymbol[];
  /** Set when there are more than RELATED_BOUND allows: members is then a part of them. */
  truncatedBy?: 'depth' | 'maxNodes';
}

export async function relatedMembers(reader: IndexReader, start: LoadedSymbol, reach: RelatedReach): Promise<RelatedMembers> {
  if (!MEMBER_KINDS.has(start.record.kind)) return { members: [start] };
  const over = (from: LoadedSymbol | LoadedSymbol[], follow: (edge: EdgeView) => boolean) =>
    walk(reader, from, follow, RELATED_BOUND, (s) => !s.record.external);
  const overrides = (e: EdgeView) => e.kind === 'overrides';
  const walks: WalkResult[] = [];
  if (reach === 'group') walks.push(await over(start, overrides));
  else {
    const up = await over(start, (e) => overrides(e) && e.out);
    walks.push(up, await over([start, ...up.steps.map((s) => s.symbol)], (e) => overrides(e) && !e.out));
  }
  const others = walks.flatMap((w) => w.steps.map((s) => s.symbol));
  const truncatedBy = walks.find((w) => w.truncatedBy)?.truncatedBy ?? (others.length > RELATED_BOUND.maxNodes ? 'maxNodes' : undefined);
  return { members: [start, ...others.slice(0, RELATED_BOUND.maxNodes)], ...(truncatedBy ? { truncatedBy } : {}) };
}
