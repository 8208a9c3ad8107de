// Tests of the tree-sitter syntax layer: outline extraction via the query files, positions
// (UTF-16 columns), nesting, syntax problems and robustness on hostile input.

import { describe, it, expect, beforeAll } from 'vitest';
import {
  createSyntaxParser, syntaxLanguageOf,
  type SyntaxLanguage, type SyntaxOutlineNode, type SyntaxParser,
} from '../../src/syntax/syntax-parser.ts';
import { caretAssertions, caretFailures, flattenOutline } from './caret-assertions.ts';

let parser: SyntaxParser;
beforeAll(async () => {
  parser = await createSyntaxParser();
});

function outline(language: SyntaxLanguage, source: string): SyntaxOutlineNode[] {
  const result = parser.parse(language, source);
  expect(result.problems).toEqual([]);
  return result.outline;
}

/** Names as an indented tree, to assert nesting at a glance. */
function shape(nodes: readonly SyntaxOutlineNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [`${'  '.repeat(depth)}${node.kind} ${node.name}`, ...shape(node.children, depth + 1)]);
}

describe('syntaxLanguageOf', () => {
  it('maps TypeScript, TSX and JavaScript extensions', () => {
    expect(syntaxLanguageOf('src/a.ts')).toBe('typescript');
    expect(syntaxLanguageOf('src/a.mts')).toBe('typescript');
    expect(syntaxLanguageOf('src/a.cts')).toBe('typescript');
    expect(syntaxLanguageOf('types/index.d.ts')).toBe('typescript');
    expect(syntaxLanguageOf('src/App.tsx')).toBe('tsx');
    expect(syntaxLanguageOf('a.js')).toBe('javascript');
    expect(syntaxLanguageOf('a.jsx')).toBe('javascript');
    expect(syntaxLanguageOf('a.mjs')).toBe('javascript');
    expect(syntaxLanguageOf('a.cjs')).toBe('javascript');
    expect(syntaxLanguageOf('C:\\repo\\Main.TS')).toBe('typescript');
  });

  it('rejects everything else', () => {
    expect(syntaxLanguageOf('README.md')).toBeUndefined();
    expect(syntaxLanguageOf('data.json')).toBeUndefined();
    expect(syntaxLanguageOf('Makefile')).toBeUndefined();
    expect(syntaxLanguageOf('.ts')).toBeUndefined();
    expect(syntaxLanguageOf('dir.ts/file')).toBeUndefined();
    expect(syntaxLanguageOf('a.toString')).toBeUndefined();
  });
});

describe('createSyntaxParser', () => {
  it('reports the grammar versions from the installed packages', () => {
    expect(parser.grammarVersions).toEqual({
      'web-tree-sitter': '0.27.2',
      'tree-sitter-typescript': '0.23.2',
      'tree-sitter-javascript': '0.25.0',
    });
  });

  // Creating a parser compiles the layered query of every grammar (shared + per-grammar files)
  // and fails on any pattern that does not compile or any capture that is not a SymbolKind.
  it('compiles the outline queries of every grammar and can be created repeatedly', async () => {
    const second = await createSyntaxParser();
    expect(second.parse('tsx', 'export const A = () => <div />;').outline.map((node) => node.name)).toEqual(['A']);
    expect(parser.parse('javascript', 'class A { f = 1 }').outline[0].children.map((node) => node.kind)).toEqual(['property']);
  });
});

