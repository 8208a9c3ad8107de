// Matching and scoring of the JVM accuracy bench (jvm-accuracy.ts), apart from the compilers and
// the index so a test can check them: the oracles' output format, which oracle judges a
// reference, recall and precision per language of the referencing file, and a guess at the cause
// of each miss from the syntax at the site.
//
// A reference is judged by the compiler that reads the referencing file: javac for .java files,
// kotlinc for .kt files. javac never sees Kotlin declarations, so a reference from a .java file to
// a Kotlin declaration is unscored; so is a reference at a site where the judge resolves nothing
// (a missing library), and one in a file no oracle reads (.kts, or .kt when kotlinc did not run).

export type JvmLanguage = 'java' | 'kotlin';
export type OracleName = 'javac' | 'kotlinc';

export interface Site {
  path: string;
  line: number;
  column: number;
}

export const siteKey = (s: Site): string => `${s.path}:${s.line}:${s.column}`;

export interface OracleDeclaration extends Site {
  kind: string;
  name: string;
  lang: JvmLanguage;
}

/** What one compiler resolved over a corpus: declarations and the references to each, by the declaration's site key. */
export interface OracleRun {
  name: OracleName;
  declarations: Map<string, OracleDeclaration>;
  references: Map<string, Site[]>;
  /** Site keys of names the compiler attributed to nothing (an unknown library type, a syntax error). */
  unresolved: Set<string>;
}

/** The language of a file as the oracles split them; undefined for files neither compiler reads (.kts, .gradle). */
export function fileLanguage(path: string): JvmLanguage | undefined {
  if (path.endsWith('.java')) return 'java';
  if (path.endsWith('.kt')) return 'kotlin';
  return undefined;
}

export const ORACLE_OF: Record<JvmLanguage, OracleName> = { java: 'javac', kotlin: 'kotlinc' };

/**
 * Parses an oracle's output (both oracles write the same shape, tab-separated, 1-based, UTF-16
 * columns): `D id kind name path line column` a declaration at its name, `R id path line column` a
 * reference to declaration `id` at the name used, `U path line column` a name attributed to nothing.
 */
export function parseOracleOutput(name: OracleName, text: string): OracleRun {
  const declarations = new Map<string, OracleDeclaration>();
  const byId = new Map<string, string>();
  const references = new Map<string, Site[]>();
  const unresolved = new Set<string>();
  for (const row of text.split('\n')) {
    if (!row) continue;
    const f = row.split('\t');
    if (f[0] === 'D') {
      const decl: OracleDeclaration = { kind: f[2]!, name: f[3]!, path: f[4]!, line: Number(f[5]), column: Number(f[6]), lang: fileLanguage(f[4]!) ?? 'java' };
      const key = siteKey(decl);
      byId.set(f[1]!, key);
      if (!declarations.has(key)) declarations.set(key, decl);
    } else if (f[0] === 'R') {
      const target = byId.get(f[1]!);
      if (target === undefined) throw new Error(`${name} output: reference to undeclared id ${f[1]} (${row})`);
      const list = references.get(target) ?? references.set(target, []).get(target)!;
      list.push({ path: f[2]!, line: Number(f[3]), column: Number(f[4]) });
    } else if (f[0] === 'U') {
      unresolved.add(`${f[1]}:${f[2]}:${f[3]}`);
    } else throw new Error(`${name} output: unknown row ${JSON.stringify(row.slice(0, 80))}`);
  }
  // One site is one reference, however many times a compiler's trees name it (`new Foo()` names
  // the class and its constructor at one place, each once).
  for (const [key, list] of references) references.set(key, [...new Map(list.map((s) => [siteKey(s), s])).values()]);
  return { name, declarations, references, unresolved };
}

/** Why a reference of ours is not scored. */
export type UnscoredReason = 'no oracle reads the file' | 'javac does not see Kotlin declarations' | 'the oracle resolves nothing here' | 'the oracle did not run';

/** Which oracle judges a reference from `sitePath` to a declaration in `declLang`, or why none does. */
export function judgeOf(sitePath: string, declLang: JvmLanguage, oracles: ReadonlyMap<OracleName, OracleRun>): { oracle: OracleRun; lang: JvmLanguage } | { unscored: UnscoredReason } {
  const lang = fileLanguage(sitePath);
  if (!lang) return { unscored: 'no oracle reads the file' };
  if (lang === 'java' && declLang === 'kotlin') return { unscored: 'javac does not see Kotlin declarations' };
  const oracle = oracles.get(ORACLE_OF[lang]);
  if (!oracle) return { unscored: 'the oracle did not run' };
  return { oracle, lang };
}

