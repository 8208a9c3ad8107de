// TypeScript and JavaScript, resolved by the TypeScript compiler: one program per project, files
// shared between programs, each file indexed once by the program that owns it.
import { TS_JS_EXTENSIONS } from '@sextant/format';
import type { LanguageIndexer } from '../language-indexer.ts';
import { PackageCache } from './external-origin.ts';
import { planPrograms } from './project-plan.ts';
import { ProgramIndexer } from './program-indexer.ts';
import { SnapshotHost } from './snapshot-host.ts';
import { WORKSPACE_FILE } from './workspace-packages.ts';

const CONFIG_FILE = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json)$/;
/** JSON a module may import (resolveJsonModule): the compiler types it, so its changes are changes of types. */
const JSON_FILE = /\.json$/;

export const typescriptIndexer: LanguageIndexer = {
  name: 'typescript',
  precision: 'compiler',
  reusesFiles: true,
  accepts: (path) => TS_JS_EXTENSIONS.some((ext) => path.endsWith(ext)),
  reads: (path) => CONFIG_FILE.test(path) || WORKSPACE_FILE.test(path),
  readsIfSmall: (path) => JSON_FILE.test(path),
  *index(files, { root, texts, collector, warnings, progress, walk }) {
    const host = new SnapshotHost(root, new Map(texts));
    const plans = planPrograms(host, files.map((f) => f.path), warnings);
    const packages = new PackageCache();
    for (const plan of plans) {
      progress.log(`  program ${plan.config ?? '(files outside every tsconfig)'}: ${plan.owned.length} files`);
      // One program at a time: a finished program is garbage once its files are yielded.
      const indexer = new ProgramIndexer(host, plan, collector, packages);
      for (const warning of indexer.programWarnings()) {
        const line = `${warning} (its files are indexed; fix the project configuration for exact results)`;
        if (!warnings.includes(line)) warnings.push(line);
      }
      yield* indexer.indexFiles(walk);
    }
  },
};
