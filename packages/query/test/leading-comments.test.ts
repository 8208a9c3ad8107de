// leadingCommentStart: which lines above a declaration belong to it (doc comments, line comments,
// decorators and annotations directly above), and which do not (code, a blank line between).
import { describe, expect, it } from 'vitest';
import type { Language } from '@sextant/format';
import { leadingCommentStart } from '../src/leading-comments.ts';

/** The declaration is the line marked `DECL`; returns the first line the scan keeps. */
function startOf(source: string, language: Language = 'typescript'): number {
  const lines = source.split('\n');
  return leadingCommentStart(lines, lines.findIndex((l) => l.includes('DECL')) + 1, language);
}

describe('leadingCommentStart', () => {
  it('keeps a JSDoc block, line comments and decorators directly above', () => {
    expect(startOf('x();\n/**\n * Doc.\n */\n// more\n@dec\nclass DECL {}')).toBe(2);
    expect(startOf('x();\n  /** One line. */\n  DECL() {}')).toBe(2);
  });

  it('stops at a blank line, code, or a comment closing after code', () => {
    expect(startOf('/** Not its doc. */\n\nfunction DECL() {}')).toBe(3);
    expect(startOf('}\nfunction DECL() {}')).toBe(2);
    expect(startOf('const a = 1; /* trailing */\nfunction DECL() {}')).toBe(2);
    expect(startOf('call(a,\n  b)\nfun DECL() {}', 'kotlin')).toBe(3);
  });

  it('keeps a multi-line annotation whose parentheses open on an @ line', () => {
    expect(startOf('/** Javadoc. */\n@Table(\n  name = "t")\n@Entity\npublic class DECL {}', 'java')).toBe(1);
    expect(startOf('@Component({\n  selector: "x",\n})\nexport class DECL {}')).toBe(1);
  });

  it('keeps KDoc and annotations above a Kotlin declaration', () => {
    expect(startOf('package p\n\n/**\n * KDoc.\n */\n@JvmStatic\nfun DECL() = 1', 'kotlin')).toBe(3);
  });

  it('keeps each language\'s own comments and attributes', () => {
    expect(startOf('x = 1\n# Greets.\n@cache\ndef DECL(): pass', 'python')).toBe(2);
    expect(startOf('/// Docs.\n#[derive(\n  Debug)]\nstruct DECL;', 'rust')).toBe(1);
    expect(startOf('/// <summary>x</summary>\n[Obsolete("no")]\nclass DECL {}', 'csharp')).toBe(1);
    expect(startOf('// Package doc.\nfunc DECL() {}', 'go')).toBe(1);
    expect(startOf('# Runs it.\nDECL() {', 'bash')).toBe(1);
    expect(startOf('@decorated\nfunc DECL() {}', 'go')).toBe(2);
    expect(startOf('x = a[0]\nvoid DECL() {}', 'csharp')).toBe(2);
  });

  it('returns the declaration line at the top of a file', () => {
    expect(startOf('function DECL() {}')).toBe(1);
  });
});
