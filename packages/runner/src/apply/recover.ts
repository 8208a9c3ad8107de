// `runner recover`, also run by every runner command that touches a working tree before it does
// anything else: each journal left by an interrupted apply to this tree is finished if it was
// committed and rolled back if it was not, so the tree is exactly as before or exactly as after
// that apply. Journals are read from the runner's state directory only (state-dir.ts), never from
// the tree, and every path they name is jailed before anything is touched.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finishCommitted, rollBack } from './file-transaction.ts';
import { pendingJournals, removeJournal } from './journal.ts';
import type { PathJail } from './path-jail.ts';
import { lockRepository } from './repo-lock.ts';
import { notifyOnStderr, openStateDir, type Notify, type StateDir } from './state-dir.ts';

export interface Recovery {
  planHash: string;
  outcome: 'rolled back' | 'completed';
  files: string[];
}

export async function recover(jail: PathJail, notify: Notify = notifyOnStderr): Promise<Recovery[]> {
  return recoverState(jail, await openStateDir(jail, notify), notify);
}

/** Recovery before a command touches a tree: lock-free (and nothing to report) when no apply was interrupted. */
export async function recoverIfPending(jail: PathJail, notify: Notify = notifyOnStderr): Promise<Recovery[]> {
  const state = await openStateDir(jail, notify);
  if ((await pendingJournals(state)).journals.length === 0) return [];
  return recoverState(jail, state, notify);
}

async function recoverState(jail: PathJail, state: StateDir, notify: Notify): Promise<Recovery[]> {
  const lock = await lockRepository(state, notify);
  try {
    return await recoverLocked(jail, state, notify);
  } finally {
    await lock.release();
  }
}

/** For callers that hold the repository lock already. */
export async function recoverLocked(jail: PathJail, state: StateDir, notify: Notify = notifyOnStderr): Promise<Recovery[]> {
  const done: Recovery[] = [];
  const { journals, otherTrees } = await pendingJournals(state);
  for (const name of otherTrees) notify(`left the journal ${name} alone: it belongs to another tree of this repository; run \`runner recover --repo\` there`);
  for (const journal of journals) {
    // Every path is jailed before the first file is touched: a journal naming one outside the tree is refused whole.
    for (const entry of journal.entries) await jail.resolve(entry.path);
    if (journal.state === 'committed') await finishCommitted(jail, journal);
    else await rollBack(jail, journal);
    await removeJournal(state, journal.planHash);
    done.push({
      planHash: journal.planHash,
      outcome: journal.state === 'committed' ? 'completed' : 'rolled back',
      files: journal.entries.map((e) => e.path),
    });
  }
  // A journal that was being rewritten when the runner died: the rename never happened, so the
  // journal it was replacing (handled above) is the one that counts.
  const strays = await readdir(state.journalDir).catch(() => [] as string[]);
  for (const name of strays.filter((n) => n.endsWith('.tmp'))) await rm(join(state.journalDir, name), { force: true });
  return done;
}
