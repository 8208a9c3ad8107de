#!/usr/bin/env node
// `npm start` (npm run start -w @sextant/worker-mcp, cwd workers/mcp): index this repository at HEAD, publish the index into
// the local R2 that `wrangler dev` serves, run the worker in workerd on 127.0.0.1:8787 (PORT to
// change it), and print the MCP URLs with a client config to paste. Authentication is off
// (SEXTANT_AUTH=off), which the worker honours only for requests to a loopback address, and the
// server binds to loopback only. Plans are signed with a development key kept in
// .wrangler/plan-signing-key (made on first start, mode 0600, never committed: .wrangler/ is
// ignored) and handed to wrangler in a private env file, not on the command line. Runs until
// Ctrl-C, SIGINT or SIGTERM (to this script or to the npm process that started it); wrangler and its
// workerd live in their own process group, which is stopped on exit, and the last line says so.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(WORKER_DIR, '../..');
const INDEXER = join(ROOT, 'indexer/bin/indexer.js');
const INDEX_DIR = join(ROOT, '.sextant/index');
const PERSIST_DIR = join(WORKER_DIR, '.wrangler/state');
const CONFIG = join(WORKER_DIR, 'wrangler.jsonc');
const DEV_KEY = join(WORKER_DIR, '.wrangler/plan-signing-key');
const DEV_ENV = join(WORKER_DIR, '.wrangler/dev-secrets.env');
const HOST = '127.0.0.1';
const started = performance.now();
const PORT = Number(process.env.PORT ?? 8787);

function fail(what, fix) {
  console.error(`error: ${what} To fix this, ${fix}`);
  process.exit(1);
}

function portIsFree(port) {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, HOST, () => server.close(() => resolvePort(true)));
  });
}

