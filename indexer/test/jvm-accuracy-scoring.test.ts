// The JVM accuracy bench's matching and scoring (bench/jvm-accuracy-scoring.ts): which compiler
// judges a reference, what is left unscored, recall and precision at both confidences, and the
// guessed causes. The compilers themselves run only in the bench.
import { describe, expect, it } from 'vitest';
import {
  guessCause, judgeOf, parseOracleOutput, precisionOf, recallOf, scoreDeclaration, type OracleName, type OracleRun,
} from '../bench/jvm-accuracy-scoring.ts';

const JAVAC = [
  'D\t0\tclass\tOrder\tcore/Order.java\t3\t14',
  'D\t1\tconstructor\tOrder\tcore/Order.java\t5\t12',
  'D\t2\tmethod\ttotal\tcore/Order.java\t9\t17',
  'R\t0\tapp/Checkout.java\t7\t13',
  'R\t1\tapp/Checkout.java\t7\t13',
  'R\t2\tapp/Checkout.java\t8\t15',
  'R\t2\tapp/Checkout.java\t8\t15',
  'R\t2\tapp/Checkout.java\t9\t15',
  'U\tapp/Checkout.java\t10\t20',
].join('\n');

const KOTLINC = [
  'D\t7\tmethod\ttotal\tcore/Order.java\t9\t17',
  'D\t8\tfunction\tprice\tcore/Pricing.kt\t4\t5',
  'R\t7\tapp/Service.kt\t12\t19',
  'R\t8\tapp/Service.kt\t13\t9',
].join('\n');

const oracles = (...runs: OracleRun[]) => new Map<OracleName, OracleRun>(runs.map((r) => [r.name, r]));

describe('parseOracleOutput', () => {
  it('keys declarations by their name position, references by the declaration, one per site', () => {
    const run = parseOracleOutput('javac', JAVAC);
    expect([...run.declarations.keys()]).toEqual(['core/Order.java:3:14', 'core/Order.java:5:12', 'core/Order.java:9:17']);
    expect(run.references.get('core/Order.java:9:17')).toEqual([{ path: 'app/Checkout.java', line: 8, column: 15 }, { path: 'app/Checkout.java', line: 9, column: 15 }]);
    expect(run.unresolved).toEqual(new Set(['app/Checkout.java:10:20']));
  });

  it('rejects a reference to an id it never declared', () => {
    expect(() => parseOracleOutput('javac', 'R\t3\ta.java\t1\t1')).toThrow(/undeclared id 3/);
  });
});

describe('judgeOf', () => {
  const both = oracles(parseOracleOutput('javac', JAVAC), parseOracleOutput('kotlinc', KOTLINC));
  it('gives .java sites to javac and .kt sites to kotlinc', () => {
    expect(judgeOf('a/B.java', 'java', both)).toMatchObject({ lang: 'java', oracle: { name: 'javac' } });
    expect(judgeOf('a/B.kt', 'java', both)).toMatchObject({ lang: 'kotlin', oracle: { name: 'kotlinc' } });
  });
  it('leaves Java sites of Kotlin declarations, scripts and absent oracles unscored', () => {
    expect(judgeOf('a/B.java', 'kotlin', both)).toEqual({ unscored: 'javac does not see Kotlin declarations' });
    expect(judgeOf('build.gradle.kts', 'kotlin', both)).toEqual({ unscored: 'no oracle reads the file' });
    expect(judgeOf('a/B.kt', 'java', oracles(parseOracleOutput('javac', JAVAC)))).toEqual({ unscored: 'the oracle did not run' });
  });
});

describe('scoreDeclaration', () => {
  const javac = parseOracleOutput('javac', JAVAC);
  const kotlinc = parseOracleOutput('kotlinc', KOTLINC);
  const total = javac.declarations.get('core/Order.java:9:17')!;

  it('scores each site against the compiler of its file, candidates apart', () => {
    const judged = scoreDeclaration(total, [
      { path: 'app/Checkout.java', line: 8, column: 15, confidence: 'resolved' },
      { path: 'app/Checkout.java', line: 11, column: 3, confidence: 'resolved' }, // javac: not this one
      { path: 'app/Checkout.java', line: 9, column: 15, confidence: 'candidate' },
      { path: 'app/Checkout.java', line: 10, column: 20, confidence: 'resolved' }, // javac resolves nothing there
      { path: 'app/Service.kt', line: 12, column: 19, confidence: 'exact' },
    ], oracles(javac, kotlinc));
    const java = judged.tallies.get('java/java')!;
    expect(java.resolved).toEqual({ oracle: 2, ours: 2, both: 1 });
    expect(java.withCandidates).toEqual({ oracle: 2, ours: 3, both: 2 });
    expect(recallOf(java.resolved)).toBe(0.5);
    expect(precisionOf(java.withCandidates)).toBeCloseTo(2 / 3);
    expect(judged.tallies.get('kotlin/java')!.resolved).toEqual({ oracle: 1, ours: 1, both: 1 });
    expect(judged.missing).toEqual([{ path: 'app/Checkout.java', line: 9, column: 15 }]);
    expect(judged.extra).toEqual([{ path: 'app/Checkout.java', line: 11, column: 3, candidate: false }]);
    expect(judged.unscored).toEqual([{ path: 'app/Checkout.java', line: 10, column: 20, reason: 'the oracle resolves nothing here' }]);
  });

  it('counts a missed Kotlin site when only kotlinc has it', () => {
    const price = kotlinc.declarations.get('core/Pricing.kt:4:5')!;
    const judged = scoreDeclaration(price, [{ path: 'app/Promo.java', line: 2, column: 2, confidence: 'resolved' }], oracles(javac, kotlinc));
    expect(judged.tallies.get('kotlin/kotlin')!.resolved).toEqual({ oracle: 1, ours: 0, both: 0 });
    expect(judged.unscored.map((u) => u.reason)).toEqual(['javac does not see Kotlin declarations']);
  });
});

describe('guessCause', () => {
  const at = (line: string, name: string, lang: 'java' | 'kotlin' = 'java') => guessCause(line, line.indexOf(name) + 1, lang);
  it('names the kind of site', () => {
    expect(at('    long c = new Percent(10).apply(order.total().cents());', 'cents')).toBe("member call on a call's result");
    expect(at('    Order o = new Order(id);', 'Order(')).toBe('constructor (new X)');
    expect(at('import com.example.core.Order;', 'Order')).toBe('import');
    expect(at('    list.forEach(Order::total);', 'total')).toBe('method or property reference (::name)');
    expect(at('      case PAID:', 'PAID')).toBe('case label / when branch');
    expect(at('    val s = "sum: ${order.total}"', 'total', 'kotlin')).toBe('member access on a variable');
    expect(at('    val s = "sum: $total"', 'total', 'kotlin')).toBe('string template');
    expect(at('    items.map { it.price }', 'price', 'kotlin')).toBe('member access on `it`');
    expect(at('class DiffBuilder<T> implements Builder<DiffResult<T>> {', 'Builder<D')).toBe('supertype');
    expect(at('    super(name);', 'super')).toBe('this(…) / super(…) constructor call');
    expect(at('    super.invalidate()', 'super', 'kotlin')).toBe('receiver of a member access (the name before a dot)');
    expect(at('    if (UNSAFE.shouldBeInitialized(type))', 'UNSAFE')).toBe('receiver of a member access (the name before a dot)');
  });
});
