// change_impact: where a change between two indexed commits lands. For each changed symbol, the
// sites that use it at head (for a removed symbol, or one whose identity changed, also its
// references at base carried to head through the text diff), each with a status:
//   broken   the site no longer compiles because of the change. Where a compiler indexed the file
//            (TypeScript/JavaScript): a compiler error at head on the site, or on the call it
//            makes, that base did not have. Where resolution is syntactic (Java/Kotlin, no
//            compiler runs): a reference that no longer resolves to anything, a call whose argument
//            count fits no overload any more, a class that lacks a newly added abstract member.
//   updated  the site is on a line the change itself edited.
//   at-risk  the callee's signature, modifiers, type or body changed and the site is untouched
//            and compiles: a reviewer should look.
// Also the transitive callers at head, the test files and test functions that reach a changed
// symbol (with the chain of symbols that connects them), and the problems the change introduced
// and resolved. It reads the changed files, then the symbols and files its sites, callers and
// tests need: its cost grows with what it reports, not with the repository.
import {
  abbreviatesCommit, canonicalJson, defAt, defCount, FILE_FLAGS, formatSymbolId, MAX_FILE_PROBLEMS, MODIFIERS, parseSymbolId, problemsChangedPaths, refsOf, SextantError, shortCommit,
  splitLines,
  type ChangeRecord, type Confidence, type FileRecord, type ProblemRecord, type ReferenceKind,
} from '@sextant/format';
import { callGraph } from './call-hierarchy.ts';
import { computeChangeSet, headLineOf, headPathOf, sideSummary, type ChangeAspect, type ChangeKind, type ChangeSet, type DeclSide, type SymbolChange } from './change-set.ts';
import { coverageOf, precisionShifts, type Coverage } from './change-coverage.ts';
import { changeAnswer, DIFF_PAGE, selectChanges, skippedChanges, type ChangeAnswer, type ChangeFilter, type ChangeSide } from './diff-symbols.ts';
import { symbolEdges } from './edges.ts';
import type { IndexReader, LoadedSymbol } from './index-reader.ts';
import { LineDiff } from './line-diff.ts';
import { pageOf, type PageRequest } from './paging.ts';
import type { Location, PageInfo, PeerSummary } from './results.ts';
import { peerSummary } from './symbols.ts';
import { withSiteLines, withSiteLinesOf, type SiteLines } from './site-lines.ts';
import { occurrenceAt } from './target.ts';

export const SITE_STATUSES = ['broken', 'updated', 'at-risk'] as const;
type SiteStatus = (typeof SITE_STATUSES)[number];

interface ImpactParams extends ChangeFilter, PageRequest {
  /** Only the change of this symbol (a symbolId of either commit). */
  symbolId?: string;
  /** Only the changes of symbols with this qualified name (on either side). */
  qualifiedName?: string;
  /** How far callers are followed, default 2. */
  depth?: number;
  /** Lines before and after each site, at head (site-lines.ts); every site has its own line. */
  context?: number;
}

/**
 * What puts a site on a change: a reference to the changed symbol (the compiler's error, if any, is
 * on it or on the call it makes), or a new compiler error elsewhere that the compiler's blame
 * (indexer/src/ts/diagnostic-blame.ts) ties to the changed symbol (`flow`: an alias called, a
 * result used later, a type that no longer fits, a changed member the message names, a declaration
 * using the symbol that the error's callback is passed to or that holds the error, a use of a name
 * the change took away that no longer resolves), or one inside the changed declaration itself.
 */
export const SITE_CAUSES = ['reference', 'flow', 'declaration'] as const;
type SiteCause = (typeof SITE_CAUSES)[number];

export interface ImpactSite extends Location {
  /** The reference's kind; absent for a site that is a compiler error and no reference. */
  kind?: ReferenceKind;
  confidence: Confidence;
  enclosing?: PeerSummary;
  status: SiteStatus;
  cause: SiteCause;
  reason: string;
}

/** A new compiler error at head that no rule ties to a changed symbol: still a broken place, said as such. */
export interface UnattributedSite extends Location {
  status: 'broken';
  cause: 'unattributed';
  code?: number;
  reason: string;
}

export interface Impact {
  symbol: ChangeSide;
  change: ChangeKind;
  aspects: ChangeAspect[];
  sites: ImpactSite[];
  /** Sites of the symbol in all. */
  sitesTotal: number;
  /**
   * When the symbol has more sites than one entry holds (SITES_PER_ENTRY), its sites fill several
   * entries in a row, paged like any other: the position of this entry's first site among them.
   */
  sitesFrom?: number;
}

interface ImpactCaller extends PeerSummary {
  qualifiedName: string;
  path?: string;
  line?: number;
  depth: number;
  /** symbolIds (at head) of the changed symbols it reaches. */
  reaches: string[];
}

interface AffectedTest {
  path: string;
  /** Test functions in the file that reach a changed symbol: `it`/`test` names (TS/JS), `@Test` methods (Java/Kotlin). */
  tests: { name: string; line: number; symbolId?: string }[];
  /** symbolIds from the changed symbol to the symbol in the test file (or the test file's top level). */
  chain: string[];
}

interface ProblemChange extends Location {
  source: ProblemRecord['source'];
  severity: ProblemRecord['severity'];
  code?: number;
  message: string;
  /** The changed symbol it is attributed to (symbolId at head; at base for resolved ones, by the declaration holding them). */
  symbolId?: string;
  /** For an introduced error: how it is attributed (ImpactSite.cause), or `unattributed`. */
  cause?: SiteCause | 'unattributed';
}

export interface ImpactAnswer extends ChangeAnswer, PageInfo {
  /** Changed symbols in all: `total` counts entries, and a symbol with many sites has several. */
  changed: number;
  impacts: (Omit<Impact, 'sites'> & { sites: (ImpactSite & SiteLines)[] })[];
  /** New compiler errors at head attributed to no changed symbol (whatever changes the call asks for: any may be theirs). */
  unattributed: (UnattributedSite & SiteLines)[];
  callers: ImpactCaller[];
  affectedTests: AffectedTest[];
  introducedProblems: ProblemChange[];
  resolvedProblems: ProblemChange[];
  coverage: Coverage;
}

