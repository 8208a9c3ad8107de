import { describe, expect, it } from 'vitest';
import {
  arityOf, calledNames, declarationRange, declaresMember, declaresTopLevel, importBlockEnd, isCallAt, javaDeclaresMember, javaDeclaresType,
  javaImportBlockEnd, javaTypeOrigin, mergeRanges, parseImports, parseJavaImports, receiverAt, resolveSpecifier, topLevelParts, windowsOf,
  withoutTypeArguments,
} from './baseline-rules.ts';

describe('TypeScript reading rules', () => {
  const file = [
    '/** header */',
    "import { a, b as c, type T } from './x';",
    'import * as util from "../core/util.js";',
    'import D, {',
    '  e,',
    "} from 'rxjs';",
    '',
    'export function f() {}',
  ];

  it('finds the import block (comments and multi-line imports included) and what it imports', () => {
    expect(importBlockEnd(file)).toBe(6);
    expect(parseImports(file.slice(0, 6).join('\n'))).toEqual([
      { local: 'a', imported: 'a', specifier: './x' },
      { local: 'c', imported: 'b', specifier: './x' },
      { local: 'T', imported: 'T', specifier: './x' },
      { local: 'util', imported: '*', specifier: '../core/util.js' },
      { local: 'e', imported: 'e', specifier: 'rxjs' },
      { local: 'D', imported: 'default', specifier: 'rxjs' },
    ]);
  });

  it('resolves specifiers relative to the file, with .js suffixes and index files, and through path mappings', () => {
    const files = new Set(['src/core/util.ts', 'src/x/index.ts', 'src/index.ts']);
    const exists = (p: string) => files.has(p);
    expect(resolveSpecifier('src/v4/a.ts', '../core/util.js', {}, exists)).toBe('src/core/util.ts');
    expect(resolveSpecifier('src/a.ts', './x', {}, exists)).toBe('src/x/index.ts');
    expect(resolveSpecifier('src/a/b.ts', 'rxjs', { rxjs: ['./src/index.ts'] }, exists)).toBe('src/index.ts');
    expect(resolveSpecifier('src/a/b.ts', 'zod/core', { 'zod/*': ['./src/*/util.ts'] }, exists)).toBe('src/core/util.ts');
    expect(resolveSpecifier('src/a.ts', 'vitest', {}, exists)).toBeUndefined();
  });

  it('tells declarations from calls', () => {
    expect(declaresTopLevel('export function merge(a, b) {', 'merge')).toBe(true);
    expect(declaresTopLevel('export const map: {', 'map')).toBe(true);
    expect(declaresTopLevel('  return merge(a, b);', 'merge')).toBe(false);
    expect(declaresMember('  subscribe(observer?: Partial<Observer<T>>): Subscription;', 'subscribe')).toBe(true);
    expect(declaresMember('  protected _subscribe(subscriber: Subscriber<any>): TeardownLogic {', '_subscribe')).toBe(true);
    expect(declaresMember('  next(value);', 'next')).toBe(false);
    // A head whose parameters run on: a declaration when they close on a body, a call when on `);`.
    expect(declaresMember('  createOperatorSubscriber(', 'createOperatorSubscriber', ['    subscriber,', '  );'])).toBe(false);
    expect(declaresMember('  schedule(', 'schedule', ['    work: () => void,', '  ): Subscription {'])).toBe(true);
  });

  it('sees member access and calls at an occurrence', () => {
    const line = '    util.merge(a, b); merge<T>(c);';
    expect(receiverAt(line, line.indexOf('merge'))).toBe('util');
    expect(receiverAt(line, line.lastIndexOf('merge'))).toBeUndefined();
    expect(receiverAt('a()?.merge', 5)).toBe('');
    expect(isCallAt(line, line.lastIndexOf('merge'), 'merge')).toBe(true);
    expect(isCallAt('const m = merge;', 10, 'merge')).toBe(false);
  });

  it('counts arguments and parameters at the top level only', () => {
    expect(topLevelParts('a, f(b, c), { d, e }, (x) => [x, y], "s,t"')).toHaveLength(5);
    expect(arityOf('due: number | Date, intervalOrScheduler?: number | SchedulerLike, scheduler = asyncScheduler')).toEqual({ min: 1, max: 3 });
    expect(arityOf('this: Foo, ...operations: OperatorFunction<any, any>[]')).toEqual({ min: 0, max: Infinity });
    expect(arityOf('f: (a: A, b: B) => C, g: Map<K, V>')).toEqual({ min: 2, max: 2 });
  });

  it('lists what a body calls with its receiver, leaving keywords out', () => {
    expect(calledNames('{ if (x) { this.add(y); util.merge(a); new Subscriber(z); f<T>(1); a().b(); return (g); } }')).toEqual([
      { name: 'add', member: false, receiver: 'this' },
      { name: 'merge', member: false, receiver: 'util' },
      { name: 'Subscriber', member: false },
      { name: 'f', member: false },
      { name: 'a', member: false },
      { name: 'b', member: true },
    ]);
  });

  it('leaves annotations out of the calls', () => {
    expect(calledNames('@SuppressWarnings({"rawtypes"}) Node[] t = (Node[]) new Node[n]; split(t);').map((c) => c.name)).toEqual(['split']);
  });

  it('reads heritage clauses without type arguments', () => {
    expect(withoutTypeArguments('public class KeepAliveCache extends HashMap<KeepAliveKey, Map<K, ClientVector>> implements Runnable'))
      .toBe('public class KeepAliveCache extends HashMap implements Runnable');
    expect(withoutTypeArguments('class A<T extends (x: B) => C> extends D<T>')).toBe('class A extends D');
  });

  it('reads a declaration to the brace closing its body', () => {
    expect(declarationRange(['function f() {', '  if (a) {', "    g('}');", '  }', '}', 'next'], 1)).toEqual([1, 5]);
    expect(declarationRange(['  m(a: A): B;', 'x'], 1)).toEqual([1, 1]);
  });

  it('opens one window per run of overlapping ±20-line ranges, with the import block', () => {
    expect(mergeRanges([[30, 40], [1, 5], [35, 60], [61, 70]])).toEqual([[1, 5], [30, 70]]);
    expect(windowsOf([30, 45, 200], 12, 210)).toEqual([[1, 65], [180, 210]]);
    expect(windowsOf([100], 0, 110)).toEqual([[80, 110]]);
  });
});

