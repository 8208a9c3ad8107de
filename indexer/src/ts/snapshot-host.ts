// A compiler host that sees the repository as it is at the indexed commit: tracked files come from
// the git snapshot, never the working tree; dependencies (node_modules) and the TypeScript lib come
// from disk. Source files are parsed once and shared by every program of the repository, as the
// language service's document registry does. Workspace packages appear linked into node_modules
// (workspace-packages.ts) whether or not anything is installed, and a project reference resolves to
// the referenced project's sources, not its build output, as tsserver resolves them.
import { realpathSync, existsSync, readFileSync, statSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { posix } from 'node:path';
import { ts } from 'ts-morph';
import { libFolderInMemoryPath } from '@ts-morph/common';
import { failedWhileIndexing } from '../analysis-failure.ts';
import { matchFiles } from './compiler-internals.ts';
import { workspacePackages } from './workspace-packages.ts';

// The TypeScript lib .d.ts files as the typescript package ships them, served at the in-memory folder
// ts-morph's bundled compiler expects. ts-morph's own copies are minified (no whitespace, no
// comments), which left every lib symbol with a signature like `padStart(maxLength:number):string;`
// and no doc. The package matches the bundled compiler's major and minor version (a test checks).
export const LIB_FOLDER = libFolderInMemoryPath;
const LIB_PACKAGE = createRequire(import.meta.url).resolve('typescript/package.json');
/** The version of the typescript package the lib files come from, which external lib symbols name. */
export const LIB_VERSION = (JSON.parse(readFileSync(LIB_PACKAGE, 'utf8')) as { version: string }).version;
const LIB_SOURCE = posix.join(posix.dirname(LIB_PACKAGE), 'lib');
const LIB_NAMES = new Set(readdirSync(LIB_SOURCE).filter((name) => /^lib(\..+)?\.d\.ts$/.test(name)));
const libTexts = new Map<string, string>();

/** The lib file a path names (`lib.es2022.d.ts`), if it is one. */
function libName(fileName: string): string | undefined {
  const name = fileName.startsWith(`${LIB_FOLDER}/`) ? fileName.slice(LIB_FOLDER.length + 1) : undefined;
  return name !== undefined && LIB_NAMES.has(name) ? name : undefined;
}

/** A lib file's text, read when a program first asks for it: a program uses a few of the hundred. */
function libText(name: string): string {
  let text = libTexts.get(name);
  if (text === undefined) libTexts.set(name, text = readFileSync(posix.join(LIB_SOURCE, name), 'utf8'));
  return text;
}

/**
 * program.ts reads this (internal) host member: with it, a module of a referenced project resolves to
 * that project's sources instead of its declaration output, which is never built here.
 */
const sourceOfProjectReferences = { useSourceOfProjectReferenceRedirect: () => true } as Partial<ts.CompilerHost>;

/**
 * Targets the parser reads a file the same under: the scanner distinguishes only below ES2015
 * (identifier characters) and below ES2018 (regular expression flags), so every program with a
 * target of ES2018 or later shares one parse of a file (and its binding), as tsserver's document
 * registry shares files between projects with equal settings. Sextant's own repository has projects
 * at ES2022 and a default program at ESNext: one parse of each file instead of two.
 */
function parseTargetClass(target: ts.ScriptTarget): string {
  return target >= ts.ScriptTarget.ES2018 ? 'es2018+' : String(target);
}

export class SnapshotHost {
  readonly root: string;
  private readonly texts: Map<string, string>;
  private readonly directories = new Set<string>();
  private readonly sourceFiles = new Map<string, ts.SourceFile>();
  private readonly realpaths = new Map<string, string>();
  /** Workspace package name → repository-relative directory. */
  readonly workspaces: ReadonlyMap<string, string>;
  /** node_modules folders (and @scope folders in them) that exist only as workspace links. */
  private readonly linkDirectories = new Set<string>();

  /** `texts`: repository-relative path → content at the commit. */
  constructor(root: string, texts: Map<string, string>) {
    this.root = root.replace(/\\/g, '/').replace(/\/$/, '');
    this.texts = texts;
    for (const path of texts.keys()) {
      for (let dir = posix.dirname(path); dir !== '.'; dir = posix.dirname(dir)) {
        if (this.directories.has(dir)) break;
        this.directories.add(dir);
      }
    }
    this.workspaces = workspacePackages(texts);
    if (this.workspaces.size > 0) this.linkDirectories.add('node_modules');
    for (const name of this.workspaces.keys()) if (name.startsWith('@')) this.linkDirectories.add(`node_modules/${name.split('/')[0]}`);
  }

  /** The repository-relative path of an absolute path inside the snapshot, if it is one. */
  relative(fileName: string): string | undefined {
    const normalized = fileName.replace(/\\/g, '/');
    if (!normalized.startsWith(`${this.root}/`)) return undefined;
    const rel = normalized.slice(this.root.length + 1);
    if (rel.split('/').includes('node_modules')) {
      // A workspace package linked into node_modules is the repository's own source.
      const linked = this.linkTarget(rel);
      if (linked !== undefined) return linked;
      const real = this.realpath(normalized);
      return real !== normalized ? this.relative(real) : undefined;
    }
    return rel;
  }

  /** `node_modules/@acme/core/src/x.ts` (at any depth) → `packages/core/src/x.ts` for a workspace package. */
  private linkTarget(rel: string): string | undefined {
    if (this.workspaces.size === 0) return undefined;
    const at = rel.lastIndexOf('node_modules/');
    if (at !== 0 && rel[at - 1] !== '/') return undefined;
    const rest = rel.slice(at + 'node_modules/'.length).split('/');
    const scoped = rest[0]?.startsWith('@');
    const name = rest.slice(0, scoped ? 2 : 1).join('/');
    const dir = this.workspaces.get(name);
    if (dir === undefined) return undefined;
    return [dir, ...rest.slice(scoped ? 2 : 1)].join('/');
  }

  paths(): IterableIterator<string> {
    return this.texts.keys();
  }

  absolute(path: string): string {
    return `${this.root}/${path}`;
  }

  private onDisk(fileName: string): boolean {
    const normalized = fileName.replace(/\\/g, '/');
    return !normalized.startsWith(`${this.root}/`) && normalized !== this.root
      || normalized.slice(this.root.length + 1).split('/').includes('node_modules');
  }

  fileExists = (fileName: string): boolean => {
    if (libName(fileName)) return true;
    const rel = this.relative(fileName);
    if (rel !== undefined) return this.texts.has(rel);
    return this.onDisk(fileName) && existsSync(fileName) && statSync(fileName).isFile();
  };

  readFile = (fileName: string): string | undefined => {
    const lib = libName(fileName);
    if (lib) return libText(lib);
    const rel = this.relative(fileName);
    if (rel !== undefined) return this.texts.get(rel);
    if (!this.onDisk(fileName)) return undefined;
    try {
      return readFileSync(fileName, 'utf8');
    } catch {
      return undefined;
    }
  };

  directoryExists = (dir: string): boolean => {
    const normalized = dir.replace(/\\/g, '/').replace(/\/$/, '');
    if (normalized === this.root || normalized === LIB_FOLDER) return true;
    const inRoot = normalized.startsWith(`${this.root}/`) ? normalized.slice(this.root.length + 1) : undefined;
    if (inRoot !== undefined && this.linkDirectories.has(inRoot.slice(inRoot.lastIndexOf('node_modules')))) return true;
    const rel = this.relative(normalized);
    if (rel !== undefined) return rel === '' || this.directories.has(rel);
    return this.onDisk(normalized) && existsSync(normalized) && statSync(normalized).isDirectory();
  };

  realpath = (path: string): string => {
    const normalized = path.replace(/\\/g, '/');
    if (normalized.startsWith(`${this.root}/`) && this.workspaces.size > 0) {
      const linked = this.linkTarget(normalized.slice(this.root.length + 1));
      if (linked !== undefined) return this.absolute(linked);
    }
    // Outside the snapshot (node_modules) the disk does not change during a build: each path is resolved once.
    let real = this.realpaths.get(path);
    if (real === undefined) {
      try {
        real = realpathSync.native(path).replace(/\\/g, '/');
      } catch {
        real = path;
      }
      this.realpaths.set(path, real);
    }
    return real;
  };

  /** Entries of a directory for tsconfig include/exclude matching. */
  entries(dir: string): { files: string[]; directories: string[] } {
    const normalized = dir.replace(/\\/g, '/').replace(/\/$/, '');
    if (this.onDisk(normalized)) {
      try {
        const dirents = readdirSync(normalized, { withFileTypes: true });
        return {
          files: dirents.filter((d) => d.isFile()).map((d) => d.name).sort(),
          directories: dirents.filter((d) => d.isDirectory()).map((d) => d.name).sort(),
        };
      } catch {
        return { files: [], directories: [] };
      }
    }
    const rel = normalized === this.root ? '' : normalized.slice(this.root.length + 1);
    const prefix = rel ? `${rel}/` : '';
    const files = new Set<string>();
    const directories = new Set<string>();
    for (const path of this.texts.keys()) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) files.add(rest);
      else directories.add(rest.slice(0, slash));
    }
    return { files: [...files].sort(), directories: [...directories].sort() };
  }

  readDirectory = (
    rootDir: string, extensions: readonly string[], excludes: readonly string[] | undefined,
    includes: readonly string[], depth?: number,
  ): string[] => {
    // ts.matchFiles is what ts.sys.readDirectory runs; only the file system entries differ here.
    return matchFiles(rootDir, extensions, excludes, includes, true, this.root, depth, (d) => this.entries(d), this.realpath);
  };

  parseConfigHost(): ts.ParseConfigHost {
    return {
      useCaseSensitiveFileNames: true,
      fileExists: this.fileExists,
      readFile: this.readFile,
      readDirectory: this.readDirectory,
    };
  }

  compilerHost(options: ts.CompilerOptions): ts.CompilerHost {
    return {
      getSourceFile: (fileName, languageVersionOrOptions) => this.sourceFile(fileName, languageVersionOrOptions),
      getDefaultLibFileName: (o) => `${LIB_FOLDER}/${ts.getDefaultLibFileName(o)}`,
      getDefaultLibLocation: () => LIB_FOLDER,
      writeFile: () => {},
      getCurrentDirectory: () => this.root,
      getCanonicalFileName: (f) => f,
      useCaseSensitiveFileNames: () => true,
      getNewLine: () => '\n',
      fileExists: this.fileExists,
      readFile: this.readFile,
      directoryExists: this.directoryExists,
      realpath: this.realpath,
      getDirectories: (d) => this.entries(d).directories,
      // Needed to read the tsconfig of a referenced project.
      readDirectory: this.readDirectory,
      ...sourceOfProjectReferences,
    };
  }

  private sourceFile(fileName: string, options: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.SourceFile | undefined {
    const target = typeof options === 'object' ? options.languageVersion : options;
    const key = `${fileName}\0${parseTargetClass(target)}/${typeof options === 'object' ? options.impliedNodeFormat : ''}`;
    const cached = this.sourceFiles.get(key);
    if (cached) return cached;
    const text = this.readFile(fileName);
    if (text === undefined) return undefined;
    let sourceFile: ts.SourceFile;
    try {
      sourceFile = ts.createSourceFile(fileName, text, options, true);
    } catch (error) {
      // The parser recurses per nesting level: 1,000 nested parentheses overflow the stack.
      const path = this.relative(fileName);
      if (path === undefined) throw failedWhileIndexing(error, `${this.displayName(fileName)} (in the TypeScript parser)`);
      this.exclude(path, 'the TypeScript parser', error);
      return undefined;
    }
    this.sourceFiles.set(key, sourceFile);
    return sourceFile;
  }

  /** A file outside the snapshot as an error names it: `node_modules/pkg/index.d.ts`, else its absolute path. */
  displayName(fileName: string): string {
    const normalized = fileName.replace(/\\/g, '/');
    return normalized.startsWith(`${this.root}/`) ? normalized.slice(this.root.length + 1) : normalized;
  }

  /** Files the compiler could not handle, by repository-relative path: where it failed and the error. */
  readonly failures = new Map<string, { stage: string; error: unknown }>();

  /**
   * Takes a file out of the snapshot: programs created from now on see no such file (an import of it
   * is unresolved), so no other file's results depend on a file that is not indexed.
   */
  exclude(path: string, stage: string, error: unknown): void {
    if (!this.failures.has(path)) this.failures.set(path, { stage, error });
    this.texts.delete(path);
    const prefix = `${this.absolute(path)}\0`;
    for (const key of this.sourceFiles.keys()) if (key.startsWith(prefix)) this.sourceFiles.delete(key);
  }
}
