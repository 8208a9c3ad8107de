// Replacing several files as one change. New contents are staged beside their targets and fsynced;
// the journal is written; then each target gets a backup (a hard link to its old content) and is
// replaced by a rename. Until the journal says "committed", the change can be undone from the
// backups, in process when a step fails and by recovery after a crash; after it, only the backups
// remain to be removed. So a tree is always either as before or as after, never in between. A
// failure of the operating system on the way (no space, a file size limit) is IO_ERROR, like any
// other failure reported after the files already replaced were restored.
import { access, constants, link, lstat, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ioErrorOf, SextantError } from '@sextant/format';
import { contentHash, type FileChange } from '@sextant/plan';
import { fsyncDirectory, writeNewFile } from './durable-fs.ts';
import { backupPath, journalPath, newJournal, removeJournal, stagedPath, writeJournal, type Journal } from './journal.ts';
import type { PathJail } from './path-jail.ts';
import type { StateDir } from './state-dir.ts';

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

export async function replaceFiles(jail: PathJail, state: StateDir, planHash: string, files: StagedFile[], step: StepHook): Promise<void> {
  const journal = newJournal(jail.root, planHash, files.map(({ path, change, oldHash, newHash }) => ({ path, change, oldHash, newHash })));
  const { id } = journal;
  await step('journal', `prepared ${planHash}`);
  await writeJournal(state, journal);
  try {
    for (const file of files) {
      await step('stage', file.path);
      if (file.bytes) await writeNewFile(stagedPath(file.target, id), file.bytes, file.mode);
    }
    for (const file of files) {
      await step('replace', file.path);
      await checkStillExpected(file);
      if (file.oldHash !== null) await link(file.target, backupPath(file.target, id));
      if (file.change === 'delete') await unlink(file.target);
      else await rename(stagedPath(file.target, id), file.target);
    }
    await step('sync');
    for (const dir of new Set(files.map((f) => dirname(f.target)))) await fsyncDirectory(dir);
  } catch (thrown) {
    const error = ioErrorOf(thrown) ?? thrown;
    await step('roll back');
    try {
      await rollBack(jail, journal);
    } catch (rollbackThrown) {
      const rollbackError = ioErrorOf(rollbackThrown) ?? rollbackThrown;
      const code = rollbackError instanceof SextantError ? rollbackError.code : 'INTERNAL';
      throw new SextantError(code,
        `The apply failed (${(error as Error).message}) and undoing it failed too: ${(rollbackError as Error).message}`,
        `Run \`runner recover\` once the cause is fixed; the journal ${journalPath(state, planHash)} says what to undo.`,
        rollbackError instanceof SextantError ? rollbackError.data : undefined);
    }
    await removeJournal(state, planHash);
    if (error instanceof SextantError) {
      throw new SextantError(error.code, `${error.message} Nothing was changed: the files already replaced were restored.`, error.hint, error.data);
    }
    throw error;
  }
  await step('journal', `committed ${planHash}`);
  await writeJournal(state, { ...journal, state: 'committed' });
  await finishCommitted(jail, journal);
  await step('done');
  await removeJournal(state, planHash);
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

/**
 * Undoes a prepared apply: restores every backup, removes staged and created files. Every backup
 * to restore is checked first to hold the old content the journal recorded; when one does not,
 * nothing is touched.
 */
export async function rollBack(jail: PathJail, journal: Journal): Promise<void> {
  const targets = new Map<string, string>();
  for (const entry of journal.entries) targets.set(entry.path, await jail.resolve(entry.path));
  const restores = new Set<string>();
  for (const entry of journal.entries) {
    const target = targets.get(entry.path)!;
    const backup = backupPath(target, journal.id);
    const saved = await lstat(backup).catch(() => undefined);
    if (!saved) continue;
    const current = await lstat(target).catch(() => undefined);
    // Linked but not yet replaced: both names are the old file, keep the target's.
    if (current && current.ino === saved.ino && current.dev === saved.dev) continue;
    if (!saved.isFile() || entry.oldHash === null || await hashOnDisk(backup) !== entry.oldHash) {
      throw new SextantError('CONFLICT', `The backup ${jail.relativeOf(backup) ?? backup} does not hold the content the journal of apply ${journal.planHash.slice(0, 12)} recorded for ${entry.path}; nothing was restored.`,
        `Inspect ${entry.path} and the backup; remove the journal ${journal.planHash}.json from the runner's state directory when the tree is as you want it.`, { files: [entry.path] });
    }
    restores.add(entry.path);
  }
  const dirs = new Set<string>();
  for (const entry of journal.entries) {
    const target = targets.get(entry.path)!;
    dirs.add(dirname(target));
    await rm(stagedPath(target, journal.id), { force: true });
    const backup = backupPath(target, journal.id);
    if (restores.has(entry.path)) await rename(backup, target);
    else if (await lstat(backup).then(() => true, () => false)) await unlink(backup);
    else if (entry.oldHash === null && await hashOnDisk(target) === entry.newHash) await unlink(target); // created by this apply
  }
  for (const dir of dirs) await fsyncDirectory(dir);
  const wrong: string[] = [];
  for (const entry of journal.entries) {
    if (await hashOnDisk(targets.get(entry.path)!) !== entry.oldHash) wrong.push(entry.path);
  }
  if (wrong.length) {
    throw new SextantError('CONFLICT', `After undoing apply ${journal.planHash.slice(0, 12)}, ${wrong.join(', ')} still differ from their content before it (changed by someone else meanwhile?).`,
      `Inspect them; remove the journal ${journal.planHash}.json from the runner's state directory when the tree is as you want it.`, { files: wrong });
  }
}

/** Completes a committed apply: only backups and leftovers remain to be removed. */
export async function finishCommitted(jail: PathJail, journal: Journal): Promise<void> {
  const dirs = new Set<string>();
  for (const entry of journal.entries) {
    const target = await jail.resolve(entry.path);
    dirs.add(dirname(target));
    await rm(stagedPath(target, journal.id), { force: true });
    await rm(backupPath(target, journal.id), { force: true });
  }
  for (const dir of dirs) await fsyncDirectory(dir);
}
