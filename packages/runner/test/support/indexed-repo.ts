// A git repository made for the multi-commit tests, commit by commit with fixed dates, and indexes
// of its commits built by the real `indexer build` (its CLI, as a user runs it).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const INDEXER = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../indexer/bin/indexer.js');
const IDENTITY = 'Sextant Test <test@sextant.dev>';

export interface TestRepo {
  dir: string;
  git(...args: string[]): string;
  /** Writes the files and commits them at `date` (ISO); the new commit's sha. */
  commit(files: Record<string, string>, date: string): string;
  /** Builds the index of `commit` into `out` with `indexer build`; `out`. */
  index(commit: string, out: string, repoName?: string): string;
  /**
   * Two commits whose shas share their first `digits` hex digits (found by hashing commit objects
   * that differ in their message), written with git and pointed at by the branches twin-a and twin-b.
   */
  twins(digits: number): [string, string];
}

export function testRepo(name = 'acme/widgets'): TestRepo {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-runner-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
  git('init', '-q', '-b', 'main');
  const repo: TestRepo = {
    dir,
    git,
    commit(files, date) {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      git('add', '-A');
      execFileSync('git', ['-c', 'user.name=Sextant Test', '-c', 'user.email=test@sextant.dev', 'commit', '-q', '-m', `at ${date}`], {
        cwd: dir, env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      });
      return git('rev-parse', 'HEAD');
    },
    index(commit, out, repoName = name) {
      execFileSync(process.execPath, [INDEXER, 'build', '--repo', dir, '--commit', commit, '--out', out, '--repo-name', repoName, '--quiet'], { stdio: 'pipe' });
      return out;
    },
    twins(digits) {
      const tree = git('rev-parse', 'HEAD^{tree}');
      const parent = git('rev-parse', 'HEAD');
      const object = (n: number) => `tree ${tree}\nparent ${parent}\nauthor ${IDENTITY} 1767225600 +0000\ncommitter ${IDENTITY} 1767225600 +0000\n\ntwin ${n}\n`;
      const sha = (body: string) => createHash('sha1').update(`commit ${Buffer.byteLength(body)}\0${body}`).digest('hex');
      const seen = new Map<string, number>();
      for (let n = 0; ; n++) {
        const prefix = sha(object(n)).slice(0, digits);
        const other = seen.get(prefix);
        if (other !== undefined) {
          const written = [other, n].map((m) => execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: dir, input: object(m), encoding: 'utf8' }).trim());
          git('branch', 'twin-a', written[0]!);
          git('branch', 'twin-b', written[1]!);
          return written as [string, string];
        }
        seen.set(prefix, n);
      }
    },
  };
  return repo;
}

/** A fresh empty directory for indexes. */
export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'sextant-runner-indexes-'));
}
