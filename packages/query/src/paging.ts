// Offset pages over an immutable, ordered list, with the completeness fields every list carries.
import { SextantError } from '@sextant/format';
import { decodeCursor, encodeCursor, queryFingerprint } from './cursor.ts';
import type { PageInfo } from './results.ts';

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

interface PageBounds {
  defaultLimit: number;
  maxLimit: number;
}

export function pageOf<T>(
  items: readonly T[], commit: string, query: unknown, request: PageRequest, bounds: PageBounds,
): { items: T[]; page: PageInfo } {
  const limit = request.limit ?? bounds.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > bounds.maxLimit) {
    throw new SextantError('INVALID_ARGUMENT', `limit must be an integer from 1 to ${bounds.maxLimit}; got ${limit}.`,
      `Pass a limit of at most ${bounds.maxLimit} and page with nextCursor.`);
  }
  const fingerprint = queryFingerprint(query);
  const offset = request.cursor ? decodeCursor(request.cursor, commit, fingerprint) : 0;
  const slice = items.slice(offset, offset + limit);
  const end = offset + slice.length;
  const hasMore = end < items.length;
  return {
    items: slice,
    page: {
      total: items.length,
      totalIsExact: true,
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(commit, fingerprint, end), truncationReason: `limit ${limit}` } : {}),
    },
  };
}
