// Target resolution building blocks: which occurrence a caret hits (occurrenceAt, over hand-made
// FileRecords whose columns are derived from real text), and which single form a target has
// (targetForm). Columns are 1-based UTF-16 units; an occurrence's endColumn is exclusive.
import { describe, expect, it } from 'vitest';
import { occurrenceCount, pushOccurrence, SextantError, type FileRecord } from '@sextant/format';
import { identifierAt, normalizePath, occurrenceAt, targetForm, type Target } from '../src/index.ts';

interface Occ {
  key: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn: number;
}

/** A FileRecord over `lines`, with occurrences sorted by position as the indexer writes them. */
function fileRecord(lines: string[], occurrences: Occ[]): FileRecord {
  const sorted = [...occurrences].sort((a, b) => a.line - b.line || a.column - b.column);
  const syms = [...new Set(sorted.map((o) => o.key))];
  const occ: number[] = [];
  for (const o of sorted) pushOccurrence(occ, { line: o.line, column: o.column, endLine: o.endLine ?? o.line, endColumn: o.endColumn, symbolIndex: syms.indexOf(o.key), kind: 'read' });
  const record: FileRecord = {
    path: 'src/t.ts', lang: 'typescript', blob: '0'.repeat(40), bytes: lines.join('\n').length,
    lineLengths: lines.map((l) => l.length), flags: 0, syms, occ, outline: [], problems: [], problemsOmitted: 0,
  };
  expect(occurrenceCount(record)).toBe(sorted.length);
  return record;
}

/** The occurrence of `word` on `line` (1-based), with columns computed from the text. */
function word(lines: string[], line: number, text: string, key = text): Occ {
  const index = lines[line - 1]!.indexOf(text);
  if (index < 0) throw new Error(`"${text}" is not on line ${line}`);
  return { key, line, column: index + 1, endColumn: index + 1 + text.length };
}

