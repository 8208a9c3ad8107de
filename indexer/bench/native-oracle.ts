// The review benchmark's fast screen: TypeScript 7's native compiler (`tsgo`, the package
// @typescript/native-preview) run as `tsgo --noEmit` on a scratch copy of the corpus, the mutant's one
// file written into it for the check and put back after. On effect it checks the whole program in
// about 8 CPU seconds where TypeScript 6 in this process takes about 30 (a mutant is always a whole
// program checked afresh, so this is the bench's largest cost after the builds).
//
// It is a screen, not the judge: the indexer resolves with TypeScript 6, whose diagnostics may
// differ from 7's in places, and the command line prints a diagnostic's start but not its end. So
// every mutant whose answer this screen finds short in any way (a diagnostic no site covers, a site
// no diagnostic confirms, an answer exact while short) is checked again by TypeScript 6
// (compiler-oracle.ts) and scored against that: every miss the bench reports is TypeScript 6's.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compareWithBase, type CheckResult, type MutantEdit, type Oracle, type OracleDiagnostic } from './compiler-oracle.ts';

const require = createRequire(import.meta.url);
/** `path(line,column): error TS1234: message`, as `--pretty false` prints it; a message chain's further lines are indented. */
const HEAD = /^(.+?)\((\d+),(\d+)\): (error|warning) TS(\d+): (.*)$/;

/** The tsgo command of the installed package, or undefined when it (or its platform's binary) is missing. */
export function nativeCompiler(): { command: string; version: string } | undefined {
  try {
    const command = join(dirname(require.resolve('@typescript/native-preview/package.json')), 'bin', 'tsgo');
    const version = execFileSync(process.execPath, [command, '--version'], { encoding: 'utf8' }).trim();
    return { command, version: version.replace(/^Version /, 'tsgo ') };
  } catch {
    return undefined;
  }
}

export class NativeOracle implements Oracle {
  readonly version: string;
  private readonly command: string;
  private baseDiagnostics: OracleDiagnostic[] | undefined;

  /** `tree` is the scratch copy, made afresh from `dir` (its tracked files at the work tree's state, `.git` left out). */
  constructor(private readonly dir: string, private readonly tree: string, compiler: { command: string; version: string }) {
    this.command = compiler.command;
    this.version = compiler.version;
    rmSync(tree, { recursive: true, force: true });
    mkdirSync(tree, { recursive: true });
    cpSync(dir, tree, { recursive: true, filter: (source) => !source.split('/').includes('.git') });
  }

  base(): OracleDiagnostic[] {
    return (this.baseDiagnostics ??= this.run());
  }

  check(path: string, text: string, edit: MutantEdit): CheckResult {
    const base = this.base();
    const started = performance.now();
    const file = join(this.tree, path);
    const original = readFileSync(join(this.dir, path), 'utf8');
    writeFileSync(file, text);
    try {
      return { ...compareWithBase(base, this.run(), path, edit), recheckedFiles: -1, seconds: (performance.now() - started) / 1000 };
    } finally {
      writeFileSync(file, original);
    }
  }

  /** One whole-program check, single-threaded (the builds have the other core). */
  private run(): OracleDiagnostic[] {
    // Run in the copy, so that it prints paths relative to it: the repository's.
    const child = spawnSync(process.execPath, [this.command, '--noEmit', '--pretty', 'false', '--singleThreaded', '-p', '.'], { cwd: this.tree, encoding: 'utf8', maxBuffer: 256 << 20 });
    // Exit 0: no errors; 1 and 2: errors reported (a program with errors, or some not emitted).
    if (child.status === null || child.status > 2) throw new Error(`${this.version} failed (exit ${child.status ?? child.signal}): ${child.stderr.slice(-1500)}`);
    const out: OracleDiagnostic[] = [];
    for (const line of child.stdout.split('\n')) {
      const head = HEAD.exec(line);
      if (head) {
        const [, path, row, column, , code, message] = head;
        // The command line prints where a diagnostic starts, not where it ends: its span is its first position.
        out.push({ path: path!, line: Number(row), column: Number(column), endLine: Number(row), endColumn: Number(column), code: Number(code), message: message! });
      } else if (/^\s+\S/.test(line) && out.length > 0) {
        out.at(-1)!.message += `\n${line.trim()}`;
      }
    }
    return out;
  }
}
