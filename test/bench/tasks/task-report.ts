// The task benchmark's table and totals: per task, both sides' calls, characters, tokens (4
// characters each) and grade; totals and the ratios Sextant/baseline against issue #15's targets.
import { describeDifference, type Graded } from './grading.ts';
import type { Answer, Attempt, Grade, Task } from './task-types.ts';

export interface SideResult extends Attempt, Graded {}

export interface TaskResult {
  task: Task;
  key: Answer;
  sextant: SideResult;
  baseline: SideResult;
}

export interface SideTotals {
  calls: number;
  chars: number;
  tokens: number;
  correct: number;
  wrong: number;
  incomplete: number;
}

export interface Target {
  name: string;
  value: string;
  met: boolean;
}

export interface Summary {
  tasks: number;
  /** The median over tasks of Sextant/baseline characters and calls (the totals weigh the largest tasks most). */
  medianCharsRatio: number;
  medianCallsRatio: number;
  sextant: SideTotals;
  baseline: SideTotals;
  charsRatio: number;
  callsRatio: number;
  targets: Target[];
}

export const TARGETS = { charsRatio: 0.25, callsRatio: 0.5 };

export const tokensOf = (chars: number) => Math.ceil(chars / 4);

function totals(sides: SideResult[]): SideTotals {
  const count = (grade: Grade) => sides.filter((s) => s.grade === grade).length;
  const chars = sides.reduce((sum, s) => sum + s.chars, 0);
  return { calls: sides.reduce((sum, s) => sum + s.calls, 0), chars, tokens: tokensOf(chars), correct: count('correct'), wrong: count('wrong'), incomplete: count('incomplete') };
}

export function summarize(results: TaskResult[]): Summary {
  const sextant = totals(results.map((r) => r.sextant));
  const baseline = totals(results.map((r) => r.baseline));
  const charsRatio = sextant.chars / Math.max(1, baseline.chars);
  const callsRatio = sextant.calls / Math.max(1, baseline.calls);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  return {
    tasks: results.length, sextant, baseline, charsRatio, callsRatio,
    medianCharsRatio: median(results.map((r) => r.sextant.chars / Math.max(1, r.baseline.chars))),
    medianCallsRatio: median(results.map((r) => r.sextant.calls / Math.max(1, r.baseline.calls))),
    targets: [
      { name: 'Sextant wrong = 0', value: String(sextant.wrong), met: sextant.wrong === 0 },
      { name: 'Sextant incomplete = 0', value: String(sextant.incomplete), met: sextant.incomplete === 0 },
      { name: `characters ≤ ${TARGETS.charsRatio}× baseline`, value: `${charsRatio.toFixed(3)}×`, met: charsRatio <= TARGETS.charsRatio },
      { name: `calls ≤ ${TARGETS.callsRatio}× baseline`, value: `${callsRatio.toFixed(3)}×`, met: callsRatio <= TARGETS.callsRatio },
    ],
  };
}

const GRADE_MARK: Record<Grade, string> = { correct: 'correct', wrong: 'WRONG', incomplete: 'INCOMPLETE' };

export function formatReport(results: TaskResult[], summary: Summary, info: { features?: { readBySymbol: boolean; siteContext: boolean }; toolsListChars: number }): string {
  const out = [
    `# Task benchmark (${new Date().toISOString()})`,
    '',
    info.features ? `Served tools: read_file by symbol ${info.features.readBySymbol ? 'yes' : 'no'}, site context ${info.features.siteContext ? 'yes' : 'no'}; tools/list ${info.toolsListChars} characters (not counted per task).` : '',
    '',
    '| task | corpus | kind | key | Sextant calls | chars | tokens | grade | baseline calls | chars | tokens | grade |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  for (const r of results) {
    out.push(`| ${r.task.id} | ${r.task.corpus} | ${r.task.kind} | ${r.key.items.length} | ${r.sextant.calls} | ${r.sextant.chars} | ${tokensOf(r.sextant.chars)} | ${GRADE_MARK[r.sextant.grade]} | ${r.baseline.calls} | ${r.baseline.chars} | ${tokensOf(r.baseline.chars)} | ${GRADE_MARK[r.baseline.grade]} |`);
  }
  const { sextant: s, baseline: b } = summary;
  out.push(`| **total** (${summary.tasks}) | | | | ${s.calls} | ${s.chars} | ${s.tokens} | ${s.correct}/${s.wrong}/${s.incomplete} | ${b.calls} | ${b.chars} | ${b.tokens} | ${b.correct}/${b.wrong}/${b.incomplete} |`);
  out.push('', 'Grades in the total row: correct/wrong/incomplete.', '', '| target | value | |', '| --- | ---: | --- |');
  for (const t of summary.targets) out.push(`| ${t.name} | ${t.value} | ${t.met ? 'met' : 'MISSED'} |`);
  out.push('', `Median over tasks of Sextant/baseline: characters ${summary.medianCharsRatio.toFixed(3)}×, calls ${summary.medianCallsRatio.toFixed(3)}×.`);
  const findings = results.filter((r) => r.sextant.grade !== 'correct');
  if (findings.length) {
    out.push('', '## Sextant findings (answers that differ from the key)', '');
    for (const r of findings) out.push(`- ${r.task.id} (${r.task.kind} ${r.task.name} at ${r.task.at}): ${r.sextant.grade}: ${describeDifference(r.sextant)}${r.sextant.answer.note ? `; ${r.sextant.answer.note}` : ''}`);
  }
  const misses = results.filter((r) => r.baseline.grade !== 'correct');
  if (misses.length) {
    out.push('', '## Baseline misses', '');
    for (const r of misses) out.push(`- ${r.task.id}: ${r.baseline.grade}: ${describeDifference(r.baseline, 3)}${r.task.trap ? ` (trap: ${r.task.trap})` : ''}`);
  }
  return `${out.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n')}\n`;
}
