// `indexer` and `runner` are names of unrelated packages on the public registry, so nothing we
// ship may tell a user to run them through npx (which would download and run those packages
// outside the checkout). The README installs them from the checkout instead; this file checks
// that no document, example or message shows a registry-resolving npx, and that the README's
// install and client configurations work from a directory outside the checkout, offline.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from './support/servers.ts';

/** Every `npx` that may reach the registry: any npx not told `--no-install`, or a client config whose command is npx. */
const REGISTRY_NPX = /\bnpx\s+(?!--no-install\b)\S+|"command"\s*:\s*"npx"/g;

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(path) ? [path] : [];
  });
}

/** What of a Markdown file is a command a reader may copy: fenced blocks and inline code spans. */
function markdownCode(text: string): string {
  const fenced = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  const inline = [...text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return [...fenced, ...inline].join('\n');
}

function registryNpxIn(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const searched = path.endsWith('.md') ? markdownCode(text) : text;
  return [...searched.matchAll(REGISTRY_NPX)].map((m) => `${relative(ROOT, path)}: ${m[0]}`);
}

/** The README's MCP client configurations for the runner (JSON blocks with a `command`). */
function readmeClientConfigs(): { command: string; args: string[] }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```json\n([\s\S]*?)^```/gm)]
    .map((m) => JSON.parse(m[1]) as { mcpServers?: Record<string, { command?: string; args?: string[] }> })
    .flatMap((config) => Object.values(config.mcpServers ?? {}))
    .filter((server): server is { command: string; args: string[] } => typeof server.command === 'string');
}

describe('the commands indexer and runner never resolve to the public registry', () => {
  it('no README, example, bench note or message shows an npx that could download a package', () => {
    const docs = [join(ROOT, 'README.md'), ...filesUnder(ROOT, (p) => p.endsWith('.md') && !p.includes('/test/'))];
    const examples = filesUnder(join(ROOT, 'examples'), () => true);
    const sources = ['packages', 'indexer/src', 'indexer/bin', 'workers/mcp/src', 'workers/mcp/scripts']
      .flatMap((dir) => filesUnder(join(ROOT, dir), (p) => /\.(ts|js|mjs)$/.test(p) && !p.includes('/test/')));
    const found = [...new Set([...docs, ...examples, ...sources])].flatMap(registryNpxIn);
    expect(found).toEqual([]);
  });

  it('the check itself sees the forms it forbids', () => {
    expect('run `npx runner mcp`'.match(REGISTRY_NPX)).toHaveLength(1);
    expect('{ "command": "npx", "args": ["--no-install", "runner"] }'.match(REGISTRY_NPX)).toHaveLength(1);
    expect(markdownCode('prose npx outside code\n```sh\nnpx indexer build\n```\n')).toMatch(REGISTRY_NPX);
    expect('npx --no-install wrangler deploy'.match(REGISTRY_NPX)).toBeNull();
  });
});

describe('the README install works from any directory, offline', () => {
  let scratch: string;
  let prefix: string;
  let index: string;
  let elsewhere: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'sextant-installed-'));
    prefix = join(scratch, 'prefix');
    elsewhere = join(scratch, 'elsewhere');
    // The README's install line, with a private prefix instead of the machine's global one.
    const install = readFileSync(join(ROOT, 'README.md'), 'utf8').match(/^npm install -g (\S+ \S+)/m);
    expect(install, 'the README shows `npm install -g <indexer> <runner>`').not.toBeNull();
    execFileSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, ...install![1].split(' ')], { cwd: ROOT, stdio: 'pipe' });
    // A repository outside the checkout, indexed by the installed `indexer`, run from there.
    const repo = join(scratch, 'repo');
    cpSync(join(ROOT, 'test/fixtures/ts-basic'), repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@sextant.dev', '-c', 'user.name=e2e', ...args], { cwd: repo, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    index = join(repo, '.sextant/index');
    mkdirSync(elsewhere); // an empty directory outside the checkout to run from
    execFileSync(join(prefix, 'bin/indexer'), ['build', '--repo', repo, '--repo-name', 'acme/installed', '--quiet'], { cwd: elsewhere, stdio: 'pipe', env: { ...process.env, npm_config_offline: 'true' } });
  }, 180_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('every README client configuration starts a runner that answers, found through PATH with the installed bin', async () => {
    const configs = readmeClientConfigs();
    expect(configs.length).toBeGreaterThanOrEqual(2);
    for (const config of configs) {
      expect(config.command).not.toBe('npx');
      const args = config.args.map((arg) => arg.replace('/path/to/repo/.sextant/index', index).replace('/path/to/sextant', ROOT));
      const client = new Client({ name: 'sextant-e2e', version: '0.0.0' });
      await client.connect(new StdioClientTransport({
        command: config.command, args, cwd: elsewhere, stderr: 'ignore',
        env: { PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`, npm_config_offline: 'true' },
      }));
      try {
        const status = await client.callTool({ name: 'index_status', arguments: {} });
        expect(status.isError ?? false).toBe(false);
        expect((status.structuredContent as { repo: string }).repo).toBe('acme/installed');
      } finally {
        await client.close();
      }
    }
  });
});
