// Where a declaration outside the repository comes from: the TypeScript lib, or an npm package
// (name and version from its package.json) under node_modules. External symbols are named by that
// origin and their qualified name, so `useState` from react is one symbol in every file that uses it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import type { ExternalOrigin } from '@sextant/format';
import { LIB_FOLDER, LIB_VERSION } from './snapshot-host.ts';

/** Package name and version of files under node_modules, reading each package.json once. */
export class PackageCache {
  private readonly versions = new Map<string, string | undefined>();

  originOf(fileName: string): ExternalOrigin {
    const normalized = fileName.replace(/\\/g, '/');
    if (normalized.startsWith(`${LIB_FOLDER}/`)) return { package: 'typescript', version: LIB_VERSION };
    const parts = normalized.split('/');
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) return { package: normalized };
    const scoped = parts[at + 1]?.startsWith('@');
    const name = parts.slice(at + 1, at + (scoped ? 3 : 2)).join('/');
    const dir = parts.slice(0, at + (scoped ? 3 : 2)).join('/');
    if (!this.versions.has(dir)) {
      let version: string | undefined;
      try {
        version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
      } catch {
        version = undefined;
      }
      this.versions.set(dir, version);
    }
    const version = this.versions.get(dir);
    return version ? { package: name, version } : { package: name };
  }
}

/**
 * The qualified name of an external symbol inside its package: the checker's fully qualified name
 * without the quoted module it starts with (`"/…/node_modules/react/index".useState` → `useState`).
 * A module itself is named by its path inside the package, without extension (`react`,
 * `react/jsx-runtime`); an ambient `declare module 'x'` by its name.
 */
export function externalQualifiedName(checker: ts.TypeChecker, symbol: ts.Symbol, declaration: ts.Declaration, origin: ExternalOrigin): string {
  if (ts.isSourceFile(declaration)) {
    const fileName = declaration.fileName.replace(/\\/g, '/');
    const marker = `/node_modules/${origin.package}/`;
    const at = fileName.lastIndexOf(marker);
    if (at < 0) return fileName.slice(fileName.lastIndexOf('/') + 1);
    const inPackage = fileName.slice(at + marker.length);
    const module = inPackage.replace(/\.d\.[cm]?ts$|\.[cm]?[jt]sx?$/, '').replace(/(^|\/)index$/, '');
    return module ? `${origin.package}/${module}` : origin.package;
  }
  return checker.getFullyQualifiedName(symbol).replace(/^"[^"]*"\.?/, '') || symbol.getName().replace(/^"|"$/g, '');
}
