// The direction of imports between Sextant's packages: format ← query ← plan ← mcp ← runner, with
// the worker and the indexer above them and nothing importing those two. A package may depend on
// and import only packages below it, checked in two places: its package.json (dependencies of every
// kind) and its TypeScript (`from '@sextant/…'`, dynamic imports, and relative paths that lead into
// another package, as tests share support files that way). And the worker runs in workerd: no file
// of it, and nothing it reaches through Sextant's packages, imports a Node module.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Each package's place in the stack; a package imports only packages of a lower rank. */
const RANK: Record<string, number> = {
  '@sextant/format': 0,
  '@sextant/query': 1,
  '@sextant/plan': 2,
  '@sextant/mcp': 3,
  '@sextant/runner': 4,
  '@sextant/indexer': 5,
  '@sextant/worker-mcp': 5,
};
/** The end-to-end tests and benches drive every package; they are not a layer of the stack. */
const OUTSIDE_THE_STACK = new Set(['@sextant/test']);
/** A package's own benches and scripts drive others too (the worker's bench publishes with the indexer's corpora): like test/, outside. */
const TOOLING_DIRS = new Set(['bench', 'scripts']);
/** Inputs to indexers and generated or vendored trees, not project code. */
const SKIPPED_DIRS = new Set(['node_modules', 'fixtures', '.bench', '.wrangler', 'dist', 'corpora', '.sextant']);
const NODE_BUILTINS = new Set(builtinModules);

interface Workspace {
  name: string;
  dir: string;
  manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; exports?: Record<string, string> };
}

/** The workspaces of the root package.json (globs of one `*` at the end). */
function workspaces(): Workspace[] {
  const globs: string[] = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces;
  const dirs = globs.flatMap((glob) => glob.endsWith('/*')
    ? readdirSync(join(ROOT, glob.slice(0, -2)), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(ROOT, glob.slice(0, -2), e.name))
    : [join(ROOT, glob)]);
  return dirs.filter((dir) => existsSync(join(dir, 'package.json'))).map((dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return { name: manifest.name, dir, manifest };
  });
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (/\.(ts|mts|tsx|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** The module specifiers a file imports or re-exports, statically or dynamically. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)]
    .map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The package a specifier names: `@sextant/mcp/sdk-server` → `@sextant/mcp`; a relative path → the workspace it leads into. */
function packageOf(specifier: string, from: string, all: readonly Workspace[]): string | undefined {
  if (specifier.startsWith('@sextant/')) return specifier.split('/').slice(0, 2).join('/');
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  return all.filter((w) => target === w.dir || target.startsWith(w.dir + sep)).sort((a, b) => b.dir.length - a.dir.length)[0]?.name;
}

/** Why `from` may not import `to`, or undefined when it may. */
function againstTheStack(from: string, to: string): string | undefined {
  if (from === to || OUTSIDE_THE_STACK.has(from) || OUTSIDE_THE_STACK.has(to)) return undefined;
  const a = RANK[from];
  const b = RANK[to];
  if (a === undefined) return `${from} has no place in the stack (add it to RANK in test/architecture/import-direction.test.ts)`;
  if (b === undefined) return `${to} has no place in the stack (add it to RANK in test/architecture/import-direction.test.ts)`;
  return b < a ? undefined : `${from} imports ${to}, which is not below it`;
}

interface Import {
  from: string;
  to: string;
  where: string;
}

/** Every dependency in a package.json and every import in a package's files that names another Sextant package. */
function crossPackageImports(all: readonly Workspace[]): Import[] {
  const found: Import[] = [];
  for (const w of all) {
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies'] as const) {
      for (const dep of Object.keys(w.manifest[field] ?? {})) {
        if (dep.startsWith('@sextant/')) found.push({ from: w.name, to: dep, where: `${relative(ROOT, join(w.dir, 'package.json'))} ${field}` });
      }
    }
    const nested = all.filter((o) => o !== w && o.dir.startsWith(w.dir + sep)).map((o) => o.dir + sep);
    for (const file of sourceFiles(w.dir)) {
      if (nested.some((d) => file.startsWith(d)) || TOOLING_DIRS.has(relative(w.dir, file).split(sep)[0]!)) continue;
      for (const specifier of specifiersOf(file)) {
        const to = packageOf(specifier, file, all);
        if (to && to !== w.name) found.push({ from: w.name, to, where: `${relative(ROOT, file)}: '${specifier}'` });
      }
    }
  }
  return found;
}

