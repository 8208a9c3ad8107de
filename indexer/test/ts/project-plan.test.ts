// Which program indexes which file, what a broken or circular project setup is reported as, and
// how projects that reference each other resolve to each other's sources.
import { describe, expect, it } from 'vitest';
import { planPrograms } from '../../src/ts/project-plan.ts';
import { SnapshotHost } from '../../src/ts/snapshot-host.ts';
import { caretFailures, indexSnippet, SNIPPET_ROOT } from './index-snippet.ts';

function plan(files: Record<string, string>) {
  const host = new SnapshotHost(SNIPPET_ROOT, new Map(Object.entries(files)));
  const warnings: string[] = [];
  const sources = Object.keys(files).filter((p) => /\.[cm]?[jt]sx?$/.test(p));
  const programs = planPrograms(host, sources, warnings);
  return { programs: programs.map((p) => ({ config: p.config ?? '(default)', owned: p.owned, allowJs: p.options.allowJs === true })), warnings };
}

describe('planPrograms', () => {
  it('gives each file to the nearest project, once, and the rest to a default program', () => {
    const { programs, warnings } = plan({
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: 'app' }, { path: 'lib' }] }),
      'app/tsconfig.json': JSON.stringify({ include: ['.', '../shared'] }),
      'lib/tsconfig.json': JSON.stringify({ include: ['.', '../shared'] }),
      'app/main.ts': 'export {};', 'lib/util.ts': 'export {};', 'shared/constants.ts': 'export {};',
      'scripts/jsconfig.json': JSON.stringify({ include: ['*.js'] }),
      'scripts/release.js': 'export {};',
      'loose.ts': 'export {};',
    });
    expect(warnings).toEqual([]);
    expect(programs).toEqual([
      // A file in two projects (shared/) is indexed once; the solution file owns nothing.
      { config: 'app/tsconfig.json', owned: ['app/main.ts', 'shared/constants.ts'], allowJs: false },
      { config: 'lib/tsconfig.json', owned: ['lib/util.ts'], allowJs: false },
      // A jsconfig.json is a project with allowJs on (the compiler's jsconfig defaults).
      { config: 'scripts/jsconfig.json', owned: ['scripts/release.js'], allowJs: true },
      { config: '(default)', owned: ['loose.ts'], allowJs: true },
    ]);
  });

  it('makes a project of every config a reference names, before the solution that names it', () => {
    const { programs, warnings } = plan({
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.node.json' }] }),
      'tsconfig.app.json': JSON.stringify({ compilerOptions: { composite: true, jsx: 'react-jsx' }, include: ['src'] }),
      'tsconfig.node.json': JSON.stringify({ compilerOptions: { composite: true }, include: ['vite.config.ts'] }),
      'src/main.tsx': 'export {};', 'vite.config.ts': 'export default {};',
    });
    expect(warnings).toEqual([]);
    expect(programs.map((p) => `${p.config}: ${p.owned.join(' ')}`)).toEqual(['tsconfig.app.json: src/main.tsx', 'tsconfig.node.json: vite.config.ts']);
  });

  it('reports a tsconfig with errors where they are, and still plans its files', () => {
    const { programs, warnings } = plan({
      'tsconfig.json': '{\n  "extends": "./missing.json",\n  "compilerOptions": { "target": "ES2099", "nope": true, },\n  "include": ["src"\n}\n',
      'src/a.ts': 'export {};',
    });
    expect(programs.map((p) => p.owned)).toEqual([['src/a.ts']]);
    expect(warnings.join('\n')).toMatch(/^tsconfig\.json:\d+:\d+: /m);
    expect(warnings.join('\n')).toContain("Unknown compiler option 'nope'");
    expect(warnings.join('\n')).toContain("Cannot read file 'missing.json'");
    // Paths are repository-relative: a warning never names the checkout it was built in.
    expect(warnings.join('\n')).not.toContain(SNIPPET_ROOT);
  });

  it('reports a cycle of project references, and a reference to nothing, once each', () => {
    const config = (references: string[]) => JSON.stringify({ compilerOptions: { composite: true }, include: ['*.ts'], references: references.map((path) => ({ path })) });
    const { programs, warnings } = plan({
      'a/tsconfig.json': config(['../b']), 'b/tsconfig.json': config(['../c']), 'c/tsconfig.json': config(['../a', '../gone']),
      'a/a.ts': 'export {};', 'b/b.ts': 'export {};', 'c/c.ts': 'export {};',
    });
    expect(programs).toHaveLength(3);
    expect(warnings).toEqual([
      'c/tsconfig.json: references gone/tsconfig.json, which does not exist at this commit (the reference is ignored; fix the path for exact results)',
      'project references form a cycle: a/tsconfig.json → b/tsconfig.json → c/tsconfig.json → a/tsconfig.json (tsc --build refuses it; each project is indexed on its own)',
    ]);
  });
});

describe('project references', () => {
  it('resolve to the referenced project\'s sources, not its unbuilt declaration output', () => {
    const files = {
      'package.json': JSON.stringify({ workspaces: ['packages/*'] }),
      'packages/core/package.json': JSON.stringify({ name: '@acme/core', types: 'dist/index.d.ts' }),
      'packages/core/tsconfig.json': JSON.stringify({ compilerOptions: { composite: true, rootDir: 'src', outDir: 'dist', module: 'esnext', moduleResolution: 'bundler' }, include: ['src'] }),
      'packages/core/src/index.ts': 'export class Money {}\n',
      'packages/app/tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler' }, include: ['src'], references: [{ path: '../core' }] }),
      'packages/app/src/main.ts': `import { Money } from '@acme/core';
//       ^ import Money
export const zero = new Money();
`,
    };
    const index = indexSnippet(files);
    expect(caretFailures(index, files)).toEqual([]);
    expect(index.files.get('packages/app/src/main.ts')!.problems).toEqual([]);
  });
});
