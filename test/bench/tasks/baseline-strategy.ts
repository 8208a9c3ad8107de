// The baseline: what an agent without Sextant does, written down as rules (README.md): ripgrep for
// the name, then read enough around each hit to decide (the import block and ±20 lines, or the
// enclosing declaration), one call per ripgrep run and per window read, counting every character
// of ripgrep's output and of the lines read. Its answer is what the rules in baseline-rules.ts
// conclude from those characters; same-name symbols they cannot tell apart stay in the answer.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  arityOf, calledNames, declarationRange, declaresMember, declaresTopLevel, importBlockEnd, isCallAt, isImportOrExportLine, javaDeclaresMember,
  javaDeclaresType, javaImportBlockEnd, javaTypeOrigin, occurrences, parenthesized, parseImports, parseJavaImports, receiverAt, resolveSpecifier,
  topLevelParts, windowsOf, WINDOW, withoutTypeArguments, type Import,
} from './baseline-rules.ts';
import { ripgrep, type Hit } from './ripgrep.ts';
import { parsePosition, TEST_PATH, type Answer, type Attempt, type Task } from './task-types.ts';

export interface BaselineCorpus {
  /** The corpus checkout (its working tree is the indexed commit). */
  root: string;
  language: 'typescript' | 'java';
  /** Directories searched, relative to root (for Java, the source root the packages are under). */
  searchDirs: string[];
  /** TypeScript: module path mappings a reader of the repository knows (the tsconfig's `paths`). */
  paths: Record<string, string[]>;
}

/** What reading a file means in one language: its import block, its imports, its declarations. */
interface LanguageReading {
  importBlockEnd(lines: string[]): number;
  parseImports(block: string): Import[];
  declaresTopLevel(text: string, name: string): boolean;
  declaresMember(text: string, name: string, next: string[]): boolean;
  /** One search for the declarations of several names. */
  declarationPattern(names: string[]): string;
}

/** A name inside a ripgrep pattern (`$ZodType`). */
const literal = (name: string) => name.replace(/[$]/g, '\\$');
const alternatives = (names: string[]) => names.map(literal).join('|');

const TS_MEMBER_PREFIX = '(?:(?:public|private|protected|static|readonly|abstract|async|override|get|set)\\s+)*';
const READING: Record<BaselineCorpus['language'], LanguageReading> = {
  typescript: {
    importBlockEnd, parseImports, declaresTopLevel, declaresMember,
    declarationPattern: (names) => `\\b(?:function\\*?|class|const|let|var)\\s+(?:${alternatives(names)})(?![\\w$])|^\\s*${TS_MEMBER_PREFIX}(?:${alternatives(names)})\\s*[?!]?\\s*(?:<.*>)?\\(`,
  },
  java: {
    importBlockEnd: javaImportBlockEnd, parseImports: parseJavaImports, declaresTopLevel: javaDeclaresType, declaresMember: javaDeclaresMember,
    declarationPattern: (names) => `\\b(?:class|interface|enum|record)\\s+(?:${alternatives(names)})(?![\\w$])|[\\w$>\\]]\\s+(?:${alternatives(names)})\\s*\\(`,
  },
};

export class BaselineSession {
  private readonly files = new Map<string, string[]>();
  private trace: string[] = [];
  private chars = 0;
  /** Windows already read in this task, per file: reading them again costs nothing more. */
  private seen = new Map<string, [number, number][]>();

  readonly reading: LanguageReading;

  constructor(private readonly rg: string, readonly corpus: BaselineCorpus) {
    this.reading = READING[corpus.language];
  }

  async solve(task: Task): Promise<Attempt> {
    this.trace = [];
    this.chars = 0;
    this.seen = new Map();
    const answer = await SOLVERS[task.kind](this, task);
    return { calls: this.trace.length, chars: this.chars, answer, trace: this.trace };
  }

