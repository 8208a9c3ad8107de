// The deployable bundle of the worker, as `wrangler deploy --dry-run` writes it, for the benches
// that serve it with `wrangler dev --no-bundle` (bench-worker-process.ts): written to
// <benchDir>/bundle/, with its size and a check that no grammar or index data went into it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const WORKER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WRANGLER = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');

export interface BundleInfo {
  bytes: number;
  gzipBytes: number;
  wranglerLine: string;
  files: string[];
  grammarOrIndexData: boolean;
}

/** The deployable bundle, as `wrangler deploy` would upload it. */
export function buildBundle(benchDir: string, log: (line: string) => void): BundleInfo {
  const outdir = join(benchDir, 'bundle');
  rmSync(outdir, { recursive: true, force: true });
  const dry = spawnSync(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir, '--config', join(WORKER_DIR, 'wrangler.jsonc')], {
    cwd: WORKER_DIR, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  if (dry.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${dry.stdout}${dry.stderr}`);
  const wranglerLine = (dry.stdout.match(/Total Upload:.*/) ?? [''])[0];
  const code = readFileSync(join(outdir, 'worker.js'));
  const files = readdirSync(outdir);
  const info: BundleInfo = {
    bytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength, wranglerLine, files,
    // Grammars would be .wasm modules (files beside the script, or WebAssembly compiled inline);
    // index data would be a large literal, which shows as a very long line.
    grammarOrIndexData: files.some((f) => !/^(worker\.js|worker\.js\.map|README\.md)$/.test(f))
      || /WebAssembly\.(instantiate|compile|Module)/.test(code.toString('utf8'))
      || Math.max(...code.toString('utf8').split('\n').map((line) => line.length)) > 64 * 1024,
  };
  log(`bundle: ${wranglerLine}; files ${files.join(', ')}`);
  return info;
}

