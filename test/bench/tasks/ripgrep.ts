// The baseline's search tool: ripgrep from Debian's `ripgrep` package, fetched at bench time with
// `apt-get download` (as jvm-corpora.ts fetches openjdk-17-source) into the git-ignored bench
// cache and unpacked there; never committed, never installed system-wide.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function ensureRipgrep(cacheDir: string): Promise<string> {
  const dir = join(cacheDir, 'ripgrep');
  const binary = join(dir, 'root/usr/bin/rg');
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  await run('apt-get', ['download', 'ripgrep'], { cwd: dir });
  const deb = (await readdir(dir)).find((f) => f.startsWith('ripgrep_') && f.endsWith('.deb'));
  if (!deb) throw new Error('apt-get download ripgrep produced no .deb. To fix this, run `apt-get update` first.');
  await run('dpkg-deb', ['-x', deb, 'root'], { cwd: dir });
  return binary;
}

export interface Hit {
  path: string;
  line: number;
  text: string;
}

/** `rg -n -w <name>` over `dirs` of `root`: its output (what the agent reads) and the hits parsed from it. */
export async function ripgrep(binary: string, root: string, args: string[]): Promise<{ output: string; hits: Hit[] }> {
  let output = '';
  try {
    output = (await run(binary, ['--no-heading', '--color', 'never', '-n', ...args], { cwd: root, maxBuffer: 1 << 28 })).stdout;
  } catch (error) {
    // rg exits 1 when nothing matches.
    if ((error as { code?: number }).code !== 1) throw error;
  }
  const hits: Hit[] = [];
  for (const row of output.split('\n')) {
    const match = /^(.+?):(\d+):(.*)$/.exec(row);
    if (match) hits.push({ path: match[1]!, line: Number(match[2]), text: match[3]! });
  }
  return { output, hits };
}
