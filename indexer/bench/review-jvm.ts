// The review benchmark's Java and Kotlin half, on test/fixtures/jvm-shop: a few mutations whose
// broken sites are known by construction (a removed method that is called, an overload removed or
// added, an abstract member added to an interface or abstract class that classes implement, a Java
// getter or setter removed that Kotlin uses as a property), each committed on top of the fixture
// and indexed, then change_impact's broken sites compared with that set. javac and kotlinc judge
// every mutation too (jvm-compile-errors.ts: the Kotlin main and test sources, then the Java
// sources against kotlinc's classes): their errors join the set, and the bench says whether they
// agree with the construction. Left out of the compilers' check: UntypedUse.kt, which names a type
// declared nowhere on purpose (the index's name matching is tested on it). Without kotlinc (it is
// fetched from the npm registry) only the Java files that need no Kotlin class are compiled, and
// the output says so.
import { execFile } from 'node:child_process';
import { cp, readFile, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { shortCommit } from '@sextant/format';
import { benchGitEnv } from './corpora.ts';
import { build, commitMutant, ensureIndex } from './review-builds.ts';
import { BenchIndexSet } from './review-index-set.ts';
import { jvmCompilers, treeErrors, type CompileError, type JvmSources } from './jvm-compile-errors.ts';
import { covers, scoreDiff, type DiffScore, type Impact, type ImpactSite, type SymbolChange } from './review-scoring.ts';
import type { ToolDefinition } from '@sextant/mcp';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/jvm-shop/', import.meta.url));
const ORDER = 'core/src/main/java/com/example/core/Order.java';
const REPOSITORY = 'core/src/main/java/com/example/core/Repository.java';
const PRICING = 'core/src/main/kotlin/com/example/core/Pricing.kt';
const SERVICE = 'app/src/main/kotlin/com/example/app/OrderService.kt';
const SERVICE_TEST = 'app/src/test/kotlin/com/example/app/OrderServiceTest.kt';
const PRICING_USE = 'core/src/main/kotlin/com/example/core/Pricing.kt';
/** The Java files javac can compile without the Kotlin ones (when kotlinc is missing). */
const JAVA_ONLY = (path: string) => path.endsWith('.java') && (path.startsWith('core/src/main/java/') || path === 'app/src/main/java/com/example/app/Promotions.java');
/** Sources the compilers do not check: written not to compile (a type declared nowhere, matched by name only). */
const NOT_COMPILED = new Set(['app/src/test/kotlin/com/example/app/UntypedUse.kt']);

interface Site {
  path: string;
  /** Text on the site's line (in the head, first occurrence). */
  marker: string;
}

export interface JvmMutation {
  id: string;
  language: 'java' | 'kotlin';
  kind: 'remove-method' | 'add-overload' | 'add-abstract-member' | 'remove-accessor';
  description: string;
  edits: { path: string; find: string; replace: string }[];
  /** The mutated symbol in diff_symbols: its change and aspects, the side it is on, and text on its name's line there. */
  expected: { change: 'added' | 'removed'; aspects: string[]; side: 'base' | 'head'; name: string; path: string; marker: string };
  /** The sites that no longer compile, by construction. */
  broken: Site[];
}

export const JVM_MUTATIONS: JvmMutation[] = [
  {
    id: 'java-remove-called-method', language: 'java', kind: 'remove-method',
    description: 'remove Order.getStatus() (called from Java, and through the property syntax from Kotlin)',
    edits: [{ path: ORDER, find: '    public Status getStatus() {\n        return status;\n    }\n\n', replace: '' }],
    expected: { change: 'removed', aspects: [], side: 'base', name: 'getStatus', path: ORDER, marker: 'public Status getStatus()' },
    broken: [
      { path: 'core/src/main/java/com/example/core/InMemoryOrderRepository.java', marker: 'order.getStatus() == status' },
      // Kotlin's synthetic property `status` needs the getter; without it the assignment no longer resolves.
      { path: SERVICE, marker: 'order.status = Status.SUBMITTED' },
      { path: SERVICE_TEST, marker: 'saved.filter { it.status == status }' },
    ],
  },
  {
    id: 'java-remove-getter-kotlin-property', language: 'java', kind: 'remove-accessor',
    description: 'remove Order.getLines(), used only from Kotlin as the property `lines` (through an extension\'s receiver): without the getter there is no property',
    edits: [{ path: ORDER, find: '    public List<Line> getLines() {\n        return lines;\n    }\n\n', replace: '' }],
    expected: { change: 'removed', aspects: [], side: 'base', name: 'getLines', path: ORDER, marker: 'public List<Line> getLines()' },
    broken: [{ path: PRICING_USE, marker: 'get() = lines.size' }],
  },
  {
    id: 'java-remove-setter-kotlin-property', language: 'java', kind: 'remove-accessor',
    description: 'remove Order.setStatus(Status): `order.status = …` in Kotlin writes a property that is now read-only',
    edits: [{ path: ORDER, find: '    public void setStatus(Status status) {\n        this.status = status;\n    }\n\n', replace: '' }],
    expected: { change: 'removed', aspects: [], side: 'base', name: 'setStatus', path: ORDER, marker: 'public void setStatus(Status status)' },
    broken: [{ path: SERVICE, marker: 'order.status = Status.SUBMITTED' }],
  },
  {
    id: 'java-remove-overload', language: 'java', kind: 'remove-method',
    description: 'remove the overload Order.discount(String): the call with a String no longer fits discount(int)',
    edits: [{ path: ORDER, find: '    public void discount(String code) {\n        discount(code.length());\n    }\n\n', replace: '' }],
    expected: { change: 'removed', aspects: [], side: 'base', name: 'discount', path: ORDER, marker: 'public void discount(String code)' },
    broken: [{ path: 'app/src/main/java/com/example/app/Promotions.java', marker: 'order.discount("SPRING")' }],
  },
  {
    id: 'java-add-overload', language: 'java', kind: 'add-overload',
    description: 'add Order.discount(long): every call still resolves (10 is an int), nothing breaks',
    edits: [{ path: ORDER, find: '    public void discount(String code) {', replace: '    public void discount(long percent) {\n        discount((int) percent);\n    }\n\n    public void discount(String code) {' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'discount', path: ORDER, marker: 'public void discount(long percent)' },
    broken: [],
  },
  {
    id: 'java-interface-member-added', language: 'java', kind: 'add-abstract-member',
    description: 'add void clear() to the interface Repository: InMemoryOrderRepository and the test\'s FakeRepository (through OrderRepository) no longer implement it',
    edits: [{ path: REPOSITORY, find: '    void save(T entity);\n', replace: '    void save(T entity);\n\n    void clear();\n' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'clear', path: REPOSITORY, marker: 'void clear();' },
    broken: [
      { path: 'core/src/main/java/com/example/core/InMemoryOrderRepository.java', marker: 'public class InMemoryOrderRepository' },
      { path: SERVICE_TEST, marker: 'class FakeRepository : OrderRepository' },
    ],
  },
  {
    id: 'kotlin-abstract-member-added', language: 'kotlin', kind: 'add-abstract-member',
    description: 'add abstract fun label(): String to the sealed class Discount: Percent and NoDiscount no longer implement it',
    edits: [{ path: PRICING, find: '    abstract fun apply(amount: Long): Long\n', replace: '    abstract fun apply(amount: Long): Long\n    abstract fun label(): String\n' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'label', path: PRICING, marker: 'abstract fun label(): String' },
    broken: [{ path: PRICING, marker: 'data class Percent(' }, { path: PRICING, marker: 'object NoDiscount' }],
  },
  {
    id: 'kotlin-interface-member-added', language: 'kotlin', kind: 'add-abstract-member',
    description: 'add fun flush() to the interface Notifier: LoggingNotifier no longer implements it',
    edits: [{ path: SERVICE, find: '    suspend fun notify(order: Order)\n', replace: '    suspend fun notify(order: Order)\n    fun flush()\n' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'flush', path: SERVICE, marker: 'fun flush()' },
    broken: [{ path: SERVICE, marker: 'class LoggingNotifier' }],
  },
  {
    id: 'kotlin-add-overload', language: 'kotlin', kind: 'add-overload',
    description: 'add OrderService.describe(order, verbose): the one-argument calls still fit describe(order), nothing breaks',
    edits: [{ path: SERVICE, find: '    fun discounted(', replace: '    fun describe(order: Order, verbose: Boolean): String = if (verbose) describe(order) else order.id\n\n    fun discounted(' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'describe', path: SERVICE, marker: 'fun describe(order: Order, verbose: Boolean)' },
    broken: [],
  },
  {
    id: 'kotlin-remove-called-method', language: 'kotlin', kind: 'remove-method',
    description: 'remove OrderService.describe (called from Java in Checkout and from the Kotlin test)',
    edits: [{ path: SERVICE, find: '    fun describe(order: Order): String = Formatter.format(priceWithTax(order))\n\n', replace: '' }],
    expected: { change: 'removed', aspects: [], side: 'base', name: 'describe', path: SERVICE, marker: 'fun describe(order: Order)' },
    broken: [
      { path: 'app/src/main/java/com/example/app/Checkout.java', marker: 'fresh.describe(order)' },
      { path: SERVICE_TEST, marker: 'service.describe(Order("a"))' },
    ],
  },
];

export interface JvmResult {
  mutation: Omit<JvmMutation, 'broken'>;
  /** The sites by construction (lines in the head), and the compilers' errors where they ran. */
  expectedSites: { path: string; line: number; by: string }[];
  /** The compilers' errors (javac's and kotlinc's) and whether they agree with the construction. */
  compilers?: { errors: CompileError[]; agrees: boolean; note?: string };
  covered: number;
  brokenSites: ImpactSite[];
  extra: ImpactSite[];
  missed: { path: string; line: number; by: string }[];
  diff?: DiffScore;
  buildSeconds?: number;
  error?: string;
}

export interface JvmBenchResult {
  /** The compilers that judged the mutations (`javac 17.0.15 and kotlinc 2.4.20 …`), undefined when none did. */
  judges: string | undefined;
  results: JvmResult[];
}

export async function benchJvm(work: string, tools: { diff: ToolDefinition; impact: ToolDefinition } | undefined, log: (line: string) => void): Promise<JvmBenchResult> {
  const repo = join(work, 'repo');
  await rm(repo, { recursive: true, force: true });
  await cp(FIXTURE, repo, { recursive: true });
  const git = (args: string[]) => run('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: repo, env: { ...process.env, ...benchGitEnv() } });
  await git(['init', '-q', '-b', 'main']);
  await git(['add', '-A']);
  await git(['commit', '-q', '--no-verify', '-m', 'jvm-shop fixture']);
  const base = (await git(['rev-parse', 'HEAD'])).stdout.trim();
  const compilers = await jvmCompilers(log);
  const files = (await walk(repo)).map((p) => relative(repo, p));
  // Without kotlinc, javac compiles only the Java files that need no Kotlin class.
  const sources: JvmSources = compilers.kotlinc
    ? {
      java: files.filter((f) => f.endsWith('.java')),
      kotlinMain: files.filter((f) => f.endsWith('.kt') && f.includes('/src/main/')),
      kotlinTest: files.filter((f) => f.endsWith('.kt') && !f.includes('/src/main/') && !NOT_COMPILED.has(f)),
    }
    : { java: compilers.javac ? files.filter(JAVA_ONLY) : [], kotlinMain: [], kotlinTest: [] };
  const checked = new Set([...sources.java, ...sources.kotlinMain, ...sources.kotlinTest]);
  const judges = [compilers.javac, compilers.kotlinc?.version].filter(Boolean).join(' and ');
  log(`jvm-shop@${shortCommit(base)}: ${JVM_MUTATIONS.length} mutations; judged by ${judges || 'no compiler'} over ${checked.size} files`
    + `${compilers.missing.length ? `; MISSING ${compilers.missing.join(', ')}: ${compilers.kotlinc ? 'the Java sites' : 'the Kotlin sites and the Java files that use Kotlin'} rest on the construction alone` : ''}`);
  const baseIndex = join(work, 'base');
  if (tools) await ensureIndex(repo, base, baseIndex, 'jvm-shop', log);
  let baseClasses: string | undefined;
  let judged = checked.size > 0;
  if (judged) {
    const baseErrors = await treeErrors(compilers, repo, sources, new Map());
    baseClasses = baseErrors.kotlinClasses;
    if (baseErrors.errors.length) {
      judged = false;
      log(`jvm-shop: the compilers find ${baseErrors.errors.length} errors in the base (${baseErrors.errors.slice(0, 3).map((e) => `${e.path}:${e.line} ${e.message}`).join('; ')}); their answers are not used`);
    }
  }

  const results: JvmResult[] = [];
  for (const mutation of JVM_MUTATIONS) {
    const texts = new Map<string, string>();
    for (const edit of mutation.edits) {
      const text = texts.get(edit.path) ?? await readFile(join(repo, edit.path), 'utf8');
      if (!text.includes(edit.find)) throw new Error(`${mutation.id}: "${edit.find.trim()}" is not in ${edit.path}; the fixture changed, update the mutation`);
      texts.set(edit.path, text.replace(edit.find, edit.replace));
    }
    const headText = async (path: string) => texts.get(path) ?? readFile(join(repo, path), 'utf8');
    const expectedSites: JvmResult['expectedSites'] = [];
    for (const site of mutation.broken) expectedSites.push({ path: site.path, line: lineOfMarker(await headText(site.path), site.marker, site.path), by: 'construction' });
    const { broken: _broken, ...rest } = mutation;
    const result: JvmResult = { mutation: rest, expectedSites, covered: 0, brokenSites: [], extra: [], missed: [] };
    if (judged) {
      const { errors, note } = await treeErrors(compilers, repo, sources, texts, baseClasses);
      const at = (a: { path: string; line: number }, b: { path: string; line: number }) => a.path === b.path && a.line === b.line;
      const judgedSites = expectedSites.filter((s) => checked.has(s.path));
      const agrees = errors.every((e) => judgedSites.some((s) => at(s, e))) && judgedSites.every((s) => errors.some((e) => at(e, s)));
      result.compilers = { errors, agrees, ...(note ? { note } : {}) };
      for (const e of errors) if (!expectedSites.some((s) => at(s, e))) expectedSites.push({ path: e.path, line: e.line, by: e.compiler });
    }
    if (tools) {
      try {
        const head = await commitMutant(repo, base, [...texts].map(([path, text]) => ({ path, text })), `${mutation.id}: ${mutation.description}`);
        const headIndex = join(work, 'mutant');
        await rm(headIndex, { recursive: true, force: true });
        result.buildSeconds = build(repo, head, headIndex, 'jvm-shop');
        const provider = await BenchIndexSet.of([baseIndex, headIndex]);
        const context = { signPlan: async <P>(plan: P) => plan } as never;
        const changes = (await tools.diff.run(provider, { base, head, limit: 1000 } as never, context) as { changes: SymbolChange[] }).changes;
        const impacts = (await tools.impact.run(provider, { base, head, limit: 1000 } as never, context) as { impacts: Impact[] }).impacts;
        const side = mutation.expected.side;
        const nameLine = lineOfMarker(side === 'head' ? await headText(mutation.expected.path) : await readFile(join(repo, mutation.expected.path), 'utf8'), mutation.expected.marker, mutation.expected.path);
        result.diff = scoreDiff(changes, mutation.expected.path, { ...mutation.expected, line: nameLine });
        result.brokenSites = impacts.flatMap((i) => i.sites).filter((s) => s.status === 'broken');
        const asDiagnostic = (s: { path: string; line: number }) => ({ path: s.path, line: s.line, endLine: s.line });
        result.missed = expectedSites.filter((s) => !result.brokenSites.some((b) => covers(b, asDiagnostic(s))));
        result.covered = expectedSites.length - result.missed.length;
        result.extra = result.brokenSites.filter((b) => !expectedSites.some((s) => covers(b, asDiagnostic(s))));
      } catch (error) {
        result.error = String((error as Error).stack ?? error).slice(0, 2000);
      }
    }
    const count = (compiler: CompileError['compiler']) => result.compilers?.errors.filter((e) => e.compiler === compiler).length ?? 0;
    log(`jvm-shop ${mutation.id}: ${expectedSites.length} sites expected${result.compilers ? ` (javac ${count('javac')} errors, kotlinc ${count('kotlinc')}: ${result.compilers.agrees ? 'agree' : 'DISAGREE'} with the construction${result.compilers.note ? `; ${result.compilers.note}` : ''})` : ''}`
      + `${tools && !result.error ? `, ${result.covered} covered, ${result.brokenSites.length} broken (${result.brokenSites.length - result.extra.length} right), diff ${result.diff?.ok ? 'ok' : `WRONG: ${result.diff?.got}`}` : ''}${result.error ? `, ERROR ${result.error.split('\n')[0]}` : ''}`);
    results.push(result);
  }
  log(renderCompilers(results, judges));
  return { judges: judged ? `${judges}${compilers.kotlinc ? ', Kotlin sites too' : ''}` : undefined, results };
}

/** Per mutation, what the compilers said and whether it is what the construction says. */
function renderCompilers(results: JvmResult[], judges: string): string {
  const lines = [`jvm-shop: the compilers' verdict (${judges || 'none ran'})`, '', '| mutation | by construction | javac errors | kotlinc errors | compilers agree |', '| --- | --- | --- | --- | --- |'];
  for (const r of results) {
    const c = r.compilers;
    const count = (compiler: CompileError['compiler']) => (c ? String(c.errors.filter((e) => e.compiler === compiler).length) : '-');
    const construction = r.expectedSites.filter((s) => s.by === 'construction').length;
    lines.push(`| ${r.mutation.id} | ${construction} | ${count('javac')} | ${count('kotlinc')} | ${c ? (c.agrees ? 'yes' : `NO: ${c.errors.map((e) => `${e.path}:${e.line} ${e.message}`).join('; ')}`) : '-'}${c?.note ? ` (${c.note})` : ''} |`);
  }
  return lines.join('\n');
}

function lineOfMarker(text: string, marker: string, path: string): number {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`"${marker}" is not in ${path}; the fixture changed, update the mutation`);
  return text.slice(0, at).split('\n').length;
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await walk(path));
    else out.push(path);
  }
  return out;
}
