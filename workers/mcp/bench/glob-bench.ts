// `npm run bench:globs`: what `paths` globs cost a call (issue #26). A generated repository of
// 4,000 TypeScript files with paths of about 176 characters is indexed with `indexer build`,
// published to local R2 and served by the real worker (the deployable bundle in workerd, as the
// worker bench serves it) and by `runner mcp` over stdio. Each input of the issue is called there:
// file_problems and search_symbols with 64 globs of several shapes, four such calls in one batch,
// and a glob set past the matching budget (its refusal timed too), with /health asked while the
// heaviest call runs. The worker's CPU is the kernel's account of its workerd process, as in the
// worker bench. In process, the same globs over the same paths are matched both ways: as one
// automaton (pathFilter) and one matcher per glob in turn (the design before), side by side.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { compileGlob, FORMAT_VERSION, pathFilter, sha256Hex } from '@sextant/format';
import { positiveOption } from '../../../indexer/bench/bench-options.ts';
import { BenchWorker, freePort } from './bench-worker-process.ts';
import { buildBundle } from './worker-bundle.ts';

const WORKER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(WORKER_DIR, '../..');
const BENCH_DIR = join(WORKER_DIR, '.bench', 'globs');
const WRANGLER = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const INDEXER = join(ROOT, 'indexer/bin/indexer.js');
const RUNNER = join(ROOT, 'packages/runner/bin/runner.js');
const REPO = 'bench/globs';
const TOKEN = `bench-${Date.now().toString(36)}-token`;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${TOKEN}` };
/** Bumped when the generated repository changes, so a cached one is not reused. */
const GENERATOR_VERSION = 1;
const FILES = 4000;
/** Issue #26: each input under 100 ms of worker CPU. */
const TARGET_MS = 100;

const USAGE = `usage: npm run bench:globs -- [--runs 5]
  --runs N   samples per input and server (default 5; the median is reported)`;

/** Paths of about 176 characters, in 40 packages and 200 directories, as a large monorepo's are. */
function pathOf(i: number): string {
  const pkg = `packages/feature-module-${String(i % 40).padStart(3, '0')}`;
  const dir = `src/components/implementation/details/subsystem-${String(i % 200).padStart(4, '0')}/internal/request-handlers/generated-sources`;
  return `${pkg}/${dir}/descriptive-module-name-for-path-matching-${String(i).padStart(5, '0')}.ts`;
}

/** The glob inputs: the shapes the issue measured, 64 globs each (the schema's most). */
const GLOB_SETS: { name: string; globs: string[] }[] = [
  { name: '64 plain globs **Z0 … **Z63', globs: Array.from({ length: 64 }, (_, i) => `**Z${i}`) },
  { name: '64 long wildcard globs (*a)×60…', globs: Array.from({ length: 64 }, (_, i) => `${'*a'.repeat(60 + (i % 4))}Z${i}`) },
  { name: '64 deep **/ chains', globs: Array.from({ length: 64 }, (_, i) => `**/${'a**/'.repeat(40)}Q${i}`) },
  { name: '64 segment globs **/*x*y*N*/**', globs: Array.from({ length: 64 }, (_, i) => `**/*${String.fromCharCode(97 + (i % 26))}*${String.fromCharCode(97 + ((i * 7) % 26))}*${i}*/**`) },
  { name: '64 long literals (real directories)', globs: Array.from({ length: 64 }, (_, i) => `${pathOf(i * 61).slice(0, pathOf(i * 61).lastIndexOf('/'))}/*-${String(i * 61).padStart(5, '0')}.ts`) },
];

/** 64 globs each tracking its own sequence of characters across the path: past the budget. */
function overBudget(): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789-_.';
  let a = 7;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: 64 }, () => `${Array.from({ length: 120 }, () => `**${letters[Math.floor(next() * letters.length)]}`).join('')}Q`);
}

interface Input {
  name: string;
  calls: { tool: string; args: Record<string, unknown> }[];
  /** Expected to be refused past the matching budget. */
  refused?: boolean;
}

