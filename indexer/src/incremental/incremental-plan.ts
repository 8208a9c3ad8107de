// Which files an incremental build walks again, or why it builds in full. Walked: the TypeScript and
// JavaScript files whose blob changed or that are new, every file whose resolution or diagnostics can
// depend on them (by the previous index: the files using a symbol declared in one, transitively, all
// declaring files of a symbol declared in several at once), and every Java and Kotlin file (their
// resolution is not made incremental yet). Everything else is reused from the previous index
// (reuse.ts). In full, with the reason, when it cannot be sure: another format, indexer or parser; a
// changed build or configuration file; a file that failed analysis before; a changed script or ambient
// declaration, which may change every file's globals; too large a share of the files changed.
import { ts } from 'ts-morph';
import { FORMAT_VERSION, TS_JS_EXTENSIONS } from '@sextant/format';
import type { TrackedEntry } from '../git/git-snapshot.ts';
import { edgeFile } from './reuse.ts';
import type { PreviousIndex } from './previous-index.ts';

/** Files whose change may change how any file resolves: configuration, lockfiles, build scripts, classification rules, JSON a module may import. */
const CONFIGURATION = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|[^/]*\.gradle(\.kts)?|gradle\.properties|[^/]*\.json|\.gitattributes)$/;

export interface IncrementalInput {
  previous: PreviousIndex;
  /** The tracked files of the commit being built. */
  entries: readonly TrackedEntry[];
  /** Texts of the commit being built, by path: every file it reads. */
  texts: ReadonlyMap<string, string>;
  /** The previous commit's text of a path. */
  previousText(path: string): Promise<string | undefined>;
  indexerVersion: string;
  parsers: Readonly<Record<string, string>>;
  /** Above this share of source files changed, a full build is as cheap: build in full. */
  maxChangedShare: number;
}

export type IncrementalPlan =
  | { full: string }
  | { walk: ReadonlySet<string>; reuse: ReadonlySet<string>; changed: number };

const isScript = (path: string) => TS_JS_EXTENSIONS.some((ext) => path.endsWith(ext));

export async function planIncremental(input: IncrementalInput): Promise<IncrementalPlan> {
  const { previous, entries } = input;
  const { manifest } = previous;
  if (manifest.formatVersion !== FORMAT_VERSION) return { full: `the previous index is format ${manifest.formatVersion}, this indexer writes format ${FORMAT_VERSION}` };
  if (manifest.indexer.version !== input.indexerVersion) return { full: `the previous index was built by indexer ${manifest.indexer.version}, this is ${input.indexerVersion}` };
  // The parsers known before indexing (the compiler, the grammars); those an indexer adds as it runs belong to files walked in full.
  const parser = Object.keys(input.parsers).find((name) => manifest.parsers[name] !== input.parsers[name]);
  if (parser) return { full: `${parser} is ${input.parsers[parser]} here, ${manifest.parsers[parser] ?? 'not used'} in the previous index` };
  const failed = manifest.skipped.find((s) => s.reason === 'analysis-failed');
  if (failed) return { full: `${failed.path} failed analysis in the previous index, which changes what its program resolved` };

  const before = new Map(previous.entries.map((e) => [e.path, e.blob]));
  const now = new Map(entries.map((e) => [e.path, e.blob]));
  const changed = [...new Set([...before.keys(), ...now.keys()])].filter((path) => before.get(path) !== now.get(path)).sort();
  const configuration = changed.find((path) => CONFIGURATION.test(path));
  if (configuration) return { full: `${configuration} changed, which may change how every file resolves` };
  // The sources this build reads (not those skipped as too large or binary).
  const sources = [...now.keys()].filter((path) => isScript(path) && input.texts.has(path));
  const changedSources = changed.filter(isScript);
  if (changedSources.length > input.maxChangedShare * Math.max(1, sources.length)) {
    return { full: `${changedSources.length} of ${sources.length} TypeScript and JavaScript files changed, more than ${Math.round(input.maxChangedShare * 100)}%` };
  }
  for (const path of changedSources) {
    for (const [side, text] of [['new', input.texts.get(path)], ['previous', before.has(path) ? await input.previousText(path) : undefined]] as const) {
      const global = text === undefined ? undefined : declaresGlobals(path, text);
      if (global) return { full: `the ${side} ${path} ${global}, which may change any file` };
    }
  }

  const dependents = dependentsOf(previous);
  const walk = new Set<string>();
  const queue: string[] = [];
  const add = (path: string) => {
    if (walk.has(path)) return;
    walk.add(path);
    queue.push(path);
  };
  for (const path of changedSources) add(path);
  // A new file may be what an import that failed now finds, or shadow the module another resolved
  // to (`a.ts` beside `a/index.ts`): the files with unresolved names or problems, and the users of
  // the modules it could shadow, are walked.
  const added = changedSources.filter((path) => !before.has(path));
  if (added.length > 0) {
    for (const [path, file] of previous.files) {
      if (file.problems.length > 0 || (previous.changes.get(path)?.unresolved?.length ?? 0) > 0) add(path);
    }
    const stems = new Set(added.map(stemOf));
    for (const path of previous.files.keys()) if (stems.has(stemOf(path))) add(path);
  }
  while (queue.length > 0) for (const next of dependents.get(queue.pop()!) ?? []) add(next);

  const walked = new Set(sources.filter((path) => walk.has(path) || !previous.files.has(path)));
  const reuse = new Set(sources.filter((path) => !walked.has(path)));
  return { walk: walked, reuse, changed: changed.length };
}

