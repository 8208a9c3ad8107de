// The apply journal: .sextant/journal/<planHash>.json in the repository, written and fsynced
// before the first file is replaced. It lists, per file, the hash before and after and the names
// of the staged new content and of the backup (a hard link to the old content), so that an apply
// interrupted at any point can be undone by `runner recover` (state "prepared") or finished
// (state "committed": every file was already replaced, only the backups remain to be removed).
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SextantError, type FileChange } from '@sextant/format';
import { fsyncDirectory, writeNewFile } from './durable-fs.ts';

export const JOURNAL_DIR = '.sextant/journal';
const JOURNAL_FORMAT = 1;

export interface JournalEntry {
  /** Repository-relative. */
  path: string;
  change: FileChange;
  oldHash: string | null;
  newHash: string | null;
}

export interface Journal {
  format: number;
  planHash: string;
  state: 'prepared' | 'committed';
  entries: JournalEntry[];
}

export function journalDir(root: string): string {
  return join(root, JOURNAL_DIR);
}

export function journalPath(root: string, planHash: string): string {
  return join(journalDir(root), `${planHash}.json`);
}

/** The staged new content of a file, beside it, so the final rename stays on one file system. */
export function stagedPath(target: string, planHash: string): string {
  return join(dirname(target), `.${basename(target)}.sextant-${planHash.slice(0, 16)}.new`);
}

/** The backup of a file's old content (a hard link), beside it. */
export function backupPath(target: string, planHash: string): string {
  return join(dirname(target), `.${basename(target)}.sextant-${planHash.slice(0, 16)}.old`);
}

/** Writes the journal atomically (new file, fsync, rename over the old one, fsync the directory). */
export async function writeJournal(root: string, journal: Journal): Promise<void> {
  const dir = journalDir(root);
  await mkdir(dir, { recursive: true });
  const target = journalPath(root, journal.planHash);
  const temp = `${target}.${process.pid}.tmp`;
  await rm(temp, { force: true });
  await writeNewFile(temp, new TextEncoder().encode(`${JSON.stringify(journal, null, 2)}\n`));
  await rename(temp, target);
  await fsyncDirectory(dir);
}

export async function removeJournal(root: string, planHash: string): Promise<void> {
  await rm(journalPath(root, planHash), { force: true });
  await fsyncDirectory(journalDir(root));
}

/** Journals left by applies that did not finish, oldest name first. */
export async function pendingJournals(root: string): Promise<Journal[]> {
  let names: string[];
  try {
    names = (await readdir(journalDir(root))).filter((n) => /^[0-9a-f]{64}\.json$/.test(n)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const journals: Journal[] = [];
  for (const name of names) {
    const path = join(journalDir(root), name);
    let journal: Journal;
    try {
      journal = JSON.parse(await readFile(path, 'utf8')) as Journal;
    } catch (error) {
      throw new SextantError('INTERNAL', `The apply journal ${path} cannot be read: ${(error as Error).message}.`,
        'Inspect it and the files it names by hand; remove it once the tree is as you want it.');
    }
    if (journal.format !== JOURNAL_FORMAT || !['prepared', 'committed'].includes(journal.state) || !Array.isArray(journal.entries)
      || `${journal.planHash}.json` !== name) {
      throw new SextantError('INTERNAL', `The apply journal ${path} is not one this runner wrote.`,
        'Inspect it and the files it names by hand; remove it once the tree is as you want it.');
    }
    journals.push(journal);
  }
  return journals;
}

export function newJournal(planHash: string, entries: JournalEntry[]): Journal {
  return { format: JOURNAL_FORMAT, planHash, state: 'prepared', entries };
}
