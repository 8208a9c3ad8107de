// Runs one tool as a separate process under GNU time (`/usr/bin/time -v`), so wall time, CPU time
// and peak RSS are measured from outside the tool, the same way for every tool. Lines the tool
// writes to stderr are timestamped as they arrive and, for a tool that announces its phases (our
// indexer does, one plain line per phase when stderr is not a terminal), paired with the process's
// resident memory at that moment: a per-phase breakdown for the price of reading /proc.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';

export const GNU_TIME = '/usr/bin/time';

/** The 1, 5 and 15 minute load averages, for a bench to print beside its figures (2 shared cores). */
export function loadAverage(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' ');
}

export interface PhaseMark {
  /** Seconds since the process started. */
  at: number;
  line: string;
  /** Resident and peak resident memory of the tool's process when the line arrived, in bytes. */
  rss?: number;
  hwm?: number;
}

export interface Measurement {
  exitCode: number;
  wallSeconds: number;
  userSeconds: number;
  systemSeconds: number;
  /** Peak resident set size of the largest process in the tool's tree, in bytes (GNU time's "Maximum resident set size"). */
  peakRssBytes: number;
  stdout: string;
  stderr: string;
  marks: PhaseMark[];
}

export function assertGnuTime(): void {
  if (!existsSync(GNU_TIME)) {
    throw new Error(`${GNU_TIME} is missing. To fix this, install Debian's time package: apt-get update && apt-get install -y time`);
  }
}

export async function measure(command: string, args: string[], options: { cwd: string; timeFile: string; env?: NodeJS.ProcessEnv }): Promise<Measurement> {
  await rm(options.timeFile, { force: true });
  const started = performance.now();
  const child = spawn(GNU_TIME, ['-v', '-o', options.timeFile, command, ...args], {
    cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const marks: PhaseMark[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
    const at = (performance.now() - started) / 1000;
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    const memory = child.pid ? memoryOfChild(child.pid) : undefined;
    for (const line of lines) if (line.trim()) marks.push({ at, line, ...memory });
  });
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
  const report = parseGnuTime(await readFile(options.timeFile, 'utf8'));
  return {
    exitCode: report.exitCode ?? exitCode,
    wallSeconds: report.wallSeconds,
    userSeconds: report.userSeconds,
    systemSeconds: report.systemSeconds,
    peakRssBytes: report.peakRssBytes,
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr: Buffer.concat(stderr).toString('utf8'),
    marks,
  };
}

export interface GnuTimeReport {
  wallSeconds: number;
  userSeconds: number;
  systemSeconds: number;
  peakRssBytes: number;
  exitCode?: number;
}

/** Parses the report `/usr/bin/time -v` writes. */
export function parseGnuTime(text: string): GnuTimeReport {
  const field = (label: string): string | undefined => {
    const line = text.split('\n').find((l) => l.trim().startsWith(label));
    return line?.slice(line.lastIndexOf(': ') + 2).trim();
  };
  const elapsed = field('Elapsed (wall clock) time');
  const peak = field('Maximum resident set size (kbytes)');
  if (elapsed === undefined || peak === undefined) throw new Error(`not a GNU time -v report:\n${text}`);
  const exit = field('Exit status');
  return {
    wallSeconds: clockSeconds(elapsed),
    userSeconds: Number(field('User time (seconds)') ?? 0),
    systemSeconds: Number(field('System time (seconds)') ?? 0),
    peakRssBytes: Number(peak) * 1024,
    ...(exit !== undefined ? { exitCode: Number(exit) } : {}),
  };
}

/** `h:mm:ss` or `m:ss.ss` to seconds. */
export function clockSeconds(clock: string): number {
  return clock.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
}

/** VmRSS and VmHWM of the process GNU time started (its only child). */
function memoryOfChild(timePid: number): { rss?: number; hwm?: number } | undefined {
  try {
    const children = readFileSync(`/proc/${timePid}/task/${timePid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (children.length === 0) return undefined;
    const status = readFileSync(`/proc/${children[0]}/status`, 'utf8');
    const kb = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Number(match[1]) * 1024 : undefined;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined; // the process ended between the line and the read
  }
}
