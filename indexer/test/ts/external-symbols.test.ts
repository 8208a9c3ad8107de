// Declarations outside the repository: the TypeScript lib and npm packages under node_modules
// become external symbols named by package (and version) and qualified name, one per declaration
// however many files use it, so "where do we use leftPad" has an answer.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { PackageCache } from '../../src/ts/external-origin.ts';
import { caretFailures, indexSnippet, type SnippetIndex } from './index-snippet.ts';

const root = mkdtempSync(join(tmpdir(), 'sextant-externals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const files = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
  'src/use.ts': `import { leftPad } from 'left-pad';
//                       ^ import ext:left-pad
import { Widget } from '@acme/widgets';
export const padded = leftPad('a', 3);
//                    ^ call ext:leftPad
new Widget().render();
//           ^ call ext:Widget.render
export const doubled = [1, 2].map((n) => n * 2);
//                            ^ call ext:Array.map
`,
  'src/other.ts': `import { leftPad } from 'left-pad';
export const other = leftPad('b', 4);
`,
};

let index: SnippetIndex;
beforeAll(() => {
  // On disk, as an install leaves it; the sources themselves come from the snapshot.
  write('node_modules/left-pad/package.json', JSON.stringify({ name: 'left-pad', version: '1.3.0', types: 'index.d.ts' }));
  write('node_modules/left-pad/index.d.ts', 'export declare function leftPad(text: string, length: number): string;\n');
  write('node_modules/@acme/widgets/package.json', JSON.stringify({ name: '@acme/widgets', version: '2.0.1', types: 'lib/index.d.ts' }));
  write('node_modules/@acme/widgets/lib/index.d.ts', 'export declare class Widget {\n  render(): void;\n}\n');
  index = indexSnippet(files, root);
});

function external(qname: string) {
  const found = [...index.collector.symbols.values()].filter((s) => s.info.external && s.info.qname === qname);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('external symbols', () => {
  it('are referenced where the repository uses them', () => {
    expect(caretFailures(index, files)).toEqual([]);
  });

  it('are named by package, version and qualified name, with no declaration in the repository', () => {
    expect(external('leftPad').info).toMatchObject({ kind: 'function', external: { package: 'left-pad', version: '1.3.0' }, defs: [] });
    expect(external('Widget.render').info).toMatchObject({ kind: 'method', external: { package: '@acme/widgets', version: '2.0.1' } });
    // The version of the typescript package whose lib files the compiler reads (snapshot-host.ts).
    expect(external('Array.map').info.external).toEqual({ package: 'typescript', version: createRequire(import.meta.url)('typescript/package.json').version });
    // The module itself, for "who imports left-pad".
    expect(external('left-pad').info).toMatchObject({ kind: 'module', name: 'left-pad' });
  });

  it('show the lib declaration as written, with its doc: the lib files come from the typescript package, not minified', () => {
    const map = external('Array.map').info;
    expect(map.signature).toBe('map<U>(callbackfn: (value: T, index: number, array: T[]) => U, thisArg?: any): U[];');
    expect(map.doc).toMatch(/^Calls a defined callback function on each element of an array/);
    // The lib files must be the bundled compiler's own release line.
    expect(createRequire(import.meta.url)('typescript/package.json').version.split('.').slice(0, 2)).toEqual(ts.version.split('.').slice(0, 2));
  });

  it('are one symbol across files, with every use among its references', () => {
    expect(Array.from(external('leftPad').refs, (r) => `${r.site.path}:${r.site.line} ${r.kind}`).sort()).toEqual([
      'src/other.ts:1 import', 'src/other.ts:2 call', 'src/use.ts:1 import', 'src/use.ts:4 call',
    ]);
  });
});

describe('PackageCache', () => {
  it('names a file under node_modules by its package, scoped or not, and the version its package.json gives', () => {
    const packages = new PackageCache();
    expect(packages.originOf(join(root, 'node_modules/left-pad/index.d.ts'))).toEqual({ package: 'left-pad', version: '1.3.0' });
    expect(packages.originOf(join(root, 'node_modules/@acme/widgets/lib/index.d.ts'))).toEqual({ package: '@acme/widgets', version: '2.0.1' });
    expect(packages.originOf(join(root, 'node_modules/missing/index.d.ts'))).toEqual({ package: 'missing' });
  });
});
