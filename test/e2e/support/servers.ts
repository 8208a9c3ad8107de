// The two ways Sextant serves the same tools: the worker in workerd over Streamable HTTP, and the
// runner over stdio. Both are started for real from CLI-built indexes. The worker signs plans with
// a key made for the run (in its private env file); every runner process keeps its per-user state
// (its own plan-signing key, the keys it trusts) in RUNNER_CONFIG_HOME, never the real user's.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { generatePlanSigningKey } from '@sextant/plan';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectMcpClient } from './mcp-client.ts';
import { startWorker } from './wrangler-dev.ts';

export const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
export const INDEXER = join(ROOT, 'indexer/bin/indexer.js');
export const RUNNER = join(ROOT, 'packages/runner/bin/runner.js');

/** XDG_CONFIG_HOME of every runner this test file starts: one per test file (vitest runs each in its own process). */
export const RUNNER_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'sextant-e2e-config-'));
process.once('exit', () => rmSync(RUNNER_CONFIG_HOME, { recursive: true, force: true }));

/** The environment runner processes get: this process's, with the user's config directory in RUNNER_CONFIG_HOME. */
export function runnerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return { ...env, XDG_CONFIG_HOME: RUNNER_CONFIG_HOME, ...extra };
}

/** A way of serving indexes over MCP: clients connect per repository. */
export interface Backend {
  name: string;
  /** The worker's base URL (http://127.0.0.1:<port>); absent for the runner. */
  url?: string;
  connect(repo: string): Promise<Client>;
  close(): Promise<void>;
}

export interface PublishedIndex {
  repo: string;
  index: string;
}

export function run(command: string, args: string[], cwd = ROOT): string {
  return execFileSync(process.execPath, [command, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: runnerEnv() });
}

/** A directory committed to a fresh git repository (fixed dates), indexed with the `indexer` CLI. */
export function buildIndexOf(source: string, repoName: string, scratch: string): PublishedIndex & { commit: string } {
  const repo = mkdtempSync(join(tmpdir(), 'sextant-e2e-repo-'));
  cpSync(source, repo, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd: repo, encoding: 'utf8', env }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const index = join(scratch, repoName.replace('/', '--'));
  run(INDEXER, ['build', '--repo', repo, '--out', index, '--repo-name', repoName, '--quiet']);
  const commit = git('rev-parse', 'HEAD');
  rmSync(repo, { recursive: true, force: true });
  return { repo: repoName, index, commit };
}

export function buildFixtureIndex(fixture: string, repoName: string, scratch: string): PublishedIndex & { commit: string } {
  return buildIndexOf(join(ROOT, 'test/fixtures', fixture), repoName, scratch);
}

/** Publishes every index to one local R2 and serves them all from one worker in workerd. */
export async function workerBackend(indexes: PublishedIndex[], scratch: string): Promise<Backend> {
  const persistDir = join(scratch, 'r2');
  for (const { repo, index } of indexes) {
    run(INDEXER, ['publish', '--out', index, '--repo-name', repo, '--ref', 'main', '--local', '--persist-to', persistDir]);
  }
  const worker = await startWorker({ persistDir, env: { SEXTANT_AUTH: 'off', SEXTANT_PLAN_SIGNING_KEY: generatePlanSigningKey() } });
  const clients: (() => Promise<void>)[] = [];
  return {
    name: 'worker (wrangler dev, Streamable HTTP)',
    url: worker.url,
    async connect(repo) {
      const { client, close } = await connectMcpClient(`${worker.url}/mcp/${repo}`);
      clients.push(close);
      return client;
    },
    async close() {
      await Promise.all(clients.map((close) => close()));
      await worker.stop();
    },
  };
}

/** One `runner mcp` process per index, over stdio. */
export function runnerBackend(indexes: PublishedIndex[]): Backend {
  const clients: Client[] = [];
  return {
    name: 'runner mcp (stdio)',
    async connect(repo) {
      const { index } = indexes.find((i) => i.repo === repo)!;
      const client = new Client({ name: 'sextant-e2e', version: '0.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [RUNNER, 'mcp', '--index', index], env: runnerEnv(), stderr: 'ignore' }));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}

/** Both backends over the same indexes, for scenarios that must hold on each. */
export const BACKENDS: ((indexes: PublishedIndex[], scratch: string) => Promise<Backend>)[] = [
  (indexes, scratch) => workerBackend(indexes, scratch),
  async (indexes) => runnerBackend(indexes),
];
