// The GitHub Actions workflow the README offers (examples/github-actions/sextant-index.yml): valid
// YAML of the right shape, shell steps that parse, the indexer commands it promises, and the same
// text in the README as in the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/servers.ts';
import { expectShellParses, type Step } from './support/github-workflow.ts';

const FILE = join(ROOT, 'examples/github-actions/sextant-index.yml');
const text = readFileSync(FILE, 'utf8');

interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { 'runs-on': string; if?: string; steps: Step[] }>;
}

describe('the GitHub Actions workflow example', () => {
  const workflow = parse(text) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const script = steps.map((step) => step.run ?? '').join('\n');

  it('is valid YAML of a workflow run on push, on pull requests and on a schedule', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request', 'schedule']));
    expect(workflow.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(workflow.jobs)) {
      expect(job['runs-on']).toBe('ubuntu-latest');
      expect(job.steps.length).toBeGreaterThan(0);
    }
    for (const step of steps) {
      expect(step.uses ?? step.run, JSON.stringify(step)).toBeTruthy();
      if (step.uses) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
    }
  });

  it('builds at the pushed commit from the index its ref published last and publishes it, and indexes both the head and the base of a pull request', () => {
    expect(script).toContain('args=(--repo . --commit "$sha" --out ".sextant/$sha"');
    // From the index the ref published last (a branch's first push: the default branch's), else in full.
    expect(script).toContain('$indexer build "${args[@]}" --from-ref "$from" --config "$config"');
    expect(script).toContain('[ -n "$built" ] || $indexer build "${args[@]}"');
    expect(script).toContain('index "$GITHUB_SHA" "$GITHUB_REF_NAME" --default -- "$GITHUB_REF_NAME"');
    expect(script).toContain('index "$GITHUB_SHA" "$GITHUB_REF_NAME" -- "$GITHUB_REF_NAME" "$DEFAULT_BRANCH"');
    expect(script).toMatch(/publish --out .* --repo-name "\$GITHUB_REPOSITORY" --ref "\$ref"/);
    expect(script).toContain('index "$PR_BASE" "pull/$PR/base" -- "$DEFAULT_BRANCH"');
    // The head from the base's index, just built.
    expect(script).toContain('index "$PR_HEAD" "pull/$PR/head" -- ".sextant/$PR_BASE"');
    expect(script).toContain('gc --drop-refs-older-than-days 30');
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout') && !step.with?.repository)!;
    expect(checkout.with).toMatchObject({ 'fetch-depth': 0 });
    const publish = steps.find((step) => step.run?.includes('publish'))!;
    expect(Object.keys(publish.env!)).toEqual(expect.arrayContaining(['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID']));
  });

  it('has shell steps that bash parses', () => {
    expectShellParses(steps);
  });

  it('is the workflow the README shows, word for word', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Deploying to Cloudflare')))?.[1];
    expect(block).toBe(text);
  });
});
