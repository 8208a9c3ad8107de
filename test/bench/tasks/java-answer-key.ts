// Answer keys for Java tasks, from javac's attributed trees: java/TaskKey.java, compiled and run at
// bench time with the system javac 17 (/usr/bin/javac) over every source of the module (java.base
// patched from them). One run answers every Java task; the answers are cached under the bench
// directory by the commit, the tasks and the key program's source.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parsePosition, type Answer, type Task } from './task-types.ts';

const run = promisify(execFile);
const SOURCE = new URL('./java/TaskKey.java', import.meta.url).pathname;

export async function javaAnswerKeys(options: { repo: string; module: string; commit: string; tasks: readonly Task[]; cacheDir: string; log: (line: string) => void }): Promise<Map<string, Answer>> {
  const input = options.tasks.map((t) => {
    const { path, line, column } = parsePosition(t.at);
    return [t.id, t.kind, t.name, path, line, column].join('\t');
  }).join('\n');
  const source = await readFile(SOURCE, 'utf8');
  const hash = createHash('sha256').update(JSON.stringify([options.commit, input, source])).digest('hex').slice(0, 16);
  const dir = join(options.cacheDir, 'java-key');
  const answers = join(dir, `answers-${hash}.tsv`);
  if (!existsSync(answers)) {
    await mkdir(join(dir, 'classes'), { recursive: true });
    await run('javac', ['-d', join(dir, 'classes'), SOURCE]);
    const tasksFile = join(dir, `tasks-${hash}.tsv`);
    await writeFile(tasksFile, `${input}\n`);
    options.log(`answer keys for ${options.tasks.length} Java tasks: javac attributes every file of ${options.module} (minutes)...`);
    const { stderr } = await run('java', ['-Xmx8g', '-cp', join(dir, 'classes'), 'TaskKey', options.repo, options.module, tasksFile, answers], { maxBuffer: 1 << 26 });
    options.log(`  ${stderr.trim()}`);
  }
  const keys = new Map<string, Answer>(options.tasks.map((t) => [t.id, { items: [] }]));
  for (const row of (await readFile(answers, 'utf8')).split('\n').filter(Boolean)) {
    const [id, item] = row.split('\t') as [string, string];
    if (item.startsWith('!')) throw new Error(`${id}: the javac key failed: ${item.slice(1)}`);
    keys.get(id)!.items.push(item);
  }
  for (const key of keys.values()) key.items.sort();
  return keys;
}