describe('occurrenceAt', () => {
  // total: columns 7-11, price: 15-19, qty: 23-25 (endColumns, exclusive: 12, 20, 26).
  const lines = ['const total = price * qty;'];
  const file = fileRecord(lines, [word(lines, 1, 'total'), word(lines, 1, 'price'), word(lines, 1, 'qty')]);

  it('finds the identifier with the caret on its first character', () => {
    expect(occurrenceAt(file, 1, 7)).toBe('total');
    expect(occurrenceAt(file, 1, 15)).toBe('price');
  });

  it('finds it with the caret in the middle and on the last character', () => {
    expect(occurrenceAt(file, 1, 9)).toBe('total');
    expect(occurrenceAt(file, 1, 11)).toBe('total');
    expect(occurrenceAt(file, 1, 25)).toBe('qty');
  });

  it('finds it with the caret just past its end (where an editor caret sits after typing it)', () => {
    expect(occurrenceAt(file, 1, 12)).toBe('total');
    expect(occurrenceAt(file, 1, 20)).toBe('price');
    expect(occurrenceAt(file, 1, 26)).toBe('qty');
  });

  it('finds nothing between identifiers, on keywords, or past the occurrences', () => {
    expect(occurrenceAt(file, 1, 13)).toBeUndefined(); // '='
    expect(occurrenceAt(file, 1, 14)).toBeUndefined(); // the space before price
    expect(occurrenceAt(file, 1, 21)).toBeUndefined(); // '*'
    expect(occurrenceAt(file, 1, 1)).toBeUndefined(); // 'const'
    expect(occurrenceAt(file, 2, 1)).toBeUndefined();
  });

  it('prefers the identifier under the caret to the one that just ended there', () => {
    // `a.b` has a separator, but adjacent occurrences exist (e.g. a qualified JSX tag split by
    // the indexer); the one covering the caret must win over the one merely touching it.
    const adjacent = ['ab'];
    const record = fileRecord(adjacent, [
      { key: 'A', line: 1, column: 1, endColumn: 2 },
      { key: 'B', line: 1, column: 2, endColumn: 3 },
    ]);
    expect(occurrenceAt(record, 1, 1)).toBe('A');
    expect(occurrenceAt(record, 1, 2)).toBe('B');
    expect(occurrenceAt(record, 1, 3)).toBe('B');
  });

  it('resolves a caret on a member access to the part it is on', () => {
    const member = ['  this.repository.save(order);'];
    const record = fileRecord(member, [word(member, 1, 'repository'), word(member, 1, 'save'), word(member, 1, 'order')]);
    expect(occurrenceAt(record, 1, 8)).toBe('repository');
    expect(occurrenceAt(record, 1, 18)).toBe('repository'); // the '.' right after it
    expect(occurrenceAt(record, 1, 19)).toBe('save');
    expect(occurrenceAt(record, 1, 23)).toBe('save'); // '(' right after save
    expect(occurrenceAt(record, 1, 3)).toBeUndefined(); // 'this' is a keyword, not an occurrence
  });

  it('handles occurrences spanning several lines', () => {
    const multi = ['const s = html`', '  <b>${x}</b>', '`;', 'use(s);'];
    const record = fileRecord(multi, [
      { key: 'tpl', line: 1, column: 11, endLine: 3, endColumn: 2 },
      { key: 'use', line: 4, column: 1, endColumn: 4 },
    ]);
    expect(occurrenceAt(record, 1, 10)).toBeUndefined();
    expect(occurrenceAt(record, 1, 11)).toBe('tpl');
    expect(occurrenceAt(record, 2, 1)).toBe('tpl');
    expect(occurrenceAt(record, 2, 13)).toBe('tpl');
    expect(occurrenceAt(record, 3, 1)).toBe('tpl');
    expect(occurrenceAt(record, 3, 2)).toBe('tpl'); // just past the end, on the last line
    expect(occurrenceAt(record, 3, 3)).toBeUndefined();
    expect(occurrenceAt(record, 4, 2)).toBe('use');
  });

  it('counts columns in UTF-16 code units', () => {
    const astral = ['const 😀 = "x"; let v = 1;'];
    // '😀' is two UTF-16 units: `v` is column 21, where counting code points would say 20.
    const v = { key: 'v', line: 1, column: 21, endColumn: 22 };
    expect(astral[0]!.slice(20, 21)).toBe('v');
    const record = fileRecord(astral, [v]);
    expect(occurrenceAt(record, 1, 21)).toBe('v');
    expect(occurrenceAt(record, 1, 20)).toBeUndefined();
  });

  it('finds nothing in a file without occurrences', () => {
    expect(occurrenceAt(fileRecord(['// nothing here'], []), 1, 4)).toBeUndefined();
  });
});

describe('targetForm', () => {
  function invalid(target: Target): SextantError {
    try {
      targetForm(target);
    } catch (error) {
      expect(error).toBeInstanceOf(SextantError);
      return error as SextantError;
    }
    throw new Error(`targetForm accepted ${JSON.stringify(target)}`);
  }

  it('names the one form given', () => {
    expect(targetForm({ symbolId: 'x' })).toBe('symbolId');
    expect(targetForm({ path: 'a.ts', line: 1, column: 1 })).toBe('position');
    expect(targetForm({ qualifiedName: 'A.b' })).toBe('qualifiedName');
    expect(targetForm({ name: 'b' })).toBe('name');
    expect(targetForm({ name: 'b', symbolId: undefined })).toBe('name');
  });

  it('refuses no target at all', () => {
    const error = invalid({});
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('No target given.');
    expect(error.hint).toMatch(/exactly one of/);
  });

  it.each([
    [{ symbolId: 'x', name: 'y' }, 'symbolId, name'],
    [{ qualifiedName: 'A.b', name: 'b' }, 'qualifiedName, name'],
    [{ symbolId: 'x', path: 'a.ts', line: 1, column: 1 }, 'symbolId, position'],
    [{ name: 'b', line: 3 }, 'position, name'],
  ] as [Target, string][])('refuses several targets %j, listing them', (target, listed) => {
    const error = invalid(target);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(`(${listed})`);
  });

  it.each([
    { path: 'a.ts' },
    { path: 'a.ts', line: 1 },
    { path: 'a.ts', column: 1 },
    { line: 1, column: 1 },
    { column: 4 },
  ] as Target[])('refuses a partial position %j', (target) => {
    const error = invalid(target);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/path, line and column together/);
    expect(error.hint).toMatch(/1-based/);
  });
});

