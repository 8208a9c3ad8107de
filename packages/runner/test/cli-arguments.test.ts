// The runner's argument parsing on its own: the real command line with recording actions, so each
// command line is checked for the action and the arguments it leads to, and each mistake for its
// error line and exit code, with nothing planned, applied or served.
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunnerActions } from '../src/cli-actions.ts';
import { main } from '../src/cli.ts';

/** Actions that record what they were called with and succeed. */
function recording() {
  const calls: [string, ...unknown[]][] = [];
  const record = (name: string) => async (...args: unknown[]) => {
    calls.push([name, ...args]);
    return 0;
  };
  const actions: RunnerActions = {
    mcp: record('mcp'), apply: record('apply'), trustAdd: record('trustAdd'), trustList: record('trustList'),
    recover: record('recover'), refactor: record('refactor'),
  };
  return { actions, calls };
}

/** Runs the command line with recording actions: the exit code, the calls, and what went to stderr. */
async function run(...argv: string[]) {
  const { actions, calls } = recording();
  const err: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  const code = await main(argv, actions);
  vi.restoreAllMocks();
  return { code, calls, stderr: err.join(''), firstLine: err.join('').split('\n')[0] };
}

afterEach(() => vi.restoreAllMocks());

describe('runner arguments', () => {
  it('hands each command its arguments, defaults applied', async () => {
    expect((await run('mcp', '--index', 'a', '--index', 'b', '--repo', 'r')).calls).toEqual([['mcp', { index: ['a', 'b'], repo: 'r' }]]);
    expect((await run('mcp')).calls).toEqual([['mcp', { index: [] }]]);
    expect((await run('apply', 'plan.json', '--force')).calls).toEqual([
      ['apply', 'plan.json', { repo: resolve('.'), force: true, allowUnsigned: false, verbose: false }],
    ]);
    expect((await run('trust', 'add', 'KEY')).calls).toEqual([['trustAdd', 'KEY']]);
    expect((await run('trust', 'list')).calls).toEqual([['trustList']]);
    expect((await run('recover', '--repo', 'tree')).calls).toEqual([['recover', resolve('tree')]]);
  });

  it('reads a refactoring command into its request', async () => {
    expect((await run('rename', '--name', 'ping', '--to', 'pong', '--repo', 'tree')).calls).toEqual([
      ['refactor', { operation: 'rename', target: { name: 'ping' }, newName: 'pong' }, { name: 'ping', to: 'pong', repo: 'tree' }],
    ]);
    expect((await run('insert-after', '--path', 'src/a.ts', '--line', '3', '--column', '7', '--text', 'x();')).calls[0]![1]).toEqual({
      operation: 'insert_after_symbol', target: { path: 'src/a.ts', line: 3, column: 7 }, text: 'x();',
    });
    expect((await run('reformat', '--file', 'src/a.ts')).calls[0]![1]).toEqual({ operation: 'reformat_file', path: 'src/a.ts' });
  });

  it('refuses a usage mistake with its line and the usage, exit code 2, and runs nothing', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], 'error: unknown command "frobnicate". To fix this, see the usage below.'],
      [[], 'error: no command given. To fix this, see the usage below.'],
      [['apply'], 'error: apply takes exactly one plan file. To fix this, see the usage below.'],
      [['apply', 'a.json', 'b.json'], 'error: apply takes exactly one plan file. To fix this, see the usage below.'],
      [['trust', 'remove', 'KEY'], 'error: trust takes `add KEY|FILE` or `list`. To fix this, see the usage below.'],
      [['trust', 'list', 'extra'], 'error: trust takes `add KEY|FILE` or `list`. To fix this, see the usage below.'],
    ];
    for (const [argv, line] of cases) {
      const result = await run(...argv);
      expect({ argv, code: result.code, line: result.firstLine, calls: result.calls }).toEqual({ argv, code: 2, line, calls: [] });
      expect(result.stderr).toContain('usage:\n  runner mcp');
    }
    const flag = await run('mcp', '--nope');
    expect(flag).toMatchObject({ code: 2, calls: [] });
    expect(flag.firstLine).toBe("error: Unknown option '--nope'. To fix this, see the usage below.");
    expect((await run('recover', 'extra')).firstLine).toBe("error: Unexpected argument 'extra'. This command does not take positional arguments. To fix this, see the usage below.");
  });

  it('refuses an incomplete refactoring request with its line, exit code 1, and runs nothing', async () => {
    const cases: [string[], string][] = [
      [['rename', '--name', 'ping'], 'error: rename needs --to NAME. To fix this, pass --to NAME.'],
      [['safe-delete'], 'error: No target given. To fix this, pass --symbol ID, --qualified-name Q, --name N, or --path P --line L --column C.'],
      [['inline', '--path', 'a.ts', '--line', '0'], 'error: --line must be a positive integer, not "0". To fix this, pass --line as a 1-based number.'],
      [['replace-body', '--name', 'f'], 'error: replace_symbol_body needs the code: exactly one of --text or --text-file. To fix this, pass --text CODE or --text-file FILE.'],
      [['organize-imports'], 'error: organize_imports needs --file PATH. To fix this, pass --file PATH.'],
    ];
    for (const [argv, line] of cases) {
      const result = await run(...argv);
      expect({ argv, code: result.code, stderr: result.stderr, calls: result.calls }).toEqual({ argv, code: 1, stderr: `${line}\n`, calls: [] });
    }
  });

  it('reports a failure of an action with its line and exit code 1', async () => {
    const { actions } = recording();
    actions.recover = async () => { throw new TypeError('x is undefined'); };
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    expect(await main(['recover'], actions)).toBe(1);
    expect(err.join('')).toBe('error: x is undefined. To fix this, report this bug in Sextant with the command that caused it.\n');
  });
});
