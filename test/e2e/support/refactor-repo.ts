// Working trees for the refactoring scenarios: a fixture committed to a fresh git repository and
// indexed with the `indexer` CLI (the index kept outside the tree), reset to its commit between
// scenarios with git, type-checked with the real `tsc`, and driven through the `runner` CLI or
// `runner mcp --repo` over stdio with the real MCP SDK client.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { INDEXER, ROOT, RUNNER, run, runnerEnv } from './servers.ts';

const execFileAsync = promisify(execFile);
const TSC = join(createRequire(import.meta.url).resolve('typescript/package.json'), '..', 'bin', 'tsc');

export interface WorkingRepo {
  repoName: string;
  /** The working tree (a git repository at `commit`). */
  dir: string;
  /** The index of `commit`, outside the tree. */
  index: string;
  commit: string;
  git(...args: string[]): string;
  read(path: string): string;
  /** Back to the commit: tracked files restored, untracked ones removed. */
  reset(): void;
}

export function workingRepo(fixture: string, repoName: string, scratch: string): WorkingRepo {
  const dir = mkdtempSync(join(tmpdir(), `sextant-refactor-${fixture}-`));
  cpSync(join(ROOT, 'test/fixtures', fixture), dir, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd: dir, encoding: 'utf8', env }).trim();
  git('init', '-q', '-b', 'main');
  // Fixtures keep their line endings byte for byte.
  git('config', 'core.autocrlf', 'false');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const index = join(scratch, repoName.replace('/', '--'));
  run(INDEXER, ['build', '--repo', dir, '--out', index, '--repo-name', repoName, '--quiet']);
  return {
    repoName, dir, index, commit: git('rev-parse', 'HEAD'), git,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    reset() {
      git('checkout', '-q', '--', '.');
      git('clean', '-qfdx');
    },
  };
}

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the runner CLI to completion; a non-zero exit is an outcome, not an exception. */
export async function runner(args: string[], cwd: string, env: Record<string, string> = runnerEnv()): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [RUNNER, ...args], { cwd, maxBuffer: 64 * 1024 * 1024, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The real TypeScript compiler over the working tree's tsconfig: the errors it prints, '' when there are none. */
export async function typeErrors(dir: string): Promise<string> {
  try {
    await execFileAsync(process.execPath, [TSC, '--noEmit', '-p', dir], { cwd: dir });
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout || String(error);
  }
}

export interface RunnerSession {
  client: Client;
  pid: number;
  close(): Promise<void>;
}

/** `runner mcp --index … --repo …` over stdio: the read tools plus the write tools for that tree. */
export async function connectRunner(repo: WorkingRepo): Promise<RunnerSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [RUNNER, 'mcp', '--index', repo.index, '--repo', repo.dir], env: runnerEnv(), stderr: 'ignore' });
  const client = new Client({ name: 'sextant-e2e', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, pid: transport.pid!, close: () => client.close() };
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text: string }[];
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as ToolResult;
}

/** A tool's answer, or a thrown error carrying its text. */
export async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content.map((c) => c.text).join('\n')}`);
  return result.structuredContent!;
}

/** A tool's structured error. */
export async function failure(client: Client, name: string, args: Record<string, unknown>): Promise<{ code: string; message: string; hint: string; data?: Record<string, any> }> {
  const result = await call(client, name, args);
  if (!result.isError) throw new Error(`${name} succeeded but was expected to fail: ${result.content.map((c) => c.text).join('\n')}`);
  return result.structuredContent!.error;
}

/** Preview, then apply with the preview's planHash: the two phases of a write tool. */
export async function previewAndApply(client: Client, name: string, args: Record<string, unknown>, force = false): Promise<{ preview: Record<string, any>; applied: Record<string, any> }> {
  const preview = await ok(client, name, args);
  if (preview.applied !== false) throw new Error(`${name} without planHash applied something`);
  const applied = await ok(client, name, { ...args, planHash: preview.plan.planHash, ...(force ? { force } : {}) });
  return { preview, applied };
}
