// Regenerates the committed library models under indexer/data/library/ (run from indexer/):
//
//   npm run library-model
//
// It fetches the Kotlin compiler's npm package (kotlin-compiler@KOTLIN_VERSION, for its stdlib,
// kotlin-reflect and kotlin-metadata-jvm jars) into scripts/library-model/.cache/ (git-ignored),
// then runs LibraryModel.java on the installed JDK (`java` on PATH; its feature release names the
// JDK file) once for the JDK's modules and once for the stdlib, and writes each model gzipped.
// The output is deterministic for one JDK build and one Kotlin version: commit it when it changes.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);
const KOTLIN_VERSION = '2.4.20';
/** The JDK modules modelled; `module/package` takes one package of a module too large to take whole. */
const JDK_MODULES = ['java.base', 'java.logging', 'java.sql', 'java.xml', 'java.net.http', 'java.desktop/java.beans'];

const here = new URL('.', import.meta.url).pathname;
const cache = join(here, '.cache');
const out = new URL('../../data/library/', import.meta.url).pathname;

async function main(): Promise<void> {
  await mkdir(cache, { recursive: true });
  await mkdir(out, { recursive: true });
  const lib = join(cache, 'package', 'lib');
  if (!existsSync(join(lib, 'kotlin-stdlib.jar'))) {
    await run('npm', ['pack', `kotlin-compiler@${KOTLIN_VERSION}`, '--silent', '--pack-destination', cache], { cwd: cache });
    await run('tar', ['xzf', `kotlin-compiler-${KOTLIN_VERSION}.tgz`, 'package/lib/kotlin-stdlib.jar', 'package/lib/kotlin-reflect.jar', 'package/lib/kotlin-metadata-jvm.jar'], { cwd: cache });
  }
  const classpath = ['kotlin-stdlib.jar', 'kotlin-reflect.jar', 'kotlin-metadata-jvm.jar'].map((jar) => join(lib, jar)).join(':');
  const script = join(here, 'LibraryModel.java');
  const jdk = await javaFeature();
  await model(['jdk', join(cache, 'jdk.json'), ...JDK_MODULES], classpath, script, join(out, `jdk-${jdk}.json.gz`));
  await model(['kotlin', join(cache, 'kotlin.json'), join(lib, 'kotlin-stdlib.jar'), KOTLIN_VERSION], classpath, script, join(out, `kotlin-stdlib-${KOTLIN_VERSION}.json.gz`));
}

async function javaFeature(): Promise<string> {
  const { stderr } = await run('java', ['-version'], { encoding: 'utf8' });
  const match = /version "(\d+)/.exec(stderr);
  if (!match) throw new Error(`error: cannot read the JDK version from \`java -version\`: ${stderr}`);
  return match[1]!;
}

async function model(args: string[], classpath: string, script: string, target: string): Promise<void> {
  const { stderr } = await run('java', ['-cp', classpath, script, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const json = await readFile(args[1]!);
  await rm(args[1]!);
  const gz = gzipSync(json, { level: 9 });
  await writeFile(target, gz);
  process.stdout.write(`${target}: ${json.length} bytes of JSON, ${gz.length} gzipped; ${stderr.trim()}\n`);
}

await main();
