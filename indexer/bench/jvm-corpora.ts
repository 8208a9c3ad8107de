// The JVM bench corpora, fetched from the registries at bench time (never committed; cached under
// indexer/.bench/jvm/, git-ignored), each made into a git repository of its own because `indexer
// build` reads only what is tracked at a commit:
//   react-native  the Java and Kotlin sources of ReactAndroid in the npm package react-native@0.80.0
//   java.base     the JDK's own java.base sources, src.zip of Debian's openjdk-17-source
// Shared by the JVM indexer bench (jvm-bench.ts) and the task benchmark (test/bench/tasks).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const JVM_CACHE = new URL('../.bench/jvm/', import.meta.url).pathname;
const CACHE = JVM_CACHE;

export interface JvmCorpus {
  id: string;
  note: string;
  /** Makes the corpus's git repository (once; cached) and returns its directory. */
  prepare(): Promise<string>;
}

export const JVM_CORPORA: readonly JvmCorpus[] = [
  {
    id: 'react-native',
    note: 'ReactAndroid of the npm package react-native@0.80.0 (Java, Kotlin and Gradle files)',
    prepare: async () => {
      const dir = join(CACHE, 'react-native');
      const repo = join(dir, 'repo');
      if (existsSync(join(repo, '.git'))) return repo;
      await mkdir(dir, { recursive: true });
      await run('npm', ['pack', 'react-native@0.80.0', '--silent', '--pack-destination', dir], { cwd: dir, maxBuffer: 1 << 26 });
      await run('tar', ['xzf', 'react-native-0.80.0.tgz'], { cwd: dir });
      await copyTree(join(dir, 'package/ReactAndroid'), join(repo, 'ReactAndroid'), /\.(java|kt|kts|gradle)$/);
      await commit(repo);
      return repo;
    },
  },
  {
    id: 'java.base',
    note: 'java.base of src.zip in Debian\'s openjdk-17-source',
    prepare: async () => {
      const dir = join(CACHE, 'openjdk-17');
      const repo = join(dir, 'repo');
      if (existsSync(join(repo, '.git'))) return repo;
      await mkdir(dir, { recursive: true });
      await run('apt-get', ['download', 'openjdk-17-source'], { cwd: dir, maxBuffer: 1 << 26 });
      const deb = (await readdir(dir)).find((f) => f.startsWith('openjdk-17-source') && f.endsWith('.deb'));
      if (!deb) throw new Error('apt-get download openjdk-17-source produced no .deb. To fix this, run `apt-get update` first.');
      await run('dpkg-deb', ['-x', deb, 'deb'], { cwd: dir });
      const zip = await findFile(join(dir, 'deb'), 'src.zip');
      if (!zip) throw new Error(`no src.zip in ${deb}`);
      await mkdir(join(repo), { recursive: true });
      await run('unzip', ['-q', '-o', zip, 'java.base/*', '-d', repo], { maxBuffer: 1 << 26 });
      await commit(repo);
      return repo;
    },
  },
];

async function copyTree(from: string, to: string, keep: RegExp): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) await copyTree(source, join(to, entry.name), keep);
    else if (keep.test(entry.name)) {
      await mkdir(to, { recursive: true });
      await cp(source, join(to, entry.name));
    }
  }
}

async function findFile(dir: string, name: string): Promise<string | undefined> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = await findFile(path, name);
      if (found) return found;
    } else if (entry.name === name) return path;
  }
  return undefined;
}

async function commit(repo: string): Promise<void> {
  const git = (...args: string[]) => run('git', ['-c', 'user.email=bench@sextant.dev', '-c', 'user.name=bench', ...args], { cwd: repo, maxBuffer: 1 << 26 });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'corpus');
}
