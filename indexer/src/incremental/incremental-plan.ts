// Which files an incremental build walks again, or why it builds in full. Walked: the TypeScript and
// JavaScript files whose blob changed or that are new, every file whose resolution or diagnostics can
// depend on them, and every Java and Kotlin file (their resolution is not made incremental yet). What
// can depend on a change is decided by declaration where declaration-reach.ts can (the files using a
// declaration whose shape the change may alter, and the files whose calls chose an overload by its
// position in a changed file), else by file (by the previous index: the files using a symbol declared
// in a changed one, transitively, all declaring files of a symbol declared in several at once). Everything else is reused from the previous index
// (reuse.ts). In full, with the reason, when it cannot be sure or would gain nothing: another indexer,
// parser or compression; a changed build or configuration file; a file that failed analysis before; a
// changed script or ambient declaration, which may change every file's globals; too large a share of
// the files changed, or reached by the change. (An index of another format does not open at all: the
// build falls back before this, build-command.ts.)
import { ts } from 'ts-morph';
import { FILE_FLAGS, TS_JS_EXTENSIONS, unresolvedCount } from '@sextant/format';
import type { TrackedEntry } from '../git/git-snapshot.ts';
import { SCIP_PARSER_PREFIX } from '../scip/scip-file.ts';
import { globalReach } from '../ts/global-reach.ts';
import { PROGRAM_WARNING } from '../ts/typescript-language.ts';
import { declarationReach } from './declaration-reach.ts';
import { positionShift, type PositionShift } from './position-shift.ts';
import { edgeFile } from './reuse.ts';
import type { PreviousFiles, PreviousIndex, PreviousTable } from './previous-index.ts';

/** Files whose change may change how any file resolves: configuration, lockfiles, build scripts, classification rules, JSON a module may import. */
const CONFIGURATION = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|[^/]*\.gradle(\.kts)?|gradle\.properties|[^/]*\.json|\.gitattributes)$/;

export interface IncrementalInput {
  previous: PreviousTable;
  /** The tracked files of the commit being built. */
  entries: readonly TrackedEntry[];
  /** Texts of the commit being built, by path: every file it reads. */
  texts: ReadonlyMap<string, string>;
  indexerVersion: string;
  parsers: Readonly<Record<string, string>>;
  /** Above this share of source files changed, a full build is as cheap: build in full. */
  maxChangedShare: number;
  /**
   * Told the files to walk (and the globals a program holds) as soon as they are likely, before the
   * rest of the previous index is read: the build may start creating programs then. The plan's
   * answer is what counts; it may walk more.
   */
  walkLikely?: (walk: ReadonlySet<string>, globals: ReadonlySet<string> | undefined) => void;
}

export type IncrementalPlan =
  | { full: string }
  | {
    previous: PreviousIndex; walk: ReadonlySet<string>; reuse: ReadonlySet<string>; changed: readonly string[];
    /** Per changed file, where a declaration a reused call chose now lies (position-shift.ts). */
    moved: ReadonlyMap<string, PositionShift>;
    /** The files a program must hold beside the walked ones (IndexContext.globals); absent: every file. */
    globals?: ReadonlySet<string>;
  };

/** A project's configuration, which a warning of its program names as where it is from. */
const PROJECT_CONFIG = /(^|\/)(tsconfig[^/]*|jsconfig)\.json$/;

const isScript = (path: string) => TS_JS_EXTENSIONS.some((ext) => path.endsWith(ext));