/** `src/a.ts`, `src/a.d.ts`, `src/a/index.js` all stem to `src/a`: what one import specifier may resolve to. */
function stemOf(path: string): string {
  const bare = path.replace(/(\.d)?\.[cm]?[jt]sx?$/, '');
  return bare.endsWith('/index') ? bare.slice(0, -'/index'.length) : bare;
}

/**
 * For each file, the files that used something declared in it at the previous commit: a reference
 * or occurrence there, an edge found there; and the files that declare one symbol together (a
 * merged declaration) depend on each other.
 */
function dependentsOf(previous: PreviousIndex): Map<string, Set<string>> {
  const dependents = new Map<string, Set<string>>();
  const depend = (on: string, by: string) => {
    if (on === by) return;
    (dependents.get(on) ?? dependents.set(on, new Set()).get(on)!).add(by);
  };
  const declaredIn = (key: string) => [...new Set(previous.symbols.get(key)?.info.defs.map((d) => d[0]) ?? [])];
  for (const [path, file] of previous.files) for (const key of file.syms) for (const on of declaredIn(key)) depend(on, path);
  for (const [key, symbol] of previous.symbols) {
    const declaring = declaredIn(key);
    for (const a of declaring) for (const b of declaring) depend(a, b);
    for (const ref of symbol.refs) for (const on of declaring) depend(on, ref.site.path);
    for (const edge of symbol.edges) {
      if (!edge.out) continue;
      const found = edgeFile(previous, key, edge.site);
      if (found) for (const on of [...declaring, ...declaredIn(edge.peer)]) depend(on, found);
    }
  }
  return dependents;
}

/** Why a file declares names every file sees (a script, `declare global`, an ambient module), or undefined. */
function declaresGlobals(path: string, text: string): string | undefined {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  if (!ts.isExternalModule(source)) return 'is a script (no import or export), whose declarations are global';
  for (const statement of source.statements) {
    if (!ts.isModuleDeclaration(statement)) continue;
    if (statement.name.kind === ts.SyntaxKind.Identifier && statement.name.text === 'global') return 'declares globals (`declare global`)';
    if (ts.isStringLiteral(statement.name)) return `declares or augments the module "${statement.name.text}"`;
  }
  return undefined;
}
