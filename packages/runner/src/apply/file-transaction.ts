// Replacing several files as one change. New contents are staged beside their targets and fsynced;
// the journal is written; then each target gets a backup (a hard link to its old content) and is
// replaced by a rename. Until the journal says "committed", the change can be undone from the
// backups, in process when a step fails and by recovery after a crash; after it, only the backups
// remain to be removed. So a tree is always either as before or as after, never in between.
import { access, constants, link, lstat, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { contentHash, SextantError, type FileChange } from '@sextant/format';
import { fsyncDirectory, writeNewFile } from './durable-fs.ts';
import { backupPath, newJournal, removeJournal, stagedPath, writeJournal, type Journal } from './journal.ts';
import type { PathJail } from './path-jail.ts';

export interface StagedFile {
  path: string;
  /** Absolute, checked by the jail. */
  target: string;
  change: FileChange;
  oldHash: string | null;
  newHash: string | null;
  bytes: Uint8Array | null;
  /** Permission bits to keep (absent for created files: the umask decides, as for any new file). */
  mode?: number;
}

/** Reports each step before it is taken; with a delay, for crash tests that must land inside an apply. */
export type StepHook = (step: string, path?: string) => Promise<void>;

export async function hashOnDisk(target: string): Promise<string | null> {
  try {
    return contentHash(new Uint8Array(await readFile(target)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function replaceFiles(jail: PathJail, planHash: string, files: StagedFile[], step: StepHook): Promise<void> {
  const journal = newJournal(planHash, files.map(({ path, change, oldHash, newHash }) => ({ path, change, oldHash, newHash })));
  await step('journal', `prepared ${planHash}`);
  await writeJournal(jail.root, journal);
  try {
    for (const file of files) {
      await step('stage', file.path);
      await rm(stagedPath(file.target, planHash), { force: true });
      await rm(backupPath(file.target, planHash), { force: true });
      if (file.bytes) await writeNewFile(stagedPath(file.target, planHash), file.bytes, file.mode);
    }
    for (const file of files) {
      await step('replace', file.path);
      await checkStillExpected(file);
      if (file.oldHash !== null) await link(file.target, backupPath(file.target, planHash));
      if (file.change === 'delete') await unlink(file.target);
      else await rename(stagedPath(file.target, planHash), file.target);
    }
    await step('sync');
    for (const dir of new Set(files.map((f) => dirname(f.target)))) await fsyncDirectory(dir);
  } catch (error) {
    await step('roll back');
    try {
      await rollBack(jail, journal);
    } catch (rollbackError) {
      throw new SextantError('INTERNAL',
        `The apply failed (${(error as Error).message}) and undoing it failed too: ${(rollbackError as Error).message}.`,
        `Run \`runner recover\` once the cause is fixed; the journal ${planHash}.json in .sextant/journal says what to undo.`);
    }
    await removeJournal(jail.root, planHash);
    if (error instanceof SextantError) {
      throw new SextantError(error.code, `${error.message} Nothing was changed: the files already replaced were restored.`, error.hint, error.data);
    }
    throw error;
  }
  await step('journal', `committed ${planHash}`);
  await writeJournal(jail.root, { ...journal, state: 'committed' });
  await finishCommitted(jail, journal);
  await step('done');
  await removeJournal(jail.root, planHash);
}

/** Re-checked just before each replace: the file may have changed, or been made read-only, since the plan was verified. */
async function checkStillExpected(file: StagedFile): Promise<void> {
  const now = await hashOnDisk(file.target);
  if (now !== file.oldHash) {
    throw new SextantError('CONFLICT', `${file.path} changed while the plan was being applied.`,
      'Make the plan again from the current tree.', { files: [file.path] });
  }
  if (file.oldHash === null) return;
  const info = await lstat(file.target);
  const writable = (info.mode & 0o222) !== 0 && await access(file.target, constants.W_OK).then(() => true, () => false);
  if (!writable) {
    throw new SextantError('CONFLICT', `${file.path} is read-only (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}).`,
      `Make it writable (chmod u+w ${file.path}) if it should change, then apply the plan again.`, { files: [file.path] });
  }
}

/** Undoes a prepared apply: restores every backup, removes staged and created files. */
export async function rollBack(jail: PathJail, journal: Journal): Promise<void> {
  const dirs = new Set<string>();
  for (const entry of journal.entries) {
    const target = await jail.resolve(entry.path);
    dirs.add(dirname(target));
    await rm(stagedPath(target, journal.planHash), { force: true });
    const backup = backupPath(target, journal.planHash);
    const saved = await lstat(backup).catch(() => undefined);
    if (saved) {
      const current = await lstat(target).catch(() => undefined);
      // Linked but not yet replaced: both names are the old file, keep the target's.
      if (current && current.ino === saved.ino && current.dev === saved.dev) await unlink(backup);
      else await rename(backup, target);
    } else if (entry.oldHash === null && await hashOnDisk(target) === entry.newHash) {
      await unlink(target); // created by this apply
    }
  }
  for (const dir of dirs) await fsyncDirectory(dir);
  const wrong: string[] = [];
  for (const entry of journal.entries) {
    if (await hashOnDisk(await jail.resolve(entry.path)) !== entry.oldHash) wrong.push(entry.path);
  }
  if (wrong.length) {
    throw new SextantError('CONFLICT', `After undoing apply ${journal.planHash.slice(0, 12)}, ${wrong.join(', ')} still differ from their content before it (changed by someone else meanwhile?).`,
      `Inspect them; remove .sextant/journal/${journal.planHash}.json when the tree is as you want it.`, { files: wrong });
  }
}

/** Completes a committed apply: only backups and leftovers remain to be removed. */
export async function finishCommitted(jail: PathJail, journal: Journal): Promise<void> {
  const dirs = new Set<string>();
  for (const entry of journal.entries) {
    const target = await jail.resolve(entry.path);
    dirs.add(dirname(target));
    await rm(stagedPath(target, journal.planHash), { force: true });
    await rm(backupPath(target, journal.planHash), { force: true });
  }
  for (const dir of dirs) await fsyncDirectory(dir);
}