describe('normalizePath', () => {
  it('accepts the path spellings callers use for one repository-relative file', () => {
    for (const path of ['src/a.ts', './src/a.ts', '/src/a.ts', 'src\\a.ts', '.\\src\\a.ts']) expect(normalizePath(path)).toBe('src/a.ts');
  });
});

describe('identifierAt', () => {
  const at = (text: string, line: number, column: number) => identifierAt(text.split('\n'), line, column);
  // Columns of `word` on `line` of `text`, 1-based.
  const col = (text: string, line: number, word: string) => text.split('\n')[line - 1]!.indexOf(word) + 1;

  it('gives the identifier under the caret, or just before it', () => {
    const text = 'val client = Retrofit.Builder().baseUrl(server.url("/"))';
    expect(at(text, 1, col(text, 1, 'baseUrl'))).toBe('baseUrl');
    expect(at(text, 1, col(text, 1, 'baseUrl') + 3)).toBe('baseUrl');
    expect(at(text, 1, col(text, 1, 'baseUrl') + 'baseUrl'.length)).toBe('baseUrl');
    expect(at(text, 1, col(text, 1, 'server'))).toBe('server');
  });

  it('gives nothing on whitespace, punctuation, numbers and keywords', () => {
    const text = 'const n = 0x1f + count;  return n';
    expect(at(text, 1, 1)).toBeUndefined(); // const
    expect(at(text, 1, 6)).toBeUndefined(); // the space after const
    expect(at(text, 1, col(text, 1, '0x1f') + 1)).toBeUndefined();
    expect(at(text, 1, col(text, 1, '+'))).toBeUndefined();
    expect(at(text, 1, col(text, 1, 'return'))).toBeUndefined();
    expect(at('let s: string = x', 1, 8)).toBeUndefined(); // string: a primitive type
  });

  it('gives nothing inside comments and string literals, and the identifier after them', () => {
    const text = [
      '// baseUrl in a line comment',
      '/* a block comment',
      '   spanning baseUrl */ real',
      'const s = "baseUrl" + \'baseUrl\' + `baseUrl ${inside} baseUrl`; after',
      'val t = """',
      '  baseUrl',
      '"""; last',
    ].join('\n');
    expect(at(text, 1, col(text, 1, 'baseUrl'))).toBeUndefined();
    expect(at(text, 3, col(text, 3, 'baseUrl'))).toBeUndefined();
    expect(at(text, 3, col(text, 3, 'real'))).toBe('real');
    expect(at(text, 4, col(text, 4, 'baseUrl'))).toBeUndefined();
    expect(at(text, 4, text.split('\n')[3]!.indexOf("'baseUrl'") + 2)).toBeUndefined();
    expect(at(text, 4, text.split('\n')[3]!.indexOf('`baseUrl') + 2)).toBeUndefined();
    expect(at(text, 4, col(text, 4, 'inside'))).toBe('inside');
    expect(at(text, 4, text.split('\n')[3]!.lastIndexOf('baseUrl') + 1)).toBeUndefined();
    expect(at(text, 4, col(text, 4, 'after'))).toBe('after');
    expect(at(text, 6, col(text, 6, 'baseUrl'))).toBeUndefined();
    expect(at(text, 7, col(text, 7, 'last'))).toBe('last');
  });
});
