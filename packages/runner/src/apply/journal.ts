// The apply journal: <state>/journal/<planHash>.json (see state-dir.ts: in the git directory, never
// in the tree), written and fsynced before the first file is replaced. It names the runner that
// wrote it (pid, host, start) and its plan, the tree it applies to, a random id that names the
// staged new contents and the backups (hard links to the old contents) beside their targets, and
// per file the hash before and after, so that an apply interrupted at any point can be undone by
// `runner recover` (state "prepared") or finished (state "committed": every file was already
// replaced, only the backups remain to be removed). Recovery obeys only a journal of this exact
// shape, for this tree; a backup is restored only when it holds the content the journal recorded.
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { SextantError } from '@sextant/format';
import type { FileChange } from '@sextant/plan';
import { fsyncDirectory, writeNewFile } from './durable-fs.ts';
import type { StateDir } from './state-dir.ts';

const JOURNAL_FORMAT = 2;
const HASH = /^[0-9a-f]{64}$/;
const ID = /^[0-9a-f]{32}$/;

interface JournalEntry {
  /** Repository-relative. */
  path: string;
  change: FileChange;
  oldHash: string | null;
  newHash: string | null;
}

export interface JournalWriter {
  pid: number;
  hostname: string;
  /** When the writing process started (ISO 8601). */
  startedAt: string;
}

export interface Journal {
  format: number;
  planHash: string;
  /** Random per apply: names its staged and backup files, which nothing in a repository can predict. */
  id: string;
  /** The real path of the tree. */
  root: string;
  writer: JournalWriter;
  state: 'prepared' | 'committed';
  entries: JournalEntry[];
}

export function journalPath(state: StateDir, planHash: string): string {
  return join(state.journalDir, `${planHash}.json`);
}

/** The staged new content of a file, beside it, so the final rename stays on one file system. */
export function stagedPath(target: string, id: string): string {
  return join(dirname(target), `.${basename(target)}.sextant-${id}.new`);
}

/** The backup of a file's old content (a hard link), beside it. */
export function backupPath(target: string, id: string): string {
  return join(dirname(target), `.${basename(target)}.sextant-${id}.old`);
}

/** This process, as journals and locks name their writer. */
export function thisWriter(): JournalWriter {
  return { pid: process.pid, hostname: hostname(), startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString() };
}

export function newJournal(root: string, planHash: string, entries: JournalEntry[]): Journal {
  return { format: JOURNAL_FORMAT, planHash, id: randomBytes(16).toString('hex'), root, writer: thisWriter(), state: 'prepared', entries };
}

/** Writes the journal atomically (new file, fsync, rename over the old one, fsync the directory). */
export async function writeJournal(state: StateDir, journal: Journal): Promise<void> {
  const target = journalPath(state, journal.planHash);
  const temp = `${target}.${process.pid}.tmp`;
  await rm(temp, { force: true });
  await writeNewFile(temp, new TextEncoder().encode(`${JSON.stringify(journal, null, 2)}\n`), 0o600);
  await rename(temp, target);
  await fsyncDirectory(state.journalDir);
}

export async function removeJournal(state: StateDir, planHash: string): Promise<void> {
  await rm(journalPath(state, planHash), { force: true });
  await fsyncDirectory(state.journalDir);
}

/** Journals left by applies to this tree that did not finish, oldest name first, and the names of those for other trees. */
export async function pendingJournals(state: StateDir): Promise<{ journals: Journal[]; otherTrees: string[] }> {
  let names: string[];
  try {
    names = (await readdir(state.journalDir)).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { journals: [], otherTrees: [] };
    throw error;
  }
  const journals: Journal[] = [];
  const otherTrees: string[] = [];
  for (const name of names) {
    const path = join(state.journalDir, name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      if (error instanceof SyntaxError) throw notOurs(path, `it is not JSON (${error.message})`);
      throw error;
    }
    const why = malformation(parsed, name);
    if (why) throw notOurs(path, why);
    const journal = parsed as Journal;
    if (journal.root !== state.root) otherTrees.push(`${name} (for ${journal.root})`);
    else journals.push(journal);
  }
  return { journals, otherTrees };
}

function notOurs(path: string, why: string): SextantError {
  return new SextantError('CONFLICT', `The apply journal ${path} is not one this runner wrote: ${why}. Nothing was recovered.`,
    'Inspect it and the files it names by hand; remove it once the tree is as you want it.', { path });
}

/** Why a parsed journal is not of the shape this runner writes, or undefined when it is. */
function malformation(value: unknown, name: string): string | undefined {
  const j = value as Partial<Journal> | null;
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return 'it is not an object';
  if (j.format !== JOURNAL_FORMAT) return `its format is ${JSON.stringify(j.format)}, not ${JOURNAL_FORMAT}`;
  if (typeof j.planHash !== 'string' || !HASH.test(j.planHash) || `${j.planHash}.json` !== name) return 'its planHash does not match its name';
  if (typeof j.id !== 'string' || !ID.test(j.id)) return 'its id is not 32 hex digits';
  if (typeof j.root !== 'string' || j.root.length === 0) return 'it names no tree';
  const w = j.writer;
  if (typeof w !== 'object' || w === null || !Number.isInteger(w.pid) || typeof w.hostname !== 'string' || typeof w.startedAt !== 'string') {
    return 'it does not name the runner that wrote it';
  }
  if (j.state !== 'prepared' && j.state !== 'committed') return `its state is ${JSON.stringify(j.state)}`;
  if (!Array.isArray(j.entries) || j.entries.length === 0) return 'it lists no files';
  const seen = new Set<string>();
  for (const e of j.entries as Partial<JournalEntry>[]) {
    if (typeof e !== 'object' || e === null || typeof e.path !== 'string' || seen.has(e.path)) return 'a file entry has no path, or a path twice';
    seen.add(e.path);
    const hash = (h: unknown) => h === null || (typeof h === 'string' && HASH.test(h));
    if (!hash(e.oldHash) || !hash(e.newHash)) return `the hashes of ${e.path} are not BLAKE3 hashes`;
    const shape = e.change === 'modify' ? e.oldHash !== null && e.newHash !== null
      : e.change === 'create' ? e.oldHash === null && e.newHash !== null
        : e.change === 'delete' ? e.oldHash !== null && e.newHash === null : false;
    if (!shape) return `the change of ${e.path} (${JSON.stringify(e.change)}) does not fit its hashes`;
  }
  return undefined;
}
