// `npm run bench:tasks`: the task benchmark of issue #15. Fixed navigation tasks (task-set.ts) on
// corpora fetched at bench time, each answered by a key computed independently of Sextant (the
// TypeScript language service), then solved twice: by Sextant through the real MCP client against
// `runner mcp` over stdio on an index the real `indexer build` CLI made, and by the ripgrep-and-read
// baseline. Prints a table per task and the totals against the targets, and writes the results to
// test/.bench/tasks/results.json (git-ignored). See README.md.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { shortCommit } from '@sextant/format';
import { CORPORA, prepareCorpus, sourceFingerprint } from '../../../indexer/bench/corpora.ts';
import { JVM_CORPORA } from '../../../indexer/bench/jvm-corpora.ts';
import { BaselineSession, type BaselineCorpus } from './baseline-strategy.ts';
import { javaAnswerKeys } from './java-answer-key.ts';
import { describeDifference, gradeAnswer } from './grading.ts';
import { ensureRipgrep } from './ripgrep.ts';
import { SextantSession } from './sextant-strategy.ts';
import { TASKS } from './task-set.ts';
import { summarize, formatReport, type TaskResult } from './task-report.ts';
import { TsAnswerKey } from './ts-answer-key.ts';
import type { Answer, CorpusId, Task } from './task-types.ts';

const run = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;
const INDEXER = join(ROOT, 'indexer/bin/indexer.js');
/** The indexer benches' corpus cache: the corpora are fetched once for every bench. */
const CORPUS_CACHE = join(ROOT, 'indexer/.bench/cache');
const BENCH_DIR = join(ROOT, 'test/.bench/tasks');
const MAX_FILE_BYTES = 1_000_000;

const USAGE = `usage: tsx bench/tasks/run-tasks.ts [--corpus rxjs,zod,effect,java.base] [--task ID,...] [--trace]
  --corpus LIST  only tasks on these corpora
  --task LIST    only these tasks (ids of task-set.ts)
  --trace        print every call both sides made`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { corpus: { type: 'string' }, task: { type: 'string' }, trace: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const corpora = values.corpus?.split(',');
  const ids = values.task?.split(',');
  const tasks = TASKS.filter((t) => (!corpora || corpora.includes(t.corpus)) && (!ids || ids.includes(t.id)));
  if (tasks.length === 0) throw new Error('no task matches --corpus/--task. To fix this, pick ids from test/bench/tasks/task-set.ts.');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`task bench: ${tasks.length} tasks, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await mkdir(BENCH_DIR, { recursive: true });
  const rg = await ensureRipgrep(BENCH_DIR);
  const fingerprint = await sourceFingerprint();
  const results: TaskResult[] = [];
  let features: SextantSession['features'] | undefined;
  let toolsListChars = 0;
  for (const corpusId of [...new Set(tasks.map((t) => t.corpus))] as CorpusId[]) {
    const corpusTasks = tasks.filter((t) => t.corpus === corpusId);
    const corpus = await prepareTaskCorpus(corpusId, log);
    const index = join(BENCH_DIR, 'indexes', `${corpusId}-${shortCommit(corpus.commit)}-${fingerprint}`);
    if (!existsSync(join(index, 'manifest.json'))) {
      log(`indexing ${corpusId} with indexer build (minutes for effect and java.base)...`);
      await run(process.execPath, [INDEXER, 'build', '--repo', corpus.dir, '--out', index, '--repo-name', `bench/${corpusId}`, '--max-file-bytes', String(MAX_FILE_BYTES), '--quiet'], { maxBuffer: 1 << 26 });
    }
    const keys = await answerKeys(corpus, corpusTasks, log);
    const sextant = await SextantSession.start(index);
    features = sextant.features;
    toolsListChars = sextant.toolsListChars;
    const baseline = new BaselineSession(rg, corpus.baseline);
    try {
      for (const task of corpusTasks) {
        const answerKey = keys.get(task.id)!;
        const ours = await sextant.solve(task);
        const theirs = await baseline.solve(task);
        const result: TaskResult = {
          task, key: answerKey,
          sextant: { ...ours, ...gradeAnswer(ours.answer, answerKey) },
          baseline: { ...theirs, ...gradeAnswer(theirs.answer, answerKey) },
        };
        results.push(result);
        log(`  ${task.id}: key ${answerKey.items.length}; sextant ${result.sextant.grade} (${ours.calls} calls, ${ours.chars} chars); baseline ${result.baseline.grade} (${theirs.calls} calls, ${theirs.chars} chars)`);
        if (values.trace) for (const side of ['sextant', 'baseline'] as const) for (const step of result[side].trace) log(`    ${side}: ${step}`);
        if (result.sextant.grade !== 'correct') log(`    sextant finding: ${describeDifference(result.sextant)}${ours.answer.note ? ` (${ours.answer.note})` : ''}`);
      }
    } finally {
      await sextant.close();
    }
  }
  const summary = summarize(results);
  process.stdout.write(formatReport(results, summary, { features, toolsListChars }));
  const file = join(BENCH_DIR, 'results.json');
  await writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), fingerprint, features, summary, results }, null, 2)}\n`);
  log(`wrote ${file}`);
  return 0;
}

interface TaskCorpus {
  dir: string;
  commit: string;
  baseline: BaselineCorpus;
}

/** A corpus repository at its fixed commit: the TypeScript ones of indexer/bench/corpora.ts, java.base of jvm-corpora.ts. */
async function prepareTaskCorpus(id: CorpusId, log: (line: string) => void): Promise<TaskCorpus> {
  if (id === 'java.base') {
    const jvm = JVM_CORPORA.find((c) => c.id === 'java.base')!;
    log(`preparing java.base (${jvm.note})...`);
    const dir = await jvm.prepare();
    const commit = (await run('git', ['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
    return { dir, commit, baseline: { root: dir, language: 'java', searchDirs: ['java.base'], paths: {} } };
  }
  const spec = CORPORA.find((c) => c.id === id);
  if (!spec) throw new Error(`corpus ${id} has no recipe in indexer/bench/corpora.ts`);
  const prepared = await prepareCorpus(spec, { cacheDir: CORPUS_CACHE, maxFileBytes: MAX_FILE_BYTES, log });
  const paths = (spec.tsconfig.compilerOptions.paths ?? {}) as Record<string, string[]>;
  return { dir: prepared.dir, commit: prepared.commit, baseline: { root: prepared.dir, language: 'typescript', searchDirs: ['src'], paths } };
}

/** The answer keys of one corpus's tasks: the TypeScript language service, or javac for java.base. */
async function answerKeys(corpus: TaskCorpus, tasks: Task[], log: (line: string) => void): Promise<Map<string, Answer>> {
  if (corpus.baseline.language === 'java') {
    return javaAnswerKeys({ repo: corpus.dir, module: 'java.base', commit: corpus.commit, tasks, cacheDir: BENCH_DIR, log });
  }
  log(`answer keys: the TypeScript ${(await import('ts-morph')).ts.version} language service over ${corpus.dir}...`);
  const key = await TsAnswerKey.open(corpus.dir, corpus.commit, MAX_FILE_BYTES);
  return new Map(tasks.map((t) => [t.id, key.answer(t)]));
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
});