export interface OurReference extends Site {
  confidence: string;
}

export interface Tally {
  oracle: number;
  ours: number;
  both: number;
}

export interface Judged {
  /** By `${siteLang}/${declLang}`: counts at the default confidence and with candidates. */
  tallies: Map<string, { resolved: Tally; withCandidates: Tally }>;
  missing: Site[];
  /** Ours, not the oracle's; `candidate` marks those only the candidate pass adds. */
  extra: (Site & { candidate: boolean })[];
  unscored: (Site & { reason: UnscoredReason })[];
}

export const bucketOf = (siteLang: JvmLanguage, declLang: JvmLanguage): string => `${siteLang}/${declLang}`;

/**
 * Scores one declaration: the oracles' references to it against ours. `ours` holds every
 * reference at candidate confidence or better; the default answer is those that are not
 * candidates. Recall counts the oracle's references; precision ours that an oracle judges.
 */
export function scoreDeclaration(decl: OracleDeclaration, ours: readonly OurReference[], oracles: ReadonlyMap<OracleName, OracleRun>): Judged {
  const key = siteKey(decl);
  const tallies = new Map<string, { resolved: Tally; withCandidates: Tally }>();
  const tally = (siteLang: JvmLanguage) => {
    const bucket = bucketOf(siteLang, decl.lang);
    return tallies.get(bucket) ?? tallies.set(bucket, { resolved: { oracle: 0, ours: 0, both: 0 }, withCandidates: { oracle: 0, ours: 0, both: 0 } }).get(bucket)!;
  };
  const theirs = new Set<string>();
  for (const oracle of oracles.values()) {
    for (const site of oracle.references.get(key) ?? []) {
      const judge = judgeOf(site.path, decl.lang, oracles);
      // An oracle's reference in a file another oracle judges (none today) would be double counted.
      if ('unscored' in judge || judge.oracle !== oracle) continue;
      theirs.add(siteKey(site));
      const t = tally(judge.lang);
      t.resolved.oracle++;
      t.withCandidates.oracle++;
    }
  }
  const judged: Judged = { tallies, missing: [], extra: [], unscored: [] };
  const found = new Set<string>();
  for (const ref of ours) {
    const site = { path: ref.path, line: ref.line, column: ref.column };
    const judge = judgeOf(ref.path, decl.lang, oracles);
    if ('unscored' in judge) {
      judged.unscored.push({ ...site, reason: judge.unscored });
      continue;
    }
    const hit = theirs.has(siteKey(site));
    if (!hit && judge.oracle.unresolved.has(siteKey(site))) {
      judged.unscored.push({ ...site, reason: 'the oracle resolves nothing here' });
      continue;
    }
    const candidate = ref.confidence === 'candidate';
    const t = tally(judge.lang);
    t.withCandidates.ours++;
    if (!candidate) t.resolved.ours++;
    if (hit) {
      t.withCandidates.both++;
      if (!candidate) {
        t.resolved.both++;
        found.add(siteKey(site));
      }
    } else judged.extra.push({ ...site, candidate });
  }
  for (const oracle of oracles.values()) {
    for (const site of oracle.references.get(key) ?? []) if (theirs.has(siteKey(site)) && !found.has(siteKey(site))) judged.missing.push(site);
  }
  judged.missing = [...new Map(judged.missing.map((s) => [siteKey(s), s])).values()];
  return judged;
}

/** Adds `from` into `into`, bucket by bucket. */
export function addTallies(into: Map<string, { resolved: Tally; withCandidates: Tally }>, from: ReadonlyMap<string, { resolved: Tally; withCandidates: Tally }>): void {
  for (const [bucket, t] of from) {
    const sum = into.get(bucket) ?? into.set(bucket, { resolved: { oracle: 0, ours: 0, both: 0 }, withCandidates: { oracle: 0, ours: 0, both: 0 } }).get(bucket)!;
    for (const level of ['resolved', 'withCandidates'] as const) {
      sum[level].oracle += t[level].oracle;
      sum[level].ours += t[level].ours;
      sum[level].both += t[level].both;
    }
  }
}