describe('TypeScript outline', () => {
  it('finds classes, members, accessors and constructors', () => {
    const source = `
export class OrderService extends Base implements Service {
//           ^ definition.class
  private readonly orders = new Map<string, Order>();
//                 ^ definition.property
  static instances = 0;
//       ^ definition.property
  #secret = 1;
//^ definition.property
  constructor(private readonly repo: Repo) { super(); }
//^ definition.constructor
  submit(order: Order): void { const local = order; this.orders.set(local.id, local); }
//^ definition.method
  get count(): number { return this.orders.size; }
//    ^ definition.getter
  set count(value: number) {}
//    ^ definition.setter
  get(): void {}
//^ definition.method
  find(id: string): Order;
//^ definition.method
  find(id: string): Order | undefined { return this.orders.get(id); }
//^ definition.method
}
`;
    expect(caretFailures(source, outline('typescript', source), { exhaustive: true })).toEqual([]);
  });

  it('finds abstract classes and abstract members', () => {
    const source = `
export abstract class Shape {
//                    ^ definition.class
  abstract area(): number;
//         ^ definition.method
  abstract readonly sides: number;
//                  ^ definition.property
  abstract get label(): string;
//             ^ definition.getter
  describe() { return \`\${this.label}: \${this.area()}\`; }
//^ definition.method
}
`;
    expect(caretFailures(source, outline('typescript', source), { exhaustive: true })).toEqual([]);
  });

  it('finds interfaces with their members, type aliases and object-type members', () => {
    const source = `
export interface Repo<T> extends Base {
//               ^ definition.interface
  readonly name: string;
//         ^ definition.property
  'content-type'?: string;
//^ definition.property
  load(id: string): Promise<T>;
//^ definition.method
  get size(): number;
//    ^ definition.getter
  set size(value: number);
//    ^ definition.setter
  [key: string]: unknown;
  new (): Repo<T>;
  (): void;
  nested: { deep: string };
//^ definition.property
}
type Id = string | number;
//   ^ definition.type
export type Point = { x: number; move(dx: number): Point };
//          ^ definition.type
//                    ^ definition.property
//                               ^ definition.method
`;
    const nodes = outline('typescript', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(flattenOutline(nodes).find((node) => node.at[1] === 3 && node.kind === 'property' && node.name.startsWith('content'))?.name)
      .toBe('content-type');
  });

  it('finds enums and their members', () => {
    const source = `
export const enum Color {
//                ^ definition.enum
  Red,
//^ definition.enumMember
  Green = 'green',
//^ definition.enumMember
  "light-blue" = 3,
//^ definition.enumMember
}
`;
    const nodes = outline('typescript', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(shape(nodes)).toEqual(['enum Color', '  enumMember Red', '  enumMember Green', '  enumMember light-blue']);
  });

  it('finds namespaces, ambient modules and their members', () => {
    const source = `
namespace Outer.Inner {
//        ^ definition.namespace
  export const limit = 10;
//             ^ definition.constant
  const hidden = 1;
//      ^ definition.constant
  export function helper() { const notListed = 2; return notListed; }
//                ^ definition.function
}
declare module 'some-package' {
//             ^ definition.module
  export function run(): void;
//                ^ definition.function
}
declare global {
//      ^ definition.module
  interface Window { app: unknown }
//          ^ definition.interface
//                   ^ definition.property
}
declare const VERSION: string;
//            ^ definition.constant
declare function log(message: string): void;
//               ^ definition.function
`;
    const nodes = outline('typescript', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(shape(nodes)).toEqual([
      'namespace Outer.Inner', '  constant limit', '  constant hidden', '  function helper',
      "module 'some-package'", '  function run',
      'module global', '  interface Window', '    property app',
      'constant VERSION',
      'function log',
    ]);
  });

  it('finds functions, arrow-function consts, constants and variables', () => {
    const source = `
export function parse(text: string): Ast { return build(text); }
//              ^ definition.function
export async function* stream() {}
//                     ^ definition.function
function overloaded(a: string): void;
//       ^ definition.function
function overloaded(a: unknown) {}
//       ^ definition.function
export const handler = async (event: Event) => { await handle(event); };
//           ^ definition.function
const legacy = function () {};
//    ^ definition.function
const Widget = class { size = 1; };
//    ^ definition.class
//                     ^ definition.property
export const MAX_RETRIES = 3;
//           ^ definition.constant
let counter = 0, total: number;
//  ^ definition.variable
//               ^ definition.variable
var legacyFlag = true;
//  ^ definition.variable
const { first, second: renamed } = pair, [head] = list;
//      ^ definition.constant
//                     ^ definition.constant
//                                        ^ definition.constant
export default function () {}
//     ^ definition.function
for (const item of items) { const inLoop = item; }
if (ready) { let inBlock = 1; }
`;
    expect(caretFailures(source, outline('typescript', source), { exhaustive: true })).toEqual([]);
  });

  it('lists object-literal methods of module-level constants only', () => {
    const source = `
export const api = {
//           ^ definition.constant
  fetch(id: string) { return id; },
//^ definition.method
  save: async (item: Item) => {},
//^ definition.method
  retries: 3,
};
register({ onEvent() {} });
function make() { return { build() {} }; }
//       ^ definition.function
`;
    expect(caretFailures(source, outline('typescript', source), { exhaustive: true })).toEqual([]);
  });
});

describe('nesting', () => {
  it('keeps nested functions and classes but not locals of function bodies', () => {
    const source = `
export function outer(input: number) {
//              ^ definition.function
  const doubled = input * 2;
  let scratch = 0;
  const inner = (value: number) => value + doubled;
//      ^ definition.function
  function helper() {
//         ^ definition.function
    class Local {
//        ^ definition.class
      run() { return 1; }
//    ^ definition.method
    }
    return new Local();
  }
  return inner(helper().run() + scratch);
}
class Service {
//    ^ definition.class
  handle() {
//^ definition.method
    const callback = () => {};
//        ^ definition.function
  }
}
`;
    const nodes = outline('typescript', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(shape(nodes)).toEqual([
      'function outer',
      '  function inner',
      '  function helper',
      '    class Local',
      '      method run',
      'class Service',
      '  method handle',
      '    function callback',
    ]);
  });

  it('ranges cover the whole declaration, including export and declare', () => {
    const source = [
      'export class A {',
      '  m() {',
      '    return 1;',
      '  }',
      '}',
      'declare const flag: boolean;',
      'export const f = () => 1, g = 2;',
    ].join('\n');
    const [a, flag, f, g] = outline('typescript', source);
    expect(a).toMatchObject({ name: 'A', kind: 'class', range: [1, 1, 5, 2], at: [1, 14] });
    expect(a.children[0]).toMatchObject({ name: 'm', kind: 'method', range: [2, 3, 4, 4], at: [2, 3] });
    expect(flag).toMatchObject({ name: 'flag', kind: 'constant', range: [6, 1, 6, 29], at: [6, 15] });
    // Several declarators share one `const`: each range is its own declarator.
    expect(f).toMatchObject({ name: 'f', kind: 'function', range: [7, 14, 7, 25], at: [7, 14] });
    expect(g).toMatchObject({ name: 'g', kind: 'constant', range: [7, 27, 7, 32], at: [7, 27] });
  });
});

describe('TSX and JavaScript outline', () => {
  it('finds components in TSX', () => {
    const source = `
import { useState } from 'react';
export function Counter({ start }: { start: number }) {
//              ^ definition.function
  const [count, setCount] = useState(start);
  const increment = () => setCount(count + 1);
//      ^ definition.function
  return <button onClick={increment}>{count}</button>;
}
export const Badge = ({ label }: { label: string }) => <span className="badge">{label}</span>;
//           ^ definition.function
export class Panel extends React.Component<Props> {
//           ^ definition.class
  render() { return <div>{this.props.children}</div>; }
//^ definition.method
}
`;
    expect(caretFailures(source, outline('tsx', source), { exhaustive: true })).toEqual([]);
  });

  it('finds classes, fields, functions and object methods in JavaScript with JSX', () => {
    const source = `
class Cart {
//    ^ definition.class
  items = [];
//^ definition.property
  static #count = 0;
//       ^ definition.property
  constructor(owner) { this.owner = owner; }
//^ definition.constructor
  add(item) { this.items.push(item); }
//^ definition.method
  get size() { return this.items.length; }
//    ^ definition.getter
  static { Cart.#count = 0; }
}
function* ids() { let id = 0; while (true) yield id++; }
//        ^ definition.function
const render = (cart) => <ul>{cart.items.map((item) => <li key={item.id}>{item.name}</li>)}</ul>;
//    ^ definition.function
const config = { load() {}, timeout: 10, retry: function () {} };
//    ^ definition.constant
//               ^ definition.method
//                                       ^ definition.method
exports.checkout = function (cart) {};
//      ^ definition.function
module.exports = Cart;
`;
    expect(caretFailures(source, outline('javascript', source), { exhaustive: true })).toEqual([]);
  });
});

describe('positions', () => {
  it('counts columns in UTF-16 code units, also after non-ASCII text', () => {
    // Carets are placed by UTF-16 index, so under non-ASCII text they look shifted on screen.
    const source = [
      '// 😀 an emoji (two UTF-16 code units) on an earlier line',
      'const é = "日本"; function after() {}',
      '//    ^ definition.constant',
      '//                       ^ definition.function',
      '/* 😀 */ function g𝑥h() {} class K { 日本() {} }',
      '//                ^ definition.function',
      '//                                ^ definition.class',
      '//                                    ^ definition.method',
    ].join('\n');
    const nodes = outline('typescript', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    const byName = new Map(flattenOutline(nodes).map((node) => [node.name, node]));
    expect(byName.get('é')).toMatchObject({ at: [2, 7], range: [2, 1, 2, 16] });
    expect(byName.get('after')).toMatchObject({ at: [2, 26], range: [2, 17, 2, 36] });
    expect(byName.get('g𝑥h')).toMatchObject({ at: [5, 19], range: [5, 10, 5, 28] });
    expect(byName.get('日本')).toMatchObject({ at: [5, 39], range: [5, 39, 5, 46] });
  });

  it('counts lines like the TypeScript compiler (CRLF, CR, LF, U+2028)', () => {
    const nodes = outline('typescript', 'class A {}\r\nclass B {}\rclass C {}\u2028class D {}\nclass E {}');
    expect(nodes.map((node) => [node.name, ...node.at])).toEqual([
      ['A', 1, 7], ['B', 2, 7], ['C', 3, 7], ['D', 4, 7], ['E', 5, 7],
    ]);
    expect(nodes[1].range).toEqual([2, 1, 2, 11]);
  });

  it('reads its own caret assertions correctly', () => {
    expect(caretAssertions('a\n  b\n//^ definition.x\n// ^ definition.y   ^ definition.z')).toEqual([
      { line: 2, column: 3, kind: 'x' }, { line: 2, column: 4, kind: 'y' }, { line: 2, column: 21, kind: 'z' },
    ]);
  });
});

describe('syntax problems', () => {
  it('reports a missing closing brace near where the code breaks', () => {
    const source = [
      'class Broken {',
      '  method() {',
      '    return 1;',
      '',
      '}',
      'function after() {}',
      '',
    ].join('\n');
    const { problems, outline: nodes } = parser.parse('typescript', source);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem).toMatchObject({ source: 'syntax', severity: 'error' });
      expect(problem.message).toMatch(/^Syntax error: (unexpected|missing) /);
      expect(problem.line).toBeGreaterThanOrEqual(5);
      expect(problem.line).toBeLessThanOrEqual(7);
    }
    expect(problems.some((problem) => problem.message === 'Syntax error: missing `}`')).toBe(true);
    // The outline survives error recovery.
    expect(nodes[0]).toMatchObject({ name: 'Broken', kind: 'class' });
  });

  it('reports unexpected tokens with their text and range', () => {
    const { problems } = parser.parse('javascript', 'const ok = 1;\nconst x = ;\n');
    expect(problems).toEqual([{
      source: 'syntax', severity: 'error', message: 'Syntax error: unexpected `=`',
      line: 2, column: 9, endLine: 2, endColumn: 10,
    }]);
  });

  it('reports missing tokens as zero-width problems', () => {
    const { problems } = parser.parse('typescript', 'if (ready { go(); }');
    expect(problems).toEqual([{
      source: 'syntax', severity: 'error', message: 'Syntax error: missing `)`',
      line: 1, column: 10, endLine: 1, endColumn: 10,
    }]);
  });

  it('caps problems at 100 per file', () => {
    const { problems } = parser.parse('javascript', 'let = ;\n'.repeat(500));
    expect(problems).toHaveLength(100);
    expect(problems[99].line).toBe(100);
  });

  it('reports nothing for valid code', () => {
    expect(parser.parse('tsx', 'export const App = () => <main>{[1, 2].map((n) => <p key={n}>{n}</p>)}</main>;').problems).toEqual([]);
    expect(parser.parse('typescript', '').problems).toEqual([]);
  });
});

describe('robustness', () => {
  it('survives binary-ish input without throwing', () => {
    let noise = '';
    let seed = 42;
    for (let i = 0; i < 50_000; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      noise += String.fromCharCode(seed >>> 16); // includes NUL, controls and lone surrogates
    }
    const result = parser.parse('typescript', `${noise}\nclass After {}\n\0\uD800`);
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems.length).toBeLessThanOrEqual(100);
    for (const problem of result.problems) {
      expect(problem.message).not.toMatch(/[\u0000-\u0008]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
    // The parser stays usable afterwards.
    expect(outline('javascript', 'function fine() {}').map((node) => node.name)).toEqual(['fine']);
  });

  it('handles deep nesting and large files', () => {
    const deep = `const deep = ${'['.repeat(20_000)}${']'.repeat(20_000)};`;
    expect(parser.parse('javascript', deep).outline.map((node) => node.name)).toEqual(['deep']);
    expect(parser.parse('javascript', '('.repeat(5_000)).problems.length).toBeGreaterThan(0);

    const big = Array.from({ length: 2_000 }, (_, i) => `export class C${i} { m${i}() { return ${i}; } }`).join('\n');
    const nodes = parser.parse('typescript', big).outline;
    expect(nodes).toHaveLength(2_000);
    expect(nodes[1_999]).toMatchObject({ name: 'C1999', at: [2_000, 14], children: [{ name: 'm1999' }] });
  });

  it('turns parser failures into a single problem instead of throwing', async () => {
    expect(parser.parse('python' as SyntaxLanguage, 'x = 1')).toEqual({
      outline: [],
      problems: [expect.objectContaining({ source: 'syntax', line: 1, column: 1, message: expect.stringContaining('unsupported language') })],
    });
    expect(parser.parse('typescript', undefined as unknown as string).problems).toHaveLength(1);

    const impatient = await createSyntaxParser({ timeoutMs: 0 });
    const big = 'function f() { return [1, 2, 3].map((x) => x * 2); }\n'.repeat(5_000);
    const timedOut = impatient.parse('typescript', big);
    expect(timedOut.outline).toEqual([]);
    expect(timedOut.problems).toEqual([expect.objectContaining({ message: expect.stringContaining('gave up') })]);
    // A cancelled parse must not leak into the next one.
    expect(impatient.parse('typescript', 'class Next {}').outline.map((node) => node.name)).toEqual(['Next']);
  });
});
