// Packed file models unpack to exactly what the extractor produced (every reference and expression
// field, on the real Java and Kotlin of the jvm-shop fixture), and again after the cache dropped them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotFile } from '../../src/git/git-snapshot.ts';
import { grammarOf, JVM_GRAMMARS, loadTagger, type Tagger } from '../../src/jvm/jvm-grammars.ts';
import { extractFile } from '../../src/jvm/tag-extractor.ts';
import type { FileModel, JvmLanguage } from '../../src/jvm/file-model.ts';
import { PackedFileModel, UnpackedModels } from '../../src/jvm/packed-file-model.ts';

const FIXTURE = new URL('../../../test/fixtures/jvm-shop/', import.meta.url).pathname;

function sources(dir: string): SnapshotFile[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    if (!grammarOf(name)) return [];
    const text = readFileSync(path, 'utf8');
    return [{ path: relative(FIXTURE, path), text, blob: '0'.repeat(40), bytes: text.length, mode: '100644' } as SnapshotFile];
  });
}

/** Every field of the extracted model, read from `model` (a packed one reads refs and exprs through its getters). */
const fieldsOf = (extracted: FileModel, model: FileModel) =>
  Object.fromEntries(Object.keys(extracted).map((key) => [key, model[key as keyof FileModel]]));

/** The extractor's own models (plain objects, not packed as the indexer keeps them). */
let models: FileModel[] = [];
beforeAll(async () => {
  const taggers = new Map<JvmLanguage, Tagger>();
  for (const grammar of JVM_GRAMMARS) taggers.set(grammar.lang, await loadTagger(grammar));
  models = sources(FIXTURE).map((file) => {
    const tagger = taggers.get(grammarOf(file.path)!.lang)!;
    const parser = new Parser();
    parser.setLanguage(tagger.language);
    const tree = parser.parse(file.text)!;
    try {
      return extractFile(tree, file.text, file.path, tagger.query, tagger.grammar.rules);
    } finally {
      tree.delete();
      parser.delete();
    }
  });
  expect(models.every((m) => !(m instanceof PackedFileModel))).toBe(true);
});

describe('PackedFileModel', () => {
  it('unpacks every reference and expression of Java and Kotlin files as extracted', () => {
    expect(new Set(models.map((m) => m.lang))).toEqual(new Set(['java', 'kotlin']));
    const cache = new UnpackedModels();
    for (const model of models) {
      const packed = new PackedFileModel(model, cache);
      expect(fieldsOf(model, packed)).toEqual(fieldsOf(model, model));
    }
    // The optional fields and expression forms the fixture has, each compared above.
    const refs = models.flatMap((m) => m.refs);
    expect(refs.some((r) => r.args?.length)).toBe(true);
    expect(refs.some((r) => r.args?.length === 0)).toBe(true);
    expect(refs.some((r) => r.superclass)).toBe(true);
    expect(refs.some((r) => r.text)).toBe(true);
    const forms = new Set(models.flatMap((m) => m.exprs.map((e) => e.form)));
    for (const form of ['ref', 'literal', 'this', 'def']) expect(forms).toContain(form);
  });

  it('carries fields and expression shapes it does not pack as they are', () => {
    const model = models.find((m) => m.refs.length > 1 && m.exprs.length > 1)!;
    const extended = {
      ...model,
      newField: 'Facade',
      refs: model.refs.map((ref, i) => (i === 0 ? { ...ref, newFlag: true, newText: 'Map<K, V>' } : ref)),
      exprs: [...model.exprs, { form: 'wide', a: 1, b: 2, c: 3 }, { form: 'listy', items: [1, 2] }, { form: 'lambda', scope: 4 }] as never,
    };
    expect(fieldsOf(extended, new PackedFileModel(extended, new UnpackedModels()))).toEqual(fieldsOf(extended, extended));
    expect(fieldsOf(extended, extended)).toHaveProperty('newField', 'Facade');
  });

  it('drops the oldest unpacked model past the capacity and unpacks it again alike', () => {
    const cache = new UnpackedModels(1);
    const [a, b] = models.filter((m) => m.refs.length > 0).map((m) => new PackedFileModel(m, cache));
    const first = a!.refs;
    expect(a!.refs).toBe(first); // kept while within capacity
    void b!.refs; // opens b: a is dropped
    const again = a!.refs;
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
