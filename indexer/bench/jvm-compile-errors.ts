// javac and kotlinc as the judges of a Java/Kotlin tree: the lines that no longer compile. The
// review bench (review-jvm.ts) compiles the fixture's tree as its Gradle build would: the Kotlin
// sources first (main and test together, the Java sources given to kotlinc to resolve against,
// never compiled by it), then javac over the Java sources with kotlinc's classes on the class path.
// When the Kotlin main sources do not compile, kotlinc writes no classes: the Kotlin main sources
// alone are tried, and failing that the Java sources are compiled against the last tree's classes
// whose Kotlin did compile (the base's), which the answer says. The union of both compilers'
// errors (file and line) is the oracle. Results are cached under .bench/jvm/review-compile by the
// compilers and the texts compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JVM_CACHE } from './jvm-corpora.ts';
import { KOTLIN_COMPILER, kotlinCompiler } from './jvm-oracles.ts';

export interface CompileError {
  path: string;
  line: number;
  message: string;
  compiler: 'javac' | 'kotlinc';
}

export interface JvmCompilers {
  /** `javac 17.0.15`, when javac is installed. */
  javac?: string;
  /** The kotlin-compiler package's home, when it could be fetched and unpacked. */
  kotlinc?: { home: string; version: string };
  /** Why a compiler is missing, to print. */
  missing: string[];
}

/** The tree's sources by how they are compiled (repository-relative paths). */
export interface JvmSources {
  java: string[];
  kotlinMain: string[];
  kotlinTest: string[];
}

export interface TreeErrors {
  errors: CompileError[];
  /** Kotlin classes of this tree, when its Kotlin main sources compiled: the fallback of later trees. */
  kotlinClasses?: string;
  /** How the tree was judged, when not in full (the Kotlin main sources did not compile). */
  note?: string;
}

const CACHE = join(JVM_CACHE, 'review-compile');

/** The compilers this machine has: javac from the system, kotlinc from the npm package (fetched once). */
export async function jvmCompilers(log: (line: string) => void): Promise<JvmCompilers> {
  const found: JvmCompilers = { missing: [] };
  const probe = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  if (probe.status === 0) found.javac = (probe.stdout || probe.stderr).trim();
  else found.missing.push('javac (not installed)');
  try {
    const home = await kotlinCompiler(log);
    found.kotlinc = { home, version: `kotlinc ${KOTLIN_COMPILER.version}` };
  } catch (error) {
    found.missing.push(`kotlinc (${KOTLIN_COMPILER.name}@${KOTLIN_COMPILER.version} could not be fetched: ${String((error as Error).message ?? error).split('\n')[0]})`);
  }
  return found;
}

/**
 * The compile errors of a tree: the files of `sources` read from `repo`, `texts` replacing some.
 * `fallback`: Kotlin classes to compile the Java sources against when this tree's Kotlin does not compile.
 */
export async function treeErrors(compilers: JvmCompilers, repo: string, sources: JvmSources, texts: ReadonlyMap<string, string>, fallback?: string): Promise<TreeErrors> {
  const all = [...sources.java, ...sources.kotlinMain, ...sources.kotlinTest];
  const contents = await Promise.all(all.map(async (path) => [path, texts.get(path) ?? await readFile(join(repo, path), 'utf8')] as const));
  const hash = createHash('sha256').update(JSON.stringify([compilers.javac, compilers.kotlinc?.version, fallback ?? '', sources, contents])).digest('hex').slice(0, 16);
  const out = join(CACHE, hash);
  const cached = join(out, 'errors.json');
  if (existsSync(cached)) return JSON.parse(await readFile(cached, 'utf8')) as TreeErrors;

  await mkdir(CACHE, { recursive: true });
  const work = await mkdtemp(join(tmpdir(), 'sextant-jvm-compile-'));
  const partial = `${out}.partial`;
  await rm(partial, { recursive: true, force: true });
  try {
    const src = join(work, 'src');
    for (const [path, text] of contents) {
      await mkdir(join(src, path, '..'), { recursive: true });
      await writeFile(join(src, path), text);
    }
    const result: TreeErrors = { errors: [] };
    let kotlinClasses: string | undefined;
    const kotlinc = compilers.kotlinc;
    const stdlib = kotlinc ? [join(kotlinc.home, 'lib', 'kotlin-stdlib.jar')] : [];
    if (kotlinc && sources.kotlinMain.length + sources.kotlinTest.length > 0) {
      const classes = join(partial, 'kotlin-classes');
      const both = runKotlinc(kotlinc.home, src, [...sources.kotlinMain, ...sources.kotlinTest, ...sources.java], classes, stdlib);
      result.errors.push(...both.errors);
      if (both.ok) kotlinClasses = classes;
      else {
        // Test sources alone may be what fails: the main sources' classes are still the Java sources' class path.
        await rm(classes, { recursive: true, force: true });
        const main = runKotlinc(kotlinc.home, src, [...sources.kotlinMain, ...sources.java], classes, stdlib);
        if (main.ok) kotlinClasses = classes;
        else if (fallback) result.note = 'the Kotlin main sources do not compile: javac compiled the Java sources against the base\'s Kotlin classes';
        else result.note = 'the Kotlin main sources do not compile and no earlier tree\'s classes stand in: javac errors that name Kotlin classes are not the change\'s';
      }
    }
    if (compilers.javac && sources.java.length > 0) {
      const kotlin = kotlinClasses ?? fallback;
      const classPath = [...(kotlin ? [kotlin] : []), ...stdlib];
      const child = spawnSync('javac', ['-proc:none', '-nowarn', '-Xmaxerrs', '1000', '-d', join(work, 'java-classes'), ...(classPath.length ? ['-cp', classPath.join(':')] : []), ...sources.java], { cwd: src, encoding: 'utf8', maxBuffer: 1 << 26 });
      for (const match of child.stderr.matchAll(/^(.+\.java):(\d+): error: (.*)$/gm)) {
        result.errors.push({ path: match[1]!, line: Number(match[2]), message: match[3]!, compiler: 'javac' });
      }
    }
    if (kotlinClasses) result.kotlinClasses = join(out, 'kotlin-classes');
    await mkdir(partial, { recursive: true });
    await writeFile(join(partial, 'errors.json'), `${JSON.stringify(result, null, 2)}\n`);
    await rm(out, { recursive: true, force: true });
    await rename(partial, out);
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** kotlinc over `files` (paths relative to `cwd`; Java files are read for their declarations only); its errors, and whether it wrote classes. */
function runKotlinc(home: string, cwd: string, files: string[], out: string, classPath: string[]): { ok: boolean; errors: CompileError[] } {
  const child = spawnSync(join(home, 'bin', 'kotlinc'), ['-nowarn', '-d', out, '-cp', classPath.join(':'), ...files], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const errors: CompileError[] = [];
  for (const match of child.stderr.matchAll(/^(.+\.kt):(\d+):\d+: error: (.*)$/gm)) {
    errors.push({ path: match[1]!, line: Number(match[2]), message: match[3]!, compiler: 'kotlinc' });
  }
  if (child.status !== 0 && errors.length === 0) throw new Error(`kotlinc failed without compile errors (status ${child.status}): ${child.stderr.slice(0, 500)}`);
  return { ok: child.status === 0, errors };
}