function currentBranch() {
  try {
    return execFileSync('git', ['symbolic-ref', '--short', '-q', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim() || 'HEAD';
  } catch {
    return 'HEAD'; // detached
  }
}

if (!Number.isInteger(PORT) || PORT <= 0 || PORT > 65535) fail(`PORT="${process.env.PORT}" is not a port number.`, 'set PORT to a number such as 8787, or unset it.');
// Checked first: an old server still on the port would answer /health and pass for this one.
if (!(await portIsFree(PORT))) fail(`${HOST}:${PORT} is already in use.`, `stop whatever listens there (an earlier \`npm start\`?), or run with PORT=<another port>.`);

// The same key every start, so a key trusted once with `runner trust add` stays trusted.
mkdirSync(dirname(DEV_KEY), { recursive: true });
if (!existsSync(DEV_KEY)) writeFileSync(DEV_KEY, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
writeFileSync(DEV_ENV, `SEXTANT_PLAN_SIGNING_KEY='${readFileSync(DEV_KEY, 'utf8').trim()}'\n`, { mode: 0o600 });

// wrangler dev starts while the index is built: bundling and starting workerd take a few seconds
// of the second core, and nothing reads the local R2 until the index is published into it (the
// banner below comes after both).
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const wranglerBin = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const wrangler = spawn(process.execPath, [
  wranglerBin, 'dev', '--config', CONFIG, '--ip', HOST, '--port', String(PORT), '--persist-to', PERSIST_DIR,
  '--local', '--show-interactive-dev-session=false', '--var', 'SEXTANT_AUTH:off', '--env-file', DEV_ENV,
], {
  cwd: WORKER_DIR, stdio: ['ignore', 'inherit', 'inherit'], detached: true,
  // No usage metrics, and no fetch of the Request.cf sample from workers.cloudflare.com (the worker
  // reads no request.cf): offline, that fetch printed two ENOTFOUND stack traces before falling
  // back to a placeholder. Both switches are wrangler's documented environment variables.
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
});

/** The build or publish under way: a signal stops it too. */
let step;
let stopping;
/**
 * Stops everything this script started (the step under way, wrangler's process group) on SIGINT,
 * SIGTERM or SIGHUP, whichever process it was sent to (npm forwards it here), then says so last.
 */
function stop(signal) {
  if (stopping) return;
  stopping = signal;
  step?.kill('SIGTERM');
  try {
    process.kill(-wrangler.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  setTimeout(() => {
    try { process.kill(-wrangler.pid, 'SIGKILL'); } catch { /* gone */ }
    console.log(`stopped as asked (${signal}); wrangler dev did not exit within 4 s of SIGTERM, so it was killed.`);
    process.exit(0);
  }, 4_000).unref();
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
process.on('exit', () => {
  try { process.kill(-wrangler.pid, 'SIGKILL'); } catch { /* gone */ }
});
wrangler.on('exit', (code, signal) => {
  if (stopping) {
    console.log(`stopped as asked (${stopping}): wrangler dev, workerd and the build are stopped.`);
    process.exit(0);
  }
  step?.kill('SIGTERM');
  console.error(`error: wrangler dev exited (${code ?? signal}). To fix this, read its output above.`);
  process.exit(1);
});

/** Runs one step (the indexer) to its end; its exit code, or its signal's name. */
function run(args) {
  return new Promise((resolveStep) => {
    step = spawn(process.execPath, args, { stdio: 'inherit' });
    step.on('error', (error) => resolveStep(error.message));
    step.on('exit', (code, signal) => {
      step = undefined;
      resolveStep(code ?? signal);
    });
  });
}
/** While stopping, a step ended by the signal is no failure: wait for wrangler's exit, which ends this script. */
const untilStopped = () => new Promise(() => {});

console.log(`building the index of ${ROOT} at HEAD`);
const built = existsSync(INDEXER) ? await run([INDEXER, 'build', '--repo', ROOT, '--out', INDEX_DIR]) : `${INDEXER} does not exist`;
if (stopping) await untilStopped();
if (built !== 0) {
  const why = typeof built === 'string' && !built.startsWith('SIG') ? built : `the indexer exited with ${built}`;
  if (!existsSync(join(INDEX_DIR, 'manifest.json'))) {
    fail(`could not build the index (${why}).`, `run \`node indexer/bin/indexer.js build --repo . --out .sextant/index\` from the repository root to see the problem, fix it, then npm start again.`);
  }
  console.warn(`warning: could not build the index (${why}); serving the existing one in ${INDEX_DIR}, which may be stale.`);
}

const manifest = JSON.parse(readFileSync(join(INDEX_DIR, 'manifest.json'), 'utf8'));
const ref = currentBranch();
console.log(`publishing ${manifest.repo}@${manifest.commit} as ref ${ref} into local R2 (${PERSIST_DIR})`);
const published = await run([
  INDEXER, 'publish', '--out', INDEX_DIR, '--ref', ref, '--default', '--local', '--persist-to', PERSIST_DIR, '--config', CONFIG,
]);
if (stopping) await untilStopped();
if (published !== 0) {
  fail(`publishing the index failed (exit ${published}).`, 'read the error above; `node indexer/bin/indexer.js publish --help` lists the options.');
}

const base = `http://${HOST}:${PORT}`;
const deadline = Date.now() + 120_000;
for (;;) {
  try {
    if ((await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) })).ok) break;
  } catch {
    // not up yet
  }
  if (Date.now() > deadline) {
    fail(`wrangler dev did not answer ${base}/health within 120 s.`, 'read its output above.');
  }
  await new Promise((r) => setTimeout(r, 300));
}

const url = `${base}/mcp/${manifest.repo}`;
console.log(`
Sextant is serving ${manifest.repo}@${manifest.commit.slice(0, 12)} (ref ${ref}), ready after ${seconds()}.
  MCP endpoint (Streamable HTTP): ${url}
  the same, ending in /mcp:       ${base}/r/${manifest.repo}/mcp   (for clients such as MCP Inspector 0.15)
  every repository (tools take repo): ${base}/mcp
  health:                         ${base}/health
  authentication: OFF, because the server is bound to ${HOST} (loopback) and SEXTANT_AUTH=off;
  requests to any other address need a bearer token (README: Authentication).
  plans are signed with the development key in ${DEV_KEY}; to apply them with the runner, trust it once:
    curl -s ${base}/.well-known/sextant-plan-keys -o sextant-plan-keys.json && runner trust add sextant-plan-keys.json   # runner: see the README, Commands

Client config (Claude Code .mcp.json, and clients that take the same "mcpServers" shape):
${JSON.stringify({ mcpServers: { sextant: { type: 'http', url } } }, null, 2)}

or: claude mcp add --transport http sextant ${url}
Press Ctrl-C to stop.
`);