function inputs(): Input[] {
  const list: Input[] = [];
  for (const set of GLOB_SETS) {
    list.push({ name: `file_problems, ${set.name}`, calls: [{ tool: 'file_problems', args: { paths: set.globs, limit: 10 } }] });
    list.push({ name: `search_symbols, ${set.name}`, calls: [{ tool: 'search_symbols', args: { query: 'value', paths: set.globs, limit: 10 } }] });
  }
  const heavy = GLOB_SETS[1]!.globs;
  list.push({ name: 'a batch of four file_problems calls, 64 long wildcard globs each', calls: Array.from({ length: 4 }, (_, i) => ({ tool: 'file_problems', args: { paths: heavy, limit: 10 + i } })) });
  list.push({ name: 'file_problems, 64 globs past the matching budget (refused)', calls: [{ tool: 'file_problems', args: { paths: overBudget() } }], refused: true });
  return list;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, help: { type: 'boolean', short: 'h', default: false } }, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const runs = positiveOption(values.runs, '--runs', USAGE);
  const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${loadavg().map((l) => l.toFixed(2)).join(' ')}] ${line}`);
  const paths = Array.from({ length: FILES }, (_, i) => pathOf(i));
  log(`${FILES} paths, ${(paths.reduce((sum, p) => sum + p.length, 0) / FILES).toFixed(0)} characters on average`);

  const lines: string[] = ['# Globs bench', '', `${FILES} files, paths of ${(paths.reduce((sum, p) => sum + p.length, 0) / FILES).toFixed(0)} characters on average; median of ${runs} runs; target ${TARGET_MS} ms of worker CPU per input.`, ''];
  lines.push(...inProcess(paths, runs), '');

  const index = prepareIndex(paths, log);
  buildBundle(BENCH_DIR, log);
  const worker = new BenchWorker({
    benchDir: BENCH_DIR, wranglerBin: WRANGLER, port: await freePort(), inspectorPort: await freePort(),
    env: { SEXTANT_TOKENS: JSON.stringify([{ name: 'bench', sha256: sha256Hex(new TextEncoder().encode(TOKEN)), repos: ['bench/*'] }]) },
  });
  await worker.start();
  const transport = new StdioClientTransport({ command: process.execPath, args: [RUNNER, 'mcp', '--index', index], stderr: 'ignore' });
  const runner = new Client({ name: 'glob-bench', version: '0' });
  await runner.connect(transport);
  try {
    const health: number[] = [];
    for (let i = 0; i < 20; i++) health.push(await timedHealth(worker));
    const healthCpu: number[] = [];
    for (let i = 0; i < 20; i++) {
      const before = worker.cpuMs();
      await (await fetch(`${worker.url}/health`)).text();
      healthCpu.push(worker.cpuMs() - before);
    }
    const floor = median(healthCpu);
    lines.push('## Through both servers', '', `Worker CPU is its workerd process's on-CPU time across the request, minus a /health request's (${floor.toFixed(1)} ms); wall is as the client sees it. /health alone: ${median(health).toFixed(1)} ms wall.`, '');
    lines.push('| input | worker CPU ms | worker wall ms | /health during it, ms wall | runner wall ms | answer | target |', '| --- | --- | --- | --- | --- | --- | --- |');
    for (const input of inputs()) {
      const cpu: number[] = [];
      const wall: number[] = [];
      const during: number[] = [];
      const local: number[] = [];
      let answer = '';
      for (let run = 0; run < runs + 1; run++) {
        const before = worker.cpuMs();
        const started = performance.now();
        const call = post(worker, input);
        // /health asked once the call is on its way: it waits only if matching blocks the isolate.
        await new Promise((r) => setTimeout(r, 2));
        const healthWall = await timedHealth(worker);
        const results = await call;
        const callWall = performance.now() - started;
        const callCpu = worker.cpuMs() - before - 2 * floor;
        answer = describe(results, input);
        const localStarted = performance.now();
        for (const c of input.calls) await runner.callTool({ name: c.tool, arguments: c.args });
        const localWall = performance.now() - localStarted;
        if (run === 0) continue; // the first sample warms both servers' code
        cpu.push(Math.max(0, callCpu));
        wall.push(callWall);
        during.push(healthWall);
        local.push(localWall);
      }
      const met = median(cpu) <= TARGET_MS;
      lines.push(`| ${input.name} | ${median(cpu).toFixed(1)} | ${median(wall).toFixed(1)} | ${median(during).toFixed(1)} | ${median(local).toFixed(1)} | ${answer} | ${met ? 'met' : `missed (${TARGET_MS})`} |`);
      log(`${input.name}: worker cpu ${median(cpu).toFixed(1)} ms, wall ${median(wall).toFixed(1)} ms, /health ${median(during).toFixed(1)} ms, runner ${median(local).toFixed(1)} ms; ${answer}`);
    }
  } finally {
    await runner.close();
    await worker.stop();
  }
  const report = lines.join('\n');
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(join(BENCH_DIR, 'results', 'glob-bench.md'), `${report}\n`);
  console.log(`\n${report}`);
  return 0;
}

/** The same globs over the same paths, in this process: one automaton against one matcher per glob. */
function inProcess(paths: readonly string[], runs: number): string[] {
  const rows = ['## In process (Node), the matching alone', '', '| globs | one automaton (pathFilter) ms | one matcher per glob ms | ratio | kept |', '| --- | --- | --- | --- | --- |'];
  for (const set of GLOB_SETS) {
    const union: number[] = [];
    const each: number[] = [];
    let kept = 0;
    for (let run = 0; run < runs + 1; run++) {
      let started = performance.now();
      const filter = pathFilter(set.globs);
      kept = paths.filter(filter).length;
      const unionMs = performance.now() - started;
      started = performance.now();
      const matchers = set.globs.map((g) => compileGlob(g));
      const eachKept = paths.filter((p) => matchers.some((m) => m.test(p))).length;
      const eachMs = performance.now() - started;
      if (eachKept !== kept) throw new Error(`${set.name}: the automaton kept ${kept} paths, the matchers ${eachKept}`);
      if (run === 0) continue;
      union.push(unionMs);
      each.push(eachMs);
    }
    rows.push(`| ${set.name} | ${median(union).toFixed(1)} | ${median(each).toFixed(1)} | ${(median(each) / median(union)).toFixed(1)}x | ${kept} |`);
  }
  return rows;
}

/** The generated repository, indexed and published to the bench's local R2; cached by generator version. */
function prepareIndex(paths: readonly string[], log: (line: string) => void): string {
  const repo = join(BENCH_DIR, `repo-v${GENERATOR_VERSION}`);
  // Rebuilt for another format version: a cached index of an older one would not open.
  const index = join(BENCH_DIR, `index-v${GENERATOR_VERSION}-f${FORMAT_VERSION}`);
  if (!existsSync(join(index, 'manifest.json'))) {
    rmSync(repo, { recursive: true, force: true });
    log(`generating ${paths.length} files in ${repo}`);
    paths.forEach((path, i) => {
      mkdirSync(join(repo, dirname(path)), { recursive: true });
      // Every tenth file has a type error, so file_problems has problems to list.
      writeFileSync(join(repo, path), `/** Value ${i}. */\nexport const value${i}: number = ${i % 10 === 0 ? `'not a number ${i}'` : i};\n`);
    });
    writeFileSync(join(repo, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, "noEmit": true } }\n');
    const env = { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=bench@sextant.dev', '-c', 'user.name=bench', ...args], { cwd: repo, env, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'generated');
    log('indexing it with indexer build');
    const built = spawnSync(process.execPath, [INDEXER, 'build', '--repo', repo, '--out', index, '--repo-name', REPO, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) throw new Error(`indexer build failed (exit ${built.status})`);
    rmSync(join(BENCH_DIR, 'state'), { recursive: true, force: true });
  }
  if (!existsSync(join(BENCH_DIR, 'state'))) {
    log('publishing it to local R2');
    const published = spawnSync(process.execPath, [
      INDEXER, 'publish', '--out', index, '--repo-name', REPO, '--ref', 'main', '--default', '--local', '--persist-to', join(BENCH_DIR, 'state'), '--config', join(WORKER_DIR, 'wrangler.jsonc'),
    ], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (published.status !== 0) throw new Error(`indexer publish failed (exit ${published.status})`);
  }
  return index;
}

type RpcResult = { result?: { isError?: boolean; structuredContent?: Record<string, unknown> }; error?: unknown };

/** The input's calls in one HTTP request (a JSON-RPC batch when there are several). */
async function post(worker: BenchWorker, input: Input): Promise<RpcResult[]> {
  const messages = input.calls.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: c.tool, arguments: c.args } }));
  const response = await fetch(`${worker.url}/mcp/${REPO}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(messages.length === 1 ? messages[0] : messages) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${input.name}: HTTP ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as RpcResult | RpcResult[];
  return Array.isArray(body) ? body : [body];
}

/** What the answers were, checked against what the input expects. */
function describe(results: RpcResult[], input: Input): string {
  const errors = results.map((r) => (r.result?.isError ? (r.result.structuredContent?.error as { code: string; message: string }) : undefined));
  if (input.refused) {
    const error = errors[0];
    if (error?.code !== 'INVALID_ARGUMENT') throw new Error(`${input.name}: expected INVALID_ARGUMENT, got ${JSON.stringify(results[0]).slice(0, 300)}`);
    return `refused: ${error.message.slice(0, 70)}…`;
  }
  const failed = errors.find(Boolean);
  if (failed || results.some((r) => !r.result)) throw new Error(`${input.name}: ${JSON.stringify(results).slice(0, 300)}`);
  const content = results[0]!.result!.structuredContent!;
  return `total ${String(content.total)}${results.length > 1 ? ` (×${results.length})` : ''}`;
}

async function timedHealth(worker: BenchWorker): Promise<number> {
  const started = performance.now();
  await (await fetch(`${worker.url}/health`)).text();
  return performance.now() - started;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

process.exitCode = await main();
