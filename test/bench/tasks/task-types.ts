// The task benchmark's vocabulary: a task (a navigation question on a corpus), the answer every
// side gives as a set of items, and what each side spent (calls, characters) to give it.

export const TASK_KINDS = ['callers', 'implementations', 'used-outside-tests', 'callees', 'overload', 'definition', 'rename-files'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const CORPUS_IDS = ['rxjs', 'zod', 'effect', 'java.base'] as const;
export type CorpusId = (typeof CORPUS_IDS)[number];

export interface Task {
  id: string;
  corpus: CorpusId;
  kind: TaskKind;
  /** The name asked about, as a model would be told it. */
  name: string;
  /**
   * `path:line:column` (1-based, UTF-16 columns) on the name: its declaration for callers,
   * implementations, used-outside-tests, callees and rename-files; the use site for definition and
   * overload.
   */
  at: string;
  /** A member (method, property): ripgrep cannot see the receiver's type, so its hits of the name cannot be told apart. */
  member?: boolean;
  /** Why grep gets this one wrong, when the name is shared by several symbols. */
  trap?: string;
}

/**
 * Every answer is a set of items, one format per kind:
 * - callers: `path:line` of each call site;
 * - implementations: `path#ClassName` of each class implementing (or extending) the type;
 * - used-outside-tests: `yes` or `no`;
 * - callees: `name@path` of each function or method of the repository the body calls (the path of its declaration);
 * - overload, definition: `path:line` of the declaration(s) the site resolves to;
 * - rename-files: `path` of each file the rename edits.
 */
export interface Answer {
  items: string[];
  /** What the side could not settle, in words (kept for the report). */
  note?: string;
}

export const GRADES = ['correct', 'wrong', 'incomplete'] as const;
export type Grade = (typeof GRADES)[number];

export interface Cost {
  calls: number;
  /** Characters of every text returned: tool `content` for Sextant, ripgrep output and lines read for the baseline. */
  chars: number;
}

export interface Attempt extends Cost {
  answer: Answer;
  /** The calls made, in order, for the report (`tool {args}` or `rg ...` / `read path:a-b`). */
  trace: string[];
}

export interface Position {
  path: string;
  line: number;
  column: number;
}

export function parsePosition(at: string): Position {
  const match = /^(.+):(\d+):(\d+)$/.exec(at);
  if (!match) throw new Error(`"${at}" is not path:line:column`);
  return { path: match[1]!, line: Number(match[2]), column: Number(match[3]) };
}

/** Tests as the answer keys see them (the test directories and *.test / *.spec files these corpora use). */
export const TEST_PATH = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[cm]?[jt]sx?$/;
