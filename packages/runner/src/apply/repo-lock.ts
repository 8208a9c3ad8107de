// One apply (or recovery) at a time per repository: .sextant/journal/lock holds the pid of the
// runner working on the tree. A lock whose process is gone (killed mid-apply) is taken over; its
// journal is then recovered by whoever takes it.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SextantError } from '@sextant/format';
import { writeNewFile } from './durable-fs.ts';
import { journalDir } from './journal.ts';

export interface RepoLock {
  release(): Promise<void>;
}

export async function lockRepository(root: string): Promise<RepoLock> {
  await mkdir(journalDir(root), { recursive: true });
  const path = join(journalDir(root), 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeNewFile(path, new TextEncoder().encode(`${process.pid}\n`));
      return { release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
      throw new SextantError('CONFLICT', `Another runner (pid ${holder}) is applying a plan in ${root}.`,
        'Wait for it to finish, then try again.', { pid: holder });
    }
    await rm(path, { force: true }); // left by a runner that died; its journal is recovered next
  }
  throw new SextantError('CONFLICT', `Could not lock ${root} for an apply.`, 'Another runner keeps taking the lock; try again.');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