/** The file a specifier leads to: relative paths, and Sextant packages through their package.json exports. */
function resolveImport(specifier: string, from: string, all: readonly Workspace[]): string | undefined {
  if (specifier.startsWith('.')) {
    const path = resolve(dirname(from), specifier);
    return [path, `${path}.ts`, join(path, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
  }
  if (!specifier.startsWith('@sextant/')) return undefined;
  const name = specifier.split('/').slice(0, 2).join('/');
  const w = all.find((o) => o.name === name);
  const subpath = `.${specifier.slice(name.length)}`;
  const target = w?.manifest.exports?.[subpath];
  return w && target ? join(w.dir, target) : undefined;
}

const isNode = (specifier: string) => specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!);

/** The Node modules imported by the files reachable from `entry` (relative imports and Sextant packages followed), with where. */
function nodeImportsReachableFrom(entry: string, all: readonly Workspace[]): { reached: Set<string>; node: string[] } {
  const reached = new Set<string>();
  const node: string[] = [];
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const specifier of specifiersOf(file)) {
      if (isNode(specifier)) node.push(`${relative(ROOT, file)}: '${specifier}'`);
      const next = resolveImport(specifier, file, all);
      if (next) visit(next);
    }
  };
  visit(entry);
  return { reached, node };
}

describe('the import direction', () => {
  const all = workspaces();

  it('knows what goes against the stack', () => {
    expect(againstTheStack('@sextant/mcp', '@sextant/query')).toBeUndefined();
    expect(againstTheStack('@sextant/indexer', '@sextant/runner')).toBeUndefined();
    expect(againstTheStack('@sextant/query', '@sextant/mcp')).toMatch(/not below it/);
    expect(againstTheStack('@sextant/plan', '@sextant/mcp')).toMatch(/not below it/);
    expect(againstTheStack('@sextant/indexer', '@sextant/worker-mcp')).toMatch(/not below it/);
    expect(againstTheStack('@sextant/worker-mcp', '@sextant/indexer')).toMatch(/not below it/);
    expect(againstTheStack('@sextant/newcomer', '@sextant/format')).toMatch(/no place in the stack/);
  });

  it('every package depends on and imports only packages below it', () => {
    for (const w of all) expect(RANK[w.name] !== undefined || OUTSIDE_THE_STACK.has(w.name), `${w.name} has no place in the stack`).toBe(true);
    const imports = crossPackageImports(all);
    // The scan sees what is there (else this test would prove nothing).
    expect(imports).toContainEqual({ from: '@sextant/mcp', to: '@sextant/query', where: 'packages/mcp/package.json dependencies' });
    expect(imports.some((i) => i.from === '@sextant/runner' && i.to === '@sextant/format' && i.where.startsWith('packages/runner/src/'))).toBe(true);
    const wrong = imports.flatMap((i) => {
      const why = againstTheStack(i.from, i.to);
      return why ? [`${i.where}: ${why}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('no file of the worker imports a Node module', () => {
    const worker = all.filter((w) => w.dir.startsWith(join(ROOT, 'workers') + sep));
    expect(worker.map((w) => w.name)).toContain('@sextant/worker-mcp');
    const files = worker.flatMap((w) => sourceFiles(join(w.dir, 'src')));
    expect(files.length).toBeGreaterThan(0);
    const node = files.flatMap((file) => specifiersOf(file).filter(isNode).map((s) => `${relative(ROOT, file)}: '${s}'`));
    expect(node).toEqual([]);
  });

  it('nothing the worker reaches through Sextant\'s packages imports a Node module', () => {
    const entry = join(ROOT, 'workers/mcp', /"main"\s*:\s*"([^"]+)"/.exec(readFileSync(join(ROOT, 'workers/mcp/wrangler.jsonc'), 'utf8'))![1]!);
    const { reached, node } = nodeImportsReachableFrom(entry, all);
    // It reaches into the packages below it (else this test would prove nothing).
    expect([...reached].some((f) => f.startsWith(join(ROOT, 'packages/query/src') + sep))).toBe(true);
    expect(node).toEqual([]);
  });
});
