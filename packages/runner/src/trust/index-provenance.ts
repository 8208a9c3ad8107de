// Which plans this user's runner key may vouch for. A plan is made from an index (the symbols it
// finds, and for Java and Kotlin the sites it edits); an index the user's indexer built is the
// user's own, but one a repository ships in its tree (a committed .sextant/index, say) is the
// repository's word, manifest.sha256 included, and so is one reached through a symbolic link that
// stands in a working tree (a committed `.sextant -> /tmp/prepared`, say). A plan made from either
// must not carry the user's signature, which `runner apply` and apply_plan accept as the user's own.
import { execFileSync } from 'node:child_process';
import type { PlanSigner } from '@sextant/plan';
import { linksInWorkTrees } from '@sextant/query/node';
import { userPlanSigner } from './user-key.ts';

/** The git working tree that tracks files of `indexDir`, or undefined when git tracks none of them. */
export function trackingTree(indexDir: string): string | undefined {
  try {
    const tracked = execFileSync('git', ['-C', indexDir, 'ls-files', '--', '.'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    if (tracked.trim() === '') return undefined;
    return execFileSync('git', ['-C', indexDir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined; // not inside a git working tree: nobody shipped it with one
  }
}

/**
 * The signer for plans made from `indexDir`: this user's key, loaded on the first plan (so a
 * server that only answers reads never needs the config directory), or none, with a line saying
 * why, when the index came with a repository.
 */
export function planSignerFor(indexDir: string, warn: (line: string) => void): Pick<PlanSigner, 'sign'> | undefined {
  const [through] = linksInWorkTrees(indexDir);
  if (through !== undefined) {
    warn(`sextant runner: the index ${indexDir} is reached through the symbolic link ${through.link} in the working tree ${through.tree}, which a repository can commit, so it is not known to be yours: plans made from it are not signed, and runner apply takes them only with --allow-unsigned. Build your own with \`indexer build\` into a real directory (the default .sextant/index, or --out) to have them signed.`);
    return undefined;
  }
  const tree = trackingTree(indexDir);
  if (tree !== undefined) {
    warn(`sextant runner: the index ${indexDir} is tracked by git in ${tree}, so it came with the repository: plans made from it are not signed, and runner apply takes them only with --allow-unsigned. Build your own with \`indexer build\` to have them signed.`);
    return undefined;
  }
  return { sign: async (plan) => (await userPlanSigner()).sign(plan) };
}

/**
 * The signer for a server of several indexes: each plan is vouched for by the index it was made
 * from (the one of its commit, found with `indexDirOf`), as planSignerFor does for one. A plan of a
 * commit no index is found for, or of an index git tracks, goes out unsigned. The directories of
 * `known` are looked at now, so that the warning about one a repository ships comes at start.
 */
export function planSignerForIndexes(
  known: readonly string[], indexDirOf: (commit: string) => Promise<string | undefined>, warn: (line: string) => void,
): Pick<PlanSigner, 'sign'> {
  const signers = new Map(known.map((dir) => [dir, planSignerFor(dir, warn)]));
  return {
    async sign(plan) {
      const dir = await indexDirOf(plan.commit);
      if (dir === undefined) {
        warn(`sextant runner: no index of ${plan.commit} is served, so the plan made against it is not signed.`);
        return plan;
      }
      if (!signers.has(dir)) signers.set(dir, planSignerFor(dir, warn));
      const signer = signers.get(dir);
      return signer ? signer.sign(plan) : plan;
    },
  };
}
