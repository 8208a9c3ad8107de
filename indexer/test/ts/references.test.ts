// References as the language service finds them, one behaviour per snippet: every reference kind,
// and every way a name reaches its declaration (aliases, re-exports, default and namespace imports,
// shorthand properties, destructuring, contextual types, mapped and union types, JSX, JSDoc).
import { describe, expect, it } from 'vitest';
import { caretFailures, indexSnippet } from './index-snippet.ts';

function expectCarets(files: Record<string, string>): void {
  expect(caretFailures(indexSnippet(files), files)).toEqual([]);
}

describe('reference kinds', () => {
  it('tells calls, construction, reads, writes and types apart', () => {
    expectCarets({
      'src/a.ts': `
export class Counter { count = 0; bump(): void {} }
const counter: Counter = new Counter();
//             ^ type Counter
//                           ^ new Counter
counter.count += 1;
//      ^ write Counter.count
counter.count++;
//      ^ write Counter.count
const seen = counter.count;
//                   ^ read Counter.count
counter.bump();
//      ^ call Counter.bump
counter?.bump?.();
//       ^ call Counter.bump
export type Kind = typeof counter;
//                        ^ type counter
`,
    });
  });

  it('marks imports, re-exports, heritage, decorators and tagged templates', () => {
    expectCarets({
      'src/base.ts': `
export interface Shape { area(): number }
export abstract class Base implements Shape { abstract area(): number }
//                                    ^ inherit Shape
export function logged<T>(method: T, _context: ClassMethodDecoratorContext): T { return method; }
export function html(strings: TemplateStringsArray): string { return strings.join(''); }
`,
      'src/index.ts': `
export { Base as Root, logged } from './base';
//       ^ export Base
//               ^ export Base
//                     ^ export logged
export * from './base';
`,
      'src/use.ts': `
import { Root, html, logged } from './index';
//       ^ import Base
//             ^ import html
class Square extends Root {
//                   ^ inherit Base
  @logged
// ^ decorator logged
  area(): number { return 1; }
}
export const page = html\`<p>\${new Square().area()}</p>\`;
//                  ^ call html
`,
    });
  });
});