export const recallOf = (t: Tally): number => (t.oracle ? t.both / t.oracle : 1);
export const precisionOf = (t: Tally): number => (t.ours ? t.both / t.ours : 1);

/**
 * A guess at why a reference differs, from the text of its line around the name at `column`
 * (1-based, UTF-16, as JavaScript strings index): the kind of site, for grouping the work list.
 * A guess only: the fix is decided by reading the site.
 */
export function guessCause(lineText: string, column: number, lang: JvmLanguage | undefined): string {
  const start = column - 1;
  const name = /^[\p{L}\p{N}_$]*/u.exec(lineText.slice(start))?.[0] ?? '';
  const before = lineText.slice(0, start);
  const after = lineText.slice(start + name.length);
  const trimmedBefore = before.trimEnd();
  if (/^\s*(\*|\/\/|\/\*)/.test(before)) return 'in a comment';
  if (/^\s*import\s/.test(before)) return 'import';
  if (/^\s*package\s/.test(before)) return 'package';
  if (lang === 'kotlin' && /\$\{?$/.test(before)) return 'string template';
  if (/@$/.test(before)) return 'annotation';
  if (/::$/.test(trimmedBefore)) return name === 'new' ? 'constructor reference (::new)' : 'method or property reference (::name)';
  if (/\bnew\s+([\w$.]+\.)?$/.test(before)) return 'constructor (new X)';
  if ((name === 'this' || name === 'super') && /^\s*\(/.test(after)) return 'this(…) / super(…) constructor call';
  if (/\bcase\s+$/.test(before) || (/^\s*[\w$.]*$/.test(before) && /^\s*(,\s*[\w$.]+\s*)*->/.test(after) && lang === 'kotlin')) return 'case label / when branch';
  const call = /^\s*(<[^()]*>)?\s*\(/.test(after) || (lang === 'kotlin' && /^\s*\{/.test(after));
  const member = /\.$/.test(trimmedBefore) || /\?\.$/.test(trimmedBefore);
  if (member) {
    const receiver = trimmedBefore.replace(/\??\.$/, '');
    let what: string;
    if (/\)$/.test(receiver)) what = "on a call's result";
    else if (/\]$/.test(receiver)) what = 'on an array element or index';
    else if (/(^|[^\w$])this$/.test(receiver)) what = 'on this';
    else if (/(^|[^\w$])super$/.test(receiver)) what = 'on super';
    else if (lang === 'kotlin' && /(^|[^\w$])it$/.test(receiver)) what = 'on `it`';
    else if (/(^|[^\w$.])[A-Z][\w$]*$/.test(receiver)) what = 'on a type (static or nested)';
    else if (/[\w$]\.[\w$]+$/.test(receiver)) what = 'on a qualified name';
    else if (/[\w$]$/.test(receiver)) what = 'on a variable';
    else what = 'on an expression';
    return `${call ? 'member call' : 'member access'} ${what}`;
  }
  if (call) return /^[A-Z]/.test(name) ? 'constructor call or capitalised function' : 'unqualified call';
  if (lang === 'kotlin' && /:\s*$/.test(before)) return 'type annotation (: Type)';
  if (/\b(extends|implements)\s+([\w$.<>,\s]*,\s*)?$/.test(before) || (lang === 'kotlin' && /^\s*(class|object|interface)\b.*:\s*([\w$.<>(),\s]*,\s*)?$/.test(before))) return 'supertype';
  if (/<\s*([\w$.]+\s*,\s*)*$/.test(before) || /^\s*[<>,]/.test(after) && /^[A-Z]/.test(name)) return 'type argument';
  if (/\(\s*$/.test(before) && /^\s*\)\s*[\w$(]/.test(after)) return 'cast';
  if (/^[A-Z]/.test(name) && /^\s+[\w$]+\s*[=;,)]/.test(after)) return 'type of a declaration';
  if (/^\s*=(?!=)/.test(after) || /^\s*(\+\+|--|[-+*/%&|^]=)/.test(after)) return 'assignment target';
  if (/^\s*(\?\.|!!\.|\.)/.test(after)) return 'receiver of a member access (the name before a dot)';
  return /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant or type name' : 'simple name';
}