  lines(path: string): string[] {
    let lines = this.files.get(path);
    if (!lines) this.files.set(path, (lines = readFileSync(join(this.corpus.root, path), 'utf8').split(/\r?\n/)));
    return lines;
  }

  exists(path: string): boolean {
    return this.files.has(path) || existsSync(join(this.corpus.root, path));
  }

  /**
   * The file a name used in `from` comes from, as its imports (and for Java its package) show, or
   * undefined when they do not say. A TypeScript import from a module that does not declare the
   * name itself (a barrel) gives that module.
   */
  origin(from: string, name: string): string | undefined {
    const imports = this.importsOf(from);
    if (this.corpus.language === 'java') return javaTypeOrigin(from, name, imports, this.corpus.searchDirs[0]!, (p) => this.exists(p));
    const imported = imports.find((i) => i.local === name);
    return imported ? resolveSpecifier(from, imported.specifier, this.corpus.paths, (p) => this.exists(p)) : undefined;
  }

  declares(text: string, name: string, next: string[] = []): boolean {
    return this.reading.declaresTopLevel(text, name) || this.reading.declaresMember(text, name, next);
  }

  /** One ripgrep run, counted: for the whole word `name` as written (`-wF`), or for a pattern (PCRE2, for its lookarounds). */
  async search(pattern: string, { word = true, pcre = false } = {}): Promise<Hit[]> {
    const args = [...(word ? ['-w', '-F'] : []), ...(pcre ? ['-P'] : []), '-e', pattern, ...this.corpus.searchDirs];
    this.trace.push(`rg ${args.join(' ')}`);
    const { output, hits } = await ripgrep(this.rg, this.corpus.root, args);
    this.chars += output.length;
    return hits;
  }

  /** Reads lines from..to of a file (one call, the lines with their numbers counted) unless already read. */
  read(path: string, from: number, to: number): void {
    const lines = this.lines(path);
    const windows = this.seen.get(path) ?? [];
    if (windows.some(([a, b]) => a <= from && to <= b)) return;
    windows.push([from, to]);
    this.seen.set(path, windows);
    this.trace.push(`read ${path}:${from}-${to}`);
    for (let n = from; n <= Math.min(to, lines.length); n++) this.chars += `${n}: ${lines[n - 1]}\n`.length;
  }

  /** Reads the import block and ±WINDOW lines around each given line of a file. */
  readAround(path: string, hitLines: number[]): void {
    const lines = this.lines(path);
    for (const [from, to] of windowsOf(hitLines, this.reading.importBlockEnd(lines), lines.length)) this.read(path, from, to);
  }

  /** The lines after a hit, which a reader sees in the window it reads around it. */
  after(hit: Hit): string[] {
    return this.lines(hit.path).slice(hit.line, hit.line + 12);
  }

  importsOf(path: string): Import[] {
    const lines = this.lines(path);
    return this.reading.parseImports(lines.slice(0, this.reading.importBlockEnd(lines)).join('\n'));
  }
}

type Solver = (session: BaselineSession, task: Task) => Promise<Answer>;

interface Judged {
  hit: Hit;
  column: number;
  /** Taken for the symbol asked about (or indistinguishable from it). */
  ours: boolean;
  declaration: boolean;
}

/**
 * Every hit of the name, read (import block and ±20 lines per file) and judged: is this occurrence
 * the symbol declared in `home`? The rule (README.md):
 * - in the declaring file: yes;
 * - a top-level symbol elsewhere: yes when the file's imports (for Java also its package, and
 *   java.lang) say the name comes from the declaring file, or from a module that does not itself
 *   declare the name (a barrel: the reader cannot tell which of the same-name symbols it re-exports,
 *   so the hit counts); reached through a namespace (`ns.name`, TypeScript) by the same rule on the
 *   namespace's module; through a package (`java.util.Name`) when the package is the declaring one;
 * - a member elsewhere: yes at every `.name` (the receiver's type is not visible), except, in Java,
 *   after a type name other than the declaring class (`Objects.hash`).
 */
