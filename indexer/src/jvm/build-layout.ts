// Maven and Gradle modules of a repository, read from the build files tracked at the commit
// (pom.xml, build.gradle(.kts), settings.gradle(.kts)): which module a source file belongs to and
// which modules it depends on. Resolution uses it to prefer, among classes with the same qualified
// name, the one the asking module can see; test, main and generated sources are told apart by path
// (file-classification.ts) as the build tools' conventions place them.

export const BUILD_FILE = /(^|\/)(pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?)$/;

export interface BuildModule {
  /** Directory of the module, '' for the repository root. */
  dir: string;
  /** Gradle path (`:app`) or Maven artifactId. */
  name: string;
  tool: 'maven' | 'gradle';
  /** Directories of the modules it depends on. */
  deps: Set<string>;
}

export class BuildLayout {
  /** Longest directory first, so the first prefix match is the innermost module. */
  private readonly byDepth: BuildModule[];

  constructor(readonly modules: BuildModule[]) {
    this.byDepth = [...modules].sort((a, b) => b.dir.length - a.dir.length);
  }

  static detect(texts: ReadonlyMap<string, string>): BuildLayout {
    const modules = new Map<string, BuildModule>();
    const gradleDeps = new Map<string, string[]>();
    const mavenDeps = new Map<string, string[]>();
    const add = (dir: string, tool: BuildModule['tool'], name: string) => {
      if (!modules.has(dir)) modules.set(dir, { dir, name, tool, deps: new Set() });
      return modules.get(dir)!;
    };
    for (const [path, text] of texts) {
      const match = BUILD_FILE.exec(path);
      if (!match) continue;
      const dir = path.slice(0, path.length - match[2]!.length).replace(/\/$/, '');
      const file = match[2]!;
      if (file === 'pom.xml') {
        // The project's own artifactId: the first one outside <parent> and <dependencies>.
        const own = text.replace(/<parent>[\s\S]*?<\/parent>/, '').replace(/<dependencies>[\s\S]*?<\/dependencies>/g, '').replace(/<build>[\s\S]*<\/build>/, '');
        add(dir, 'maven', /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(own)?.[1] ?? dir);
        const deps = [...text.matchAll(/<dependency>[\s\S]*?<artifactId>\s*([^<\s]+)\s*<\/artifactId>[\s\S]*?<\/dependency>/g)].map((m) => m[1]!);
        mavenDeps.set(dir, deps);
      } else if (file.startsWith('settings.gradle')) {
        for (const include of text.matchAll(/include\s*\(?([^)\n]*)\)?/g)) {
          for (const project of include[1]!.matchAll(/["']:?([^"']+)["']/g)) {
            const projectDir = [dir, project[1]!.replace(/:/g, '/')].filter(Boolean).join('/');
            add(projectDir, 'gradle', `:${project[1]!.replace(/^:/, '')}`);
          }
        }
        add(dir, 'gradle', ':');
      } else {
        add(dir, 'gradle', dir ? `:${dir.replace(/\//g, ':')}` : ':');
        gradleDeps.set(dir, [...text.matchAll(/project\s*\(\s*(?:path\s*[:=]\s*)?["'](:[^"']*)["']/g)].map((m) => m[1]!));
      }
    }
    const byName = new Map([...modules.values()].map((m) => [m.name, m.dir]));
    for (const [dir, deps] of [...gradleDeps, ...mavenDeps]) {
      const module = modules.get(dir)!;
      for (const dep of deps) {
        const target = byName.get(dep);
        if (target !== undefined && target !== dir) module.deps.add(target);
      }
    }
    return new BuildLayout([...modules.values()].sort((a, b) => (a.dir < b.dir ? -1 : 1)));
  }

  /** Directory of the innermost module containing the path ('' outside every module). */
  moduleOf(path: string): string {
    for (const module of this.byDepth) if (module.dir === '' || path.startsWith(`${module.dir}/`)) return module.dir;
    return '';
  }

  /**
   * Orders same-named candidates by how visible they are from `module`: its own first, then its
   * dependencies, then main sources before test sources, then by path.
   */
  prefer<T>(items: readonly T[], module: string, pathOf: (item: T) => string): T[] {
    const deps = this.byDepth.find((m) => m.dir === module)?.deps;
    const rank = (item: T) => {
      const path = pathOf(item);
      const owner = this.moduleOf(path);
      return (owner === module ? 0 : deps?.has(owner) ? 1 : 2) * 2 + (/(^|\/)src\/test/.test(path) ? 1 : 0);
    };
    return [...items].sort((a, b) => rank(a) - rank(b) || (pathOf(a) < pathOf(b) ? -1 : 1));
  }

  describe(): string {
    if (this.modules.length === 0) return 'no Maven or Gradle build files';
    const tools = [...new Set(this.modules.map((m) => m.tool))].join(' and ');
    return `${this.modules.length} ${tools} module${this.modules.length === 1 ? '' : 's'}: ${this.modules.map((m) => m.name).join(', ')}`;
  }
}
