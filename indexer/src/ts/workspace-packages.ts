// The packages of an npm, yarn or pnpm workspace, read from the commit: root package.json
// "workspaces" (an array, or { packages }) and pnpm-workspace.yaml "packages". A package manager
// links each of them into node_modules; the snapshot host shows those links even when nothing is
// installed, so `import { x } from '@acme/core'` resolves to the repository's own source, as it
// does in an editor after `npm install`.
import { posix } from 'node:path';
import { compileRepositoryGlob, type PatternMatcher } from '@sextant/format';

export const WORKSPACE_FILE = /^(package\.json|pnpm-workspace\.yaml)$/;

/** Package name → its repository-relative directory. */
export function workspacePackages(texts: ReadonlyMap<string, string>): Map<string, string> {
  const patterns = [...rootWorkspaces(texts.get('package.json')), ...pnpmWorkspaces(texts.get('pnpm-workspace.yaml'))];
  const packages = new Map<string, string>();
  if (patterns.length === 0) return packages;
  const includes = patterns.filter((p) => !p.startsWith('!')).flatMap(directoryPattern);
  const excludes = patterns.filter((p) => p.startsWith('!')).flatMap((p) => directoryPattern(p.slice(1)));
  for (const [path, text] of [...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (posix.basename(path) !== 'package.json' || path === 'package.json' || path.split('/').includes('node_modules')) continue;
    const dir = posix.dirname(path);
    if (!includes.some((r) => r.test(dir)) || excludes.some((r) => r.test(dir))) continue;
    const name = packageName(text);
    if (name && !packages.has(name)) packages.set(name, dir);
  }
  return packages;
}

function rootWorkspaces(text: string | undefined): string[] {
  if (!text) return [];
  try {
    const workspaces = (JSON.parse(text) as { workspaces?: unknown }).workspaces;
    const list = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** The `packages:` list of pnpm-workspace.yaml (a block sequence of plain or quoted scalars). */
function pnpmWorkspaces(text: string | undefined): string[] {
  if (!text) return [];
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) {
      inPackages = true;
      continue;
    }
    if (!inPackages || /^\s*(#.*)?$/.test(line)) continue;
    const item = /^\s+-\s*(['"]?)([^'"#]+?)\1\s*(#.*)?$/.exec(line);
    if (item) patterns.push(item[2]!.trim());
    else if (/^\S/.test(line)) inPackages = false;
  }
  return patterns;
}

function packageName(text: string): string | undefined {
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' && name.length > 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A workspace glob matched against a whole directory path: `*` within a segment, `**` across them.
 * None for a glob past the matcher's budget, as if the line were absent.
 */
function directoryPattern(glob: string): PatternMatcher[] {
  const matcher = compileRepositoryGlob(glob.replace(/^\.\//, '').replace(/\/+$/, ''), { whole: true });
  return matcher ? [matcher] : [];
}