describe('Java reading rules', () => {
  const file = ['/*', ' * license', ' */', 'package java.util;', '', 'import java.util.function.Consumer;', 'import jdk.internal.util.*;', 'import static java.lang.Math.max;', '', 'public class ArrayList<E> {'];

  it('finds the package and import block after the license comment, and its imports', () => {
    expect(javaImportBlockEnd(file)).toBe(8);
    expect(parseJavaImports(file.join('\n'))).toEqual([
      { local: 'Consumer', imported: 'Consumer', specifier: 'java.util.function.Consumer' },
      { local: '*', imported: '*', specifier: 'jdk.internal.util' },
      { local: 'max', imported: 'max', specifier: 'java.lang.Math.max' },
    ]);
  });

  it('tells type, method and field declarations from statements', () => {
    expect(javaDeclaresType('public final class HashMap<K,V> extends AbstractMap<K,V>', 'HashMap')).toBe(true);
    expect(javaDeclaresMember('    static final int hash(Object key) {', 'hash')).toBe(true);
    expect(javaDeclaresMember('    public static int max(int a, int b) {', 'max')).toBe(true);
    expect(javaDeclaresMember('        final int hash;', 'hash')).toBe(true);
    expect(javaDeclaresMember('    @SuppressWarnings("unchecked") E elementData(int index) {', 'elementData')).toBe(true);
    expect(javaDeclaresMember('        return hash(key);', 'hash')).toBe(false);
    expect(javaDeclaresMember('        putVal(hash(key), key, value, false, true);', 'hash')).toBe(false);
    expect(javaDeclaresMember('    public static int newLength(int oldLength,', 'newLength', ['            int minGrowth, int prefGrowth) {'])).toBe(true);
  });

  it('finds where a type name comes from: single-type import, own package, wildcard import, java.lang', () => {
    const files = new Set(['java.base/java/util/List.java', 'java.base/java/util/Map.java', 'java.base/jdk/internal/util/ArraysSupport.java', 'java.base/java/lang/Math.java']);
    const exists = (p: string) => files.has(p);
    const imports = parseJavaImports(file.join('\n'));
    expect(javaTypeOrigin('java.base/java/util/ArrayList.java', 'List', imports, 'java.base', exists)).toBe('java.base/java/util/List.java');
    expect(javaTypeOrigin('java.base/java/util/ArrayList.java', 'ArraysSupport', imports, 'java.base', exists)).toBe('java.base/jdk/internal/util/ArraysSupport.java');
    expect(javaTypeOrigin('java.base/java/util/ArrayList.java', 'Math', imports, 'java.base', exists)).toBe('java.base/java/lang/Math.java');
    expect(javaTypeOrigin('java.base/java/io/X.java', 'Entry', parseJavaImports('import java.util.Map.Entry;'), 'java.base', exists)).toBe('java.base/java/util/Map.java');
    expect(javaTypeOrigin('java.base/java/io/X.java', 'Nowhere', [], 'java.base', exists)).toBeUndefined();
  });
});
