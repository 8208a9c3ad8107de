// Workspace packages (npm, yarn, pnpm) read from the commit, and the snapshot host that shows them
// linked into node_modules so imports of them resolve to the repository's sources, with nothing
// installed.
import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { SnapshotHost } from '../../src/ts/snapshot-host.ts';
import { workspacePackages } from '../../src/ts/workspace-packages.ts';
import { SNIPPET_ROOT } from './index-snippet.ts';

const pkg = (name: string) => JSON.stringify({ name });

describe('workspacePackages', () => {
  it('reads npm and yarn workspaces, in both spellings', () => {
    const files = new Map([
      ['packages/core/package.json', pkg('@acme/core')],
      ['packages/ui/package.json', pkg('@acme/ui')],
      ['apps/web/package.json', pkg('web')],
      ['packages/core/fixtures/sample/package.json', pkg('sample')],
    ]);
    expect(workspacePackages(new Map([...files, ['package.json', JSON.stringify({ workspaces: ['packages/*'] })]])))
      .toEqual(new Map([['@acme/core', 'packages/core'], ['@acme/ui', 'packages/ui']]));
    expect(workspacePackages(new Map([...files, ['package.json', JSON.stringify({ workspaces: { packages: ['apps/**', 'packages/ui'] } })]])))
      .toEqual(new Map([['web', 'apps/web'], ['@acme/ui', 'packages/ui']]));
  });

  it('reads pnpm-workspace.yaml, with exclusions, and ignores what it cannot read', () => {
    const texts = new Map([
      ['pnpm-workspace.yaml', `packages:\n  - 'packages/*'\n  - "!packages/legacy"  # retired\n\ncatalog:\n  react: 19\n`],
      ['packages/core/package.json', pkg('core')],
      ['packages/legacy/package.json', pkg('legacy')],
      ['packages/broken/package.json', '{ not json'],
      ['packages/core/node_modules/dep/package.json', pkg('dep')],
    ]);
    expect(workspacePackages(texts)).toEqual(new Map([['core', 'packages/core']]));
    expect(workspacePackages(new Map([['package.json', '{ "name": "solo" }']]))).toEqual(new Map());
  });

  it('matches workspace globs in linear time: ** may match no directory, and a glob past the matcher budget is left out', () => {
    const deep = `${'a/'.repeat(200)}z`;
    const texts = new Map([
      ['package.json', JSON.stringify({ workspaces: [`${'*'.repeat(40)}Z`, 'libs/**/pkg', `*${'ab?'.repeat(100)}`] })],
      [`${deep}/package.json`, pkg('deep')],
      ['libs/pkg/package.json', pkg('top')],
      ['libs/x/y/pkg/package.json', pkg('nested')],
      ['apps/Z/package.json', pkg('zed')],
    ]);
    expect(workspacePackages(texts)).toEqual(new Map([['zed', 'apps/Z'], ['top', 'libs/pkg'], ['nested', 'libs/x/y/pkg']]));
  });
});

describe('SnapshotHost workspace links', () => {
  const texts = new Map([
    ['package.json', JSON.stringify({ workspaces: ['packages/*'] })],
    ['packages/core/package.json', JSON.stringify({ name: '@acme/core', exports: { '.': './src/index.ts' } })],
    ['packages/core/src/index.ts', 'export const core = 1;\n'],
    ['packages/app/src/main.ts', "import { core } from '@acme/core';\nexport const app = core;\n"],
  ]);
  const host = new SnapshotHost(SNIPPET_ROOT, texts);
  const linked = `${SNIPPET_ROOT}/node_modules/@acme/core`;

  it('shows each workspace package in node_modules, at its source in the repository', () => {
    expect(host.directoryExists(`${SNIPPET_ROOT}/node_modules`)).toBe(true);
    expect(host.directoryExists(`${SNIPPET_ROOT}/node_modules/@acme`)).toBe(true);
    expect(host.fileExists(`${linked}/package.json`)).toBe(true);
    expect(host.readFile(`${linked}/src/index.ts`)).toBe('export const core = 1;\n');
    expect(host.realpath(`${linked}/src/index.ts`)).toBe(`${SNIPPET_ROOT}/packages/core/src/index.ts`);
    expect(host.relative(`${linked}/src/index.ts`)).toBe('packages/core/src/index.ts');
    expect(host.fileExists(`${SNIPPET_ROOT}/node_modules/@acme/other/package.json`)).toBe(false);
  });

  it('resolves an import of a workspace package to its source file', () => {
    const options: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
    const resolved = ts.resolveModuleName('@acme/core', `${SNIPPET_ROOT}/packages/app/src/main.ts`, options, host.compilerHost(options));
    expect(resolved.resolvedModule?.resolvedFileName).toBe(`${SNIPPET_ROOT}/packages/core/src/index.ts`);
  });
});
