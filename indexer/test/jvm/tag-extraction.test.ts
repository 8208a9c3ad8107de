// The generic extraction on the real grammars: the tags queries compile with only known captures,
// positions are 1-based UTF-16 columns, broken and hostile input yields problems, not exceptions.
import { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { grammarOf, JAVA, JVM_GRAMMARS, KOTLIN, loadTagger, type Tagger } from '../../src/jvm/jvm-grammars.ts';
import { extractAll } from '../../src/jvm/jvm-indexer.ts';
import { checkCaptureNames, extractFile } from '../../src/jvm/tag-extractor.ts';
import type { SnapshotFile } from '../../src/git/git-snapshot.ts';

const taggers = new Map<string, Tagger>();
beforeAll(async () => {
  for (const grammar of JVM_GRAMMARS) taggers.set(grammar.lang, await loadTagger(grammar));
});

function model(path: string, text: string) {
  const tagger = taggers.get(grammarOf(path)!.lang)!;
  const parser = new Parser();
  parser.setLanguage(tagger.language);
  const tree = parser.parse(text)!;
  try {
    return extractFile(tree, text, path, tagger.query, tagger.grammar.rules);
  } finally {
    tree.delete();
    parser.delete();
  }
}

const file = (path: string, text: string) => ({ path, text, blob: '0'.repeat(40), bytes: text.length, mode: '100644' }) as SnapshotFile;

describe('JVM grammars and tags queries', () => {
  it('maps Java and Kotlin sources, but not Gradle build scripts', () => {
    expect(grammarOf('src/main/java/A.java')).toBe(JAVA);
    expect(grammarOf('src/main/kotlin/A.kt')).toBe(KOTLIN);
    expect(grammarOf('scripts/release.kts')).toBe(KOTLIN);
    expect(grammarOf('build.gradle.kts')).toBeUndefined();
    expect(grammarOf('README.md')).toBeUndefined();
  });

  it('compiles both queries with captures from the vocabulary only', () => {
    for (const tagger of taggers.values()) expect(() => checkCaptureNames(tagger.query, tagger.grammar.lang)).not.toThrow();
    expect(taggers.get('java')!.version).toBe('0.23.5');
    expect(taggers.get('kotlin')!.version).toBe('1.1.0');
  });
});

describe('tag extraction', () => {
  it('gives 1-based positions in UTF-16 columns, after non-ASCII text and CR line breaks', () => {
    const text = 'class A {\r  String s = "é😀"; int x;\r}';
    const extracted = model('A.java', text);
    expect(extracted.defs.map((d) => `${d.kind} ${d.name} ${d.line}:${d.column}-${d.endColumn}`)).toEqual([
      'class A 1:7-8', 'field s 2:10-11', 'field x 2:25-26',
    ]);
  });

  it('reports syntax errors as problems and still extracts what parses', () => {
    const extracted = model('Broken.java', 'class Broken { void ok() {} void broken( { }');
    expect(extracted.problems.length).toBeGreaterThan(0);
    expect(extracted.problems[0]).toMatchObject({ source: 'syntax', severity: 'error' });
    expect(extracted.defs.some((d) => d.name === 'ok')).toBe(true);
  });

  it('skips a file whose tags query runs past its time limit (100,000 nested parentheses), and extracts the others', () => {
    const deep = `class Deep { int x = ${'('.repeat(100_000)}1${')'.repeat(100_000)}; }\n`;
    const { models, skipped } = extractAll([file('Deep.java', deep), file('Good.java', 'class Good { void ok() {} }\n')], taggers as never, 0);
    expect(skipped).toEqual([{ path: 'Deep.java', reason: 'analysis-failed', detail: 'Error: the tags query gave up after 0 ms in the Java tag extractor' }]);
    expect(models.map((m) => m.path)).toEqual(['Good.java']);
    expect(models[0]!.defs.map((d) => d.name)).toEqual(['Good', 'ok']);
  });

  it('survives binary and empty input', () => {
    const { models } = extractAll([file('Empty.kt', ''), file('Binary.java', '\u0000\u0001\uFFFD\uD800class')], taggers as never);
    expect(models.map((m) => m.path)).toEqual(['Empty.kt', 'Binary.java']);
    expect(models[0]!.defs).toEqual([]);
  });
});
