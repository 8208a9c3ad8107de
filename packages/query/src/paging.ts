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
  const window = pageWindow(commit, query, request, bounds);
  const slice = items.slice(window.offset, window.offset + window.limit);
  return { items: slice, page: window.info(window.offset + slice.length, items.length) };
}

/**
 * The page a request asks for, for a list its caller assembles itself (search_text reads only the
 * files its page shows): the offset (from the cursor) and the limit, checked, and the page fields
 * once the caller knows where the page ends and how long the whole list is.
 */
export function pageWindow(
  commit: string, query: unknown, request: PageRequest, bounds: PageBounds,
): { offset: number; limit: number; info(end: number, total: number): PageInfo } {
  const limit = request.limit ?? bounds.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > bounds.maxLimit) {
    throw new SextantError('INVALID_ARGUMENT', `limit must be an integer from 1 to ${bounds.maxLimit}; got ${limit}.`,
      `Pass a limit of at most ${bounds.maxLimit} and page with nextCursor.`);
  }
  const fingerprint = queryFingerprint(query);
  const offset = request.cursor ? decodeCursor(request.cursor, commit, fingerprint) : 0;
  return {
    offset,
    limit,
    info(end, total) {
      const hasMore = end < total;
      return {
        total,
        totalIsExact: true,
        hasMore,
        ...(hasMore ? { nextCursor: encodeCursor(commit, fingerprint, end), truncationReason: `limit ${limit}` } : {}),
      };
    },
  };
}
