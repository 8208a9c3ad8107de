// The indexer's argument parsing on its own: the real command line with recording actions, so each
// command line is checked for the action and the arguments it leads to, and each mistake for its
// error line and exit code, with nothing indexed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IndexerActions } from '../src/cli-actions.ts';
import { main } from '../src/cli.ts';

/** Actions that record what they were called with and succeed. */
function recording() {
  const calls: [string, ...unknown[]][] = [];
  const actions: IndexerActions = {
    build: async (request) => { calls.push(['build', request]); },
    review: async (request) => { calls.push(['review', request]); },
    publish: async (argv) => { calls.push(['publish', argv]); return 0; },
    gc: async (argv) => { calls.push(['gc', argv]); return 0; },
  };
  return { actions, calls };
}

/** Runs the command line with `actions`: the exit code, the calls, and what went to stdout and stderr. */
async function run(argv: string[], { actions, calls } = recording()) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
  const code = await main(argv, actions);
  vi.restoreAllMocks();
  return { code, calls, stdout: out.join(''), stderr: err.join(''), firstLine: err.join('').split('\n')[0] };
}

afterEach(() => vi.restoreAllMocks());

describe('indexer arguments', () => {
  it('hands build and review their requests, defaults applied', async () => {
    expect((await run(['build'])).calls).toEqual([['build', {
      repo: '.', commit: 'HEAD', out: undefined, repoName: undefined, maxFileBytes: 1048576, quiet: false, verbose: false,
    }]]);
    expect((await run(['build', '--repo', 'r', '--commit', 'v1', '--out', 'o', '--repo-name', 'acme/w', '--max-file-bytes', '10', '--quiet', '--verbose'])).calls).toEqual([['build', {
      repo: 'r', commit: 'v1', out: 'o', repoName: 'acme/w', maxFileBytes: 10, quiet: true, verbose: true,
    }]]);
    expect((await run(['build', '--from-ref', 'main', '--local', '--persist-to', 'r2'])).calls).toEqual([['build', {
      fromPublished: { ref: 'main' }, store: { local: true, 'persist-to': 'r2' }, repo: '.', commit: 'HEAD', out: undefined, repoName: undefined, maxFileBytes: 1048576, quiet: false, verbose: false,
    }]]);
    expect((await run(['build', '--from-commit', 'abc1234', '--config', 'w.jsonc'])).calls).toEqual([['build', {
      fromPublished: { commit: 'abc1234' }, store: { local: false, config: 'w.jsonc' }, repo: '.', commit: 'HEAD', out: undefined, repoName: undefined, maxFileBytes: 1048576, quiet: false, verbose: false,
    }]]);
    expect((await run(['build', '--from', 'prev', '--max-changed-share', '0.25'])).calls).toEqual([['build', {
      from: 'prev', maxChangedShare: 0.25, repo: '.', commit: 'HEAD', out: undefined, repoName: undefined, maxFileBytes: 1048576, quiet: false, verbose: false,
    }]]);
    expect((await run(['build', '--scip', 'a.scip', '--scip', 'b/index.scip'])).calls).toEqual([['build', {
      scip: ['a.scip', 'b/index.scip'], repo: '.', commit: 'HEAD', out: undefined, repoName: undefined, maxFileBytes: 1048576, quiet: false, verbose: false,
    }]]);
    expect((await run(['review', '--base', 'main'])).calls).toEqual([['review', {
      base: 'main', head: 'HEAD', repo: '.', outRoot: undefined, maxFileBytes: 1048576, quiet: false, format: 'markdown',
    }]]);
    expect((await run(['review', '--base', 'a', '--head', 'b', '--format', 'json', '--out-root', 'x', '--quiet'])).calls).toEqual([['review', {
      base: 'a', head: 'b', repo: '.', outRoot: 'x', maxFileBytes: 1048576, quiet: true, format: 'json',
    }]]);
  });

  it('hands publish and gc their own arguments', async () => {
    expect((await run(['publish', '--out', 'o', '--local'])).calls).toEqual([['publish', ['--out', 'o', '--local']]]);
    expect((await run(['gc', '--dry-run'])).calls).toEqual([['gc', ['--dry-run']]]);
  });

  it('prints the usage for --help (exit 0) and for no command (exit 2)', async () => {
    expect(await run(['--help'])).toMatchObject({ code: 0, calls: [], stdout: expect.stringMatching(/^usage:\n {2}indexer build/) });
    expect(await run([])).toMatchObject({ code: 2, calls: [], stdout: expect.stringMatching(/^usage:/) });
  });

  it('refuses a usage mistake with its line, exit code 2, and runs nothing', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], 'error: unknown command "frobnicate". To fix this, use one of the commands below.'],
      [['build', '--nope'], "error: Unknown option '--nope'. To fix this, see the usage below."],
      [['build', '--max-file-bytes', '0'], 'error: --max-file-bytes must be a positive integer, got "0". To fix this, pass a byte count such as 1048576.'],
      [['build', '--max-changed-share', '0.5'], 'error: --max-changed-share needs --from. To fix this, pass --from DIR and a share such as 0.5.'],
      [['build', '--from', 'd', '--from-ref', 'main'], 'error: --from and --from-ref name two indexes to build from. To fix this, pass one of --from, --from-ref, --from-commit.'],
      [['build', '--local'], 'error: --local, --persist-to and --config name the store of --from-ref or --from-commit. To fix this, add --from-ref NAME or --from-commit SHA, or drop them.'],
      [['build', '--from', 'p', '--max-changed-share', '2'], 'error: --max-changed-share must be a share from 0 to 1, got "2". To fix this, pass --from DIR and a share such as 0.5.'],
      [['review'], 'error: review needs --base. To fix this, pass the commit the change starts from, such as --base origin/main.'],
      [['review', '--base', 'a', '--format', 'html'], 'error: --format must be one of markdown, text, json, got "html". To fix this, pass --format markdown.'],
      [['review', '--base', 'a', '--max-file-bytes', 'lots'], 'error: --max-file-bytes must be a positive integer, got "lots". To fix this, pass a byte count such as 1048576.'],
    ];
    for (const [argv, line] of cases) {
      const result = await run(argv);
      expect({ argv, code: result.code, line: result.firstLine, calls: result.calls }).toEqual({ argv, code: 2, line, calls: [] });
    }
    expect((await run(['frobnicate'])).stderr).toContain('usage:\n  indexer build');
  });

  it('reports a failure of an action with its line and exit code 1', async () => {
    const { actions, calls } = recording();
    actions.build = async () => { throw new TypeError('x is undefined'); };
    const result = await run(['build'], { actions, calls });
    expect(result).toMatchObject({ code: 1, stderr: 'error: x is undefined. To fix this, report this bug in Sextant with the command that caused it.\n' });
  });
});
