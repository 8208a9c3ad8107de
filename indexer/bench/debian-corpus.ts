// Corpora from Debian packages that ship sources, for the benches that need real code of a language
// npm has none of: `apt-get download` of a pinned version into the bench cache (once; an `apt-get
// update` first when the lists lack it), `dpkg-deb -x`, and the part of the package wanted committed
// into a git repository of its own (once per recipe; cached), so the indexer reads it as any commit.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { benchGitEnv } from './corpora.ts';

const run = promisify(execFile);
/** A download, an extraction or a commit longer than this is a failure, not a wait. */
const FETCH_MS = 10 * 60_000;

export interface DebianCorpus {
  id: string;
  pkg: string;
  version: string;
  /** The directory of the package's files to take, e.g. `usr/lib/python3/dist-packages/rich`. */
  from: string;
  /** Where it goes in the repository (default its root). */
  to?: string;
  /** Only these subdirectories of `from` (default all of it). */
  include?: readonly string[];
  /** Leaves out a file or directory, by its path. */
  skip?: (path: string) => boolean;
}

/** The corpus's git repository under `cacheDir/corpora/<group>/<id>/repo` and its commit. */
export async function prepareDebianCorpus(corpus: DebianCorpus, cacheDir: string, group: string, log: (line: string) => void): Promise<{ repo: string; commit: string }> {
  const dir = join(cacheDir, 'corpora', group, corpus.id);
  const repo = join(dir, 'repo');
  const recipe = JSON.stringify({ pkg: corpus.pkg, version: corpus.version, from: corpus.from, to: corpus.to ?? null, include: corpus.include ?? null });
  const stamp = join(dir, 'recipe.json');
  const git = (args: string[]) => run('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, env: { ...process.env, ...benchGitEnv() }, maxBuffer: 1 << 26, timeout: FETCH_MS });
  if (!existsSync(join(repo, '.git')) || !existsSync(stamp) || (await readFile(stamp, 'utf8')) !== recipe) {
    log(`${corpus.id}: fetching ${corpus.pkg}=${corpus.version}...`);
    await rm(dir, { recursive: true, force: true });
    const deb = await fetchDeb(corpus.pkg, corpus.version, join(cacheDir, 'debs'), log);
    const extracted = join(dir, 'deb');
    await mkdir(extracted, { recursive: true });
    await run('dpkg-deb', ['-x', deb, extracted], { timeout: FETCH_MS });
    const from = join(extracted, corpus.from);
    const to = join(repo, corpus.to ?? '.');
    for (const part of corpus.include ?? ['.']) {
      await cp(join(from, part), join(to, part), { recursive: true, filter: (path) => !corpus.skip?.(path) });
    }
    await rm(extracted, { recursive: true, force: true });
    await git(['init', '-q', '-b', 'main']);
    await git(['add', '-A']);
    await git(['commit', '-q', '--no-verify', '-m', `${corpus.pkg} ${corpus.version}`]);
    await writeFile(stamp, recipe);
  }
  return { repo, commit: (await git(['rev-parse', 'HEAD'])).stdout.trim() };
}

let aptUpdated = false;

/** `apt-get download pkg=version` into `dir` (once), after an `apt-get update` when the lists lack it. */
async function fetchDeb(pkg: string, version: string, dir: string, log: (line: string) => void): Promise<string> {
  await mkdir(dir, { recursive: true });
  const find = async () => (await readdir(dir)).find((f) => f.startsWith(`${pkg}_${version.replace(/^\d+:/, '')}_`) && f.endsWith('.deb'));
  let deb = await find();
  if (!deb) {
    const download = () => run('apt-get', ['download', `${pkg}=${version}`], { cwd: dir, maxBuffer: 1 << 26, timeout: FETCH_MS });
    try {
      await download();
    } catch (error) {
      if (aptUpdated) throw error;
      log(`  apt-get download ${pkg}=${version} failed; running apt-get update once`);
      aptUpdated = true;
      await run('apt-get', ['update', '-qq'], { maxBuffer: 1 << 26, timeout: FETCH_MS });
      await download();
    }
    deb = await find();
  }
  if (!deb) throw new Error(`apt-get download ${pkg}=${version} produced no .deb. To fix this, check that Debian bookworm's main archive is in the apt sources.`);
  return join(dir, deb);
}
