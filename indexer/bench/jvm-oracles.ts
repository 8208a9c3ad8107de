// The two compilers the JVM accuracy bench (jvm-accuracy.ts) asks, each compiled and run at bench
// time over the files of a corpus's commit, their output cached under indexer/.bench/jvm/oracles
// by the commit, the file list and the oracle's source:
//   javac    oracles/JavacReferences.java with the system javac 17 (the compiler API's attributed trees)
//   kotlinc  oracles/KotlincReferences.kt with the kotlinc of the npm package kotlin-compiler
// Both write the format parseOracleOutput reads (jvm-accuracy-scoring.ts).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JVM_CACHE } from './jvm-corpora.ts';
import { parseOracleOutput, type OracleRun } from './jvm-accuracy-scoring.ts';

const run = promisify(execFile);
const JAVAC_SOURCE = new URL('./oracles/JavacReferences.java', import.meta.url).pathname;
const KOTLINC_SOURCE = new URL('./oracles/KotlincReferences.kt', import.meta.url).pathname;
/** The Kotlin compiler: the npm package's kotlinc and jars (Debian's kotlin is 1.3, too old for current code). */
export const KOTLIN_COMPILER = { name: 'kotlin-compiler', version: '2.4.20' };
const ORACLES = join(JVM_CACHE, 'oracles');
/** javac's tree classes (JCTree.pos, a declaration's name position) are not exported by jdk.compiler. */
const JAVAC_EXPORTS = ['--add-exports', 'jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED'];

export interface OracleInput {
  /** The corpus repository, checked out at `commit`. */
  repo: string;
  commit: string;
  /** Repository-relative paths of the files the oracle compiles. */
  files: string[];
  /** A JDK module the files patch (java.base is compiled as itself). */
  module?: string;
  log: (line: string) => void;
}

async function cached(kind: string, input: OracleInput, sources: string[], produce: (files: string, out: string) => Promise<void>): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify([input.commit, input.module ?? '', input.files, ...(await Promise.all(sources.map((s) => readFile(s, 'utf8'))))])).digest('hex').slice(0, 16);
  const out = join(ORACLES, `${kind}-${hash}.tsv`);
  if (!existsSync(out)) {
    await mkdir(ORACLES, { recursive: true });
    const list = join(ORACLES, `${kind}-${hash}.files`);
    await writeFile(list, `${input.files.join('\n')}\n`);
    await produce(list, `${out}.partial`);
    await rename(`${out}.partial`, out);
  }
  return readFile(out, 'utf8');
}

/** javac's references over the Java files of a corpus. */
export async function javacOracle(input: OracleInput): Promise<OracleRun> {
  const text = await cached('javac', input, [JAVAC_SOURCE], async (files, out) => {
    const classes = join(ORACLES, 'javac-classes');
    await mkdir(classes, { recursive: true });
    await run('javac', [...JAVAC_EXPORTS, '-d', classes, JAVAC_SOURCE]);
    input.log(`  javac attributes ${input.files.length} Java files${input.module ? ` (patching ${input.module})` : ''}...`);
    const { stderr } = await run('nice', ['-n', '10', 'java', '-Xmx6g', ...JAVAC_EXPORTS, '-cp', classes, 'JavacReferences', input.repo, files, out, ...(input.module ? [input.module] : [])], { maxBuffer: 1 << 26 });
    input.log(`  ${stderr.trim()}`);
  });
  return parseOracleOutput('javac', text);
}

/** The npm package kotlin-compiler, packed and unpacked once into the bench cache; its directory. */
export async function kotlinCompiler(log: (line: string) => void): Promise<string> {
  const dir = join(JVM_CACHE, `${KOTLIN_COMPILER.name}-${KOTLIN_COMPILER.version}`);
  const home = join(dir, 'package');
  if (!existsSync(join(home, 'lib', 'kotlin-compiler.jar'))) {
    await mkdir(dir, { recursive: true });
    log(`  fetching ${KOTLIN_COMPILER.name}@${KOTLIN_COMPILER.version} (90 MB)...`);
    await run('npm', ['pack', `${KOTLIN_COMPILER.name}@${KOTLIN_COMPILER.version}`, '--silent', '--pack-destination', dir], { cwd: dir, maxBuffer: 1 << 26 });
    await run('tar', ['xzf', `${KOTLIN_COMPILER.name}-${KOTLIN_COMPILER.version}.tgz`], { cwd: dir });
  }
  return home;
}

/** kotlinc's references over the Kotlin files of a corpus, its Java files as Java source roots. */
export async function kotlincOracle(input: OracleInput): Promise<OracleRun> {
  const text = await cached(`kotlinc-${KOTLIN_COMPILER.version}`, input, [KOTLINC_SOURCE], async (files, out) => {
    const home = await kotlinCompiler(input.log);
    const lib = (jar: string) => join(home, 'lib', jar);
    const jar = join(ORACLES, `kotlinc-references-${KOTLIN_COMPILER.version}-${createHash('sha256').update(await readFile(KOTLINC_SOURCE)).digest('hex').slice(0, 12)}.jar`);
    if (!existsSync(jar)) {
      input.log('  compiling the Kotlin oracle with kotlinc (a minute)...');
      await run(join(home, 'bin', 'kotlinc'), [KOTLINC_SOURCE, '-nowarn', '-cp', lib('kotlin-compiler.jar'), '-d', `${jar}.partial.jar`], { maxBuffer: 1 << 26 });
      await rename(`${jar}.partial.jar`, jar);
    }
    input.log(`  kotlinc analyses ${input.files.filter((f) => f.endsWith('.kt')).length} Kotlin files, ${input.files.filter((f) => f.endsWith('.java')).length} Java files as sources...`);
    // The corpus's class path: the standard library, and kotlinx.coroutines, which the package ships too.
    const classPath = [lib('kotlin-stdlib.jar'), lib('kotlinx-coroutines-core-jvm.jar'), lib('annotations-13.0.jar')];
    const { stderr } = await run('nice', ['-n', '10', 'java', '-Xmx6g', '-cp', [jar, lib('kotlin-compiler.jar'), lib('kotlin-stdlib.jar')].join(':'), 'KotlincReferencesKt', input.repo, files, out, ...classPath], { maxBuffer: 1 << 26 });
    input.log(`  ${stderr.trim().split('\n').filter((l) => l.startsWith('kotlinc ')).join('\n  ')}`);
  });
  return parseOracleOutput('kotlinc', text);
}
