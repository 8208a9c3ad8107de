// TypeScript and JavaScript, resolved by the TypeScript compiler: one program per project, files
// shared between programs, each file indexed once by the program that owns it. The build reaches it
// through typescript-language.ts, which loads it (and the compiler) only for a repository that has
// such files.
import type { LanguageIndexer } from '../language-indexer.ts';
import { PackageCache } from './external-origin.ts';
import { planPrograms } from './project-plan.ts';
import { ProgramIndexer } from './program-indexer.ts';
import { SnapshotHost } from './snapshot-host.ts';
import { PROGRAM_WARNING, typescriptFiles } from './typescript-language.ts';

export const typescriptIndexer: LanguageIndexer = {
  ...typescriptFiles,
  *index(files, { root, texts, collector, warnings, progress, walk, globals, beforeWalk }) {
    const host = new SnapshotHost(root, new Map(texts));
    // An incremental build's programs hold the walked files, what they import (the compiler follows
    // the imports) and the files whose declarations reach beyond their module: what any file's
    // answers can depend on, without parsing and binding the rest. Not a composite project's, where
    // an imported file missing from the roots is an error of the program (TS6307).
    const held = walk && globals && new Set([...walk, ...globals]);
    const plans = planPrograms(host, files.map((f) => f.path), warnings).map((plan) => (held && !plan.options.composite
      ? { ...plan, rootNames: plan.rootNames.filter((name) => { const path = host.relative(name); return path === undefined || held.has(path); }) }
      : plan));
    const packages = new PackageCache();
    for (const plan of plans) {
      progress.log(`  program ${plan.config ?? '(files outside every tsconfig)'}: ${plan.owned.length} files`);
      // One program at a time: a finished program is garbage once its files are yielded.
      const indexer = new ProgramIndexer(host, plan, collector, packages);
      for (const warning of indexer.programWarnings()) {
        const line = `${warning}${PROGRAM_WARNING}`;
        if (!warnings.includes(line)) warnings.push(line);
      }
      beforeWalk?.();
      yield* indexer.indexFiles(walk);
    }
  },
};