export const IMPACT_BOUNDS = { depth: { default: 2, max: 5 } };
/** Sites an entry of `impacts` holds; a symbol with more has more entries. */
const SITES_PER_ENTRY = 1000;
/** Bounds of the walk to tests: steps from a changed symbol, and symbols visited. */
const TEST_WALK = { depth: 6, maxNodes: 2000 };
const CALLER_NODES = 200;
/** The walk from changed symbols to the declarations using them: this many steps, this many declarations read. */
const USER_DEPTH = 4;
const USER_NODES = 2000;
/** Subtypes visited looking for the classes that must implement a new abstract member. */
const IMPLEMENTORS_BOUND = 500;
/** Reasons a file is skipped that leave source unread (not a binary, a symlink or a submodule). */
const MAY_HOLD_SITES: ReadonlySet<string> = new Set(['too-large', 'not-utf8', 'unreadable', 'unaddressable-path', 'analysis-failed']);
const RISKY: ReadonlySet<ChangeAspect> = new Set(['signature', 'modifiers', 'type', 'body']);

export async function changeImpact(base: IndexReader, head: IndexReader, params: ImpactParams): Promise<ImpactAnswer> {
  const query = {
    tool: 'change_impact', base: base.commit, paths: params.paths, includeTests: params.includeTests,
    symbolId: params.symbolId, qualifiedName: params.qualifiedName, depth: params.depth,
  };
  // The whole answer (every page of it) is computed once per pair of builds and query, and kept in
  // the shard cache: a review pages through it, and asks again.
  const whole = await head.derived(`impact:${base.buildKey}>${head.buildKey}:${canonicalJson(query)}`, async () => {
    const value = await wholeImpact(base, head, params);
    return { value, bytes: 2 * JSON.stringify(value).length };
  });
  const { items, page } = pageOf(whole.impacts, head.commit, query, params, DIFF_PAGE);
  const cut = [...(page.truncationReason ? [page.truncationReason] : []), ...whole.cut];
  // The sites' lines are of the page only, added to a copy: the whole answer stays as cached.
  return {
    ...whole.answer,
    changed: whole.changed,
    impacts: await withSiteLinesOf(head, items, params.context),
    unattributed: await withSiteLines(head, whole.unattributed, params.context),
    callers: whole.callers,
    affectedTests: whole.affectedTests,
    introducedProblems: whole.introducedProblems,
    resolvedProblems: whole.resolvedProblems,
    ...page,
    totalIsExact: page.totalIsExact && whole.cut.length === 0,
    ...(cut.length > 0 ? { truncationReason: cut.join('; ') } : {}),
    coverage: whole.coverage,
  };
}

interface WholeImpact extends Pick<ImpactAnswer, 'changed' | 'callers' | 'affectedTests' | 'introducedProblems' | 'resolvedProblems' | 'coverage'> {
  impacts: Impact[];
  unattributed: UnattributedSite[];
  answer: ChangeAnswer;
  /** Why the answer may be incomplete, besides paging. */
  cut: string[];
}

async function wholeImpact(base: IndexReader, head: IndexReader, params: ImpactParams): Promise<WholeImpact> {
  const set = await computeChangeSet(base, head);
  const selected = narrow(set, selectChanges(set, params), params);
  const files = new FileCache(set);
  // The sites of every change, also when the call asks for some: a new error is attributed to the
  // change whose site it is on, and only the sites of all of them tell which errors no change explains.
  const sites = new Map<SymbolChange, ImpactSite[]>();
  for (const change of set.changes) sites.set(change, await sitesOf(set, files, change));
  // Every new error of the whole program, each attributed to changes or to none, and the ones that
  // no reference site holds made sites of the changes they are attributed to.
  const problems = await problemChanges(set, files, sites);
  for (const { problem, changes, cause } of problems.introduced) {
    if (cause === 'reference' || cause === 'unattributed') continue;
    for (const change of changes) {
      const list = sites.get(change)!;
      const { path, line, column, endLine, endColumn } = problem;
      const reason = problemReason(problem);
      // A use of the symbol on the error's lines (`opts.port = parsePort(text)` errs at `opts.port`) is the broken site.
      const use = list.find((s) => s.path === path && s.status !== 'broken' && s.line <= endLine && s.endLine >= line);
      if (use) Object.assign(use, { status: 'broken', cause, reason });
      else list.push({ path, line, column, endLine, endColumn, confidence: 'resolved', status: 'broken', cause, reason });
    }
  }
  const impacts: Impact[] = selected.flatMap((change) => {
    const list = sites.get(change)!.sort(byPosition);
    const entry = { symbol: sideSummary(change.head ? head : base, (change.head ?? change.base)!), change: change.change, aspects: change.aspects, sitesTotal: list.length };
    if (list.length <= SITES_PER_ENTRY) return [{ ...entry, sites: list }];
    const entries: Impact[] = [];
    for (let from = 0; from < list.length; from += SITES_PER_ENTRY) entries.push({ ...entry, sites: list.slice(from, from + SITES_PER_ENTRY), sitesFrom: from });
    return entries;
  });
  const callers = await callersOf(set, selected, params.depth ?? IMPACT_BOUNDS.depth.default);
  const tests = await affectedTests(set, files, selected);
  const reported = new Set(selected.flatMap((change) => sites.get(change)!).map((s) => `${s.path}:${s.line}:${s.column}`));
  const coverage = await coverageOf(set, selected, files.readOthers(), reported);
  // Narrowed to some changes, the problems are the ones attributed to them, and those attributed to none.
  const wanted = new Set(selected);
  const mine = (p: { changes: SymbolChange[] }) => p.changes.length === 0 || p.changes.some((c) => wanted.has(c));
  const unattributed = problems.introduced.filter((p) => p.cause === 'unattributed');
  const cut: string[] = [];
  if (callers.truncated) cut.push(`callers: at most ${CALLER_NODES} per symbol`);
  if (tests.truncated) cut.push(`tests: walk bounded at ${TEST_WALK.depth} steps and ${TEST_WALK.maxNodes} symbols`);
  if (problems.unrecorded.length > 0) {
    cut.push(`${problems.unrecorded.length} file${problems.unrecorded.length === 1 ? ' has' : 's have'} more problems at head than the index records (at most ${MAX_FILE_PROBLEMS} each): ${problems.unrecorded.slice(0, 3).join(', ')}`);
  }
  const skippedChanged = skippedChanges(set);
  if (skippedChanged > 0) cut.push(`${skippedChanged} changed files were skipped by the indexer (coverage.files.skipped)`);
  cut.push(...precisionShifts(set));
  const unread = head.manifest.skipped.filter((s) => MAY_HOLD_SITES.has(s.reason)).length;
  if (unread > 0) cut.push(`${unread} files of the head were skipped by the indexer (index_status lists them): sites in them are unknown`);
  if (coverage.unresolved === null) cut.push('unresolved identifiers are not recorded for a language read (coverage.unresolved is null)');
  else if (coverage.unresolved.count > 0) cut.push(`${coverage.unresolved.count} identifiers could not be resolved (coverage.unresolved)`);
  return {
    answer: changeAnswer(set), changed: selected.length, impacts, callers: callers.list, affectedTests: tests.list,
    unattributed: unattributed.map(({ problem }) => {
      const { path, line, column, endLine, endColumn, code } = problem;
      return { path, line, column, endLine, endColumn, status: 'broken' as const, cause: 'unattributed' as const, ...(code !== undefined ? { code } : {}), reason: problemReason(problem) };
    }),
    introducedProblems: problems.introduced.filter(mine).map((p) => p.problem),
    resolvedProblems: problems.resolved.filter(mine).map(({ changes: _changes, ...p }) => p),
    coverage, cut,
  };
}

