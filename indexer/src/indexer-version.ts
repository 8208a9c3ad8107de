// The indexer's version as a manifest records it: the package's version and a digest of what decides
// what an index holds (the indexer's sources, its queries and library models, and the format and
// query packages that write shards and read a previous index back). An incremental build reuses a
// previous index's records only when it was built by this very version (incremental-plan.ts), so an
// edit to any of these, released or not, builds in full instead of mixing two indexers' records.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

let version: string | undefined;

/**
 * `0.2.1+3f9c0a1b`: the package version, then the first 8 hex digits of the digest of its inputs;
 * read on the first call (a build's), not when the CLI starts.
 */
export function indexerVersion(): string {
  return (version ??= digestVersion());
}

function digestVersion(): string {
  const release = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256');
  const roots: { name: string; dir: string; parts: string[] }[] = [
    { name: 'indexer', dir: PACKAGE_DIR, parts: ['src', 'queries', 'data'] },
    ...['@sextant/format', '@sextant/query'].map((name) => ({ name, dir: dirname(fileURLToPath(import.meta.resolve(name))), parts: ['.'] })),
  ];
  for (const { name, dir, parts } of roots) {
    for (const part of parts) {
      for (const path of filesUnder(join(dir, part))) hash.update(`${name}/${relative(dir, path)}\0`).update(readFileSync(path)).update('\0');
    }
  }
  return `${release}+${hash.digest('hex').slice(0, 8)}`;
}

/** Every file under `dir`, in a fixed order (tests and benches' scratch directories are not under these roots). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
