// Which plans this user's runner key may vouch for. A plan is made from an index (the symbols it
// finds, and for Java and Kotlin the sites it edits); an index the user's indexer built is the
// user's own, but one a repository ships in its tree (a committed .sextant/index, say) is the
// repository's word, manifest.sha256 included. A plan made from that must not carry the user's
// signature, which `runner apply` and apply_plan accept as the user's own.
import { execFileSync } from 'node:child_process';
import type { PlanSigner } from '@sextant/format';
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
  const tree = trackingTree(indexDir);
  if (tree !== undefined) {
    warn(`sextant runner: the index ${indexDir} is tracked by git in ${tree}, so it came with the repository: plans made from it are not signed, and runner apply takes them only with --allow-unsigned. Build your own with \`indexer build\` to have them signed.`);
    return undefined;
  }
  return { sign: async (plan) => (await userPlanSigner()).sign(plan) };
}