describe('following names to their declarations', () => {
  it('goes through default imports and exports, namespace imports and export * as', () => {
    expectCarets({
      'src/anonymous.ts': `
export default function () { return 1; }
//     ^ definition default
`,
      'src/limit.ts': `
const limit = 10;
export default limit;
//             ^ export limit
`,
      'src/math.ts': `
export function square(x: number): number { return x * x; }
`,
      'src/index.ts': `
export * as math from './math';
//          ^ definition math
`,
      'src/use.ts': `
import one from './anonymous';
//     ^ import default
import limit from './limit';
//     ^ import limit
import * as all from './index';
//          ^ definition all
import { math } from './index';
//       ^ import math
export const total = one() + limit + all.math.square(2) + math.square(3);
//                   ^ call default
//                           ^ read limit
//                                   ^ read all
//                                       ^ read math
//                                            ^ call square
//                                                        ^ read math
`,
    });
  });

  it('finds a shorthand property as the local it reads and the property it sets', () => {
    expectCarets({
      'src/a.ts': `
interface Order { id: string; total: number }
function submit(order: Order): void {}
export function run(): void {
  const id = 'a1';
  submit({ id, total: 3 });
//         ^ read run.id
//         ^ write Order.id
//             ^ write Order.total
}
`,
    });
  });

  it('finds the property a destructuring reads, in declarations, parameters and assignments', () => {
    expectCarets({
      'src/a.ts': `
interface Order { id: string; total: number }
export function read(order: Order, { total }: Order): string {
//                                   ^ read Order.total
  const { id, total: sum } = order;
//        ^ read Order.id
//        ^ definition read.id
//            ^ read Order.total
  let copy = '';
  ({ id: copy } = order);
//   ^ read Order.id
//       ^ write read.copy
  return id + sum + total + copy;
}
`,
    });
  });

  it('maps instantiated, mapped, union and intersection members back to their declarations', () => {
    expectCarets({
      'src/a.ts': `
interface Order { id: string; total: number }
interface Circle { kind: 'circle'; radius: number }
interface Square { kind: 'square'; side: number }
interface Named { name: string }
interface Dated { at: number }
class Box<T> { constructor(public value: T) {} }
export function use(box: Box<Order>, draft: Partial<Order>, shape: Circle | Square, event: Named & Dated): unknown {
  return [box.value.id, draft.total, shape.kind, event.name, event.at];
//            ^ read Box.value
//                  ^ read Order.id
//                            ^ read Order.total
//                                         ^ read Circle.kind
//                                         ^ read Square.kind
//                                                     ^ read Named.name
//                                                                 ^ read Dated.at
}
export function pick(shape: Circle | Square): void {
  pick({ kind: 'circle', radius: 1 });
//       ^ write Circle.kind
//                       ^ write Circle.radius
}
`,
    });
  });

  it('reads string-literal property names, this.x and optional chains', () => {
    expectCarets({
      'src/a.ts': `
export interface Order { 'order-id': string; note?: { text: string } }
export type Id = Order['order-id'];
//                      ^ type Order.order-id
export class Holder {
  constructor(private order: Order) {}
  text(): string | undefined {
    return this.order['order-id'] + this.order.note?.text;
//              ^ read Holder.order
//                     ^ read Order.order-id
//                                                   ^ read Order.note.text
  }
}
`,
    });
  });

  it('finds JSX components, their props and intrinsic elements', () => {
    expectCarets({
      'src/jsx.d.ts': `
declare namespace JSX {
  interface Element { readonly type: unknown }
  interface IntrinsicElements { span: { title?: string; children?: unknown } }
}
`,
      'src/button.tsx': `
export interface ButtonProps { label: string }
export function Button({ label }: ButtonProps) {
//              ^ definition Button
  return <span title={label}>{label}</span>;
//        ^ jsx JSX.IntrinsicElements.span
//             ^ write JSX.IntrinsicElements.span.title
}
`,
      'src/app.tsx': `
import { Button } from './button';
export const App = () => <Button label="save" />;
//                        ^ jsx Button
//                               ^ write ButtonProps.label
`,
    });
  });

  it('reads JSDoc types and links, in JavaScript and TypeScript', () => {
    expectCarets({
      'src/types.js': `
/** @typedef {{ id: string }} Item */
//                            ^ definition Item
export {};
`,
      'src/use.js': `
/** @import { Item } from './types.js' */
/**
 * @param {Item} item
//         ^ type Item
//               ^ read name.item
 */
export function name(item) { return item.id; }
//                                       ^ read Item.id
`,
      'src/doc.ts': `
export interface Order { id: string }
/** Submits an {@link Order}. */
//                    ^ read Order
export function submit(order: Order): void {}
`,
    });
  });
});

describe('JavaScript declarations', () => {
  it('names this.x, prototype and CommonJS assignments by what they declare', () => {
    const files = {
      'src/counter.js': `
export function Counter() { this.count = 0; }
//                               ^ definition Counter.count
Counter.prototype.bump = function () { this.count++; };
//                ^ definition Counter.bump
//                                          ^ write Counter.count
export class Store { constructor() { this.items = []; } }
//                                        ^ definition Store.items
`,
      'src/math.js': `
function add(a, b) { return a + b; }
exports.add = add;
//      ^ export add
exports.double = function (x) { return add(x, x); };
//      ^ definition double
`,
      'src/use.js': `
const math = require('./math');
module.exports = { four: math.double(2) };
//     ^ definition module.exports
//                 ^ definition module.exports.four
//                            ^ call double
`,
    };
    const index = indexSnippet(files);
    expect(caretFailures(index, files)).toEqual([]);
    expect(index.symbol('Counter.bump').info.kind).toBe('method');
    expect(index.symbol('double').info.mods & 1).toBe(1);
  });
});
