// Which program indexes which file. Every tsconfig.json / jsconfig.json tracked at the commit is a
// project; a file belongs to the nearest project that includes it (as tsserver picks a file's
// project), and files no project includes share one default program. Each file is indexed once.
import { posix } from 'node:path';
import { ts } from 'ts-morph';
import type { SnapshotHost } from './snapshot-host.ts';

export const TS_JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

export interface PlannedProgram {
  /** The config path, or undefined for the default program. */
  config?: string;
  options: ts.CompilerOptions;
  projectReferences?: readonly ts.ProjectReference[];
  /** Absolute root file names handed to the compiler. */
  rootNames: string[];
  /** Repository-relative paths this program indexes. */
  owned: string[];
}

export const DEFAULT_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: false,
  jsx: ts.JsxEmit.Preserve,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
};

export function planPrograms(host: SnapshotHost, sources: string[], warnings: string[]): PlannedProgram[] {
  const configs = [...host.paths()].filter((p) => /(^|\/)(tsconfig|jsconfig)\.json$/.test(p));
  // Nearest first: deeper configs claim their files before the configs above them.
  configs.sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : 1));
  const sourceSet = new Set(sources);
  const claimed = new Set<string>();
  const programs: PlannedProgram[] = [];
  for (const config of configs) {
    const parsed = parseConfig(host, config, warnings);
    if (!parsed) continue;
    const rootNames = parsed.fileNames.filter((f) => host.relative(f) !== undefined);
    const owned = rootNames.map((f) => host.relative(f)!).filter((p) => sourceSet.has(p) && !claimed.has(p));
    owned.forEach((p) => claimed.add(p));
    if (owned.length === 0) continue;
    programs.push({
      config,
      options: { ...parsed.options, noEmit: true, skipLibCheck: true },
      projectReferences: parsed.projectReferences,
      rootNames,
      owned: owned.sort(),
    });
  }
  const rest = sources.filter((p) => !claimed.has(p));
  if (rest.length > 0) {
    programs.push({ options: DEFAULT_OPTIONS, rootNames: rest.map((p) => host.absolute(p)), owned: rest });
  }
  // Index order does not change the output (records are sorted when written), but a fixed order
  // keeps runs comparable.
  return programs.sort((a, b) => (a.config ?? '\uffff').localeCompare(b.config ?? '\uffff'));
}

function depth(path: string): number {
  return path.split('/').length;
}

function parseConfig(host: SnapshotHost, config: string, warnings: string[]): ts.ParsedCommandLine | undefined {
  const diagnostics: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(host.absolute(config), undefined, {
    ...host.parseConfigHost(),
    getCurrentDirectory: () => host.absolute(posix.dirname(config)),
    onUnRecoverableConfigFileDiagnostic: (d) => diagnostics.push(d),
  });
  const errors = [...diagnostics, ...(parsed?.errors ?? [])]
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.code !== 18003 /* no inputs: reported below */);
  for (const error of errors) {
    warnings.push(`${config}: ${ts.flattenDiagnosticMessageText(error.messageText, ' ')} (its files are indexed with ${parsed ? 'the options that did parse' : 'default options'}; fix the tsconfig for exact results)`);
  }
  return parsed;
}
