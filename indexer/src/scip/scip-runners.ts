// The SCIP indexers `indexer build` runs by itself: for a language of the commit whose precise
// indexer is installed (scip-python as the indexer's optional npm dependency or on PATH, scip-go on
// PATH), the commit's files of that language and its project configuration are written to a
// scratch directory (the commit's, never the working tree's), the indexer runs there, and its index
// is imported as a `--scip` one would be. `--no-auto-scip` turns this off. A run that fails or
// times out is a warning, never the build's failure: those files are then indexed syntactically.
//
// Only indexers that do not execute the repository's code run by themselves: rust-analyzer runs
// build scripts and procedural macros, and scip-java and scip-clang run the build, so those are CI
// recipes (README), never automatic.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Progress } from '../progress.ts';
import { readScipFile, type ScipFile } from './scip-file.ts';

export interface ScipRunner {
  name: string;
  /** The source files that make a commit worth running it on. */
  sources(path: string): boolean;
  /** The other files it reads (project configuration). */
  reads(path: string): boolean;
  /** The command (and its leading arguments), or undefined when it is not installed. */
  locate(): string[] | undefined;
  /** Its arguments to index `dir` into `output`. */
  args(dir: string, output: string): string[];
  /** Files it needs beside the sources, written into `dir` first. */
  setup?(dir: string): Promise<void>;
}

/** A run longer than this is stopped: the build goes on syntactically. */
export const SCIP_RUN_TIMEOUT_MS = 15 * 60_000;

const require = createRequire(import.meta.url);

/** A command on PATH, as the shell would find it. */
function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const PYTHON_CONFIG = /(^|\/)(pyproject\.toml|setup\.cfg|setup\.py|pyrightconfig\.json|requirements[^/]*\.txt)$/;
const GO_CONFIG = /(^|\/)(go\.mod|go\.sum|go\.work|go\.work\.sum)$/;

export const SCIP_RUNNERS: readonly ScipRunner[] = [
  {
    name: 'scip-python',
    sources: (path) => /\.pyi?$/.test(path),
    reads: (path) => PYTHON_CONFIG.test(path),
    locate() {
      try {
        const manifest = require.resolve('@sourcegraph/scip-python/package.json');
        return [process.execPath, join(dirname(manifest), 'index.js')];
      } catch {
        const found = onPath('scip-python');
        return found ? [found] : undefined;
      }
    },
    // An empty environment: no python or pip is run to list installed packages (their symbols
    // stay external either way), so the run reads nothing but the commit's files.
    args: (dir, output) => ['index', '--cwd', dir, '--output', output, '--project-name', 'repository', '--project-version', '0', '--environment', join(dir, '.sextant-scip-environment.json'), '--quiet'],
    setup: (dir) => writeFile(join(dir, '.sextant-scip-environment.json'), '[]\n'),
  },
  {
    name: 'scip-go',
    sources: (path) => path.endsWith('.go'),
    reads: (path) => GO_CONFIG.test(path),
    locate: () => {
      const found = onPath('scip-go');
      return found ? [found] : undefined;
    },
    args: (_dir, output) => ['--output', output, '--quiet'],
  },
];

export interface AutoScipResult {
  files: ScipFile[];
  warnings: string[];
}

/**
 * Runs every installed runner whose language the commit has, on the commit's files (`texts`), and
 * reads what each wrote; its project root is set to `root`, as the files were the repository's.
 */
export async function runScipIndexers(root: string, texts: ReadonlyMap<string, string>, progress: Progress, runners: readonly ScipRunner[] = SCIP_RUNNERS): Promise<AutoScipResult> {
  const files: ScipFile[] = [];
  const warnings: string[] = [];
  for (const runner of runners) {
    const sources = [...texts.keys()].filter((path) => runner.sources(path));
    if (sources.length === 0) continue;
    const command = runner.locate();
    if (!command) continue;
    const dir = await mkdtemp(join(tmpdir(), 'sextant-scip-'));
    try {
      for (const path of [...texts.keys()].filter((p) => runner.sources(p) || runner.reads(p))) {
        const target = join(dir, path);
        if (!target.startsWith(dir + sep)) continue; // git tracks no `..`; a path that leaves the directory is never written
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, texts.get(path)!);
      }
      await runner.setup?.(dir);
      const output = join(dir, '.sextant-index.scip');
      progress.log(`running ${runner.name} on ${sources.length} files`);
      const started = performance.now();
      const failure = await run(command, runner.args(dir, output), dir);
      if (failure || !existsSync(output)) {
        warnings.push(`${runner.name} did not index the commit's ${sources.length} files (${failure ?? 'it wrote no index'}); they are indexed syntactically`);
        continue;
      }
      const file = await readScipFile(output);
      file.file = runner.name;
      file.index.metadata!.projectRoot = pathToFileURL(root).href;
      files.push(file);
      progress.log(`  ${runner.name} indexed ${file.index.documents.length} documents in ${((performance.now() - started) / 1000).toFixed(1)}s`);
    } catch (error) {
      warnings.push(`${runner.name} did not index the commit's ${sources.length} files (${error instanceof Error ? error.message : String(error)}); they are indexed syntactically`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { files, warnings };
}

/** Undefined when the command exits 0; else why, with the end of what it printed. */
function run(command: string[], args: string[], cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command[0]!, [...command.slice(1), ...args], { cwd, timeout: SCIP_RUN_TIMEOUT_MS, maxBuffer: 64 << 20, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (!error) return resolve(undefined);
      const tail = `${stderr}${stdout}`.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
      resolve(error.killed ? `stopped after ${SCIP_RUN_TIMEOUT_MS / 60_000} minutes` : `exit ${error.code ?? error.signal}${tail ? `: ${tail}` : ''}`);
    });
  });
}
