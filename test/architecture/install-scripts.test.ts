// A clean `npm install` prints no install-scripts warning (npm 11's allowScripts): every package of
// the lockfile that has an install script is approved or denied by name in the root package.json,
// and nothing is listed there that the lockfile does not hold. The packages whose scripts run are
// the ones Sextant needs them from (esbuild's and workerd's, which check or fetch their binaries);
// the tree-sitter grammars' native builds and miniflare's image library are not used (the indexer
// loads the grammars' WebAssembly).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(new URL(path, ROOT), 'utf8'));

describe('install scripts', () => {
  it('are each approved or denied in the root package.json, and nothing else is listed', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean; name?: string }> };
    const scripted = new Set(Object.entries(lock.packages)
      .filter(([path, entry]) => entry.hasInstallScript && path.includes('node_modules/'))
      .map(([path, entry]) => entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)));
    const allowScripts = read('package.json').allowScripts as Record<string, boolean>;
    expect(Object.keys(allowScripts).sort()).toEqual([...scripted].sort());
    expect(Object.entries(allowScripts).filter(([, allowed]) => allowed).map(([name]) => name).sort()).toEqual(['esbuild', 'workerd']);
  });
});
