// TypeScript and JavaScript as the build sees them before anything is compiled: which files are
// theirs and which their indexer reads, and the indexer itself (typescript-indexer.ts), loaded with
// the compiler only when a commit has such files to index: the compiler is 80 MB of a process's
// memory that a Java or Kotlin repository's build has no use for.
import { TS_JS_EXTENSIONS } from '@sextant/format';
import type { LanguageIndexer } from '../language-indexer.ts';
import { WORKSPACE_FILE } from './workspace-packages.ts';

const CONFIG_FILE = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json)$/;
/** JSON a module may import (resolveJsonModule): the compiler types it, so its changes are changes of types. */
const JSON_FILE = /\.json$/;

/** How a warning of a program's configuration ends in the manifest. */
export const PROGRAM_WARNING = ' (its files are indexed; fix the project configuration for exact results)';

/** The language's files and what its indexer reads, shared by the indexer and the build's view of it. */
export const typescriptFiles: Omit<LanguageIndexer, 'index'> = {
  name: 'typescript',
  precision: 'compiler',
  reusesFiles: true,
  accepts: (path) => TS_JS_EXTENSIONS.some((ext) => path.endsWith(ext)),
  reads: (path) => CONFIG_FILE.test(path) || WORKSPACE_FILE.test(path),
  readsIfSmall: (path) => JSON_FILE.test(path),
};

/** The build's TypeScript and JavaScript indexer: typescript-indexer.ts, loaded when first asked to index. */
export const typescriptLanguage: LanguageIndexer = {
  ...typescriptFiles,
  async *index(files, context) {
    const { typescriptIndexer } = await import('./typescript-indexer.ts');
    yield* typescriptIndexer.index(files, context);
  },
};
