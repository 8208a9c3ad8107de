// A synthetic multi-module Gradle repository of a chosen size, made from real sources, for the JVM
// bench's memory slope (peak RSS against file count): java.base and ReactAndroid (jvm-corpora.ts)
// copied, alternately, into modules m0, m1, … until the file count is reached (the last module takes
// the first files of its source, by path). Every package a source declares is renamed per module
// (`java.util` → `m2.java.util`, `com.facebook` → `m3.com.facebook`), imports and qualified names
// with it, so copies do not collide and each module resolves against its own classes as the original
// did. Each module has a build.gradle depending on the one before, and settings.gradle includes
// them all, so BuildLayout sees the modules. Committed to a git repository of its own under
// indexer/.bench/jvm/ (git-ignored), cached by size and generator version.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { listTrackedFiles, readBlobs, resolveCommit } from '../src/git/git-snapshot.ts';
import { JVM_CACHE, JVM_CORPORA, type JvmCorpus } from './jvm-corpora.ts';

const run = promisify(execFile);
/** Bumped when the generated repository changes, so a cached one is not reused. */
const GENERATOR_VERSION = 1;
const SOURCES = ['java.base', 'react-native'];
const SOURCE_FILE = /\.(java|kt)$/;

interface SourceSet {
  files: { path: string; text: string }[];
  /** Matches every package prefix the source declares (two segments: `java.util`, `com.facebook`). */
  packages: RegExp;
}

export function syntheticCorpus(files: number): JvmCorpus {
  return {
    id: `synthetic-${files}`,
    note: `${files} files in Gradle modules, each a copy of java.base or ReactAndroid with its packages renamed`,
    prepare: () => prepareSynthetic(files),
  };
}

async function prepareSynthetic(total: number): Promise<string> {
  const repo = join(JVM_CACHE, `synthetic-v${GENERATOR_VERSION}-${total}`, 'repo');
  if (existsSync(join(repo, '.git'))) return repo;
  const sources: SourceSet[] = [];
  for (const id of SOURCES) sources.push(await sourceSet(await JVM_CORPORA.find((c) => c.id === id)!.prepare()));
  await rm(repo, { recursive: true, force: true });
  const modules: string[] = [];
  for (let written = 0, m = 0; written < total; m++) {
    const source = sources[m % sources.length]!;
    const module = `m${m}`;
    const take = source.files.slice(0, total - written);
    for (const file of take) {
      const text = file.text.replace(source.packages, (name) => `${module}.${name}`);
      await writeText(join(repo, module, 'src/main/java', file.path), text);
    }
    const deps = m > 0 ? `    implementation project(':m${m - 1}')\n` : '';
    await writeText(join(repo, module, 'build.gradle'), `plugins {\n    id 'java-library'\n}\n\ndependencies {\n${deps}}\n`);
    modules.push(module);
    written += take.length;
  }
  await writeText(join(repo, 'settings.gradle'), `rootProject.name = 'synthetic'\n${modules.map((m) => `include ':${m}'`).join('\n')}\n`);
  const git = (...args: string[]) => run('git', ['-c', 'user.email=bench@sextant.dev', '-c', 'user.name=bench', ...args], { cwd: repo, maxBuffer: 1 << 26 });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', `synthetic corpus of ${total} files`);
  return repo;
}

/** The Java and Kotlin files of a corpus repository (by path, below its source roots) and its packages. */
async function sourceSet(repo: string): Promise<SourceSet> {
  const { root, commit } = await resolveCommit(repo, 'HEAD');
  const tracked = await listTrackedFiles(root, commit);
  const { files } = await readBlobs(root, tracked.files.filter((f) => SOURCE_FILE.test(f.path) && !f.path.endsWith('module-info.java')));
  const prefixes = new Set<string>();
  for (const file of files) {
    const declared = /^\s*package\s+([\w.]+)/m.exec(file.text)?.[1];
    const prefix = declared?.split('.').slice(0, 2).join('.');
    if (prefix?.includes('.')) prefixes.add(prefix);
  }
  const alternatives = [...prefixes].sort((a, b) => b.length - a.length).map((p) => p.replace(/\./g, '\\.'));
  return {
    files: files.map((f) => ({ path: f.path.replace(/^.*?src\/main\/java\//, '').replace(/^java\.base\//, ''), text: f.text }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    packages: new RegExp(`(?<![\\w.$])(?:${alternatives.join('|')})(?=[.;\\s*])`, 'g'),
  };
}

async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