export async function planIncremental(input: IncrementalInput): Promise<IncrementalPlan> {
  const { entries } = input;
  const { manifest } = input.previous;
  if (manifest.indexer.version !== input.indexerVersion) return { full: `the previous index was built by indexer ${manifest.indexer.version}, this is ${input.indexerVersion}` };
  // The parsers known before indexing (the compiler, the grammars); those an indexer adds as it runs belong to files walked in full.
  const parser = Object.keys(input.parsers).find((name) => manifest.parsers[name] !== input.parsers[name]);
  if (parser) return { full: `${parser} is ${input.parsers[parser]} here, ${manifest.parsers[parser] ?? 'not used'} in the previous index` };
  // Files a SCIP index indexed there are this build's own indexers' now: none of their records can be reused.
  const imported = Object.keys(manifest.parsers).find((name) => name.startsWith(SCIP_PARSER_PREFIX));
  if (imported) return { full: `the previous index imported a SCIP index (${imported.slice(SCIP_PARSER_PREFIX.length)}), which this build does not` };
  if (!input.previous.compressesAlike) return { full: 'the previous index was compressed differently (another DEFLATE implementation), so its shards cannot be kept' };
  const failed = manifest.skipped.find((s) => s.reason === 'analysis-failed');
  if (failed) return { full: `${failed.path} failed analysis in the previous index, which changes what its program resolved` };

  const before = new Map(input.previous.entries.map((e) => [e.path, e.blob]));
  const now = new Map(entries.map((e) => [e.path, e.blob]));
  // Changed: another blob, or the same blob read now and skipped before (or the other way: another --max-file-bytes).
  const skippedBefore = new Set(manifest.skipped.map((s) => s.path));
  const changed = [...new Set([...before.keys(), ...now.keys()])]
    .filter((path) => before.get(path) !== now.get(path) || (now.has(path) && skippedBefore.has(path) === input.texts.has(path))).sort();
  for (const path of changed.filter((p) => CONFIGURATION.test(p))) {
    // A package.json whose resolution fields are the same (a release that only bumps its version) changes nothing the indexers read.
    if (/(^|\/)package\.json$/.test(path) && before.has(path) && now.has(path) && sameResolution(await input.previous.text(path), input.texts.get(path))) continue;
    return { full: `${path} changed, which may change how every file resolves` };
  }
  // The sources this build reads (not those skipped as too large or binary).
  const sources = [...now.keys()].filter((path) => isScript(path) && input.texts.has(path));
  const changedSources = changed.filter(isScript);
  if (changedSources.length > input.maxChangedShare * Math.max(1, sources.length)) {
    return { full: `${changedSources.length} of ${sources.length} TypeScript and JavaScript files changed, more than ${Math.round(input.maxChangedShare * 100)}%` };
  }
  // Each changed source's previous text, read once: for the globals it declares, the reach and the position shifts.
  const edits = await Promise.all(changedSources.map(async (path) => ({ path, before: before.has(path) ? await input.previous.text(path) : undefined, after: input.texts.get(path) })));
  for (const edit of edits) {
    for (const [side, text] of [['new', edit.after], ['previous', edit.before]] as const) {
      const global = text === undefined ? undefined : declaresGlobals(edit.path, text);
      if (global) return { full: `the ${side} ${edit.path} ${global}, which may change any file` };
    }
  }

  const previous = await input.previous.records();
  // By declaration first: the files using a declaration whose shape the change may alter.
  const byDeclaration = declarationReach({
    files: previous.files,
    changes: previous.changes,
    changed: edits,
    unchangedText: (path) => input.texts.get(path),
    maxWalk: Math.floor(input.maxChangedShare * Math.max(1, sources.length)),
  });
  // First by the file and change records alone (which files name which declarations): a lower bound
  // of what the change reaches, enough to build in full without reading the rest when it is wide.
  const reach = (dependents: Map<string, Set<string>>, files: ReadonlyMap<string, { problems: readonly unknown[] }>): Set<string> => {
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
      for (const [path, file] of files) {
        const change = previous.changes.get(path);
        if (file.problems.length > 0 || (change && (unresolvedCount(change) ?? 0) > 0)) add(path);
      }
      const stems = new Set(added.map(stemOf));
      for (const path of files.keys()) if (stems.has(stemOf(path))) add(path);
    }
    while (queue.length > 0) for (const next of dependents.get(queue.pop()!) ?? []) add(next);
    return new Set(sources.filter((path) => walk.has(path) || !files.has(path)));
  };
  const tooWide = (walked: ReadonlySet<string>, atLeast = false) => walked.size > input.maxChangedShare * Math.max(1, sources.length)
    ? `the change reaches ${atLeast ? 'at least ' : ''}${walked.size} of ${sources.length} TypeScript and JavaScript files, more than ${Math.round(input.maxChangedShare * 100)}%` : undefined;
  if ('walk' in byDeclaration) {
    // Decided by declaration and too wide: in full at once (the reach stopped at the share; the records of the rest are never read).
    const wide = tooWide(byDeclaration.walk, true);
    if (wide) return { full: wide };
    const likely = new Set(sources.filter((path) => byDeclaration.walk.has(path) || !previous.files.has(path)));
    // The globals a program holds come from the file table alone: the same now as in the plan's answer.
    const held = heldGlobals(previous);
    if (!tooWide(likely)) input.walkLikely?.(likely, held.globals);
    const index = await previous.rest();
    // A call's chosen declaration is stored by position: where it lies in a changed file (an overload,
    // a call signature of a type), the call keeps its choice at the declaration's new place when the
    // edit left the declaration's text alone (the reach walked the users of every declaration whose
    // shape may change); else the call's file is walked too.
    const moved = new Map<string, PositionShift>();
    for (const edit of edits) if (edit.before !== undefined && edit.after !== undefined) moved.set(edit.path, positionShift(edit.before, edit.after));
    const edited = new Set(changedSources);
    for (const symbol of index.symbols.values()) {
      for (const ref of symbol.refs) {
        if (!ref.decl || !edited.has(ref.decl.def[0]) || !(ref.decl.signature || symbol.info.defs.length > 1)) continue;
        if (!moved.get(ref.decl.def[0])?.(ref.decl.def)) byDeclaration.walk.add(ref.site.path);
      }
    }
    const walked = new Set(sources.filter((path) => byDeclaration.walk.has(path) || !index.files.has(path)));
    const wider = tooWide(walked);
    return wider ? { full: wider } : { previous: index, walk: walked, reuse: new Set(sources.filter((path) => !walked.has(path))), changed, moved, ...held };
  }
  const estimate = tooWide(reach(declarationUsers(previous), previous.files));
  if (estimate) return { full: estimate };

  const index = await previous.rest();
  const walked = reach(dependentsOf(index), index.files);
  // A change to a widely used module reaches most files: walking them and reading the previous index costs more than a full build.
  const wide = tooWide(walked);
  if (wide) return { full: wide };
  const reuse = new Set(sources.filter((path) => !walked.has(path)));
  // By file, every user of a changed file's declarations is walked: no reused call chose one of them.
  return { previous: index, walk: walked, reuse, changed, moved: new Map(), ...heldGlobals(index) };
}

