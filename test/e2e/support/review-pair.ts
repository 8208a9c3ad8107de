// A fixture pair (test/fixtures/<name>/{base,head}) as two commits of one git repository, each
// indexed by the `indexer` CLI, and the two ways of serving both indexes a review asks: the worker
// in workerd (both published to one local R2) and one `runner mcp` holding both, each reached
// through the real MCP SDK client.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { shortCommit } from '@sextant/format';
import { generatePlanSigningKey } from '@sextant/plan';
import { connectMcpClient } from './mcp-client.ts';
import { INDEXER, ROOT, RUNNER, run, runnerEnv } from './servers.ts';
import { startWorker } from './wrangler-dev.ts';

export interface FixturePair {
  repo: string;
  repoDir: string;
  base: string;
  head: string;
  baseIndex: string;
  headIndex: string;
  scratch: string;
}

/** The fixture's two trees committed in `scratch`/repo and each indexed. */
export function buildPair(fixture: string, repo: string, scratch: string): FixturePair {
  const repoDir = join(scratch, 'repo');
  mkdirSync(repoDir, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd: repoDir, encoding: 'utf8', env }).trim();
  const commitTree = (tree: string, message: string) => {
    for (const entry of readdirSync(repoDir)) if (entry !== '.git') rmSync(join(repoDir, entry), { recursive: true, force: true });
    cpSync(join(ROOT, 'test/fixtures', fixture, tree), repoDir, { recursive: true });
    git('add', '-A');
    git('commit', '-q', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  git('init', '-q', '-b', 'main');
  const base = commitTree('base', 'base');
  const head = commitTree('head', 'a pull request');
  const index = (commit: string) => {
    const out = join(scratch, `index-${shortCommit(commit)}`);
    run(INDEXER, ['build', '--repo', repoDir, '--commit', commit, '--out', out, '--repo-name', repo, '--quiet']);
    return out;
  };
  return { repo, repoDir, base, head, baseIndex: index(base), headIndex: index(head), scratch };
}

export interface ServedPair {
  name: string;
  client: Client;
  close(): Promise<void>;
}

export async function pairViaWorker(pair: FixturePair): Promise<ServedPair> {
  const persistDir = join(pair.scratch, 'r2');
  for (const index of [pair.baseIndex, pair.headIndex]) {
    run(INDEXER, ['publish', '--out', index, '--repo-name', pair.repo, '--ref', 'main', '--local', '--persist-to', persistDir]);
  }
  const worker = await startWorker({ persistDir, env: { SEXTANT_AUTH: 'off', SEXTANT_PLAN_SIGNING_KEY: generatePlanSigningKey() } });
  const { client, close } = await connectMcpClient(`${worker.url}/mcp/${pair.repo}`);
  return { name: 'the worker', client, close: async () => { await close(); await worker.stop(); } };
}

export async function pairViaRunner(pair: FixturePair): Promise<ServedPair> {
  const client = new Client({ name: 'sextant-e2e', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: [RUNNER, 'mcp', '--index', pair.headIndex, '--index', pair.baseIndex, '--repo', pair.repoDir], env: runnerEnv(), stderr: 'ignore',
  }));
  return { name: 'the runner', client, close: () => client.close() };
}