async function judgeHits(session: BaselineSession, task: Task, home: string, hits: Hit[], { around = true } = {}): Promise<Judged[]> {
  const byFile = new Map<string, Hit[]>();
  for (const hit of hits) byFile.set(hit.path, [...(byFile.get(hit.path) ?? []), hit]);
  for (const [path, list] of byFile) session.readAround(path, around ? list.map((h) => h.line) : []);
  const declaringFiles = new Set(hits.filter((h) => session.reading.declaresTopLevel(h.text, task.name)).map((h) => h.path));
  const java = session.corpus.language === 'java';
  const homeClass = basename(home).replace(/\.[^.]+$/, '');
  const homePackage = dirname(home).split('/').slice(1).join('.');
  const comesFromHome = (target: string | undefined) => target === home || target === undefined ? target === home : !declaringFiles.has(target);
  const out: Judged[] = [];
  for (const [path, list] of byFile) {
    const imports = session.importsOf(path);
    for (const hit of list) {
      const next = session.after(hit);
      const columns = occurrences(hit.text, task.name);
      for (const column of columns) {
        const receiver = receiverAt(hit.text, column);
        // A declaration line declares its first occurrence (`int hash = hash(key);` also calls).
        const declaration = receiver === undefined && column === columns[0] && session.declares(hit.text, task.name, next);
        let ours: boolean;
        if (task.member) {
          if (path === home) ours = !session.reading.declaresTopLevel(hit.text, task.name);
          else if (receiver === undefined) ours = false;
          else ours = !(java && /^[A-Z]/.test(receiver) && receiver !== homeClass);
        } else if (path === home) ours = true;
        else if (receiver !== undefined) {
          if (java) ours = hit.text.includes(`${homePackage}.${task.name}`);
          else {
            const ns = imports.find((i) => i.local === receiver && i.imported === '*');
            ours = ns !== undefined && comesFromHome(session.origin(path, receiver));
          }
        } else if (java) ours = session.origin(path, task.name) === home;
        else ours = imports.some((i) => i.local === task.name) && comesFromHome(session.origin(path, task.name));
        out.push({ hit, column, ours, declaration });
      }
    }
  }
  return out;
}

const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

