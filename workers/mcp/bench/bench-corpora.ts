// The bench's data: rxjs, zod and effect from the npm registry, prepared by the indexer bench's
// corpora.ts (each package's src/ committed into a git repository of its own), indexed with
// `indexer build` and published with `indexer publish --local` into the local R2 the bench worker
// serves. Each step is skipped when its output is already there for the same commit, format version
// and indexer source (an index built by an older indexer is built again, not measured). The review
// section's version pairs (two commits of one repository each) are prepared, indexed and published
// the same way, both commits under one repository name.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA, prepareCorpus, prepareVersionPair, sourceFingerprint, VERSION_PAIRS, type FileChanges } from '../../../indexer/bench/corpora.ts';
import { FORMAT_VERSION, shortCommit } from '@sextant/format';

export interface BenchCorpus {
  id: string;
  repo: string;
  commit: string;
  /** The checkout of the commit (a git repository of its own). */
  dir: string;
  files: number;
  lines: number;
  shards: number;
  shardBytes: number;
}

export interface CorporaOptions {
  root: string;
  benchDir: string;
  ids: string[];
  log: (line: string) => void;
}

/** The large-file rule of the indexer bench, so the corpora are the same commits. */
const MAX_FILE_BYTES = 1_000_000;

export async function prepareBenchCorpora({ root, benchDir, ids, log }: CorporaOptions): Promise<BenchCorpus[]> {
  const cacheDir = join(benchDir, 'cache');
  const indexer = join(root, 'indexer/bin/indexer.js');
  const corpora: BenchCorpus[] = [];
  const source = await sourceFingerprint();
  for (const id of ids) {
    const spec = CORPORA.find((c) => c.id === id);
    if (!spec) throw new Error(`unknown corpus "${id}"; known: ${CORPORA.map((c) => c.id).join(', ')}`);
    seedTarball(root, cacheDir, `${spec.pkg.replace(/^@/, '').replace('/', '-')}-${spec.version}.tgz`);
    const prepared = await prepareCorpus(spec, { cacheDir, maxFileBytes: MAX_FILE_BYTES, log });
    const repo = `bench/${id}`;
    const out = join(benchDir, 'indexes', id);
    buildIndex({ indexer, dir: prepared.dir, commit: prepared.commit, out, repo, source, log, what: `${id} (${prepared.files} files, ${prepared.lines} lines)` });
    const manifest = manifestOf(out)!;
    const shards = Object.values(manifest.shards as Record<string, { bytes: number }>);
    corpora.push({
      id, repo, commit: prepared.commit, dir: prepared.dir, files: prepared.files, lines: prepared.lines,
      shards: shards.length, shardBytes: shards.reduce((sum, s) => sum + s.bytes, 0),
    });
  }

  const stamp = join(benchDir, 'state', 'published.json');
  const wanted = JSON.stringify([source, ...corpora.map((c) => [c.repo, c.commit, FORMAT_VERSION])]);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
    rmSync(join(benchDir, 'state'), { recursive: true, force: true });
    for (const corpus of corpora) {
      log(`publishing ${corpus.repo}@${shortCommit(corpus.commit)} to local R2`);
      const publish = spawnSync(process.execPath, [
        indexer, 'publish', '--out', join(benchDir, 'indexes', corpus.id), '--repo-name', corpus.repo, '--ref', 'main', '--default',
        '--local', '--persist-to', join(benchDir, 'state'), '--config', join(root, 'workers/mcp/wrangler.jsonc'),
      ], { stdio: ['ignore', 'ignore', 'inherit'] });
      if (publish.status !== 0) throw new Error(`indexer publish of ${corpus.id} failed (exit ${publish.status})`);
    }
    mkdirSync(join(benchDir, 'state'), { recursive: true }); // --only-review publishes no corpus
    writeFileSync(stamp, wanted);
  }
  return corpora;
}

/** A version pair of the review section: both commits indexed and published under `repo`; `commit` is the head. */
export interface BenchPair extends BenchCorpus {
  base: string;
  baseVersion: string;
  headVersion: string;
  changes: FileChanges;
}

/**
 * The review section's pairs (VERSION_PAIRS of the indexer bench): prepared, both commits indexed
 * and published to the local R2 under bench/<pair> (the head as main, the default; the base as
 * `base`). Call after prepareBenchCorpora, which may clear the local R2 it publishes to.
 */
