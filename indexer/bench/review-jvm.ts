// The review benchmark's Java and Kotlin half, on test/fixtures/jvm-shop: a few mutations whose
// broken sites are known by construction (a removed method that is called, an overload added, an
// abstract member added to an interface or abstract class that classes implement), each
// committed on top of the fixture and indexed, then change_impact's broken sites compared with
// that set. Where the mutation and its users are all Java, javac (when installed) is asked too and
// its errors join the set: it must agree with the construction, or the bench says so. kotlinc is
// not used (not installed here), so the Kotlin sites rest on the construction alone.
import { execFile, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { shortCommit } from '@sextant/format';
import { benchGitEnv } from './corpora.ts';
import { build, commitMutant, ensureIndex } from './review-builds.ts';
import { BenchIndexSet } from './review-index-set.ts';
import { covers, scoreDiff, type DiffScore, type Impact, type ImpactSite, type SymbolChange } from './review-scoring.ts';
import type { ToolDefinition } from '@sextant/mcp';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/jvm-shop/', import.meta.url));
const ORDER = 'core/src/main/java/com/example/core/Order.java';
const REPOSITORY = 'core/src/main/java/com/example/core/Repository.java';
const PRICING = 'core/src/main/kotlin/com/example/core/Pricing.kt';
const SERVICE = 'app/src/main/kotlin/com/example/app/OrderService.kt';
const SERVICE_TEST = 'app/src/test/kotlin/com/example/app/OrderServiceTest.kt';
/** The Java files javac can compile without the Kotlin ones. */
const JAVA_ONLY = (path: string) => path.endsWith('.java') && (path.startsWith('core/src/main/java/') || path === 'app/src/main/java/com/example/app/Promotions.java');

interface Site {
  path: string;
  /** Text on the site's line (in the head, first occurrence). */
  marker: string;
}

export interface JvmMutation {
  id: string;
  language: 'java' | 'kotlin';
  kind: 'remove-method' | 'add-overload' | 'add-abstract-member';
  description: string;
  edits: { path: string; find: string; replace: string }[];
  /** The mutated symbol in diff_symbols: its change and aspects, the side it is on, and text on its name's line there. */
  expected: { change: 'added' | 'removed'; aspects: string[]; side: 'base' | 'head'; name: string; path: string; marker: string };
  /** The sites that no longer compile, by construction. */
  broken: Site[];
  /** javac checks the Java files too. */
  javac: boolean;
}

export const JVM_MUTATIONS: JvmMutation[] = [
  {
    id: 'java-remove-called-method', language: 'java', kind: 'remove-method', javac: true,
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
    id: 'java-remove-overload', language: 'java', kind: 'remove-method', javac: true,
    description: 'remove the overload Order.discount(String): the call with a String no longer fits discount(int)',
    edits: [{ path: ORDER, find: '    public void discount(String code) {\n        discount(code.length());\n    }\n\n', replace: '' }],
    expected: { change: 'removed', aspects: [], side: 'base', name: 'discount', path: ORDER, marker: 'public void discount(String code)' },
    broken: [{ path: 'app/src/main/java/com/example/app/Promotions.java', marker: 'order.discount("SPRING")' }],
  },
  {
    id: 'java-add-overload', language: 'java', kind: 'add-overload', javac: true,
    description: 'add Order.discount(long): every call still resolves (10 is an int), nothing breaks',
    edits: [{ path: ORDER, find: '    public void discount(String code) {', replace: '    public void discount(long percent) {\n        discount((int) percent);\n    }\n\n    public void discount(String code) {' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'discount', path: ORDER, marker: 'public void discount(long percent)' },
    broken: [],
  },
  {
    id: 'java-interface-member-added', language: 'java', kind: 'add-abstract-member', javac: true,
    description: 'add void clear() to the interface Repository: InMemoryOrderRepository and the test\'s FakeRepository (through OrderRepository) no longer implement it',
    edits: [{ path: REPOSITORY, find: '    void save(T entity);\n', replace: '    void save(T entity);\n\n    void clear();\n' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'clear', path: REPOSITORY, marker: 'void clear();' },
    broken: [
      { path: 'core/src/main/java/com/example/core/InMemoryOrderRepository.java', marker: 'public class InMemoryOrderRepository' },
      { path: SERVICE_TEST, marker: 'class FakeRepository : OrderRepository' },
    ],
  },
  {
    id: 'kotlin-abstract-member-added', language: 'kotlin', kind: 'add-abstract-member', javac: false,
    description: 'add abstract fun label(): String to the sealed class Discount: Percent and NoDiscount no longer implement it',
    edits: [{ path: PRICING, find: '    abstract fun apply(amount: Long): Long\n', replace: '    abstract fun apply(amount: Long): Long\n    abstract fun label(): String\n' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'label', path: PRICING, marker: 'abstract fun label(): String' },
    broken: [{ path: PRICING, marker: 'data class Percent(' }, { path: PRICING, marker: 'object NoDiscount' }],
  },
  {
    id: 'kotlin-interface-member-added', language: 'kotlin', kind: 'add-abstract-member', javac: false,
    description: 'add fun flush() to the interface Notifier: LoggingNotifier no longer implements it',
    edits: [{ path: SERVICE, find: '    suspend fun notify(order: Order)\n', replace: '    suspend fun notify(order: Order)\n    fun flush()\n' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'flush', path: SERVICE, marker: 'fun flush()' },
    broken: [{ path: SERVICE, marker: 'class LoggingNotifier' }],
  },
  {
    id: 'kotlin-add-overload', language: 'kotlin', kind: 'add-overload', javac: false,
    description: 'add OrderService.describe(order, verbose): the one-argument calls still fit describe(order), nothing breaks',
    edits: [{ path: SERVICE, find: '    fun discounted(', replace: '    fun describe(order: Order, verbose: Boolean): String = if (verbose) describe(order) else order.id\n\n    fun discounted(' }],
    expected: { change: 'added', aspects: [], side: 'head', name: 'describe', path: SERVICE, marker: 'fun describe(order: Order, verbose: Boolean)' },
    broken: [],
  },
  {
    id: 'kotlin-remove-called-method', language: 'kotlin', kind: 'remove-method', javac: false,
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
  /** The sites by construction (lines in the head), and javac's errors when it ran. */
  expectedSites: { path: string; line: number; by: string }[];
  javac?: { errors: { path: string; line: number; message: string }[]; agrees: boolean };
  covered: number;
  brokenSites: ImpactSite[];
  extra: ImpactSite[];
  missed: { path: string; line: number; by: string }[];
  diff?: DiffScore;
  buildSeconds?: number;
  error?: string;
}

export interface JvmBenchResult {
  javac: string | undefined;
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
  const javacVersion = javac();
  log(`jvm-shop@${shortCommit(base)}: ${JVM_MUTATIONS.length} mutations; ${javacVersion ?? 'no javac: the Java sites rest on the construction alone'}`);
  const baseIndex = join(work, 'base');
  if (tools) await ensureIndex(repo, base, baseIndex, 'jvm-shop', log);
  const javaFiles = (await walk(repo)).map((p) => relative(repo, p)).filter(JAVA_ONLY);
  if (javacVersion) {
    const baseErrors = await compileJava(repo, javaFiles, new Map());
    if (baseErrors.length) log(`jvm-shop: javac finds ${baseErrors.length} errors in the base Java files; its answers are not used`);
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
    if (javacVersion && mutation.javac) {
      const errors = await compileJava(repo, javaFiles, texts);
      const javaSites = expectedSites.filter((s) => JAVA_ONLY(s.path));
      const agrees = errors.every((e) => javaSites.some((s) => s.path === e.path && s.line === e.line)) && javaSites.every((s) => errors.some((e) => e.path === s.path && e.line === s.line));
      result.javac = { errors, agrees };
      for (const e of errors) if (!expectedSites.some((s) => s.path === e.path && s.line === e.line)) expectedSites.push({ path: e.path, line: e.line, by: 'javac' });
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
    log(`jvm-shop ${mutation.id}: ${expectedSites.length} sites expected${result.javac ? ` (javac ${result.javac.errors.length} errors, ${result.javac.agrees ? 'agrees' : 'DISAGREES'} with the construction)` : ''}`
      + `${tools && !result.error ? `, ${result.covered} covered, ${result.brokenSites.length} broken (${result.brokenSites.length - result.extra.length} right), diff ${result.diff?.ok ? 'ok' : `WRONG: ${result.diff?.got}`}` : ''}${result.error ? `, ERROR ${result.error.split('\n')[0]}` : ''}`);
    results.push(result);
  }
  return { javac: javacVersion, results };
}

function javac(): string | undefined {
  const probe = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  return probe.status === 0 ? (probe.stdout || probe.stderr).trim() : undefined;
}

/** javac's errors over the Java files, with `texts` replacing some of them; paths repository-relative. */
async function compileJava(repo: string, files: string[], texts: Map<string, string>): Promise<{ path: string; line: number; message: string }[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-javac-'));
  try {
    for (const file of files) {
      await mkdir(join(dir, 'src', file, '..'), { recursive: true });
      await writeFile(join(dir, 'src', file), texts.get(file) ?? await readFile(join(repo, file), 'utf8'));
    }
    const child = spawnSync('javac', ['-proc:none', '-Xmaxerrs', '1000', '-d', join(dir, 'classes'), ...files.map((f) => join(dir, 'src', f))], { encoding: 'utf8' });
    const errors: { path: string; line: number; message: string }[] = [];
    for (const match of child.stderr.matchAll(/^(.+\.java):(\d+): error: (.*)$/gm)) {
      errors.push({ path: relative(join(dir, 'src'), match[1]!), line: Number(match[2]), message: match[3]! });
    }
    return errors;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
