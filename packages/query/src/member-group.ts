// The members a reference search or a rename treats together with a member: over `overrides` edges
// (a member overriding or implementing another) and `sameProperty` edges (the same-named members of
// the object type literals of one union). Two reaches:
// - 'hierarchy', for find_references: the members it is one property with, then the members those
//   override or implement, transitively, then every member overriding or implementing any of these,
//   transitively; so a sibling (another subclass's override of the same base member) is in, since a
//   call through the base may reach either. This is the language service's relation. It stops short
//   of the connected group: through a type that extends two hierarchies (zod's string formats are
//   both schemas and checks), going up again from a sibling would join every member of both.
// - 'group', for a rename: the whole connected group, since a base member and every override of it
//   must keep one name for the program to stay correct.
// Members of external types (the TypeScript lib, node_modules, the JDK) are not followed: through
// Error.message or Object.toString every class in the repository would join.
import type { GraphEdge, GraphNode } from '@sextant/format';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { nodeOf, symbolsOf, walk, type WalkResult } from './edges.ts';

export const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property', 'field', 'getter', 'setter', 'enumMember', 'constructor']);

/** Generous for real hierarchies (a base method with hundreds of overrides) while bounding the work of one call. */
export const RELATED_BOUND = { depth: 64, maxNodes: 5000 };

type RelatedReach = 'hierarchy' | 'group';

export interface RelatedMembers {
  /** The start first, then the others in the order they were reached. */
  members: LoadedSymbol[];
  /** Set when there are more than RELATED_BOUND allows: members is then a part of them. */
  truncatedBy?: 'depth' | 'maxNodes';
}

export async function relatedMembers(reader: IndexReader, start: LoadedSymbol, reach: RelatedReach): Promise<RelatedMembers> {
  if (!MEMBER_KINDS.has(start.record.kind)) return { members: [start] };
  const node = await nodeOf(reader, start);
  if (!node) return { members: [start] };
  const from = (walks: WalkResult[]): GraphNode[] => [node, ...walks.flatMap((w) => w.steps.map((s) => s.node))];
  const over = (walks: WalkResult[], follow: (edge: GraphEdge) => boolean) =>
    walk(reader, from(walks), follow, RELATED_BOUND, (n) => !n.external);
  const walks: WalkResult[] = [];
  if (reach === 'group') walks.push(await over(walks, (e) => e.kind === 'overrides' || e.kind === 'sameProperty'));
  else {
    walks.push(await over(walks, (e) => e.kind === 'sameProperty'));
    walks.push(await over(walks, (e) => e.kind === 'overrides' && e.out));
    walks.push(await over(walks, (e) => e.kind === 'overrides' && !e.out));
  }
  const others = from(walks).slice(1);
  const truncatedBy = walks.find((w) => w.truncatedBy)?.truncatedBy ?? (others.length > RELATED_BOUND.maxNodes ? 'maxNodes' : undefined);
  // The members' records: find_references reads their references, a rename their declarations.
  const members = await symbolsOf(reader, others.slice(0, RELATED_BOUND.maxNodes));
  return { members: [start, ...members], ...(truncatedBy ? { truncatedBy } : {}) };
}
