// Work over many items a few at a time (uploads, shard files), failing as a caller can clean up after.

/**
 * Runs `run` over the items, `limit` at a time. After a failure no item starts, and the call
 * rejects (with the first error) only once every task in flight has ended: a failed publish leaves
 * nothing running against a store its caller closes next (a read of a closed local R2's answer
 * blocks its process for good), a failed write nothing writing into a directory its caller removes.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      try {
        await run(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