export const SOLVERS: Record<Task['kind'], Solver> = {
  async callers(session, task) {
    const { path } = parsePosition(task.at);
    const judged = await judgeHits(session, task, path, await session.search(task.name));
    return { items: sorted(judged.filter((j) => j.ours && !j.declaration && isCallAt(j.hit.text, j.column, task.name)).map((j) => `${j.hit.path}:${j.hit.line}`)) };
  },

  async 'rename-files'(session, task) {
    const { path } = parsePosition(task.at);
    const judged = await judgeHits(session, task, path, await session.search(task.name));
    return { items: sorted([path, ...judged.filter((j) => j.ours).map((j) => j.hit.path)]) };
  },

  async 'used-outside-tests'(session, task) {
    const { path, line } = parsePosition(task.at);
    const judged = await judgeHits(session, task, path, await session.search(task.name));
    const used = judged.some((j) => j.ours && !TEST_PATH.test(j.hit.path) && !(j.hit.path === path && j.hit.line === line)
      && !j.declaration && !isImportOrExportLine(j.hit.text));
    return { items: [used ? 'yes' : 'no'] };
  },

  async implementations(session, task) {
    // Search the heritage clauses naming the type (`extends|implements ... Name`), read each file's
    // import block and each clause's header, take the classes they belong to, then search for each
    // of those (and each interface extending it) in turn, as a reader follows subclasses.
    const { path } = parsePosition(task.at);
    const classes = new Set<string>();
    const queue: { name: string; home: string }[] = [{ name: task.name, home: path }];
    const done = new Set<string>();
    while (queue.length) {
      const type = queue.shift()!;
      if (done.has(`${type.home}#${type.name}`)) continue;
      done.add(`${type.home}#${type.name}`);
      const hits = await session.search(`(?:extends|implements)\\b[^{]*(?<![\\w$])${literal(type.name)}(?![\\w$])`, { word: false, pcre: true });
      // A heritage clause is read in its header (the hit's line and up to 3 above), not ±20 lines.
      const judged = await judgeHits(session, { ...task, name: type.name, member: false }, type.home, hits, { around: false });
      for (const j of judged) {
        if (!j.ours) continue;
        session.read(j.hit.path, Math.max(1, j.hit.line - 3), j.hit.line);
        const header = heritageHeader(session.lines(j.hit.path), j.hit.line);
        if (!header || !new RegExp(`\\b(?:extends|implements)\\b[^{]*(?<![\\w$])${type.name}(?![\\w$])`).test(withoutTypeArguments(header.text))) continue;
        if (header.kind === 'class') classes.add(`${j.hit.path}#${header.name}`);
        queue.push({ name: header.name, home: j.hit.path });
      }
    }
    return { items: sorted(classes) };
  },

  async callees(session, task) {
    // Read the declaration's body, list what it calls, then one search for where those names are
    // declared; each call is given to the declaration its receiver or the file's imports point at,
    // else to every declaration of the name (a call on a variable: the reader cannot tell).
    const { path, line } = parsePosition(task.at);
    const lines = session.lines(path);
    const [from, to] = declarationRange(lines, line);
    session.readAround(path, []);
    session.read(path, from, to);
    const body = lines.slice(from - 1, to).join('\n');
    const called = calledNames(body.slice(body.indexOf(task.name) + task.name.length));
    if (called.length === 0) return { items: [] };
    const hits = await session.search(session.reading.declarationPattern([...new Set(called.map((c) => c.name))]), { word: false, pcre: true });
    const items: string[] = [];
    for (const call of called) {
      const declaring = sorted(hits.filter((h) => session.declares(h.text, call.name, session.after(h))).map((h) => h.path));
      if (declaring.length === 0) continue; // declared nowhere in the corpus: the standard library or a dependency
      const pointed = call.member ? undefined
        : call.receiver === undefined ? (declaring.includes(path) ? path : session.origin(path, call.name))
        : call.receiver === 'this' || call.receiver === 'super' ? path
        : session.origin(path, call.receiver);
      for (const p of pointed && declaring.includes(pointed) ? [pointed] : declaring) items.push(`${call.name}@${p}`);
    }
    return { items: sorted(items) };
  },

  async overload(session, task) {
    const { path, line, column } = parsePosition(task.at);
    session.readAround(path, [line]);
    const site = session.lines(path).slice(line - 1, line + WINDOW).join('\n');
    const args = parenthesized(site, column - 1 + task.name.length);
    const count = args === undefined ? 0 : topLevelParts(args).length;
    const candidates = await declarationsFor(session, task, path, line, column);
    const signatures = candidates.filter((c) => !c.implementation);
    const fitting = (signatures.length ? signatures : candidates).filter((c) => c.arity.min <= count && count <= c.arity.max);
    return { items: sorted(fitting.map((c) => `${c.path}:${c.line}`)), note: `${count} arguments; ${candidates.length} declarations` };
  },

  async definition(session, task) {
    const { path, line, column } = parsePosition(task.at);
    session.readAround(path, [line]);
    const candidates = await declarationsFor(session, task, path, line, column);
    return { items: sorted(candidates.map((c) => `${c.path}:${c.line}`)) };
  },
};

interface Declaration {
  path: string;
  line: number;
  /** The body of an overloaded function (after its signatures). */
  implementation: boolean;
  arity: { min: number; max: number };
}

/**
 * Where the name at a use site is declared, as a reader finds it: a declaration visible in the
 * window above it in the same file; else, after one search for the name, the declarations in the
 * file its receiver or the imports point at (`ns.name`, `Type.name`, an imported name, an
 * unqualified name in its own file); else every declaration of the name the search finds (a call
 * on a variable: every member of that name). At a call, a member declaration without parameters
 * (a field) is not a candidate. Each candidate file's declarations are read.
 */
