// read_file by symbol over indexes this indexer built: a declaration's lines come from the change
// shard's DeclRecord range plus the doc comment and decorators scanned above it, for TypeScript,
// Java and Kotlin, reached by every target form; plain path reads keep working, with endLine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SextantError } from '@sextant/format';
import { readFile, type IndexReader, type ReadFileAnswer, type ReadFileParams } from '@sextant/query';
import { openFixtureIndex } from './support/fixture-index.ts';

const FIXTURES = new URL('../../test/fixtures/', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sextant-read-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A decorated member, a multi-line decorator, a long function and a call into the standard library. */
const DECORATED = {
  'tsconfig.json': '{ "compilerOptions": { "target": "ES2022", "strict": true, "experimentalDecorators": true, "noEmit": true } }\n',
  'src/widget.ts': `function logged(_target: object, _key: string): void {}
function config(_options: { name: string; tags: string[] }) {
  return (_target: Function) => {};
}

/**
 * A widget.
 */
@config({
  name: 'widget',
  tags: ['a'],
})
export class Widget {
  // The size in pixels.
  size = 1;

  /** Grows the widget. */
  @logged
  grow(by: number): number {
    return Math.max(this.size + by, 0);
  }
}

export function long(): number {
  let n = 0;
${'  n++;\n'.repeat(250)}  return n;
}
`,
};

const indexOf = (dir: string, name: string): Promise<IndexReader> => openFixtureIndex(dir, join(scratch, name));

function write(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'src-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

let overloads: IndexReader;
let jvm: IndexReader;
let decorated: IndexReader;
beforeAll(async () => {
  [overloads, jvm, decorated] = await Promise.all([
    indexOf(join(FIXTURES, 'ts-overloads-merging'), 'overloads'),
    indexOf(join(FIXTURES, 'jvm-shop'), 'jvm'),
    indexOf(write(DECORATED), 'decorated'),
  ]);
}, 120_000);

const text = (answer: ReadFileAnswer) => answer.lines.map((l) => l.text);
const lineNumbers = (answer: ReadFileAnswer) => [answer.lines[0]?.line, answer.lines.at(-1)?.line];

async function failure(reader: IndexReader, params: ReadFileParams): Promise<SextantError> {
  const error = await readFile(reader, params).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SextantError);
  return error as SextantError;
}

describe('read_file by symbol', () => {
  it('reads a TypeScript class with its JSDoc, from every target form', async () => {
    const byName = await readFile(overloads, { qualifiedName: 'src/money.ts:Money' });
    const forms: ReadFileParams[] = [
      { symbolId: byName.symbol!.symbolId },
      { qualifiedName: 'src/money.ts:Money' },
      { path: 'src/money.ts', line: 4, column: 15 },
      { path: 'src/use.ts', line: 5, column: 15 },
    ];
    for (const target of forms) {
      const answer = await readFile(overloads, target);
      expect(answer.symbol!.qualifiedName, JSON.stringify(target)).toBe('Money');
      expect(answer.path).toBe('src/money.ts');
      expect(answer.declaration).toEqual({ startLine: 3, endLine: 28 });
      expect(lineNumbers(answer)).toEqual([3, 28]);
      expect(text(answer)[0]).toBe('/** Cents in one currency. */');
      expect(text(answer).at(-1)).toBe('}');
      expect(answer.hasMore).toBe(false);
    }
    // Of the files declaring Money, the class's (the longest declaration), not the augmentation's; the
    // merged interface, namespace and augmentation are listed, not read.
    expect(byName.otherDeclarations!.map((d) => `${d.path}:${d.line}`)).toEqual(['src/augment.ts:5', 'src/money.ts:31', 'src/money.ts:35']);
    // A position on one of the declarations reads that one.
    const merged = await readFile(overloads, { path: 'src/money.ts', line: 31, column: 18 });
    expect(text(merged)).toEqual(['// Declaration merging: the class, this interface and the namespace are one symbol.', 'export interface Money {', '  currency?: string;', '}']);
  });

  it('reads the first of several overloads and lists the others', async () => {
    const answer = await readFile(overloads, { qualifiedName: 'src/format.ts:format' });
    expect(lineNumbers(answer)).toEqual([1, 2]);
    expect(text(answer)).toEqual(['/** Formats an amount: a string as is, a number with digits. */', 'export function format(value: string): string;']);
    expect(answer.otherDeclarations!.map((d) => `${d.path}:${d.line}`)).toEqual(['src/format.ts:3', 'src/format.ts:4', 'src/format.ts:9']);
    // A position on the implementation reads it (its range from the file's outline).
    const implementation = await readFile(overloads, { path: 'src/format.ts', line: 4, column: 17 });
    expect(lineNumbers(implementation)).toEqual([4, 6]);
    expect(implementation.otherDeclarations!.map((d) => d.line)).toEqual([2, 3, 9]);
  });

  it('reads a unique name', async () => {
    const answer = await readFile(overloads, { name: 'withRate' });
    expect(text(answer)).toEqual([
      'export function withRate(money: Money, rate: number): Money {', '  money.rate = rate;', "  money.currency = 'EUR';", '  return money;', '}',
    ]);
  });

  it('takes decorators and comments above a TypeScript declaration along, a multi-line decorator too', async () => {
    const widget = await readFile(decorated, { name: 'Widget' });
    expect(widget.declaration).toEqual({ startLine: 6, endLine: 22 });
    expect(text(widget).slice(0, 4)).toEqual(['/**', ' * A widget.', ' */', '@config({']);
    const grow = await readFile(decorated, { qualifiedName: 'Widget.grow' });
    expect(text(grow)).toEqual([
      '  /** Grows the widget. */', '  @logged', '  grow(by: number): number {', '    return Math.max(this.size + by, 0);', '  }',
    ]);
    const size = await readFile(decorated, { qualifiedName: 'Widget.size' });
    expect(text(size)).toEqual(['  // The size in pixels.', '  size = 1;']);
  });

  it('reads a Java class with its Javadoc and annotation', async () => {
    const answer = await readFile(jvm, { qualifiedName: 'com.example.core.Order' });
    expect(answer.path).toBe('core/src/main/java/com/example/core/Order.java');
    expect(text(answer).slice(0, 3)).toEqual(['/** An order of a customer. */', '@Audited("orders")', 'public class Order implements Comparable<Order> {']);
    expect(answer.declaration!.startLine).toBe(6);
    expect(text(answer).at(-1)).toBe('}');
  });

  it('reads a Kotlin function with its KDoc', async () => {
    const answer = await readFile(jvm, { path: 'core/src/main/kotlin/com/example/core/Pricing.kt', line: 7, column: 6 });
    expect(answer.symbol!.name).toBe('priceWithTax');
    expect(text(answer)).toEqual([
      "/** The order's total with tax. */",
      'fun priceWithTax(order: Order): Money {',
      '    val total = order.total()',
      '    return total.plus(Money(total.cents() * TAX_RATE / 100, total.currency()))',
      '}',
    ]);
  });

  it('cuts a long declaration at the limit and says where it ends; the cursor continues it', async () => {
    const first = await readFile(decorated, { name: 'long' });
    expect(first.declaration).toEqual({ startLine: 24, endLine: 277 });
    expect(lineNumbers(first)).toEqual([24, 223]);
    expect(first).toMatchObject({ hasMore: true, truncationReason: 'limit 200' });
    const next = await readFile(decorated, { name: 'long', cursor: first.nextCursor });
    expect(lineNumbers(next)).toEqual([224, 277]);
    expect(next.hasMore).toBe(false);
    // The cursor is keyed by the span: the same lines read by path continue it as well.
    const byPath = await readFile(decorated, { path: 'src/widget.ts', startLine: 24, endLine: 277, cursor: first.nextCursor });
    expect(lineNumbers(byPath)).toEqual([224, 277]);
  });

  it('refuses an external symbol, naming its package', async () => {
    const error = await failure(decorated, { path: 'src/widget.ts', line: 20, column: 17 });
    expect(error.code).toBe('FILE_NOT_FOUND');
    expect(error.message).toMatch(/^Math\.max is external: it is declared in typescript@/);
  });

  it('refuses startLine or endLine with a symbol', async () => {
    expect((await failure(overloads, { name: 'withRate', endLine: 12 })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('read_file by path', () => {
  it('reads the file from line 1, or from startLine (or line without column)', async () => {
    const whole = await readFile(overloads, { path: 'src/augment.ts' });
    expect(lineNumbers(whole)).toEqual([1, 15]); // the line after the last line break counts
    expect(whole.symbol).toBeUndefined();
    for (const from of [{ startLine: 10 }, { line: 10 }]) {
      const answer = await readFile(overloads, { path: 'src/augment.ts', ...from, limit: 2 });
      expect(text(answer)).toEqual(['export function withRate(money: Money, rate: number): Money {', '  money.rate = rate;']);
    }
  });

  it('takes endLine as the inclusive last line, and a limit that agrees with it', async () => {
    const answer = await readFile(overloads, { path: 'src/augment.ts', startLine: 3, endLine: 5 });
    expect(lineNumbers(answer)).toEqual([3, 5]);
    expect(answer.hasMore).toBe(false);
    expect(lineNumbers(await readFile(overloads, { path: 'src/augment.ts', startLine: 3, endLine: 5, limit: 3 }))).toEqual([3, 5]);
    // Past the end reads to the end.
    expect(lineNumbers(await readFile(overloads, { path: 'src/augment.ts', startLine: 13, endLine: 99 }))).toEqual([13, 15]);
  });

  it('says what is wrong with endLine, limit and line', async () => {
    const before = await failure(overloads, { path: 'src/augment.ts', startLine: 5, endLine: 4 });
    expect([before.code, before.message]).toEqual(['INVALID_ARGUMENT', 'endLine 4 is before startLine 5.']);
    const disagree = await failure(overloads, { path: 'src/augment.ts', startLine: 3, endLine: 5, limit: 10 });
    expect(disagree.message).toBe('limit 10 and endLine 5 disagree: lines 3-5 are 3 lines.');
    expect((await failure(overloads, { path: 'src/augment.ts', startLine: 3, line: 4 })).code).toBe('INVALID_ARGUMENT');
    expect((await failure(overloads, {})).code).toBe('INVALID_ARGUMENT');
    expect((await failure(overloads, { path: 'src/augment.ts', startLine: 99 })).code).toBe('POSITION_OUT_OF_RANGE');
  });
});
