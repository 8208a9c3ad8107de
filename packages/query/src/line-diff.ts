// A line diff between two versions of one file (Myers' O(ND) algorithm after trimming the common
// prefix and suffix), over the lines or over their hashes (lineHash), kept as a map from base lines to head lines: how change tools carry a
// position at the base commit (a reference to a removed symbol, a problem) to the head commit, and
// tell which head lines a change touched. Positions that fall in a changed region have no image.
import { splitLines } from '@sextant/format';

/**
 * FNV-1a over a line's UTF-16 code units, 32 bits: how a change set keeps the lines of the files it
 * compares (4 bytes a line, not the text). Two different lines hash alike about once in four billion
 * pairs; a line diff over hashes then keeps such a pair as one unchanged line.
 */
export function lineHash(line: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    hash ^= line.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** lineHash of each line of a text, as splitLines splits it. */
export function lineHashesOf(text: string): Uint32Array {
  return Uint32Array.from(splitLines(text), lineHash);
}

/** Edit distance past which two texts are treated as replaced wholesale (bounds time and memory on unrelated texts). */
const MAX_EDITS = 4000;

export class LineDiff {
  /** For each base line (1-based, index line-1): its head line, or 0 when the line was removed or changed. */
  private readonly toHead: Int32Array;
  /** For each head line: 1 when it is not an unchanged base line (added or changed). */
  private readonly touched: Uint8Array;
  readonly linesAdded: number;
  readonly linesRemoved: number;

  private constructor(toHead: Int32Array, touched: Uint8Array) {
    this.toHead = toHead;
    this.touched = touched;
    let kept = 0;
    for (const line of toHead) if (line > 0) kept++;
    this.linesRemoved = toHead.length - kept;
    this.linesAdded = touched.length - kept;
  }

  static of(baseText: string, headText: string): LineDiff {
    return LineDiff.ofLines(splitLines(baseText), splitLines(headText));
  }

  /** The diff of a file that is the same on both sides. */
  static identity(lines: number): LineDiff {
    return new LineDiff(Int32Array.from({ length: lines }, (_, i) => i + 1), new Uint8Array(lines));
  }

  static ofLines(a: ArrayLike<string | number>, b: ArrayLike<string | number>): LineDiff {
    const toHead = new Int32Array(a.length);
    const touched = new Uint8Array(b.length).fill(1);
    const keep = (i: number, j: number) => {
      toHead[i] = j + 1;
      touched[j] = 0;
    };
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) keep(start, start++);
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) keep(--endA, --endB);
    for (const [i, j] of myersMatches(a, b, start, endA, start, endB)) keep(i, j);
    return new LineDiff(toHead, touched);
  }

  /** The head line of base line `line`, or undefined when the diff removed or changed it. */
  headLine(line: number): number | undefined {
    const mapped = this.toHead[line - 1];
    return mapped ? mapped : undefined;
  }

  /** Whether head line `line` is one the change added or changed. */
  touchedAt(line: number): boolean {
    return this.touched[line - 1] === 1;
  }

  /** Whether any head line from `line` to `endLine` is one the change added or changed. */
  touchedWithin(line: number, endLine: number): boolean {
    for (let l = line; l <= endLine; l++) if (this.touched[l - 1] === 1) return true;
    return false;
  }
}

/** Matched line pairs of a[startA, endA) and b[startB, endB), in order; none when the edit distance exceeds MAX_EDITS. */
function myersMatches(a: ArrayLike<string | number>, b: ArrayLike<string | number>, startA: number, endA: number, startB: number, endB: number): [number, number][] {
  const n = endA - startA;
  const m = endB - startB;
  if (n === 0 || m === 0) return [];
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[startA + x] === b[startB + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return [];
  // Walk back through the saved frontiers, collecting the diagonal runs (the matched lines).
  const matches: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && prev[offset + k - 1]! < prev[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = prev[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > (down ? prevX : prevX + 1) && y > (down ? prevY + 1 : prevY)) matches.push([startA + --x, startB + --y]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) matches.push([startA + --x, startB + --y]);
  return matches.reverse();
}
