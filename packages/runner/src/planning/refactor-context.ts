// What planning and applying need about one repository: its working tree (behind the path jail),
// its index (symbols are resolved there, and the plan names the index's commit), and, for
// TypeScript, a language service over the working tree (loaded only when a plan needs it).
import type { IndexReader } from '@sextant/query';
import { PathJail } from '../apply/path-jail.ts';
import { LocalIndexProvider } from '../local-index-provider.ts';
import type { TypeScriptWorkspace } from '../typescript/ts-workspace.ts';
import { readWorkingFile, type WorkingFile } from './working-tree.ts';

export class RefactorContext {
  readonly jail: PathJail;
  readonly provider: LocalIndexProvider;

  private constructor(jail: PathJail, provider: LocalIndexProvider) {
    this.jail = jail;
    this.provider = provider;
  }

  static async open(repoDir: string, indexDir: string): Promise<RefactorContext> {
    const jail = await PathJail.open(repoDir);
    return new RefactorContext(jail, new LocalIndexProvider(indexDir, jail.root));
  }

  get root(): string {
    return this.jail.root;
  }

  reader(): Promise<IndexReader> {
    return this.provider.open();
  }

  read(path: string): Promise<WorkingFile | undefined> {
    return readWorkingFile(this.jail, path);
  }

  /**
   * A language service over the working tree as it is now. A fresh one per plan: the tree may have
   * changed since the last, and a plan must never come from a stale program.
   */
  async typescript(): Promise<TypeScriptWorkspace> {
    const { TypeScriptWorkspace } = await import('../typescript/ts-workspace.ts');
    return TypeScriptWorkspace.open(this.root);
  }
}
