// The root entry of @sextant/query is bundled into the worker: nothing it reaches may import a
// Node module. Only the ./node subpath may, and it does (else this test would prove nothing).
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const NODE_BUILTINS = new Set(builtinModules);

/** Every module specifier the files reachable from `entry` import, relative imports followed. */
function importsReachableFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
      const specifier = match[1] ?? match[2]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else specifiers.add(specifier);
    }
  };
  visit(entry);
  return specifiers;
}

const isNode = (specifier: string) => specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!);

describe('@sextant/query entries', () => {
  it('the root reaches no Node module', () => {
    const imports = [...importsReachableFrom(resolve(SRC, 'index.ts'))];
    expect(imports).toContain('@sextant/format');
    expect(imports.filter(isNode)).toEqual([]);
  });

  it('the ./node subpath is where the Node-only code is', () => {
    expect([...importsReachableFrom(resolve(SRC, 'node/index.ts'))].filter(isNode)).toEqual(expect.arrayContaining(['node:fs/promises', 'node:path']));
  });
});
