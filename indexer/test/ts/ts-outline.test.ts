// The outline of TypeScript and JavaScript files from the compiler's parse (ts-outline.ts): which
// declarations it lists and how they nest, their kinds, names and ranges, positions in UTF-16
// columns. Each snippet states what it declares with caret assertions under its code.
import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import type { OutlineNode } from '@sextant/format';
import { DeclarationTable } from '../../src/ts/declaration-table.ts';
import { definitionSite } from '../../src/ts/program-indexer.ts';
import { tsOutline } from '../../src/ts/ts-outline.ts';
import { caretAssertions, caretFailures, flattenOutline } from './caret-assertions.ts';

function outline(path: string, source: string): OutlineNode[] {
  const sourceFile = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const nameAt = (node: ts.Node): [number, number] => {
    const site = definitionSite(node, path);
    return [site[1], site[2]];
  };
  return tsOutline({ table: new DeclarationTable(sourceFile, path), sourceFile, nameAt, symAt: () => -1 });
}

/** Names as an indented tree, to assert nesting at a glance. */
function shape(nodes: readonly OutlineNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [`${'  '.repeat(depth)}${node.kind} ${node.name}`, ...shape(node.children, depth + 1)]);
}

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
    expect(caretFailures(source, outline('a.ts', source), { exhaustive: true })).toEqual([]);
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
    expect(caretFailures(source, outline('a.ts', source), { exhaustive: true })).toEqual([]);
  });

  it('finds interfaces with their members, type aliases and object-type members', () => {
    const source = `
export interface Repo<T> extends Base {
//               ^ definition.interface
  readonly name: string;
//         ^ definition.property
  'content-type'?: string;
// ^ definition.property
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
    const nodes = outline('a.ts', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(flattenOutline(nodes).find((node) => node.at[1] === 4 && node.kind === 'property' && node.name.startsWith('content'))?.name)
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
// ^ definition.enumMember
}
`;
    const nodes = outline('a.ts', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(shape(nodes)).toEqual(['enum Color', '  enumMember Red', '  enumMember Green', '  enumMember light-blue']);
  });

  it('finds namespaces, ambient modules and their members', () => {
    const source = `
namespace Outer.Inner {
//        ^ definition.namespace
//              ^ definition.namespace
  export const limit = 10;
//             ^ definition.constant
  const hidden = 1;
//      ^ definition.constant
  export function helper() { const notListed = 2; return notListed; }
//                ^ definition.function
}
declare module 'some-package' {
//              ^ definition.module
  export function run(): void;
//                ^ definition.function
}
declare global {
//      ^ definition.namespace
  interface Window { app: unknown }
//          ^ definition.interface
//                   ^ definition.property
}
declare const VERSION: string;
//            ^ definition.constant
declare function log(message: string): void;
//               ^ definition.function
`;
    const nodes = outline('a.ts', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    expect(shape(nodes)).toEqual([
      // The compiler's nodes: `Outer.Inner` is Inner within Outer; a module's name is its text.
      'namespace Outer', '  namespace Inner', '    constant limit', '    constant hidden', '    function helper',
      'module some-package', '  function run',
      'namespace global', '  interface Window', '    property app',
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
//    ^ definition.constant
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
    expect(caretFailures(source, outline('a.ts', source), { exhaustive: true })).toEqual([]);
  });

  it('lists object-literal methods of module-level constants only', () => {
    const source = `
export const api = {
//           ^ definition.constant
  fetch(id: string) { return id; },
//^ definition.method
  save: async (item: Item) => {},
//^ definition.property
  retries: 3,
};
register({ onEvent() {} });
function make() { return { build() {} }; }
//       ^ definition.function
`;
    expect(caretFailures(source, outline('a.ts', source), { exhaustive: true })).toEqual([]);
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
    const nodes = outline('a.ts', source);
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
    const [a, flag, f, g] = outline('a.ts', source);
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
//              ^ definition.component
  const [count, setCount] = useState(start);
  const increment = () => setCount(count + 1);
//      ^ definition.function
  return <button onClick={increment}>{count}</button>;
}
export const Badge = ({ label }: { label: string }) => <span className="badge">{label}</span>;
//           ^ definition.component
export class Panel extends React.Component<Props> {
//           ^ definition.component
  render() { return <div>{this.props.children}</div>; }
//^ definition.method
}
`;
    expect(caretFailures(source, outline('a.tsx', source), { exhaustive: true })).toEqual([]);
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
//^ definition.constructor  ^ definition.property
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
//                                       ^ definition.property
exports.checkout = function (cart) {};
//      ^ definition.function
module.exports = Cart;
`;
    expect(caretFailures(source, outline('a.js', source), { exhaustive: true })).toEqual([]);
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
    const nodes = outline('a.ts', source);
    expect(caretFailures(source, nodes, { exhaustive: true })).toEqual([]);
    const byName = new Map(flattenOutline(nodes).map((node) => [node.name, node]));
    expect(byName.get('é')).toMatchObject({ at: [2, 7], range: [2, 1, 2, 16] });
    expect(byName.get('after')).toMatchObject({ at: [2, 26], range: [2, 17, 2, 36] });
    expect(byName.get('g𝑥h')).toMatchObject({ at: [5, 19], range: [5, 10, 5, 28] });
    expect(byName.get('日本')).toMatchObject({ at: [5, 39], range: [5, 39, 5, 46] });
  });

  it('counts lines like the TypeScript compiler (CRLF, CR, LF, U+2028)', () => {
    const nodes = outline('a.ts', 'class A {}\r\nclass B {}\rclass C {}\u2028class D {}\nclass E {}');
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
