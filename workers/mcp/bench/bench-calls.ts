// One tools/call to the bench worker and what it cost: the CPU of the worker's workerd across it
// (kernel schedstat), the wall time the client saw, and what the worker's log line says it read.
// Shared by the sections of the worker bench.
import type { BenchCorpus } from './bench-corpora.ts';
import type { BenchWorker } from './bench-worker-process.ts';

export const TOKEN = `bench-${Date.now().toString(36)}-token`;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${TOKEN}` };

export interface Call {
  tool: string;
  label: string;
  args: Record<string, unknown>;
}

export interface Sample {
  cpu: number;
  /** Cold only: the isolate's CPU by V8's sampling profiler. */
  profiled?: number;
  wall: number;
  handlerCpu?: number;
  handlerTotal?: number;
  r2Reads?: number;
  edgeCacheHits?: number;
  shardsRead?: number;
  shardBytes?: number;
}

/** One call, one at a time: CPU of the worker's workerd across it, wall time seen by the client. */
export async function measured(worker: BenchWorker, corpus: BenchCorpus, call: Call): Promise<Sample> {
  const cpuBefore = worker.cpuMs();
  const started = performance.now();
  const response = await post(worker, corpus, call);
  const wall = performance.now() - started;
  // Read once the call's log line is out: work the worker does after responding (an edge-cache
  // put it waits for) is part of the call's CPU.
  const logged = await lastToolCall(worker);
  const cpu = worker.cpuMs() - cpuBefore;
  const timing = Object.fromEntries((response.headers.get('server-timing') ?? '').split(',').map((part) => {
    const [name, dur] = part.trim().split(';dur=');
    return [name, Number(dur)];
  }));
  return {
    cpu, wall, handlerCpu: timing.cpu, handlerTotal: timing.total,
    r2Reads: logged?.r2Reads as number | undefined, edgeCacheHits: logged?.edgeCacheHits as number | undefined,
    shardsRead: logged?.shardsRead as number | undefined, shardBytes: logged?.shardBytes as number | undefined,
  };
}

async function lastToolCall(worker: BenchWorker): Promise<Record<string, unknown> | undefined> {
  for (let i = 0; i < 20; i++) {
    const calls = worker.takeLogLines().filter((l) => l.event === 'tool_call');
    if (calls.length) return calls.at(-1);
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
}

export async function post(worker: BenchWorker, corpus: BenchCorpus, call: Call): Promise<Response> {
  const response = await fetch(`${worker.url}/mcp/${corpus.repo}`, {
    method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: call.tool, arguments: call.args } }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: unknown }; error?: unknown };
  if (response.status !== 200 || !body.result || body.result.isError) {
    throw new Error(`${call.label} on ${corpus.id} failed (${response.status}): ${text.slice(0, 400)}`);
  }
  return new Response(text, { headers: response.headers });
}

export async function structured(worker: BenchWorker, corpus: BenchCorpus, tool: string, args: Record<string, unknown>): Promise<any> {
  const response = await post(worker, corpus, { tool, label: tool, args });
  return ((await response.json()) as { result: { structuredContent: unknown } }).result.structuredContent;
}

export function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

