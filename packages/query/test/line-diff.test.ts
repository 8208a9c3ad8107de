// LineDiff against a brute-force LCS on small random texts: the matched lines must be a longest
// common subsequence (Myers is optimal), and the map must send each kept base line to an equal head line.
import { describe, expect, it } from 'vitest';
import { LineDiff, lineHash, lineHashesOf } from '../src/line-diff.ts';

function lcsLength(a: string[], b: string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
  }
  return table[a.length]![b.length]!;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('LineDiff', () => {
  it('maps kept lines to equal lines, in order, and keeps a longest common subsequence', () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(next() * 12) }, () => 'abcd'[Math.floor(next() * 4)]!);
      const b = Array.from({ length: Math.floor(next() * 12) }, () => 'abcd'[Math.floor(next() * 4)]!);
      const diff = LineDiff.ofLines(a, b);
      let last = 0;
      let kept = 0;
      for (let line = 1; line <= a.length; line++) {
        const mapped = diff.headLine(line);
        if (mapped === undefined) continue;
        expect(b[mapped - 1]).toBe(a[line - 1]);
        expect(mapped).toBeGreaterThan(last);
        expect(diff.touchedAt(mapped)).toBe(false);
        last = mapped;
        kept++;
      }
      expect(kept).toBe(lcsLength(a, b));
      expect(diff.linesRemoved).toBe(a.length - kept);
      expect(diff.linesAdded).toBe(b.length - kept);
    }
  });

  it('says which head lines an edit touched', () => {
    const diff = LineDiff.of('a\nb\nc\nd', 'a\nB\nc\nx\nd');
    expect([1, 2, 3, 4].map((l) => diff.headLine(l))).toEqual([1, undefined, 3, 5]);
    expect([1, 2, 3, 4, 5].map((l) => diff.touchedAt(l))).toEqual([false, true, false, true, false]);
    expect(diff.touchedWithin(3, 4)).toBe(true);
    expect(diff.touchedWithin(5, 5)).toBe(false);
  });
});

describe('lineHash', () => {
  it('hashes lines into 32 bits, telling lines apart', () => {
    const hashes = ['', ' ', 'a', 'b', 'ab', 'ba', 'export function f() {', 'export function g() {'].map(lineHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(hashes.every((h) => Number.isInteger(h) && h >= 0 && h < 2 ** 32)).toBe(true);
  });

  it('hashes a text line by line as splitLines splits it, an empty text one empty line', () => {
    expect([...lineHashesOf('a\r\nb\rc\u2028')]).toEqual(['a', 'b', 'c', ''].map(lineHash));
    expect([...lineHashesOf('')]).toEqual([lineHash('')]);
  });

  it('diffs texts over their hashes as over their lines', () => {
    const base = 'a\nb\nc\nd';
    const head = 'a\nc\nx\nd\ne';
    const overHashes = LineDiff.ofLines(lineHashesOf(base), lineHashesOf(head));
    const overLines = LineDiff.of(base, head);
    expect([overHashes.linesAdded, overHashes.linesRemoved]).toEqual([overLines.linesAdded, overLines.linesRemoved]);
  });
});
