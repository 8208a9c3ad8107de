// Text positions: lines counted as the TypeScript compiler counts them, offsets and positions,
// line endings, and a file's bytes without (and then with) its byte-order mark.
import { describe, expect, it } from 'vitest';
import { decodeText, dominantEol, encodeText, lineStarts, offsetAt, positionAt, withEol } from '../src/index.ts';

describe('text positions', () => {
  it('counts lines as the TypeScript compiler does: CR, LF, CRLF, U+2028, U+2029', () => {
    const text = 'a\r\nb\rc\nd\u2028e\u2029f';
    expect(lineStarts(text)).toEqual([0, 3, 5, 7, 9, 11]);
    expect(positionAt(lineStarts(text), 5)).toEqual({ line: 3, column: 1 });
    expect(offsetAt(text, lineStarts(text), 6, 2)).toBe(12);
  });

  it('refuses a column past the end of its line, and a line past the end of the file', () => {
    const text = 'ab\r\ncd';
    const starts = lineStarts(text);
    expect(offsetAt(text, starts, 1, 3)).toBe(2);
    expect(() => offsetAt(text, starts, 1, 4)).toThrow(/outside the file/);
    expect(() => offsetAt(text, starts, 3, 1)).toThrow(/outside the file/);
  });

  it('keeps a file\'s line endings in inserted text', () => {
    expect(dominantEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantEol('a\nb')).toBe('\n');
    expect(withEol('x\ny\r\nz', '\r\n')).toBe('x\r\ny\r\nz');
  });

  it('addresses text without a byte-order mark and writes the mark back', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
    const decoded = decodeText(bytes, 'a.ts');
    expect(decoded).toEqual({ text: 'a', bom: true });
    expect(encodeText(decoded)).toEqual(bytes);
    expect(() => decodeText(new Uint8Array([0xff]), 'bin.ts')).toThrow(/not valid UTF-8/);
  });
});
