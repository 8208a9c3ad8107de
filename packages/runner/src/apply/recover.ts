// `runner recover`, also run by every runner command that touches a working tree before it does
// anything else: each journal left by an interrupted apply is finished if it was committed and
// rolled back if it was not, so the tree is exactly as before or exactly as after that apply.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finishCommitted, rollBack } from './file-transaction.ts';
import { journalDir, pendingJournals, removeJournal } from './journal.ts';
import type { PathJail } from './path-jail.ts';
import { lockRepository } from './repo-lock.ts';

export interface Recovery {
  planHash: string;
  outcome: 'rolled back' | 'completed';
  files: string[];
}

export async function recover(jail: PathJail): Promise<Recovery[]> {
  const lock = await lockRepository(jail.root);
  try {
    return await recoverLocked(jail);
  } finally {
    await lock.release();
  }
}

/** For callers that hold the repository lock already. */
export async function recoverLocked(jail: PathJail): Promise<Recovery[]> {
  const done: Recovery[] = [];
  for (const journal of await pendingJournals(jail.root)) {
    if (journal.state === 'committed') await finishCommitted(jail, journal);
    else await rollBack(jail, journal);
    await removeJournal(jail.root, journal.planHash);
    done.push({
      planHash: journal.planHash,
      outcome: journal.state === 'committed' ? 'completed' : 'rolled back',
      files: journal.entries.map((e) => e.path),
    });
  }
  // A journal that was being rewritten when the runner died: the rename never happened, so the
  // journal it was replacing (handled above) is the one that counts.
  const strays = await readdir(journalDir(jail.root)).catch(() => [] as string[]);
  for (const name of strays.filter((n) => n.endsWith('.tmp'))) await rm(join(journalDir(jail.root), name), { force: true });
  return done;
}
