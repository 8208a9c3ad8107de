// The review benches' git and index plumbing: a mutant committed on top of a base without
// touching the work tree, and `indexer build --commit` run as its own process (timed), the base's
// index kept between runs while neither its commit nor the indexer's version changes.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shortCommit, type BuildMode, type Manifest } from '@sextant/format';
import { indexerVersion } from '../src/indexer-version.ts';
import { benchGitEnv } from './corpora.ts';

const INDEXER = fileURLToPath(new URL('../bin/indexer.js', import.meta.url));

/** How an index was built, for a bench's line: from which files walked and reused, or in full and why. */
export const buildModeText = (b: BuildMode | undefined): string => (b?.mode === 'incremental' ? `incremental: ${b.walked} walked, ${b.reused} reused` : `full${b?.reason ? `: ${b.reason}` : ''}`);

/** A commit whose tree is the base's with some files replaced, made with a private git index: the work tree stays at the base. */
export async function commitMutant(dir: string, base: string, edits: { path: string; text: string }[], message: string): Promise<string> {
  const indexFile = join(dir, '.git', 'sextant-bench-index');
  const env = { ...process.env, ...benchGitEnv(1), GIT_INDEX_FILE: indexFile };
  const git = async (args: string[], input?: string) => {
    const child = execFile('git', args, { cwd: dir, env, maxBuffer: 64 << 20 });
    const out = new Promise<string>((resolveOut, reject) => {
      let stdout = '';
      child.stdout!.on('data', (chunk) => { stdout += chunk; });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolveOut(stdout.trim()) : reject(new Error(`git ${args.join(' ')} exited ${code}`))));
    });
    if (input !== undefined) child.stdin!.end(input);
    else child.stdin!.end();
    return out;
  };
  await git(['read-tree', base]);
  for (const { path, text } of edits) {
    const blob = await git(['hash-object', '-w', '--stdin'], text);
    await git(['update-index', '--cacheinfo', `100644,${blob},${path}`]);
  }
  const tree = await git(['write-tree']);
  return git(['commit-tree', tree, '-p', base, '-m', message]);
}

const buildArguments = (dir: string, commit: string, out: string, id: string, from?: string) => [
  INDEXER, 'build', '--repo', dir, '--commit', commit, '--out', out, '--repo-name', `bench/${id}`, '--quiet', ...(from ? ['--from', from] : []),
];
const buildFailed = (commit: string, status: number | null, stderr: string) => new Error(`indexer build --commit ${shortCommit(commit)} failed (exit ${status}): ${stderr.slice(-1500)}`);

/** `indexer build --commit` into `out`, in seconds. */
export function build(dir: string, commit: string, out: string, id: string): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, buildArguments(dir, commit, out, id), { encoding: 'utf8' });
  if (child.status !== 0) throw buildFailed(commit, child.status, child.stderr);
  return (performance.now() - started) / 1000;
}

/**
 * The same build, started now in a process of its own and awaited later: the caller's own work (the
 * compiler oracle's next check) runs on the other core meanwhile; from the index in `from` (an
 * incremental build, equal to a full one) when given. Seconds from start to exit.
 */
export function startBuild(dir: string, commit: string, out: string, id: string, from?: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolveBuild, reject) => {
    execFile(process.execPath, buildArguments(dir, commit, out, id, from), { encoding: 'utf8', maxBuffer: 64 << 20 }, (error, _stdout, stderr) => {
      if (error) reject(buildFailed(commit, typeof error.code === 'number' ? error.code : null, stderr));
      else resolveBuild((performance.now() - started) / 1000);
    });
  });
}

/**
 * A commit's index in `out`, built again only when the commit or the indexer's version (its sources'
 * digest, indexer-version.ts) changed; the seconds it took, or undefined when reused.
 */
export async function ensureIndex(dir: string, commit: string, out: string, id: string, log: (line: string) => void): Promise<number | undefined> {
  const manifest = join(out, 'manifest.json');
  if (existsSync(manifest)) {
    const built = JSON.parse(readFileSync(manifest, 'utf8')) as Pick<Manifest, 'commit' | 'indexer'>;
    if (built.commit === commit && built.indexer.version === indexerVersion()) return undefined;
  }
  await rm(out, { recursive: true, force: true });
  log(`${id}: indexing ${shortCommit(commit)}`);
  const seconds = build(dir, commit, out, id);
  log(`${id}: ${shortCommit(commit)} indexed in ${seconds.toFixed(1)} s`);
  return seconds;
}
