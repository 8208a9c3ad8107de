// The declaration table on its own: qualified names, kinds, containers, locality, modifiers and
// keys of a file's declarations, read from its text alone (no program).
import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { MODIFIERS } from '@sextant/format';
import { DeclarationTable } from '../../src/ts/declaration-table.ts';

function table(path: string, text: string): DeclarationTable {
  return new DeclarationTable(ts.createSourceFile(`/repo/${path}`, text, ts.ScriptTarget.ESNext, true), path);
}

/** `kind qname` of every declaration, with ` local` and ` in <container>` where they apply. */
function describeAll(t: DeclarationTable): string[] {
  return t.declarations.map((d) => `${d.kind} ${d.qname}${d.local ? ' local' : ''}${d.container ? ` in ${d.container.qname}` : ''}`);
}

function find(t: DeclarationTable, qname: string, kind?: string) {
  const found = t.declarations.filter((d) => d.qname === qname && (!kind || d.kind === kind));
  if (found.length !== 1) throw new Error(`${found.length} declarations ${qname}`);
  return found[0]!;
}

describe('DeclarationTable', () => {
  it('starts with the file as a module, and nests members under their container', () => {
    expect(describeAll(table('src/shop.ts', `
export class Shop {
  constructor(private readonly owner: { name: string }, budget: number) {}
  open(day: string): void { const hours = 8; }
}
`))).toEqual([
      'module src/shop.ts',
      'class Shop',
      'constructor Shop.constructor in Shop',
      // A parameter property is the class's property, searchable like any member; so is its type.
      'property Shop.owner in Shop',
      'property Shop.owner.name in Shop.owner',
      'parameter Shop.constructor.budget local in Shop.constructor',
      'method Shop.open in Shop',
      'parameter Shop.open.day local in Shop.open',
      'local Shop.open.hours local in Shop.open',
    ]);
  });

  it('gives overloads and merged declarations one qualified name and keys told apart by ordinal', () => {
    const t = table('src/f.ts', `
export function f(a: string): void;
export function f(a: number): void;
export function f(a: unknown): void {}
export namespace f { export const x = 1; }
`);
    const overloads = t.declarations.filter((d) => d.qname === 'f' && d.kind === 'function');
    expect(overloads).toHaveLength(3);
    expect(new Set(overloads.map((d) => d.key)).size).toBe(3);
    expect(find(t, 'f', 'namespace').key).not.toBe(overloads[0]!.key);
    expect(find(t, 'f.x').container?.kind).toBe('namespace');
  });

  it('derives keys from the text alone, so every program computes the same ones', () => {
    const text = 'export interface A { b: string }\nexport const c = (): A => ({ b: "" });\n';
    expect(table('src/a.ts', text).declarations.map((d) => d.key)).toEqual(table('src/a.ts', text).declarations.map((d) => d.key));
    expect(find(table('src/a.ts', text), 'A').key).not.toBe(find(table('src/b.ts', text), 'A').key);
  });

  it('names default exports `default`, and marks what export lists export', () => {
    const t = table('src/d.ts', `
const limit = 1;
function helper() {}
export { limit, helper as help };
export default function () {}
`);
    expect(find(t, 'default').kind).toBe('function');
    expect(find(t, 'default').mods & MODIFIERS.default).toBeTruthy();
    expect(find(t, 'limit').mods & MODIFIERS.exported).toBeTruthy();
    expect(find(t, 'helper').mods & MODIFIERS.exported).toBeTruthy();
    expect(find(t, 'src/d.ts').kind).toBe('module');
  });

  it('keeps namespace imports local and lets augmentations name what they augment', () => {
    const t = table('src/aug.ts', `
import * as lib from './lib';
declare module './money' { interface Money { rate: number } }
declare global { interface Window { shop: string } }
export {};
`);
    expect(find(t, 'lib')).toMatchObject({ kind: 'namespace', local: true });
    expect(find(t, 'Money.rate').kind).toBe('property');
    expect(find(t, 'Window.shop').kind).toBe('property');
  });

  it('makes capitalized functions and classes that render JSX components', () => {
    const t = table('src/ui.tsx', `
export function Button() { return <button />; }
export const Card = (props: { title: string }) => <div>{props.title}</div>;
export const Badge = memo(() => <span />);
export class Panel { render() { return <div />; } }
export function helper() { return <div />; }
export function Plain() { return 1; }
declare function memo<T>(component: T): T;
`);
    expect(['Button', 'Card', 'Badge', 'Panel', 'helper', 'Plain'].map((n) => `${n} ${find(t, n).kind}`)).toEqual([
      'Button component', 'Card component', 'Badge component', 'Panel component', 'helper function', 'Plain function',
    ]);
  });

  it('declares JavaScript assignments and JSDoc typedefs', () => {
    const t = table('src/store.js', `
/**
 * @typedef {Object} Customer
 * @property {string} name
 */
/** @template T @param {T} x */
export function identity(x) { return x; }
export function Counter() { this.count = 0; }
Counter.prototype.bump = function () { this.count++; };
export class Store { constructor() { this.items = []; } }
exports.total = function () {};
exports.alias = identity;
`);
    expect(describeAll(t).filter((d) => !d.startsWith('module') && !d.startsWith('parameter'))).toEqual([
      'function identity',
      'type Customer',
      'property Customer.name in Customer',
      'typeParameter identity.T local in identity',
      'function Counter',
      'property Counter.count in Counter',
      'method Counter.bump in Counter',
      'class Store',
      'constructor Store.constructor in Store',
      'property Store.items in Store',
      'function total',
    ]);
    // `exports.alias = identity` is an alias of identity (the binder's rule), not a declaration.
    expect(t.declarations.some((d) => d.name === 'alias')).toBe(false);
  });

  it('finds the enclosing code holder of a use: the function, the initializer, else the module', () => {
    const source = ts.createSourceFile('/repo/src/e.ts', `
import { x } from './x';
export const value = x();
export function run() { return x(); }
`, ts.ScriptTarget.ESNext, true);
    const t = new DeclarationTable(source, 'src/e.ts');
    const calls: ts.Identifier[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && node.text === 'x') calls.push(node);
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(calls.map((c) => t.enclosing(c)?.qname)).toEqual(['src/e.ts', 'value', 'run']);
  });
});