async function declarationsFor(session: BaselineSession, task: Task, path: string, line: number, column: number): Promise<Declaration[]> {
  const r = session.reading;
  const lines = session.lines(path);
  const text = lines[line - 1]!;
  const receiver = receiverAt(text, column - 1);
  const called = isCallAt(text, column - 1, task.name);
  // The declared name is the line's first occurrence; with parameters after it, it is a method.
  const takesParameters = (t: string) => isCallAt(t, occurrences(t, task.name)[0] ?? 0, task.name);
  const declaresHere = (t: string, next: string[]) => r.declaresTopLevel(t, task.name) || r.declaresMember(t, task.name, next) && (!called || takesParameters(t));
  const imported = session.importsOf(path).some((i) => i.local === task.name);
  if (receiver === undefined && !imported) {
    const above = lines.slice(Math.max(0, line - 1 - WINDOW), line - 1).map((t, i) => ({ t, n: Math.max(1, line - WINDOW) + i }));
    const local = above.filter(({ t, n }) => declaresHere(t, lines.slice(n, n + 12)));
    if (local.length) return [toDeclaration(session, path, local.at(-1)!.n, task.name)];
  }
  const hits = await session.search(task.name);
  const declarationHits = hits.filter((h) => declaresHere(h.text, session.after(h)));
  const target = receiver === undefined ? (imported ? session.origin(path, task.name) : path)
    : receiver === 'this' || receiver === 'super' ? path
    : session.corpus.language === 'java' && !/^[A-Z]/.test(receiver) ? undefined
    : session.origin(path, receiver);
  const there = declarationHits.filter((h) => h.path === target);
  const chosen = there.length ? there
    : receiver === undefined && session.corpus.language === 'typescript' ? declarationHits.filter((h) => r.declaresTopLevel(h.text, task.name))
    : declarationHits;
  const byFile = new Map<string, number[]>();
  for (const h of chosen) byFile.set(h.path, [...(byFile.get(h.path) ?? []), h.line]);
  for (const [file, at] of byFile) session.readAround(file, at);
  const out = chosen.map((h) => toDeclaration(session, h.path, h.line, task.name));
  // TypeScript overloads: signatures, then the implementation (the last of a run in one file, with
  // a body), which a call never resolves to.
  if (session.corpus.language === 'typescript') {
    for (const [file] of byFile) {
      const inFile = out.filter((d) => d.path === file);
      if (inFile.length > 1) {
        const last = inFile.at(-1)!;
        if (!/;\s*$/.test(session.lines(file)[last.line - 1]!)) last.implementation = true;
      }
    }
  }
  return out;
}

function toDeclaration(session: BaselineSession, path: string, line: number, name: string): Declaration {
  const text = session.lines(path).slice(line - 1, line + WINDOW).join('\n');
  const at = occurrences(text, name)[0] ?? 0;
  const params = parenthesized(text, at + name.length);
  return { path, line, implementation: false, arity: params === undefined ? { min: 0, max: Infinity } : arityOf(params) };
}

/** The class or interface header a heritage-clause hit belongs to: the hit's line or up to 3 lines above, with its name. */
function heritageHeader(lines: string[], line: number): { kind: 'class' | 'interface'; name: string; text: string } | undefined {
  for (let start = line; start >= Math.max(1, line - 3); start--) {
    // `class extends Base` (a class expression) has no name: `extends` is not one.
    const m = /\b(class|interface)\s+(?!extends\b|implements\b)([\w$]+)/.exec(lines[start - 1]!);
    if (m) {
      const text = lines.slice(start - 1, line).join(' ');
      if (start < line && text.includes('{') && text.indexOf('{') < text.length - 1 - lines[line - 1]!.length) return undefined;
      return { kind: m[1] as 'class' | 'interface', name: m[2]!, text };
    }
  }
  return undefined;
}