export async function prepareReviewPairs({ root, benchDir, ids, log }: CorporaOptions): Promise<BenchPair[]> {
  const cacheDir = join(benchDir, 'cache');
  const indexer = join(root, 'indexer/bin/indexer.js');
  const source = await sourceFingerprint();
  const pairs: BenchPair[] = [];
  for (const id of ids) {
    const spec = VERSION_PAIRS.find((p) => p.id === id);
    if (!spec) throw new Error(`unknown version pair "${id}"; known: ${VERSION_PAIRS.map((p) => p.id).join(', ')}`);
    const pkg = CORPORA.find((c) => c.id === spec.corpus)!.pkg;
    for (const version of [spec.base, spec.head]) seedTarball(root, cacheDir, `${pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
    const prepared = await prepareVersionPair(spec, { cacheDir, maxFileBytes: MAX_FILE_BYTES, log });
    const repo = `bench/${id}`;
    let shards = 0;
    let shardBytes = 0;
    for (const side of ['base', 'head'] as const) {
      const out = join(benchDir, 'indexes', `${id}-${side}`);
      buildIndex({ indexer, dir: prepared.dir, commit: prepared[side].commit, out, repo, source, log, what: `${id} ${side} (${prepared[side].files} files)` });
      const entries = Object.values(manifestOf(out)!.shards);
      shards += entries.length;
      shardBytes += entries.reduce((sum, s) => sum + s.bytes, 0);
    }
    pairs.push({
      id, repo, commit: prepared.head.commit, dir: prepared.dir, files: prepared.head.files, lines: prepared.head.lines, shards, shardBytes,
      base: prepared.base.commit, baseVersion: spec.base, headVersion: spec.head, changes: prepared.changes,
    });
  }
  const stamp = join(benchDir, 'state', 'published-review.json');
  const wanted = JSON.stringify([source, ...pairs.map((p) => [p.repo, p.base, p.commit, FORMAT_VERSION])]);
  if (pairs.length && (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted)) {
    for (const pair of pairs) {
      for (const [side, ref] of [['base', 'base'], ['head', 'main']] as const) {
        log(`publishing ${pair.repo}@${shortCommit(side === 'base' ? pair.base : pair.commit)} (${side}) to local R2`);
        const publish = spawnSync(process.execPath, [
          indexer, 'publish', '--out', join(benchDir, 'indexes', `${pair.id}-${side}`), '--repo-name', pair.repo, '--ref', ref, ...(side === 'head' ? ['--default'] : []),
          '--force', '--local', '--persist-to', join(benchDir, 'state'), '--config', join(root, 'workers/mcp/wrangler.jsonc'),
        ], { stdio: ['ignore', 'ignore', 'inherit'] });
        if (publish.status !== 0) throw new Error(`indexer publish of ${pair.id} ${side} failed (exit ${publish.status})`);
      }
    }
    mkdirSync(join(benchDir, 'state'), { recursive: true });
    writeFileSync(stamp, wanted);
  }
  return pairs;
}

/** `indexer build` of one commit into `out`, unless it holds that commit built by this indexer source and format. */
function buildIndex({ indexer, dir, commit, out, repo, source, log, what }: { indexer: string; dir: string; commit: string; out: string; repo: string; source: string; log: (line: string) => void; what: string }): void {
  const existing = manifestOf(out);
  const builtFrom = `${out}.indexer-source`;
  if (existing?.commit === commit && existing.formatVersion === FORMAT_VERSION && existsSync(builtFrom) && readFileSync(builtFrom, 'utf8') === source) return;
  log(`indexing ${what} with indexer source ${source}; effect takes minutes`);
  rmSync(out, { recursive: true, force: true });
  const build = spawnSync(process.execPath, [indexer, 'build', '--repo', dir, '--commit', commit, '--out', out, '--repo-name', repo, '--quiet'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`indexer build of ${what} failed (exit ${build.status})`);
  writeFileSync(builtFrom, source);
}

/** The indexer bench may have downloaded the tarball already; copying it saves a registry fetch. */
function seedTarball(root: string, cacheDir: string, name: string): void {
  const ours = join(cacheDir, 'tarballs', name);
  const theirs = join(root, 'indexer/.bench/cache/tarballs', name);
  if (!existsSync(ours) && existsSync(theirs)) {
    mkdirSync(join(cacheDir, 'tarballs'), { recursive: true });
    copyFileSync(theirs, ours);
  }
}

function manifestOf(dir: string): { commit: string; formatVersion: number; shards: Record<string, { bytes: number }> } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return undefined;
  }
}
