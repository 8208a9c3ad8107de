// Which program indexes which file. Every tsconfig.json / jsconfig.json tracked at the commit is a
// project; a file belongs to the nearest project that includes it (as tsserver picks a file's
// project), and files no project includes share one default program. Each file is indexed once.
import { posix } from 'node:path';
import { ts } from 'ts-morph';
import type { SnapshotHost } from './snapshot-host.ts';

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

/**
 * What every program is checked with, whatever its tsconfig says: no output, no checking of
 * libraries' declaration files, and types printed whole in messages (diagnostic-text.ts cuts them
 * after sorting, so a message does not depend on the order the checker created types in).
 */
const INDEXING_OPTIONS: ts.CompilerOptions = { noEmit: true, skipLibCheck: true, noErrorTruncation: true };

export const DEFAULT_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: false,
  jsx: ts.JsxEmit.Preserve,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  strict: true,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
  ...INDEXING_OPTIONS,
};

export function planPrograms(host: SnapshotHost, sources: string[], warnings: string[]): PlannedProgram[] {
  // Every tsconfig.json and jsconfig.json, and every config a project reference names
  // (`tsconfig.app.json` beside a solution tsconfig.json, as Vite's templates lay them out).
  const parsedConfigs = new Map<string, ts.ParsedCommandLine | undefined>();
  const referenced = new Set<string>();
  const queue = [...host.paths()].filter((p) => /(^|\/)(tsconfig|jsconfig)\.json$/.test(p)).sort();
  for (let config = queue.shift(); config !== undefined; config = queue.shift()) {
    if (parsedConfigs.has(config)) continue;
    const parsed = parseConfig(host, config, warnings);
    parsedConfigs.set(config, parsed);
    for (const reference of parsed?.projectReferences ?? []) {
      const target = host.relative(ts.resolveProjectReferencePath(reference));
      if (target === undefined || !host.fileExists(host.absolute(target))) continue;
      referenced.add(target);
      if (!parsedConfigs.has(target)) queue.push(target);
    }
  }
  checkReferences(host, parsedConfigs, warnings);
  // Nearest first: deeper configs claim their files before the configs above them; in one folder,
  // a referenced project before the one referencing it (a solution's parts before the solution).
  const configs = [...parsedConfigs.keys()].sort((a, b) => depth(b) - depth(a)
    || Number(referenced.has(b)) - Number(referenced.has(a)) || (a < b ? -1 : 1));
  const sourceSet = new Set(sources);
  const claimed = new Set<string>();
  const programs: PlannedProgram[] = [];
  for (const config of configs) {
    const parsed = parsedConfigs.get(config);
    if (!parsed) continue;
    const rootNames = parsed.fileNames.filter((f) => host.relative(f) !== undefined);
    const owned = rootNames.map((f) => host.relative(f)!).filter((p) => sourceSet.has(p) && !claimed.has(p));
    owned.forEach((p) => claimed.add(p));
    if (owned.length === 0) continue;
    programs.push({
      config,
      options: { ...parsed.options, ...INDEXING_OPTIONS },
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
  // Syntax errors of the JSON itself are kept on the parsed config file (ts.getConfigFileParsingDiagnostics).
  const syntax = (parsed?.options.configFile as { parseDiagnostics?: ts.Diagnostic[] } | undefined)?.parseDiagnostics ?? [];
  const errors = [...diagnostics, ...syntax, ...(parsed?.errors ?? [])]
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.code !== 18003 /* no inputs: reported below */);
  for (const error of errors) {
    warnings.push(`${describeDiagnostic(host, error, config)} (its files are indexed with ${parsed ? 'the options that did parse' : 'default options'}; fix the tsconfig for exact results)`);
  }
  return parsed;
}

/** `path:line:column: message`, with paths inside the repository relative to it (a warning must not name the checkout). */
export function describeDiagnostic(host: SnapshotHost, diagnostic: ts.Diagnostic, fallbackPath: string): string {
  const file = diagnostic.file;
  let where = fallbackPath;
  if (file) {
    where = host.relative(file.fileName) ?? file.fileName;
    if (diagnostic.start !== undefined) {
      const { line, character } = file.getLineAndCharacterOfPosition(diagnostic.start);
      where += `:${line + 1}:${character + 1}`;
    }
  }
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').split(`${host.root}/`).join('');
  return `${where}: ${message}`;
}

/**
 * Project references that point nowhere, or go round in a circle: tsc --build refuses both, the
 * compiler alone does not say. Each project is still indexed on its own.
 */
function checkReferences(host: SnapshotHost, parsed: ReadonlyMap<string, ts.ParsedCommandLine | undefined>, warnings: string[]): void {
  const edges = new Map<string, string[]>();
  for (const [config, commandLine] of parsed) {
    const targets: string[] = [];
    for (const reference of commandLine?.projectReferences ?? []) {
      const target = host.relative(ts.resolveProjectReferencePath(reference));
      if (target !== undefined && parsed.has(target)) targets.push(target);
      else warnings.push(`${config}: references ${target ?? reference.path}, which does not exist at this commit (the reference is ignored; fix the path for exact results)`);
    }
    edges.set(config, targets);
  }
  // Depth-first search; a back edge closes a cycle, reported once from its smallest member.
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (config: string): void => {
    state.set(config, 'active');
    stack.push(config);
    for (const next of edges.get(config) ?? []) {
      if (state.get(next) === 'active') {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0]!);
        const ordered = [...cycle.slice(start), ...cycle.slice(0, start)];
        const text = [...ordered, ordered[0]].join(' → ');
        if (!reported.has(text)) {
          reported.add(text);
          warnings.push(`project references form a cycle: ${text} (tsc --build refuses it; each project is indexed on its own)`);
        }
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(config, 'done');
  };
  for (const config of [...edges.keys()].sort()) if (!state.has(config)) visit(config);
}
