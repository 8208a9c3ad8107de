// The plan document: BLAKE3 against the reference vectors, the plan hash (over canonicalJson, tested
// in @sextant/format), the shape check every apply runs first, and the edits over a file's text.
import { describe, expect, it } from 'vitest';
import { lineStarts } from '@sextant/format';
import {
  applyEdits, contentHash, editAt, parsePlan, withoutDoubleBlank,
  planHashMatches, sealPlan, textHash, wholeLines, withCommentsAbove, type UnsealedPlan,
} from '../src/index.ts';

function unsealed(): UnsealedPlan {
  return {
    format: 1,
    operation: 'rename',
    arguments: { symbolId: 'abc@def', newName: 'Store' },
    repo: 'acme/shop',
    commit: 'a'.repeat(40),
    planner: 'index',
    files: [{
      path: 'src/a.ts', change: 'modify', expectedHash: textHash('let a;\n'), resultHash: textHash('let Store;\n'),
      edits: [{ line: 1, column: 5, endLine: 1, endColumn: 6, newText: 'Store' }],
    }],
    conflicts: [],
  };
}

describe('hashes', () => {
  it('computes BLAKE3 as the reference implementation does', () => {
    // Official test vectors (BLAKE3 team, test_vectors.json is over a repeating 0..250 pattern; these
    // two are the widely published hashes of "" and "abc").
    expect(contentHash(new Uint8Array())).toBe('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
    expect(textHash('abc')).toBe('6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  });
});

describe('plan hash', () => {
  it('seals a plan so that any change to it is noticed', () => {
    const plan = sealPlan(unsealed());
    expect(plan.planHash).toMatch(/^[0-9a-f]{64}$/);
    expect(planHashMatches(plan)).toBe(true);
    expect(planHashMatches({ ...plan, repo: 'acme/other' })).toBe(false);
    const edited = structuredClone(plan);
    edited.files[0]!.edits[0]!.newText = 'Stor3';
    expect(planHashMatches(edited)).toBe(false);
    expect(sealPlan(unsealed()).planHash).toBe(plan.planHash);
  });
});

describe('parsePlan', () => {
  it('accepts a sealed plan, from an object or from JSON text', () => {
    const plan = sealPlan(unsealed());
    expect(parsePlan(plan)).toEqual(plan);
    expect(parsePlan(JSON.stringify(plan))).toEqual(plan);
  });

  const broken: [string, (p: Record<string, any>) => void, RegExp][] = [
    ['another format', (p) => { p.format = 2; }, /format 2/],
    ['an unknown operation', (p) => { p.operation = 'explode'; }, /operation is not one of/],
    ['a short plan hash', (p) => { p.planHash = 'abc'; }, /planHash/],
    ['a created file with an expected hash', (p) => { p.files[0].change = 'create'; }, /expectedHash must be null/],
    ['an edit at line 0', (p) => { p.files[0].edits[0].line = 0; }, /line is not a positive integer/],
    ['a file listed twice', (p) => { p.files.push(p.files[0]); }, /twice/],
    ['an unknown conflict kind', (p) => { p.conflicts.push({ kind: 'bad-vibes', message: '' }); }, /kind is not one of/],
    ['an object argument', (p) => { p.arguments.x = {}; }, /argument x/],
  ];

  it.each(broken)('refuses %s with INVALID_ARGUMENT', (_label, breakIt, message) => {
    const plan = structuredClone(sealPlan(unsealed())) as Record<string, any>;
    breakIt(plan);
    expect(() => parsePlan(plan)).toThrow(message);
    try {
      parsePlan(plan);
    } catch (error) {
      expect((error as { code: string }).code).toBe('INVALID_ARGUMENT');
    }
  });

  it('refuses text that is not JSON', () => {
    expect(() => parsePlan('{ nope', 'plan.json')).toThrow(/plan.json is not JSON/);
  });
});

describe('edits', () => {
  it('applies edits in any order, and refuses overlapping ones', () => {
    const text = 'let a = b;\nuse(a);\n';
    const starts = lineStarts(text);
    const edits = [editAt(starts, 15, 16, 'x'), editAt(starts, 4, 5, 'x')];
    expect(applyEdits(text, edits)).toBe('let x = b;\nuse(x);\n');
    expect(() => applyEdits(text, [editAt(starts, 0, 5, ''), editAt(starts, 4, 6, '')])).toThrow(/overlapping/);
  });

  it('widens a deletion to whole lines only when nothing else is on them', () => {
    const text = 'a;\n  function f() {}\nb;\n';
    const start = text.indexOf('function');
    const end = text.indexOf('}') + 1;
    const lines = wholeLines(text, start, end);
    expect(text.slice(0, lines.start) + text.slice(lines.end)).toBe('a;\nb;\n');
    expect(wholeLines('a; function f() {}\n', 3, 18)).toEqual({ start: 3, end: 18 });
  });

  it('takes a declaration\'s comment and annotation lines with it, and nothing else', () => {
    const text = 'a();\n  /** Doc. */\n  @Deprecated\n  void f() {}\n';
    const start = text.indexOf('void');
    expect(withCommentsAbove(text, lineStarts(text), start)).toBe(text.indexOf('  /**'));
    const plain = 'a();\n  void f() {}\n';
    expect(withCommentsAbove(plain, lineStarts(plain), plain.indexOf('void'))).toBe(plain.indexOf('void'));
  });
});

describe('withoutDoubleBlank', () => {
  const cut = (text: string, what: string) => {
    const start = text.indexOf(what);
    const span = withoutDoubleBlank(text, { start, end: start + what.length });
    return text.slice(0, span.start) + text.slice(span.end);
  };

  it('leaves one blank line where a deletion between two blank lines would leave two', () => {
    expect(cut('a();\n\nfunction f() {}\n\nb();\n', 'function f() {}\n')).toBe('a();\n\nb();\n');
  });

  it('leaves no blank line before a closing brace', () => {
    expect(cut('class A {\n  x = 1;\n\n  y = 2;\n}\n', '  y = 2;\n')).toBe('class A {\n  x = 1;\n}\n');
  });

  it('leaves no blank line at the end of the file', () => {
    expect(cut('a();\n\nfunction f() {}\n', 'function f() {}\n')).toBe('a();\n');
  });

  it('changes nothing else', () => {
    expect(cut('a();\nfunction f() {}\nb();\n', 'function f() {}\n')).toBe('a();\nb();\n');
  });
});