/**
 * The files of the previous index whose declarations reach beyond their module (FILE_FLAGS.global),
 * which a program must hold beside the walked files and what they import. None when a warning of a
 * program's configuration names a source (one not under rootDir): such a warning may be of a file the
 * walk does not reach, so the programs hold every file, as the previous build's did. A warning that
 * names none (a type library not installed) is every program's.
 */
function heldGlobals({ manifest, entries }: Pick<PreviousTable, 'manifest' | 'entries'>): { globals?: ReadonlySet<string> } {
  const sources = entries.filter((entry) => !PROJECT_CONFIG.test(entry.path)).map((entry) => entry.path);
  const namesASource = (warning: string) => sources.some((path) => warning.includes(path));
  if (manifest.warnings.some((warning) => warning.endsWith(PROGRAM_WARNING) && namesASource(warning.slice(0, -PROGRAM_WARNING.length)))) return {};
  return { globals: new Set(entries.filter((entry) => (entry.flags & FILE_FLAGS.global) !== 0).map((entry) => entry.path)) };
}

/** package.json fields module resolution, type acquisition or workspaces read; the others (version, description, scripts) change nothing an indexer sees. */
const RESOLUTION_FIELDS = ['name', 'type', 'main', 'module', 'types', 'typings', 'typesVersions', 'exports', 'imports', 'browser', 'workspaces', 'dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'bundledDependencies', 'overrides', 'resolutions'];

/** Whether two package.json texts agree on every resolution field (either not JSON: no). */
function sameResolution(before: string | undefined, after: string | undefined): boolean {
  try {
    const pick = (text: string) => {
      const json = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify(RESOLUTION_FIELDS.map((field) => json[field] ?? null));
    };
    return before !== undefined && after !== undefined && pick(before) === pick(after);
  } catch {
    return false;
  }
}

/** `src/a.ts`, `src/a.d.ts`, `src/a/index.js` all stem to `src/a`: what one import specifier may resolve to. */
function stemOf(path: string): string {
  const bare = path.replace(/(\.d)?\.[cm]?[jt]sx?$/, '');
  return bare.endsWith('/index') ? bare.slice(0, -'/index'.length) : bare;
}

/** For each file, the files whose occurrences name a declaration it holds (by the change records: exported and member declarations, not locals). */
function declarationUsers(previous: PreviousFiles): Map<string, Set<string>> {
  const declaredIn = new Map<string, string>();
  for (const [path, change] of previous.changes) for (const decl of change.decls) declaredIn.set(decl.key, path);
  const users = new Map<string, Set<string>>();
  for (const [path, file] of previous.files) {
    for (const key of file.syms) {
      const on = declaredIn.get(key);
      if (on !== undefined && on !== path) (users.get(on) ?? users.set(on, new Set()).get(on)!).add(path);
    }
  }
  return users;
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
  let source: ts.SourceFile;
  try {
    source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  } catch (error) {
    // A file the parser overflows on (1,000 nested parentheses): the full build skips it as analysis-failed.
    return `cannot be parsed here (${String(error)}), so what it declares is unknown`;
  }
  return globalReach(source);
}
