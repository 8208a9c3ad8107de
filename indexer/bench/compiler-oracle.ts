// The review benchmark's oracle: the TypeScript compiler (the workspace's `typescript` package, a
// program over the corpus tsconfig), asked for the syntactic and semantic diagnostics of the base
// and of a mutant (the base with one file's text replaced). The diagnostics the mutant has and the
// base has not are the sites the mutation breaks. Matching is by file, code and message, with the
// mutant's lines in the edited file mapped back through the edit, each base diagnostic matching at
// most one mutant diagnostic.
//
// Each check is a whole program checked afresh, as `tsc --noEmit` checks it: the files' parses are
// kept from check to check, never a checker. An incremental builder (re-checking only the files a
// change can affect, with the other files' diagnostics kept) was tried: on effect it reported five
// errors a fresh `tsc --noEmit` of the same mutant does not (inference on heavy generic types
// depends on the order files are checked in), and it was no faster on zod or effect.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface OracleDiagnostic {
  /** Repository-relative path. */
  path: string;
  /** 1-based lines and columns (UTF-16), the diagnostic's span. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  code: number;
  message: string;
}

export interface CheckResult {
  /** Diagnostics of the mutant that the base does not have. */
  introduced: OracleDiagnostic[];
  /** Diagnostics of the base the mutant no longer has. */
  resolved: OracleDiagnostic[];
  /** Files the compiler checked. */
  recheckedFiles: number;
  seconds: number;
}

/** Lines (1-based, base numbering) of the one edit a mutant makes, and how many lines it adds (negative: removes). */
export interface MutantEdit {
  startLine: number;
  endLine: number;
  lineDelta: number;
}

/** What checks a mutant: the compiler in this process, or the native compiler's CLI (native-oracle.ts). */
export interface Oracle {
  /** The compiler and its version, as the report names it. */
  readonly version: string;
  base(): OracleDiagnostic[];
  check(path: string, text: string, edit: MutantEdit): CheckResult;
}

/**
 * The mutant's diagnostics against the base's: matched by file, code, message and line (the edited
 * file's lines mapped back through the edit), each base diagnostic matching at most one.
 */
export function compareWithBase(base: readonly OracleDiagnostic[], diagnostics: readonly OracleDiagnostic[], path: string, edit: MutantEdit): Pick<CheckResult, 'introduced' | 'resolved'> {
  const toBase = (d: OracleDiagnostic): number => {
    if (d.path !== path) return d.line;
    if (d.line > edit.endLine + edit.lineDelta) return d.line - edit.lineDelta;
    return d.line >= edit.startLine ? Math.min(d.line, edit.startLine) : d.line;
  };
  const key = (d: OracleDiagnostic, line: number) => `${d.path}\0${d.code}\0${d.message}\0${line}`;
  const pool = new Map<string, number>();
  for (const d of base) pool.set(key(d, d.line), (pool.get(key(d, d.line)) ?? 0) + 1);
  const introduced: OracleDiagnostic[] = [];
  for (const d of diagnostics) {
    const k = key(d, toBase(d));
    const left = pool.get(k) ?? 0;
    if (left > 0) pool.set(k, left - 1);
    else introduced.push(d);
  }
  const resolved = base.filter((d) => {
    const k = key(d, d.line);
    const left = pool.get(k) ?? 0;
    if (left > 0) {
      pool.set(k, left - 1);
      return true;
    }
    return false;
  });
  return { introduced, resolved };
}

export class CompilerOracle implements Oracle {
  readonly version = `TypeScript ${ts.version}`;
  private readonly dir: string;
  private readonly config: ts.ParsedCommandLine;
  private readonly host: ts.CompilerHost;
  private readonly overrides = new Map<string, string>();
  private readonly sourceFiles = new Map<string, { hash: string; file: ts.SourceFile }>();
  private program: ts.Program | undefined;
  private baseDiagnostics: OracleDiagnostic[] | undefined;

  constructor(dir: string) {
    this.dir = resolve(dir);
    const parsed = ts.getParsedCommandLineOfConfigFile(join(this.dir, 'tsconfig.json'), {}, {
      ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
    });
    if (!parsed) throw new Error(`no tsconfig.json in ${this.dir}`);
    this.config = parsed;
    const host = ts.createCompilerHost(parsed.options, true);
    const readFile = host.readFile.bind(host);
    host.readFile = (fileName) => this.overrides.get(resolve(fileName)) ?? readFile(fileName);
    host.getSourceFile = (fileName, languageVersion) => {
      const path = resolve(fileName);
      const text = this.overrides.get(path) ?? (() => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return undefined;
        }
      })();
      if (text === undefined) return undefined;
      const hash = createHash('sha256').update(text).digest('hex');
      const cached = this.sourceFiles.get(path);
      if (cached?.hash === hash) return cached.file;
      const file = ts.createSourceFile(fileName, text, languageVersion, true);
      this.sourceFiles.set(path, { hash, file });
      return file;
    };
    host.createHash = (data) => createHash('sha256').update(data).digest('hex');
    this.host = host;
  }

  /** The base's diagnostics (computed once: the whole corpus is type-checked). */
  base(): OracleDiagnostic[] {
    if (!this.baseDiagnostics) {
      this.overrides.clear();
      this.baseDiagnostics = this.diagnostics().diagnostics;
    }
    return this.baseDiagnostics;
  }

  /** The mutant (`path`'s text replaced by `text`) against the base, `lineDelta` lines added at `editLine` (1-based, base numbering). */
  check(path: string, text: string, edit: MutantEdit): CheckResult {
    const base = this.base();
    const started = performance.now();
    this.overrides.clear();
    this.overrides.set(resolve(this.dir, path), text);
    const { diagnostics, rechecked } = this.diagnostics();
    return { ...compareWithBase(base, diagnostics, path, edit), recheckedFiles: rechecked, seconds: (performance.now() - started) / 1000 };
  }

  private diagnostics(): { diagnostics: OracleDiagnostic[]; rechecked: number } {
    // The old program only lets the new one reuse its structure; the checker is new.
    this.program = ts.createProgram(this.config.fileNames, this.config.options, this.host, this.program);
    const out: OracleDiagnostic[] = [];
    let checked = 0;
    for (const sf of this.program.getSourceFiles()) {
      const path = relative(this.dir, resolve(sf.fileName));
      if (path.startsWith('..') || path.includes('node_modules')) continue;
      checked++;
      for (const d of [...this.program.getSyntacticDiagnostics(sf), ...this.program.getSemanticDiagnostics(sf)]) out.push(this.record(d, path));
    }
    return { diagnostics: out, rechecked: checked };
  }

  private record(d: ts.Diagnostic, path: string): OracleDiagnostic {
    const sf = d.file!;
    const start = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    const end = sf.getLineAndCharacterOfPosition((d.start ?? 0) + (d.length ?? 0));
    return {
      path, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1,
      code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  }
}

/** Lines of a text range, for the edit's line mapping. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function newlines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