function byPosition(a: Location, b: Location): number {
  return (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || a.column - b.column;
}

function problemReason(p: { code?: number; message: string; source: ProblemRecord['source'] }): string {
  return `${p.code !== undefined ? `TS${p.code}: ` : ''}${p.message}`;
}

/** The changes a call names: one symbolId (of either commit), a qualified name, or all of them. */
function narrow(set: ChangeSet, changes: SymbolChange[], params: ImpactParams): SymbolChange[] {
  if (params.symbolId !== undefined && params.qualifiedName !== undefined) {
    throw new SextantError('INVALID_ARGUMENT', 'Both symbolId and qualifiedName given.', 'Give one of symbolId, qualifiedName or paths, or none for every changed symbol.');
  }
  if (params.symbolId !== undefined) {
    const { key, commit } = parseSymbolId(params.symbolId);
    const side = abbreviatesCommit(commit, set.head.commit) ? 'head' : abbreviatesCommit(commit, set.base.commit) ? 'base' : undefined;
    if (!side) {
      throw new SextantError('STALE_SYMBOL', `symbolId ${params.symbolId} belongs to commit ${commit}, which is neither base (${shortCommit(set.base.commit)}) nor head (${shortCommit(set.head.commit)}).`,
        'Pass a symbolId from diff_symbols (either side), or a qualifiedName.', { symbolCommit: commit });
    }
    const found = changes.filter((c) => c[side]?.key === key);
    if (found.length === 0) {
      throw new SextantError('SYMBOL_NOT_FOUND', `${params.symbolId} is not a symbol this change changed (or the filters leave it out).`,
        'List the changed symbols with diff_symbols, or omit symbolId for all of them.');
    }
    return found;
  }
  if (params.qualifiedName !== undefined) {
    const found = changes.filter((c) => c.base?.decl.qname === params.qualifiedName || c.head?.decl.qname === params.qualifiedName);
    if (found.length === 0) {
      throw new SextantError('SYMBOL_NOT_FOUND', `No changed symbol is named ${params.qualifiedName}.`,
        'List the changed symbols with diff_symbols, or omit qualifiedName for all of them.');
    }
    return found;
  }
  return changes;
}

/** Head and base file records and head texts the answer reads, each once; and the problems new at head per file. */
class FileCache {
  private readonly head = new Map<string, Promise<FileRecord | undefined>>();
  private readonly base = new Map<string, Promise<FileRecord | undefined>>();
  private readonly texts = new Map<string, Promise<string | undefined>>();
  private readonly others = new Map<string, ChangeRecord>();

  constructor(private readonly set: ChangeSet) {}

  headFile(path: string): Promise<FileRecord | undefined> {
    let record = this.head.get(path);
    if (!record) this.head.set(path, (record = this.set.head.file(path)));
    return record;
  }

  /** The base record of the file that is `path` at head (its old path when renamed). */
  baseFile(headPath: string): Promise<FileRecord | undefined> {
    let record = this.base.get(headPath);
    if (!record) {
      const delta = this.set.byPath.get(headPath);
      const basePath = delta ? delta.change.base?.path : headPath;
      this.base.set(headPath, (record = basePath === undefined ? Promise.resolve(undefined) : this.set.base.file(basePath)));
    }
    return record;
  }

  headText(path: string): Promise<string | undefined> {
    let text = this.texts.get(path);
    if (!text) {
      text = this.set.head.shard<{ text(p: string): string | undefined }>(this.set.head.textShardNameOf(path)).then((s) => s?.text(path));
      this.texts.set(path, text);
    }
    return text;
  }

  /** The head line of a base line of a file, by its head path: the same line when the file is unchanged; undefined where the change edited it. */
  headLine(headPath: string, line: number): number | undefined {
    return headLineOf(this.set, headPath, line);
  }

  /** The line diff of a file by its head path (identity when unchanged; undefined for an added one), for comparing whole files. */
  lineDiff(headPath: string, baseLines: number): LineDiff | undefined {
    const delta = this.set.byPath.get(headPath);
    return delta ? delta.lines : LineDiff.identity(baseLines);
  }

  private readonly split = new Map<string, Promise<string[] | undefined>>();

  /** The head text's lines, split once per file. */
  headLines(path: string): Promise<string[] | undefined> {
    let lines = this.split.get(path);
    if (!lines) this.split.set(path, (lines = this.headText(path).then((text) => (text === undefined ? undefined : splitLines(text)))));
    return lines;
  }

  /** Remembers an unchanged file read for a site, for coverage. */
  async noteRead(path: string): Promise<void> {
    if (this.set.byPath.has(path) || this.others.has(path)) return;
    const record = await this.set.head.change(path);
    if (record) this.others.set(path, record);
  }

  readOthers(): ChangeRecord[] {
    return [...this.others.values()];
  }

  private readonly fresh = new Map<string, Promise<ProblemRecord[]>>();
  private readonly claims = new Map<ProblemRecord, SymbolChange[]>();

  /** Notes that a new error is on a reference site of `change` (statusOf made the site broken for it). */
  claim(problem: ProblemRecord, change: SymbolChange): void {
    const list = this.claims.get(problem);
    if (!list) this.claims.set(problem, [change]);
    else if (!list.includes(change)) list.push(change);
  }

  /** The changes with a reference site broken by this error (the records are the ones newProblems gave). */
  claimedBy(problem: ProblemRecord): SymbolChange[] {
    return this.claims.get(problem) ?? [];
  }

  /** Problems at head in `path` that base did not have (matched after mapping lines through the diff). */
  newProblems(path: string): Promise<ProblemRecord[]> {
    let list = this.fresh.get(path);
    if (!list) {
      list = (async () => {
        const h = await this.headFile(path);
        // A file without errors at head has none new: its base record need not be read.
        if (!h || !h.problems.some((p) => p.severity === 'error')) return [];
        const b = await this.baseFile(path);
        return matchProblems(b?.problems ?? [], h.problems, this.lineDiff(path, b?.lineLengths.length ?? 0)).introduced;
      })();
      this.fresh.set(path, list);
    }
    return list;
  }
}

async function sitesOf(set: ChangeSet, files: FileCache, change: SymbolChange): Promise<ImpactSite[]> {
  const candidates: (ReferenceSite & { fromBase: boolean })[] = [];
  const seen = new Set<string>();
  const at = (s: Location) => `${s.path}:${s.line}:${s.column}`;
  if (change.head) {
    const loaded = await set.head.symbol(change.head.key);
    if (loaded) {
      for (const ref of impactSitesOf(set.head, loaded)) {
        seen.add(at(ref));
        candidates.push({ ...ref, fromBase: false });
      }
    }
  }
  // The base's references too, carried to head: those that no longer resolve to the symbol (an
  // import of what is no longer exported, a use of what was renamed) are not references at head.
  if (change.base) {
    const loaded = await set.base.symbol(change.base.key);
    for (const ref of [...(loaded ? impactSitesOf(set.base, loaded) : []), ...await kotlinPropertyWrites(set, change.base)]) {
      const path = headPathOf(set, ref.path);
      if (path === undefined) continue;
      const line = files.headLine(path, ref.line);
      const endLine = files.headLine(path, ref.endLine);
      // A line the change edited has no image at head: the site was rewritten (and, if it still uses the symbol, it is a head reference).
      if (line === undefined || endLine === undefined) continue;
      const mapped = { ...ref, path, line, endLine, enclosing: undefined, fromBase: true };
      if (seen.has(at(mapped))) continue;
      seen.add(at(mapped));
      candidates.push(mapped);
    }
  }
  const abstractSites = change.change === 'added' ? await missingImplementations(set, change.head!) : [];
  const sites: ImpactSite[] = [];
  for (const c of [...candidates, ...abstractSites.map((s) => ({ ...s, fromBase: false }))]) {
    const status = await statusOf(set, files, change, c, abstractSites.some((s) => at(s) === at(c)));
    if (!status) continue;
    const { fromBase: _fromBase, ...site } = c;
    sites.push({ ...site, ...status, cause: 'reference' });
  }
  return sites;
}

type ReferenceSite = Omit<ImpactSite, 'status' | 'reason' | 'cause'> & { kind: ReferenceKind };

function impactSitesOf(reader: IndexReader, { record, shard }: LoadedSymbol): ReferenceSite[] {
  const list: ReferenceSite[] = [];
  for (const ref of refsOf(record)) {
    list.push({
      path: shard.paths[ref.pathIndex]!, line: ref.line, column: ref.column, endLine: ref.endLine, endColumn: ref.endColumn,
      kind: ref.kind, confidence: ref.confidence,
      ...(ref.fromIndex >= 0 ? { enclosing: peerSummary(reader, shard.peer(ref.fromIndex)) } : {}),
    });
  }
  return list;
}

/**
 * A Java getter's Kotlin property writes (`order.status = …`): each calls the setter alone, so the
 * index records it as a reference of `setStatus`, yet Kotlin makes the property from the getter and
 * the write stops compiling without it. The sites are the base's references of the same class's
 * setter from Kotlin files; a change that leaves the write resolving at head leaves it unbroken.
 */
async function kotlinPropertyWrites(set: ChangeSet, getter: DeclSide): Promise<ReferenceSite[]> {
  const { decl, file } = getter;
  const property = file.lang === 'java' && decl.kind === 'method' ? /^(?:get|is)([A-Z]\w*)$/.exec(decl.name) : null;
  const setter = property && file.decls.find((d) => d.container === decl.container && d.kind === 'method' && d.name === `set${property[1]}`);
  const loaded = setter ? await set.base.symbol(setter.key) : undefined;
  return loaded ? impactSitesOf(set.base, loaded).filter((ref) => /\.kts?$/.test(ref.path) && ref.kind === 'call') : [];
}

/**
 * For a member added to an interface, or an abstract member added to a class: each type at head that
 * implements or extends its container and declares no member of that name (a site at the type's name).
 */
async function missingImplementations(set: ChangeSet, added: DeclSide): Promise<ReferenceSite[]> {
  const containerDecl = added.decl.container >= 0 ? added.file.decls[added.decl.container] : undefined;
  if (!containerDecl) return [];
  const isAbstract = containerDecl.kind === 'interface' ? added.decl.body === '' && !(added.decl.mods & MODIFIERS.optional)
    : containerDecl.kind === 'class' && (added.decl.mods & MODIFIERS.abstract) !== 0;
  if (!isAbstract) return [];
  const container = await set.head.symbol(containerDecl.key);
  if (!container) return [];
  const sites: ReferenceSite[] = [];
  // Subtypes transitively (an interface extending it passes the duty on), each once, bounded.
  const visited = new Set<string>([container.record.key]);
  let frontier: LoadedSymbol[] = [container];
  while (frontier.length > 0 && visited.size < IMPLEMENTORS_BOUND) {
    const next: LoadedSymbol[] = [];
    for (const type of frontier) {
      for (const edge of await symbolEdges(set.head, type)) {
        if (edge.out || (edge.kind !== 'implements' && edge.kind !== 'extends') || visited.has(edge.peer.key)) continue;
        visited.add(edge.peer.key);
        const subtype = await set.head.symbol(edge.peer.key);
        if (!subtype || defCount(subtype.record) === 0) continue;
        const declared = defAt(subtype.record, 0);
        const path = subtype.shard.paths[declared.pathIndex]!;
        const file = await set.head.change(path);
        const index = file?.decls.findIndex((d) => d.key === edge.peer.key) ?? -1;
        // A subtype declaring a member of that name implements (or redeclares) it: its own subtypes are its concern.
        if (file && index >= 0 && file.decls.some((d) => d.container === index && d.name === added.decl.name)) continue;
        if (subtype.record.kind !== 'class' || (subtype.record.mods & MODIFIERS.abstract) !== 0) {
          next.push(subtype); // an interface or an abstract class passes the duty to its subtypes
          continue;
        }
        const { line, column, endLine, endColumn } = declared;
        sites.push({ path, line, column, endLine, endColumn, kind: 'inherit', confidence: 'resolved', enclosing: peerSummary(set.head, edge.peer) });
      }
    }
    frontier = next;
  }
  return sites;
}

async function statusOf(
  set: ChangeSet, files: FileCache, change: SymbolChange, site: Location & { kind: ReferenceKind; fromBase: boolean }, missingMember: boolean,
): Promise<{ status: SiteStatus; reason: string; endLine?: number; endColumn?: number } | undefined> {
  await files.noteRead(site.path);
  const record = await files.headFile(site.path);
  if (!record) return undefined;
  const compiled = set.head.manifest.languages[record.lang]?.precision === 'compiler';
  if (compiled) {
    // The call's extent needs the text: read it only for a file with new errors.
    const fresh = (await files.newProblems(site.path)).filter((p) => p.severity === 'error');
    const span = fresh.length > 0 ? callSpan(await files.headLines(site.path), site) : site;
    const problem = fresh.find((p) => overlaps(p, span));
    if (problem) {
      files.claim(problem, change);
      // Broken by an error in its call (an argument on a later line), the site spans the call, so
      // that it covers the lines the compiler reports.
      const through = overlaps(problem, site) ? {} : { endLine: span.endLine, endColumn: span.endColumn };
      return { status: 'broken', reason: problemReason(problem), ...through };
    }
  } else {
    const name = (change.base ?? change.head)!.decl.qname;
    if (missingMember) return { status: 'broken', reason: `does not implement ${change.head!.decl.qname}, added as an abstract member` };
    if (site.fromBase && occurrenceAt(record, site.line, site.column) === undefined) {
      const what = change.change === 'renamed' ? `renamed to ${change.head!.decl.name}`
        : change.change === 'removed' || change.aspects.length === 0 ? change.change
        : `${change.change} (${change.aspects.join(', ')})`;
      return { status: 'broken', reason: `no longer resolves: ${name} was ${what}` };
    }
    if (change.head && change.aspects.includes('signature') && (site.kind === 'call' || site.kind === 'new')) {
      const args = argumentCount(await files.headLines(site.path), site);
      const overloads = change.head.file.decls.filter((d) => d.qname === change.head!.decl.qname && d.kind === change.head!.decl.kind);
      if (args !== undefined && !overloads.some((d) => fitsArity(d.signature, args))) {
        return { status: 'broken', reason: `${args} argument${args === 1 ? '' : 's'} fit${args === 1 ? 's' : ''} no overload of ${change.head.decl.qname} at head (${overloads.map((d) => d.signature).join(' | ')})` };
      }
    }
  }
  const delta = set.byPath.get(site.path);
  if (delta && (delta.change.change === 'added' || delta.lines?.touchedWithin(site.line, site.endLine))) {
    return { status: 'updated', reason: 'on a line the change edited' };
  }
  if (missingMember) return { status: 'at-risk', reason: `declares no ${change.head!.decl.name}; check it inherits one (the compiler reported nothing)` };
  if (change.aspects.includes('exports') && site.fromBase && occurrenceAt(record, site.line, site.column) === undefined) {
    return { status: 'at-risk', reason: `${change.base!.file.path} no longer exports ${change.base!.decl.name}: this use goes through an import the change broke` };
  }
  if (change.change === 'removed') {
    return { status: 'at-risk', reason: compiled ? 'the symbol was removed and the compiler reports nothing here: the use goes through a broken import or resolves to something else' : 'the symbol was removed; this use resolves to something else at head' };
  }
  // An import or export of a changed symbol compiles or is broken; it is not itself at risk.
  if (WIRING.has(site.kind)) return undefined;
  const risky = change.aspects.filter((a) => RISKY.has(a));
  // A symbol only renamed or moved, or changed in its doc or members: its untouched sites that compile are fine.
  if (risky.length === 0) return undefined;
  return { status: 'at-risk', reason: `${risky.join(', ')} changed` };
}

/** The site, extended over the call it makes (to the matching closing parenthesis) for a call or construction. */
function callSpan(lines: string[] | undefined, site: Location & { kind: ReferenceKind }): Location {
  if (!lines || (site.kind !== 'call' && site.kind !== 'new')) return site;
  const end = closingParen(lines, site);
  return end ? { ...site, endLine: end.line, endColumn: end.column + 1 } : site;
}

/** Position of the `)` closing the argument list that follows the site, skipping type arguments; undefined when none follows. */
function closingParen(lines: string[], site: Location): { line: number; column: number } | undefined {
  let line = site.endLine;
  let column = site.endColumn; // 1-based column just past the identifier
  let depth = 0;
  let angle = 0;
  let started = false;
  let quote: string | undefined;
  for (let steps = 0; line <= lines.length && steps < 20_000; steps++) {
    const text = lines[line - 1] ?? '';
    if (column > text.length) {
      line++;
      column = 1;
      continue;
    }
    const ch = text[column - 1]!;
    if (quote) {
      if (ch === '\\') column++;
      else if (ch === quote) quote = undefined;
    } else if (!started) {
      if (ch === '<') angle++;
      else if (ch === '>' && angle > 0) angle--;
      else if (ch === '(' && angle === 0) {
        started = true;
        depth = 1;
      } else if (angle === 0 && !/[\s?.!]/.test(ch)) return undefined;
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return { line, column };
    column++;
  }
  return undefined;
}

/** Arguments of the call at the site (top-level commas of its argument list), from the head text; undefined when it cannot tell. */
function argumentCount(lines: string[] | undefined, site: Location): number | undefined {
  if (!lines) return undefined;
  const end = closingParen(lines, site);
  if (!end) return undefined;
  const joined = lines.slice(site.endLine - 1, end.line).join('\n');
  const start = joined.indexOf('(', site.endColumn - 1);
  const inner = joined.slice(start + 1, joined.length - (lines[end.line - 1]!.length - end.column) - 1);
  const args = topLevelParts(inner);
  // A Kotlin trailing lambda `f(a) { ... }` is one more argument; such calls are not counted.
  return /\)\s*\{/.test(lines[end.line - 1]!.slice(end.column - 1)) ? undefined : args.length;
}

function topLevelParts(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (quote) {
      if (ch === '\\') current += inner[i++] ?? '';
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim() !== '' || parts.length > 0) parts.push(current);
  return parts;
}

/** Whether `args` arguments fit a signature's parameter list (defaults and varargs widen it); true when it cannot tell. */
function fitsArity(signature: string | undefined, args: number): boolean {
  if (!signature) return true;
  const open = signature.indexOf('(');
  const close = signature.lastIndexOf(')');
  if (open < 0 || close < open) return true;
  const params = topLevelParts(signature.slice(open + 1, close)).filter((p) => p.trim() !== '');
  const variadic = params.some((p) => /\.\.\.|\bvararg\b/.test(p));
  const required = params.filter((p) => !/=|\.\.\.|\bvararg\b/.test(p)).length;
  return args >= required && (variadic || args <= params.length);
}

type Span = Pick<Location, 'line' | 'column' | 'endLine' | 'endColumn'>;

function overlaps(p: Span, span: Span): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
  return before(p.line, p.column, span.endLine, span.endColumn) && before(span.line, span.column, p.endLine, p.endColumn);
}

/**
 * Problems of one file on both sides matched by source, code and message: first at the same place
 * after mapping base lines to head, then (for lines the change edited) anywhere in the file.
 */
function matchProblems(base: readonly ProblemRecord[], head: readonly ProblemRecord[], lines: LineDiff | undefined): { introduced: ProblemRecord[]; resolved: ProblemRecord[] } {
  const key = (p: ProblemRecord) => `${p.source}\0${p.code ?? ''}\0${p.message}`;
  const left = new Set(head);
  const resolved: ProblemRecord[] = [];
  const unplaced: ProblemRecord[] = [];
  for (const b of base) {
    const line = lines?.headLine(b.line);
    const match = line === undefined ? undefined : [...left].find((h) => key(h) === key(b) && h.line === line && h.column === b.column);
    if (match) left.delete(match);
    else unplaced.push(b);
  }
  for (const b of unplaced) {
    const match = [...left].find((h) => key(h) === key(b) && (lines === undefined || lines.touchedAt(h.line) || lines.headLine(b.line) === undefined));
    if (match) left.delete(match);
    else resolved.push(b);
  }
  return { introduced: head.filter((h) => left.has(h)), resolved };
}

async function callersOf(set: ChangeSet, changes: SymbolChange[], depth: number): Promise<{ list: ImpactCaller[]; truncated: boolean }> {
  const callers = new Map<string, ImpactCaller>();
  const changed = new Set(changes.flatMap((c) => (c.head ? [formatSymbolId(c.head.key, set.head.commit)] : [])));
  let truncated = false;
  for (const change of changes) {
    if (!change.head || !CALLABLE.has(change.head.decl.kind)) continue;
    const symbolId = formatSymbolId(change.head.key, set.head.commit);
    const graph = await callGraph(set.head, { symbolId }, { direction: 'callers', depth: Math.min(depth, IMPACT_BOUNDS.depth.max), maxNodes: CALLER_NODES });
    if (!graph.totalIsExact && graph.truncationReason?.startsWith('maxNodes')) truncated = true;
    for (const node of graph.nodes) {
      if (node.depth === 0 || changed.has(node.symbolId)) continue;
      const known = callers.get(node.symbolId);
      if (known) {
        known.depth = Math.min(known.depth, node.depth);
        if (!known.reaches.includes(symbolId)) known.reaches.push(symbolId);
      } else {
        callers.set(node.symbolId, {
          symbolId: node.symbolId, name: node.name, kind: node.kind, qualifiedName: node.qualifiedName,
          ...(node.path !== undefined ? { path: node.path, line: node.line } : {}), depth: node.depth, reaches: [symbolId],
        });
      }
    }
  }
  return { list: [...callers.values()].sort((a, b) => a.depth - b.depth || (a.path ?? '').localeCompare(b.path ?? '') || (a.line ?? 0) - (b.line ?? 0)), truncated };
}

const CALLABLE = new Set(['function', 'method', 'constructor', 'getter', 'setter', 'class', 'variable', 'constant', 'property', 'field', 'component']);

/**
 * Test files that reach a changed symbol: one breadth-first walk from every changed symbol at once
 * (at head; at base for a removed one) over the symbols whose bodies use it, each symbol visited
 * once, one round of shard reads per step, ending at uses in test files. A test file is listed with
 * the chain of the walk that reached it first.
 */
async function affectedTests(set: ChangeSet, files: FileCache, changes: SymbolChange[]): Promise<{ list: AffectedTest[]; truncated: boolean }> {
  const found = new Map<string, AffectedTest>();
  let truncated = false;
  for (const reader of [set.head, set.base]) {
    // No test file at that commit: nothing to reach, so the walk is not run, and not cut short.
    if (!(await reader.fileTable()).anyIndexedWith(FILE_FLAGS.test)) continue;
    const starts = changes.filter((c) => (reader === set.head ? c.head : !c.head && c.base)).map((c) => (c.head ?? c.base)!.key);
    const visited = new Set<string>(starts);
    let frontier: { key: string; chain: string[] }[] = starts.map((key) => ({ key, chain: [formatSymbolId(key, reader.commit)] }));
    for (let depth = 0; frontier.length > 0; depth++) {
      if (depth > TEST_WALK.depth) {
        truncated = true;
        break;
      }
      await reader.prefetch([...new Set(frontier.map((f) => reader.symbolShardNameOf(f.key)))]);
      const next: typeof frontier = [];
      for (const { key, chain } of frontier) {
        const symbol = await reader.symbol(key);
        if (!symbol) continue;
        for (const ref of refsOf(symbol.record)) {
          // Imports and exports reach nothing at run time; the uses after them do.
          if (WIRING.has(ref.kind)) continue;
          const peer = ref.fromIndex >= 0 ? symbol.shard.peer(ref.fromIndex) : undefined;
          // A use at a module's top level is the module's; the walk goes on from there only through the file's own symbols.
          const enclosing = peer && peer.kind !== 'module' ? peer : undefined;
          if (symbol.shard.pathFlags[ref.pathIndex]! & FILE_FLAGS.test) {
            // Base references of a removed symbol: the test file must still exist at head.
            const path = symbol.shard.paths[ref.pathIndex]!;
            const headPath = reader === set.base ? headPathOf(set, path) : path;
            if (headPath === undefined) continue;
            const test = found.get(headPath) ?? { path: headPath, tests: [], chain: [...chain, ...(enclosing ? [formatSymbolId(enclosing.key, reader.commit)] : [])] };
            found.set(headPath, test);
            const name = await testNameAt(set, files, headPath, reader === set.head ? ref.line : undefined, enclosing?.key, enclosing?.name);
            if (name && !test.tests.some((t) => t.name === name.name)) test.tests.push(name);
            continue;
          }
          if (!enclosing || visited.has(enclosing.key)) continue;
          if (visited.size >= TEST_WALK.maxNodes) {
            truncated = true;
            continue;
          }
          visited.add(enclosing.key);
          next.push({ key: enclosing.key, chain: [...chain, formatSymbolId(enclosing.key, reader.commit)] });
        }
      }
      frontier = next;
    }
  }
  return { list: [...found.values()].sort((a, b) => (a.path < b.path ? -1 : 1)), truncated };
}

/** Reference kinds that only name a symbol for a module's wiring. */
const WIRING: ReadonlySet<ReferenceKind> = new Set(['import', 'export']);

const JUNIT_TEST = /@(?:org\.junit\.(?:jupiter\.api\.)?)?Test\b/;
const TEST_CALL = /\b(?:it|test)(?:\.(?:only|skip|concurrent|each\([^)]*\)))*\s*\(\s*(['"`])((?:(?!\1).)*)\1/;

/**
 * The test function at a reference in a test file: the enclosing method when it is annotated @Test
 * (Java/Kotlin), else the nearest `it(...)`/`test(...)` opened above the line (TS/JS).
 */
async function testNameAt(
  set: ChangeSet, files: FileCache, path: string, line: number | undefined, enclosingKey: string | undefined, enclosingName: string | undefined,
): Promise<{ name: string; line: number; symbolId?: string } | undefined> {
  const lines = await files.headLines(path);
  if (!lines) return undefined;
  if (enclosingKey) {
    const method = await set.head.symbol(enclosingKey);
    const defLine = method && defCount(method.record) > 0 ? defAt(method.record, 0).line : undefined;
    if (method && defLine !== undefined && ['method', 'function'].includes(method.record.kind)) {
      // The annotation is on the declaration's line or on one of the few above it (with other annotations).
      for (let l = defLine; l >= Math.max(1, defLine - 4); l--) {
        if (JUNIT_TEST.test(lines[l - 1] ?? '')) {
          return { name: enclosingName ?? method.record.name, line: defLine, symbolId: formatSymbolId(enclosingKey, set.head.commit) };
        }
      }
    }
  }
  if (line === undefined) return undefined;
  for (let l = Math.min(line, lines.length); l >= 1; l--) {
    const match = TEST_CALL.exec(lines[l - 1]!);
    if (match) return { name: match[2]!, line: l };
  }
  return undefined;
}

interface IntroducedProblem {
  problem: ProblemChange;
  /** The changes it is attributed to; empty when unattributed. */
  changes: SymbolChange[];
  cause: SiteCause | 'unattributed';
}

/**
 * The problems the change introduced and resolved, over the whole program: every changed file, every
 * file whose problem list changed though its text did not (the file tables' digests name them,
 * unread), every file a site is in. Each new error is attributed, in this order: to the changes
 * with a reference site on it (`reference`), to the changed symbols the compiler blamed for it
 * (`flow`), to the innermost changed declaration holding it (`declaration`), to the changes that
 * took away a name its blamed code no longer resolves (`flow`), to the changes a declaration it is
 * passed to or held by uses (`flow`), to a changed member of a type the blame names or a changed
 * member the message names (`flow`), to the changes a blamed or holding declaration depends on a few
 * uses away (`flow`), to a change the message names (`flow`); else to none.
 */
async function problemChanges(
  set: ChangeSet, files: FileCache, sites: ReadonlyMap<SymbolChange, ImpactSite[]>,
): Promise<{ introduced: IntroducedProblem[]; resolved: (ProblemChange & { changes: SymbolChange[] })[]; unrecorded: string[] }> {
  const introduced: IntroducedProblem[] = [];
  const resolved: (ProblemChange & { changes: SymbolChange[] })[] = [];
  const unrecorded: string[] = [];
  const owners = (side: 'base' | 'head', path: string, line: number): SymbolChange[] => {
    let best: SymbolChange | undefined;
    for (const c of set.changes) {
      const range = c[side]?.file.path === path ? c[side]!.decl.range : undefined;
      if (!range || line < range[0] || line > range[2]) continue;
      const b = best?.[side]!.decl.range;
      if (!b || range[2] - range[0] < b[2] - b[0]) best = c;
    }
    return best ? [best] : [];
  };
  const byKey = new Map<string, SymbolChange[]>();
  // What a change took away, by the name a use at head no longer resolves (a removed or renamed
  // symbol, a name a barrel stopped exporting).
  const byLostName = new Map<string, SymbolChange[]>();
  const push = (map: Map<string, SymbolChange[]>, key: string, c: SymbolChange) => {
    const list = map.get(key);
    if (!list) map.set(key, [c]);
    else if (!list.includes(c)) list.push(c);
  };
  for (const c of set.changes) {
    for (const key of new Set([c.head?.key, c.base?.key])) if (key !== undefined) push(byKey, key, c);
    if (c.base && (c.change === 'removed' || c.change === 'renamed' || (!c.head && c.aspects.includes('exports')) || stoppedExporting(c))) push(byLostName, c.base.decl.name, c);
  }
  // A changed member by the key of the type holding it: an error about the type that names the
  // member (`Property 'next' is private in type 'Subscriber<any>'`) stems from the member's change.
  const byContainer = new Map<string, SymbolChange[]>();
  const members: SymbolChange[] = [];
  for (const c of set.changes) {
    for (const side of [c.head, c.base]) {
      const container = side && side.decl.container >= 0 ? side.file.decls[side.decl.container] : undefined;
      if (container) push(byContainer, container.key, c);
    }
    if ([c.head, c.base].some((side) => side && side.decl.container >= 0)) members.push(c);
  }
  // The declarations that use a changed symbol (those its references at base or head are in), and
  // at head those that use them in turn (a class built from a local alias of what a barrel stopped
  // exporting) with the declarations holding them, nearest first, by key: an error whose statement
  // calls one of them (a callback passed to a function whose signature names a type the change
  // broke) stems from the change through it. Read only when an error is left that the rules before
  // it do not attribute.
  let byUser: { direct: Map<string, SymbolChange[]>; all: Map<string, SymbolChange[]> } | undefined;
  const users = async () => {
    if (byUser) return byUser;
    const direct = new Map<string, SymbolChange[]>();
    for (const c of set.changes) {
      for (const [reader, side] of [[set.base, c.base], [set.head, c.head]] as const) {
        const loaded = side && await reader.symbol(side.key);
        if (!loaded) continue;
        for (const ref of refsOf(loaded.record)) if (ref.fromIndex >= 0) push(direct, loaded.shard.peer(ref.fromIndex).key, c);
      }
    }
    byUser = { direct, all: new Map(direct) };
    const all = byUser.all;
    let level = [...direct.keys()];
    for (let depth = 1, walked = 0; depth < USER_DEPTH && level.length > 0; depth++) {
      const next: string[] = [];
      for (const key of level) {
        if (walked++ >= USER_NODES) return byUser;
        const loaded = await set.head.symbol(key);
        if (!loaded) continue;
        const from = all.get(key)!;
        const usedBy = [loaded.record.container];
        for (const ref of refsOf(loaded.record)) if (ref.fromIndex >= 0) usedBy.push(loaded.shard.peer(ref.fromIndex).key);
        for (const user of usedBy) {
          if (user === undefined || all.has(user)) continue;
          all.set(user, from);
          next.push(user);
        }
      }
      level = next;
    }
    return byUser;
  };
  const paths = new Set<string>();
  for (const [path, delta] of set.byPath) if (delta.head || delta.base) paths.add(path);
  for (const path of problemsChangedPaths(await set.base.fileTable(), await set.head.fileTable())) paths.add(path);
  for (const list of sites.values()) for (const site of list) if (site.status === 'broken') paths.add(site.path);
  for (const path of [...paths].sort()) {
    const delta = set.byPath.get(path);
    const [h, b] = await Promise.all([files.headFile(path), files.baseFile(path)]);
    if (h?.problemsOmitted) unrecorded.push(path);
    const matched = matchProblems(b?.problems ?? [], h?.problems ?? [], files.lineDiff(path, b?.lineLengths.length ?? 0));
    for (const p of matched.introduced) {
      const enclosing = async () => (h ? enclosingKeys(h, p.line) : []);
      const attributed = p.severity === 'error' ? await attribute(p, files.claimedBy(p), { byKey, byContainer, byLostName, users, enclosing, members, changes: set.changes }, () => owners('head', path, p.line)) : { changes: owners('head', path, p.line), cause: 'declaration' as const };
      const side = attributed.changes[0]?.head ?? attributed.changes[0]?.base;
      introduced.push({
        problem: { ...problemOf(p, path), ...(side ? { symbolId: formatSymbolId(side.key, side === attributed.changes[0]!.head ? set.head.commit : set.base.commit) } : {}), ...(p.severity === 'error' ? { cause: attributed.cause } : {}) },
        ...attributed,
      });
    }
    const basePath = delta?.change.base?.path ?? path;
    for (const p of matched.resolved) {
      const changes = owners('base', basePath, p.line);
      resolved.push({ ...problemOf(p, basePath), ...(changes[0] ? { symbolId: formatSymbolId(changes[0].base!.key, set.base.commit) } : {}), changes });
    }
  }
  return { introduced, resolved, unrecorded };
}

/** The changes a new error at head is attributed to, and by which rule (problemChanges), most direct first. */
async function attribute(
  p: ProblemRecord, claimed: SymbolChange[],
  rules: {
    byKey: ReadonlyMap<string, SymbolChange[]>; byContainer: ReadonlyMap<string, SymbolChange[]>; byLostName: ReadonlyMap<string, SymbolChange[]>;
    users: () => Promise<{ direct: ReadonlyMap<string, SymbolChange[]>; all: ReadonlyMap<string, SymbolChange[]> }>; enclosing: () => Promise<string[]>; members: readonly SymbolChange[];
    changes: readonly SymbolChange[];
  },
  owners: () => SymbolChange[],
): Promise<{ changes: SymbolChange[]; cause: SiteCause | 'unattributed' }> {
  if (claimed.length > 0) return { changes: claimed, cause: 'reference' };
  const blame = p.blame ?? [];
  const blamed = (map: ReadonlyMap<string, SymbolChange[]>, keep: (c: SymbolChange) => boolean = () => true) => [...new Set(blame.flatMap((key) => map.get(key) ?? []))].filter(keep);
  // The blame names a changed symbol; or the type of a changed member, and the message the member.
  const direct = blamed(rules.byKey);
  if (direct.length > 0) return { changes: direct, cause: 'flow' };
  const member = blamed(rules.byContainer, (c) => namesChange(p.message, c));
  if (member.length > 0) return { changes: member, cause: 'flow' };
  const held = owners();
  if (held.length > 0) return { changes: held, cause: 'declaration' };
  // A name in the blamed code that resolves to nothing at head, which a change took away.
  const lost = [...new Set((p.blameNames ?? []).flatMap((name) => rules.byLostName.get(name) ?? []))];
  if (lost.length > 0) return { changes: lost, cause: 'flow' };
  // Last, through a declaration that uses a changed symbol: one the blame names (a function the
  // erroring callback is passed to), or one holding the error (a function whose signature names a
  // type the change broke, erring in its body).
  const users = await rules.users();
  const around = [...blame, ...await rules.enclosing()];
  const through = (map: ReadonlyMap<string, SymbolChange[]>) => [...new Set(around.flatMap((key) => map.get(key) ?? []))];
  const used = through(users.direct);
  if (used.length > 0) return { changes: used, cause: 'flow' };
  // Last, a changed member of a type the blame names (an inference through `Partial<Observer<T>>`
  // left `value` unknown once `Observer.next` is gone), or a changed member the message names.
  const holder = blamed(rules.byContainer);
  if (holder.length > 0) return { changes: holder, cause: 'flow' };
  const named = rules.members.filter((c) => namesChange(p.message, c));
  if (named.length > 0) return { changes: named, cause: 'flow' };
  // Last, through declarations that use the changed symbols a few steps away: `GetPrompt`, made of
  // a local `optional` that stood for what a barrel stopped exporting, blamed for an error in a
  // protocol three modules on.
  const distant = through(users.all);
  if (distant.length > 0) return { changes: distant, cause: 'flow' };
  // Last, any change the message names: a type a barrel stopped exporting, quoted in a type it
  // left wrong three modules away (`ProtocolAdapter<…, typeof Discover | typeof Cancelled…>`).
  const mentioned = rules.changes.filter((c) => namesChange(p.message, c));
  if (mentioned.length > 0) return { changes: mentioned, cause: 'flow' };
  return { changes: [], cause: 'unattributed' };
}

/** Whether a compiler message quotes a changed symbol's name: `'next'`, `'_trySubscribe(...)'`, `'scheduler.flush'`. */
function namesChange(message: string, c: SymbolChange): boolean {
  const names = new Set([c.base?.decl.name, c.head?.decl.name].filter((n): n is string => !!n));
  for (const quoted of message.matchAll(/'([^'\n]{1,200})'/g)) {
    for (const token of quoted[1]!.split(/[^\w$#]+/)) if (names.has(token)) return true;
  }
  return false;
}

/** A declaration that was exported at base and is not at head: its importers lose the name. */
function stoppedExporting(c: SymbolChange): boolean {
  return !!c.base && !!c.head && (c.base.decl.mods & MODIFIERS.exported) !== 0 && (c.head.decl.mods & MODIFIERS.exported) === 0;
}

/** The keys of the declarations around a line, outermost first, by the file's outline (each overload and body its own node). */
function enclosingKeys(file: FileRecord, line: number): string[] {
  const keys: string[] = [];
  for (let level = file.outline; level.length > 0;) {
    const node = level.find((n) => n.range[0] <= line && line <= n.range[2]);
    if (!node) break;
    if (node.sym >= 0) keys.push(file.syms[node.sym]!);
    level = node.children;
  }
  return keys;
}

function problemOf(p: ProblemRecord, path: string): Omit<ProblemChange, 'symbolId'> {
  return {
    path, line: p.line, column: p.column, endLine: p.endLine, endColumn: p.endColumn, source: p.source, severity: p.severity,
    ...(p.code !== undefined ? { code: p.code } : {}), message: p.message,
  };
}
