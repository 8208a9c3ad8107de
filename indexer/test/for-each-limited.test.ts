// Publish uploads and the shard writer writes `limit` at a time; when one fails, the call must not
// return while others are still writing: publish's caller closes the store next (a local R2 read
// answered after the close blocked the e2e test process for good, worker-hosted's "publish dies
// half-way"), the writer's removes the temporary directory.
import { describe, expect, it } from 'vitest';
import { forEachLimited } from '../src/for-each-limited.ts';

describe('forEachLimited', () => {
  it('rejects with the first failure only after every task in flight ended, and starts none after it', async () => {
    const events: string[] = [];
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => { releaseSlow = resolve; });
    const done = forEachLimited(['slow', 'fails', 'later'], 2, async (item) => {
      events.push(`start ${item}`);
      if (item === 'fails') throw new Error('killed');
      if (item === 'slow') await slow;
      events.push(`end ${item}`);
    });
    let settled = false;
    done.catch(() => {}).finally(() => { settled = true; });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false); // 'slow' is still uploading
    releaseSlow();
    await expect(done).rejects.toThrow('killed');
    expect(events).toEqual(['start slow', 'start fails', 'end slow']);
  });

  it('runs every item when none fails', async () => {
    const seen: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5], 2, async (n) => { seen.push(n); });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
