// The pull-request review workflow the README offers (examples/github-actions/sextant-review.yml):
// valid YAML run on pull requests with the history and the permissions it needs, its steps in the
// order that works (index and publish the head, make sure the base is published, review, comment),
// only `indexer` and `runner` commands and flags their own --help lists, shell that bash parses,
// and the same text in the README as in the file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INDEXER, ROOT, RUNNER } from './support/servers.ts';
import { expectShellParses, type Step } from './support/github-workflow.ts';

const FILE = join(ROOT, 'examples/github-actions/sextant-review.yml');
const text = readFileSync(FILE, 'utf8');

interface Job {
  'runs-on': string;
  if?: string;
  env?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

/** Each command's usage block of a CLI's --help: `indexer build` → every --flag its block names. */
function usageOf(bin: string, cli: string): Map<string, Set<string>> {
  const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  const commands = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of help.split('\n')) {
    const start = new RegExp(`^  ${cli} ([a-z-]+)`).exec(line);
    if (start) commands.set(start[1]!, (current = commands.get(start[1]!) ?? new Set()));
    for (const flag of line.matchAll(/--[a-z][a-z-]*/g)) current?.add(flag[0]);
  }
  return commands;
}

/** Every `indexer …` and `runner …` a shell script runs (continued lines joined): the command and its flags. */
function invocations(script: string): { cli: string; command: string; flags: string[]; line: string }[] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  return [...joined.matchAll(/(?:^|[;&|(]\s*|\b(?:then|else|do)\s+)(indexer|runner)\s+([a-z-]+)([^\n;|&>]*)/gm)].map((m) => ({
    cli: m[1]!, command: m[2]!, flags: [...m[3]!.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((f) => f[0]), line: m[0].trim(),
  }));
}

describe('the pull-request review workflow example', () => {
  const workflow = parse(text) as Workflow;
  const review = workflow.jobs.review!;
  const hosted = workflow.jobs['hosted-review']!;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const script = steps.map((step) => step.run ?? '').join('\n');

  it('runs on pull requests with the full history, reading contents and writing pull-request comments only', () => {
    expect(Object.keys(workflow.on)).toEqual(['pull_request']);
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const checkout = review.steps.find((step) => step.uses?.startsWith('actions/checkout') && !step.with?.repository)!;
    expect(checkout.with).toMatchObject({ 'fetch-depth': 0 });
    for (const job of Object.values(workflow.jobs)) {
      expect(job['runs-on']).toBe('ubuntu-latest');
      expect(job.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    }
    for (const step of steps) {
      expect(step.uses ?? step.run, JSON.stringify(step)).toBeTruthy();
      if (step.uses) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
    }
    expect(review.env).toEqual({
      HEAD_SHA: '${{ github.event.pull_request.head.sha }}', BASE_SHA: '${{ github.event.pull_request.base.sha }}', PR: '${{ github.event.number }}',
    });
  });

  it('installs the commands from the Sextant checkout, then makes sure of the base, builds the head from its index and publishes it, reviews and comments, in that order', () => {
    const at = (what: RegExp) => {
      const index = review.steps.findIndex((step) => what.test(step.run ?? ''));
      expect(index, String(what)).toBeGreaterThanOrEqual(0);
      return index;
    };
    const install = at(/npm install -g \.\/indexer \.\/packages\/runner/);
    const build = at(/indexer build --repo \. --commit "\$HEAD_SHA" --out "\.sextant\/indexes\/\$HEAD_SHA" --repo-name "\$GITHUB_REPOSITORY" --from "\.sextant\/indexes\/\$BASE_SHA"/);
    const publish = at(/indexer publish --out "\.sextant\/indexes\/\$HEAD_SHA" .*--ref "pull\/\$PR\/head"/);
    // A published base is brought here (a build of that commit from its own published index), else built and published.
    const base = at(/index_status[\s\S]*then[\s\S]*indexer build --repo \. --commit "\$BASE_SHA" --out "\.sextant\/indexes\/\$BASE_SHA" [^\n]*\\\n\s*--from-commit "\$BASE_SHA"[\s\S]*else[\s\S]*indexer build --repo \. --commit "\$BASE_SHA"[\s\S]*indexer publish --out "\.sextant\/indexes\/\$BASE_SHA"/);
    const reviewed = at(/indexer review --base "\$BASE_SHA" --head "\$HEAD_SHA" --format markdown > review\.md/);
    const comment = at(/gh pr comment "\$PR" --body-file review\.md --edit-last \|\| gh pr comment "\$PR" --body-file review\.md/);
    expect(install).toBeLessThan(base);
    expect([base, publish, reviewed, comment]).toEqual([base, base + 1, base + 2, base + 3]);
    expect(build).toBe(publish);
    expect(Object.keys(review.steps[publish]!.env!)).toEqual(expect.arrayContaining(['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID']));
    expect(review.steps[comment]!.env).toEqual({ GH_TOKEN: '${{ github.token }}' });
  });

  it('offers the hosted worker\'s change_impact instead, over Streamable HTTP with a scoped read token', () => {
    const call = hosted.steps.find((step) => step.run?.includes('change_impact'))!;
    expect(call.run).toContain('node .sextant-tool/examples/github-actions/sextant-mcp-call.mjs "$GITHUB_REPOSITORY" change_impact');
    expect(call.run).toContain('\\"format\\":\\"markdown\\"');
    expect(call.env).toMatchObject({ SEXTANT_TOKEN: '${{ secrets.SEXTANT_READ_TOKEN }}', SEXTANT_MCP_URL: '${{ vars.SEXTANT_MCP_URL }}' });
    expect(hosted.steps.at(-1)!.run).toMatch(/gh pr comment .* --edit-last \|\| gh pr comment /);
    expect([review.if, hosted.if].map((condition) => condition!.includes("vars.SEXTANT_REVIEW == 'hosted'"))).toEqual([false, true]);
    const client = readFileSync(join(ROOT, 'examples/github-actions/sextant-mcp-call.mjs'), 'utf8');
    expect(client).toContain("from '@modelcontextprotocol/sdk/client/streamableHttp.js'");
    expect(client).toContain('authorization: `Bearer ${token}`');
    // The script parses, and refuses to run without its arguments and environment.
    expect(() => execFileSync(process.execPath, ['--check', join(ROOT, 'examples/github-actions/sextant-mcp-call.mjs')])).not.toThrow();
  });

  it('runs only indexer and runner commands and flags their --help lists', () => {
    const usage = { indexer: usageOf(INDEXER, 'indexer'), runner: usageOf(RUNNER, 'runner') };
    expect(usage.indexer.get('review')).toEqual(new Set(['--base', '--head', '--repo', '--format', '--out-root', '--max-file-bytes', '--quiet']));
    const used = invocations(script);
    expect(used.map((u) => `${u.cli} ${u.command}`)).toEqual(expect.arrayContaining(['indexer build', 'indexer publish', 'indexer review']));
    for (const { cli, command, flags, line } of used) {
      const known = usage[cli as 'indexer' | 'runner'].get(command);
      expect(known, `${line}: ${cli} has no command ${command}`).toBeDefined();
      for (const flag of flags) expect(known!.has(flag), `${line}: ${cli} ${command} has no ${flag}`).toBe(true);
    }
    // The check sees what it forbids.
    expect(invocations('x && indexer frob --nope \\\n  --also')).toMatchObject([{ cli: 'indexer', command: 'frob', flags: ['--nope', '--also'] }]);
  });

  it('never runs a command through npx', () => {
    expect(text).not.toMatch(/\bnpx\b/);
  });

  it('has shell steps that bash parses', () => {
    expectShellParses(steps);
  });

  it('is the workflow the README shows, word for word', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Reviewing a pull request')))?.[1];
    expect(readme).toContain('## Reviewing a pull request');
    expect(block).toBe(text);
  });
});
