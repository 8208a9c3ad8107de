// The TypeScript language service over a working tree, as the refactorings need it. Every
// tsconfig.json / jsconfig.json in the tree is a project; files no project includes share one
// default project (the options the indexer uses). Sources are read from disk as plans address
// them (UTF-8, no byte-order mark); the TypeScript lib comes from ts-morph, as in the indexer.
// An overlay lets a refactoring ask "what would the compiler say after these edits" without
// writing anything.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { ts } from 'ts-morph';
import { getLibFiles, libFolderInMemoryPath } from '@ts-morph/common';
import { decodeText, SextantError } from '@sextant/format';
import { listWorkingTree } from '../planning/working-tree.ts';
import { isTypeScriptPath } from './ts-paths.ts';

const LIB_FILES = new Map(getLibFiles().map((f) => [`${libFolderInMemoryPath}/${f.fileName}`, f.text]));

/** The compiler options the indexer gives files no tsconfig includes. */
const DEFAULT_OPTIONS: ts.CompilerOptions = {
  allowJs: true, checkJs: false, jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler, resolveJsonModule: true, strict: true, skipLibCheck: true, noEmit: true,
  allowImportingTsExtensions: true, esModuleInterop: true,
};

export interface Project {
  /** The config's repository-relative path, or undefined for the default project. */
  config?: string;
  service: ts.LanguageService;
}

export class TypeScriptWorkspace {
  readonly root: string;
  private readonly overlay = new Map<string, { text: string; version: number }>();
  private readonly versions = new Map<string, number>();
  private readonly registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, '/');
  private projectList?: Project[];

  private constructor(root: string) {
    this.root = root.replace(/\\/g, '/').replace(/\/$/, '');
  }

  static async open(root: string): Promise<TypeScriptWorkspace> {
    const workspace = new TypeScriptWorkspace(root);
    workspace.projectList = workspace.createProjects(await listWorkingTree(root));
    return workspace;
  }

  absolute(path: string): string {
    return `${this.root}/${path}`;
  }

  /** The repository-relative path of a file the compiler names, or undefined outside the tree or in node_modules. */
  relative(fileName: string): string | undefined {
    const normalized = fileName.replace(/\\/g, '/');
    if (!normalized.startsWith(`${this.root}/`)) return undefined;
    const rel = normalized.slice(this.root.length + 1);
    return rel.split('/').includes('node_modules') ? undefined : rel;
  }

  /** Projects whose program contains the file, the one that owns it first. */
  projectsOf(path: string): Project[] {
    const fileName = this.absolute(path);
    const projects = this.projectList!.filter((p) => p.service.getProgram()?.getSourceFile(fileName));
    if (projects.length === 0) {
      throw new SextantError('FILE_NOT_FOUND', `No TypeScript project of the working tree contains ${path}.`,
        'Check that the file exists and is included by a tsconfig.json (or by none, for the default project).');
    }
    return projects;
  }

  /** The project that owns the file (nearest tsconfig including it, else the default project). */
  projectOf(path: string): Project {
    return this.projectsOf(path)[0]!;
  }

  sourceFile(path: string): ts.SourceFile {
    const file = this.projectOf(path).service.getProgram()!.getSourceFile(this.absolute(path));
    if (!file) throw new SextantError('FILE_NOT_FOUND', `${path} is not in a TypeScript program.`, 'Check the path.');
    return file;
  }

  /** Texts that replace the disk's for the next questions (absent text: the file is deleted). */
  setOverlay(texts: Map<string, string | undefined>): void {
    for (const [path, text] of texts) {
      const fileName = this.absolute(path);
      const version = (this.versions.get(fileName) ?? 0) + 1;
      this.versions.set(fileName, version);
      if (text === undefined) this.overlay.set(fileName, { text: '', version: -version });
      else this.overlay.set(fileName, { text, version });
    }
  }

  clearOverlay(): void {
    for (const fileName of this.overlay.keys()) this.versions.set(fileName, (this.versions.get(fileName) ?? 0) + 1);
    this.overlay.clear();
  }

  private readText(fileName: string): string | undefined {
    const lib = LIB_FILES.get(fileName);
    if (lib !== undefined) return lib;
    const overlaid = this.overlay.get(fileName);
    if (overlaid) return overlaid.version < 0 ? undefined : overlaid.text;
    try {
      return decodeText(new Uint8Array(readFileSync(fileName)), fileName).text;
    } catch {
      return undefined;
    }
  }

  private exists(fileName: string): boolean {
    if (LIB_FILES.has(fileName)) return true;
    const overlaid = this.overlay.get(fileName);
    if (overlaid) return overlaid.version >= 0;
    return existsSync(fileName) && statSync(fileName).isFile();
  }

  private createProjects(files: string[]): Project[] {
    const present = files.filter((f) => existsSync(this.absolute(f)));
    const configs = present.filter((p) => /(^|\/)(tsconfig|jsconfig)\.json$/.test(p));
    configs.sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
    const claimed = new Set<string>();
    const projects: Project[] = [];
    for (const config of configs) {
      const parsed = ts.getParsedCommandLineOfConfigFile(this.absolute(config), undefined, {
        ...ts.sys,
        getCurrentDirectory: () => this.absolute(posix.dirname(config)),
        onUnRecoverableConfigFileDiagnostic: () => {},
      });
      if (!parsed) continue;
      for (const name of parsed.fileNames) {
        const rel = this.relative(name);
        if (rel) claimed.add(rel);
      }
      projects.push({ config, service: this.createService({ ...parsed.options, noEmit: true }, parsed.fileNames, parsed.projectReferences) });
    }
    const rest = present.filter((p) => isTypeScriptPath(p) && !claimed.has(p)).map((p) => this.absolute(p));
    if (rest.length > 0) projects.push({ service: this.createService(DEFAULT_OPTIONS, rest) });
    return projects;
  }

  private createService(options: ts.CompilerOptions, fileNames: string[], references?: readonly ts.ProjectReference[]): ts.LanguageService {
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getProjectReferences: () => references,
      getScriptFileNames: () => fileNames.filter((f) => this.exists(f)),
      getScriptVersion: (fileName) => String(this.versions.get(fileName) ?? 0),
      getScriptSnapshot: (fileName) => {
        const text = this.readText(fileName);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => this.root,
      getDefaultLibFileName: (o) => `${libFolderInMemoryPath}/${ts.getDefaultLibFileName(o)}`,
      fileExists: (fileName) => this.exists(fileName),
      readFile: (fileName) => this.readText(fileName),
      directoryExists: (dir) => dir === libFolderInMemoryPath || ts.sys.directoryExists(dir),
      getDirectories: (dir) => ts.sys.getDirectories(dir),
      readDirectory: (...args) => ts.sys.readDirectory(...args),
      realpath: (path) => ts.sys.realpath?.(path) ?? path,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
    };
    return ts.createLanguageService(host, this.registry);
  }
}
