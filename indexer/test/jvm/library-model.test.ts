// The committed library models read through the lazy loader: nothing is parsed before a lookup,
// types, generic members, supertypes, Kotlin extensions and aliases come back as generated.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JDK_MODEL, KOTLIN_STDLIB_MODEL, LibraryModel } from '../../src/jvm/library/library-model.ts';

describe('library model loader', () => {
  it('reads nothing until a lookup needs it, then the file once', () => {
    let reads = 0;
    const data = { model: 'tiny', version: '1.0', format: 1, generator: 'test', packages: { 'a.b': { types: { C: { k: 'c', tp: ['T'], su: ['java.lang.Object'], m: ['m|get|||int|T'] } } } } };
    const model = new LibraryModel('tiny', () => {
      reads++;
      return gzipSync(JSON.stringify(data));
    });
    expect(model.loaded).toBe(false);
    expect(reads).toBe(0);
    expect(model.type('a.b.C')?.members.get('get')?.[0]).toMatchObject({ kind: 'method', params: ['int'], type: 'T', owner: 'a.b.C' });
    expect(model.type('a.b.D')).toBeUndefined();
    expect(model.id).toEqual({ name: 'tiny', version: '1.0' });
    expect(reads).toBe(1);
  });

  it('refuses data of another format', () => {
    const model = new LibraryModel('old', () => gzipSync(JSON.stringify({ model: 'old', version: '0', format: 0, generator: '', packages: {} })));
    expect(() => model.type('a.B')).toThrow(/format 0.*regenerate/);
  });

  it('models the JDK: generic supertypes, members with type parameters, nested types, hidden superclasses', () => {
    const list = JDK_MODEL.type('java.util.List')!;
    expect(list.kind).toBe('interface');
    expect(list.typeParams).toEqual([{ name: 'E', bounds: [] }]);
    expect(list.supertypes).toEqual(['java.util.Collection<E>']);
    expect(list.members.get('get')).toMatchObject([{ params: ['int'], type: 'E', static: false }]);
    expect(JDK_MODEL.type('java.util.Map.Entry')?.members.get('getValue')?.[0]?.type).toBe('V');
    expect(JDK_MODEL.type('java.util.Collections')?.members.get('max')?.[0]?.typeParams[0]?.bounds).toEqual(['java.lang.Comparable<? super T>']);
    // StringBuilder's length() is declared in the package-private AbstractStringBuilder.
    const sb = JDK_MODEL.type('java.lang.StringBuilder')!;
    expect(sb.members.get('length')?.[0]?.type).toBe('int');
    expect(sb.supertypes).toContain('java.lang.Appendable');
    expect(JDK_MODEL.type('java.math.BigDecimal')?.supertypes[0]).toBe('java.lang.Number');
    expect(JDK_MODEL.type('java.lang.String')?.members.get('format')?.some((m) => m.static && m.varargs)).toBe(true);
    expect(JDK_MODEL.packageDeclares('java.util', 'Map')).toBe(true);
    expect(JDK_MODEL.packageDeclares('java.util.concurrent', 'Map')).toBe(false);
    expect(JDK_MODEL.packageDeclares('com.example', 'Map')).toBeUndefined();
    expect(JDK_MODEL.id).toEqual({ name: 'jdk', version: expect.stringMatching(/^17\./) });
  });

  it('models the Kotlin stdlib: mapped built-ins, extensions with receivers, properties, aliases', () => {
    const list = KOTLIN_STDLIB_MODEL.type('kotlin.collections.List')!;
    expect(list.members.get('size')?.[0]).toMatchObject({ kind: 'property', type: 'kotlin.Int' });
    expect(KOTLIN_STDLIB_MODEL.type('kotlin.String')?.members.get('length')?.[0]?.kind).toBe('property');
    const first = KOTLIN_STDLIB_MODEL.extensions('first').find((m) => m.receiver === 'kotlin.collections.List<T>' && m.params.length === 0);
    expect(first).toMatchObject({ owner: 'kotlin.collections', type: 'T', typeParams: [{ name: 'T', bounds: [] }] });
    expect(KOTLIN_STDLIB_MODEL.topLevel('kotlin.collections', 'listOf').some((m) => m.varargs && !m.receiver)).toBe(true);
    expect(KOTLIN_STDLIB_MODEL.topLevel('kotlin.collections', 'lastIndex').some((m) => m.kind === 'property' && m.receiver)).toBe(true);
    expect(KOTLIN_STDLIB_MODEL.alias('kotlin.collections', 'ArrayList')).toBe('java.util.ArrayList<E>');
    expect(KOTLIN_STDLIB_MODEL.alias('kotlin', 'Exception')).toBe('java.lang.Exception');
    expect(KOTLIN_STDLIB_MODEL.topLevel('kotlin.text', 'padStart').find((m) => m.receiver === 'kotlin.String')?.required).toBe(1);
  });
});
