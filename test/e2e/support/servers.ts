// The two ways Sextant serves the same tools: the worker in workerd over Streamable HTTP, and the
// runner over stdio. Both are started for real from CLI-built indexes.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectMcpClient } from './mcp-client.ts';
import { startWorker } from './wrangler-dev.ts';

export const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
export const INDEXER = join(ROOT, 'indexer/bin/indexer.js');
export const RUNNER = join(ROOT, 'packages/runner/bin/runner.js');

export interface Served {
  name: 'worker' | 'runner';
  client: Client;
  close(): Promise<void>;
}

export function run(command: string, args: string[], cwd = ROOT): string {
  return execFileSync(process.execPath, [command, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fixture directory committed to a fresh git repository, indexed with the `indexer` CLI. */
export function buildFixtureIndex(fixture: string, repoName: string, scratch: string): { repo: string; index: string; commit: string } {
  const repo = mkdtempSync(join(tmpdir(), 'sextant-e2e-repo-'));
  cpSync(join(ROOT, 'test/fixtures', fixture), repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const index = join(scratch, `${fixture}-index`);
  run(INDEXER, ['build', '--repo', repo, '--out', index, '--repo-name', repoName, '--quiet']);
  const commit = git('rev-parse', 'HEAD');
  rmSync(repo, { recursive: true, force: true });
  return { repo, index, commit };
}

export async function serveWithWorker(index: string, repoName: string, scratch: string): Promise<Served> {
  const persistDir = join(scratch, 'r2');
  run(INDEXER, ['publish', '--out', index, '--repo-name', repoName, '--ref', 'main', '--local', '--persist-to', persistDir]);
  const worker = await startWorker({ persistDir });
  const { client, close } = await connectMcpClient(`${worker.url}/mcp/${repoName}`);
  return { name: 'worker', client, close: async () => { await close(); await worker.stop(); } };
}

export async function serveWithRunner(index: string): Promise<Served> {
  const client = new Client({ name: 'sextant-e2e', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [RUNNER, 'mcp', '--index', index], stderr: 'ignore' }));
  return { name: 'runner', client, close: () => client.close() };
}
