// The runner's commands say what they did and stop as a client asks: `runner mcp` ends with 0 when
// its stdin closes (how a client stops a stdio server); a plan saved with --out says where it went,
// whether it is signed and how to apply it; the user's signing key is announced when it is created;
// and with no .sextant/index the index of HEAD that `indexer review` left in .sextant/indexes/ is
// used (said on stderr), or the error names the indexes that are there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRepo, type TestRepo } from './support/indexed-repo.ts';

const RUNNER = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/runner.js');

let repo: TestRepo;
let head: string;
let config: string;

/** The runner as a user runs it, with its own config directory; stdin closed unless `input` is given. */
function runner(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [RUNNER, ...args], {
    cwd: repo.dir, input, encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: config }, timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  repo = testRepo();
  head = repo.commit({ 'src/a.ts': 'export function greet(name: string): string {\n  return name;\n}\n', 'src/b.ts': "import { greet } from './a';\nexport const b = greet('b');\n" }, '2026-01-01T00:00:00Z');
  repo.index(head, join(repo.dir, '.sextant/index'));
  config = mkdtempSync(join(tmpdir(), 'sextant-say-config-'));
}, 120_000); // the indexer CLI, on a loaded 2-core machine

afterAll(() => {
  rmSync(repo.dir, { recursive: true, force: true });
  rmSync(config, { recursive: true, force: true });
});

// Each case starts the runner CLI once or twice (tsx compiles it at every start): seconds each when the machine is loaded.
describe('what the runner says', { timeout: 120_000 }, () => {
  it('runner mcp exits 0 when its stdin closes, saying it stopped', () => {
    const result = runner(['mcp']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/serving acme\/widgets@[0-9a-f]{12} from .*\.sextant\/index \(the default: no --index given\) over stdio\n/);
    expect(result.stderr).toMatch(/sextant runner: stdin closed, stopped\n$/);
  });

  it('announces the signing key it creates, once, and says where a saved plan went, signed, and how to apply it', () => {
    const plan = join(config, 'plan.json');
    const first = runner(['rename', '--name', 'greet', '--to', 'welcome', '--out', plan]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`created your plan-signing key [0-9a-f]{16} in ${join(config, 'sextant/plan-signing-key')} \\(mode 0600\\)`));
    expect(first.stderr).toMatch(new RegExp(`wrote plan [0-9a-f]{12} to ${plan}, signed with your runner key [0-9a-f]{16}: apply it with \`runner apply ${plan}\`\\.\\n$`));
    expect(first.stdout).toMatch(/^plan rename function greet to welcome/);
    expect(existsSync(plan)).toBe(true);
    const second = runner(['rename', '--name', 'greet', '--to', 'welcome', '--out', plan]);
    expect(second.stderr).not.toContain('created your plan-signing key');
  });

  it('uses the index of HEAD in .sextant/indexes/ when there is no .sextant/index, and names what is there when neither is', () => {
    mkdirSync(join(repo.dir, '.sextant/indexes'), { recursive: true });
    renameSync(join(repo.dir, '.sextant/index'), join(repo.dir, '.sextant/indexes', head));
    try {
      const found = runner(['rename', '--name', 'greet', '--to', 'welcome']);
      expect(found.status, found.stderr).toBe(0);
      expect(found.stderr).toContain(`no index at .sextant/index; using .sextant/indexes/${head}, the index of HEAD (${head.slice(0, 12)}) that indexer review built.`);
      const other = '0'.repeat(40);
      renameSync(join(repo.dir, '.sextant/indexes', head), join(repo.dir, '.sextant/indexes', other));
      const missing = runner(['rename', '--name', 'greet', '--to', 'welcome']);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain(`error: No index at ${join(repo.dir, '.sextant/index')}, and none of HEAD (${head.slice(0, 12)}) in ${join(repo.dir, '.sextant/indexes')}, which holds 1: .sextant/indexes/${other}.`);
      expect(missing.stderr).toContain(`To fix this, run \`indexer build\` in ${repo.dir} to index HEAD into .sextant/index, or pass --index with one of those`);
      renameSync(join(repo.dir, '.sextant/indexes', other), join(repo.dir, '.sextant/index'));
    } finally {
      rmSync(join(repo.dir, '.sextant/indexes'), { recursive: true, force: true });
    }
  });
});
