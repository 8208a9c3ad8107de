// Symbol, file, name, change and text shards as stored: what a writer encodes, a reader gets back record by
// record, equal to what was written; integer lists survive any values; and stored bytes of the wrong
// shape are INDEX_CORRUPT naming the shard, never a decoder exception or a wrong record.
import { describe, expect, it } from 'vitest';
import {
  ChangeShard, decodeShard, encodeChangeRecord, encodeChangeShard, encodeChangeShardOf, encodeFileRecord, encodeFileShard, encodeFileShardOf, encodeNameShard, encodeShard, encodeSymbolShard, FileShard, NameShard, packInts, TextShard, encodeTextShard,
  SymbolShard, unpackInts, type ChangeShardData, type DeltaBase, type FileShardData, type NameShardData, type SymbolRecord, type SymbolShardData,
} from '../src/index.ts';
import { openShard } from './support/open-shard.ts';
import { thrown } from './support/thrown.ts';

const record = (key: string, extra: Partial<SymbolRecord> = {}): SymbolRecord => ({
  key, name: 'submit', kind: 'method', qname: 'OrderService.submit', lang: 'typescript', path: 'src/a.ts', mods: 1 | 16,
  defs: [0, 4, 3, 4, 9], refs: [0, 9, 5, 9, 11, 1, 0, 0, 1, 70000, 3, 70001, 2, 3, -1, 2], graph: 7,
  ...extra,
});

function symbols(): SymbolShardData {
  return {
    paths: ['src/a.ts', 'src/ünïcødé/😀.ts'],
    pathFlags: [0, 1],
    peers: [
      { key: 'cccccccccccccccc', name: 'OrderService', kind: 'class' },
      { key: 'peer0000peer0000', name: 'main', kind: 'function' }, { key: 'peer0000peer0001', name: 'Ω', kind: 'class' },
    ],
    symbols: [
      record('aaaaaaaaaaaaaaaa', {
        signature: 'submit(order: Order): void', doc: 'Line one.\nLine two — with a dash.', container: 'cccccccccccccccc',
        previews: ['submit(order: Order): void {'], refDecls: [0, 1], signatures: [1, 7, 3, 7, 40],
      }),
      record('bbbbbbbbbbbbbbbb', { kind: 'local', local: true, path: undefined, defs: [], refs: [], graph: -1 }),
      record('zzzzzzzzzzzzzzzz', { name: 'useState', external: { package: 'react', version: '19.2.0' }, path: undefined }),
    ],
  };
}

function files(): FileShardData {
  return {
    files: ['src/a.ts', 'src/ünïcødé/😀.ts'].map((path, i) => ({
      path, lang: 'typescript', blob: 'f'.repeat(40), bytes: 120 + i, lineLengths: [0, 40, 2 ** 20],
      flags: i, syms: ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'], occ: [1, 14, 1, 26, 0, 0, 3, 1, 4, 2, 1, 1],
      outline: [{ name: 'OrderService', kind: 'class', sym: 0, range: [1, 1, 9, 2], at: [1, 14], children: [] }],
      problems: [{ source: 'syntax', severity: 'error', message: "';' expected.", line: 2, column: 1, endLine: 2, endColumn: 2 }],
      problemsOmitted: 0,
    })),
  };
}


/** A record as plain JSON: unpacked integer columns (Int32Array) compare with the arrays written. */
function plain(record: unknown): unknown {
  return JSON.parse(JSON.stringify(record, (_, value) => (value instanceof Int32Array ? [...value] : value)));
}

function changes(): ChangeShardData {
  return {
    files: ['src/a.ts', 'src/ünïcødé/😀.ts'].map((path, i) => ({
      path,
      decls: [
        {
          key: 'aaaaaaaaaaaaaaaa', name: 'OrderService', kind: 'class', qname: 'OrderService', mods: 1, signature: 'export class OrderService', container: -1,
          at: [1, 14, 1, 26], range: [1, 1, 9, 2], body: '0123456789abc', doc: '',
        },
        { key: 'bbbbbbbbbbbbbbbb', name: 'submit', kind: 'method', qname: 'OrderService.submit', mods: 16, container: 0, at: [3, 3, 3, 9], range: [3, 3, 8, 4], body: '', doc: 'zyxwvtsrqpnmk' },
      ],
      unresolved: i === 0 ? [2, 5, 2, 8, 1, 70000, 1, 70000, 12, 3] : null,
      reexports: i === 0 ? [{ name: 'Orders', key: 'cccccccccccccccc', kind: 'class' as const, qname: 'OrderService', at: [12, 1, 12, 40] as [number, number, number, number] }] : [],
    })),
  };
}

describe('change shards', () => {
  it('round-trip declarations and unresolved identifiers (or none recorded)', () => {
    const data = changes();
    const shard = openShard<ChangeShard>('changes/0000', encodeChangeShard(data));
    expect(shard.paths).toEqual(['src/a.ts', 'src/ünïcødé/😀.ts']);
    const plainChange = (c: unknown) => JSON.parse(JSON.stringify(c, (_, v) => (v instanceof Int32Array ? [...v] : v)));
    expect([...shard.files()].map(plainChange)).toEqual(data.files.map(plainChange));
    expect(shard.file('src/ünïcødé/😀.ts')!.unresolved).toBeNull();
    expect(shard.file('src/missing.ts')).toBeUndefined();
  });

  it('are INDEX_CORRUPT when a record or a declaration is malformed', () => {
    const stored = decodeShard<Record<string, unknown>>('raw', encodeChangeShard(changes())).value;
    expect(thrown(() => new ChangeShard('changes/0003', { ...stored, paths: ['src/a.ts'] })).message).toMatch(/changes\/0003 has columns/);
    expect(thrown(() => new ChangeShard('changes/0003', { v: 2 })).code).toBe('INDEX_CORRUPT');
    const badDecl = { files: [{ ...changes().files[0]!, decls: [{ ...changes().files[0]!.decls[0]!, kind: 'bogus' as 'class' }] }] };
    expect(thrown(() => openShard<ChangeShard>('changes/0004', encodeChangeShard(badDecl)).file('src/a.ts')!.decls).message).toMatch(/changes\/0004 has a malformed declaration/);
    const badKey = { files: [{ ...changes().files[0]!, decls: [{ ...changes().files[0]!.decls[0]!, key: 'short' }] }] };
    expect(thrown(() => openShard<ChangeShard>('changes/0004', encodeChangeShard(badKey)).file('src/a.ts')!.decls).code).toBe('INDEX_CORRUPT');
  });
});

describe('packInts / unpackInts', () => {
  it('round-trips 32-bit integers under every delta base, with deltas beyond 32 bits', () => {
    const bases: DeltaBase[] = ['prev', 'none', 0, 1];
    const values = [0, 0, 0, 0, 5, -1, 7, 2 ** 31 - 1, -(2 ** 31), 3, 1, -7, 2 ** 31 - 1, -(2 ** 31), 0, 0];
    expect([...unpackInts(packInts(values, bases), bases, 'x')]).toEqual(values);
    expect([...unpackInts(packInts([], bases), bases, 'x')]).toEqual([]);
  });

  it('writes 32-bit integers only, and reads a value beyond 32 bits as a corrupt list', () => {
    expect(() => packInts([2 ** 31], ['none'])).toThrow(/not a 32-bit integer/);
    expect(() => packInts([0.5], ['none'])).toThrow(/not a 32-bit integer/);
    const wide = packInts([2 ** 31 - 1, 2 ** 31 - 1], ['none', 'none']);
    expect(thrown(() => unpackInts(wide, ['none', 0], 'files/0002')).data).toEqual({ shard: 'files/0002' });
  });

  it('stores sorted positions as one-byte deltas', () => {
    const refs = Array.from({ length: 1000 }, (_, i) => [0, 10 + i, 5, 10 + i, 12]).flat();
    expect(packInts(refs, ['prev', 'prev', 'none', 1, 2]).byteLength).toBe(refs.length);
  });

  it('rejects a list cut inside a number or inside an entry', () => {
    const bytes = packInts([300, 1, 2], ['none', 'none', 'none']);
    expect(thrown(() => unpackInts(bytes.subarray(0, 1), ['none'], 'symbols/0001')).data).toEqual({ shard: 'symbols/0001' });
    expect(thrown(() => unpackInts(bytes.subarray(0, 3), ['none', 'none', 'none'], 'symbols/0001')).code).toBe('INDEX_CORRUPT');
  });
});

describe('symbol shards', () => {
  it('give back every record, peer and path as written, each found by key', () => {
    const data = symbols();
    const shard = openShard<SymbolShard>('symbols/0000', encodeSymbolShard(data));
    expect(shard).toBeInstanceOf(SymbolShard);
    expect(shard.size).toBe(3);
    expect([...shard.records()].map(plain)).toEqual(data.symbols.map(plain));
    for (const s of data.symbols) expect(plain(shard.find(s.key))).toEqual(plain(s));
    expect(shard.find('mmmmmmmmmmmmmmmm')).toBeUndefined();
    expect([shard.peer(0), shard.peer(1), shard.peer(2)]).toEqual(data.peers);
    expect(shard.paths).toEqual(data.paths);
    expect([...shard.pathFlags]).toEqual(data.pathFlags);
  });

  it('are byte-identical for equal data', () => {
    expect(encodeSymbolShard(symbols())).toEqual(encodeSymbolShard(symbols()));
  });

  it('are not written when a container is none of the peers (it is stored as a peer index)', () => {
    const data = symbols();
    expect(() => encodeSymbolShard({ ...data, peers: data.peers.slice(1) })).toThrow(/container cccccccccccccccc of aaaaaaaaaaaaaaaa is none of the shard's peers/);
  });

  it('are INDEX_CORRUPT when stored in another shape, with columns that disagree, or with a broken record', () => {
    const view = (value: unknown) => new SymbolShard('symbols/00aa', value);
    expect(thrown(() => view({ v: 5, paths: [], peers: [], symbols: [] })).message).toMatch(/symbols\/00aa is not a version 6 symbol shard/);
    const stored = decodeShard<Record<string, unknown>>('raw', encodeSymbolShard(symbols())).value;
    expect(thrown(() => view({ ...stored, keys: (stored.keys as string).slice(0, 32) })).message).toMatch(/columns of different lengths/);
    expect(thrown(() => view({ ...stored, peerNames: ['main'] })).message).toMatch(/columns of different lengths/);
    expect(thrown(() => view({ ...stored, kinds: new Uint8Array(2) })).message).toMatch(/columns of different lengths/);
    const names = stored.names as { lengths: Uint8Array; bytes: Uint8Array };
    expect(thrown(() => view({ ...stored, names: { ...names, bytes: names.bytes.subarray(1) } })).message).toMatch(/symbols\/00aa has a column of the wrong total length/);
    expect(thrown(() => view({ ...stored, names: 'submit' })).message).toMatch(/symbols\/00aa has a malformed column/);
    const notUtf8 = view({ ...stored, names: { ...names, bytes: new Uint8Array(names.bytes.length).fill(0xff) } });
    expect(thrown(() => notUtf8.find('aaaaaaaaaaaaaaaa')).message).toMatch(/symbols\/00aa has a text that is not UTF-8/);
    const refs = stored.refs as { lengths: Uint8Array; bytes: Uint8Array };
    const broken = view({ ...stored, refs: { ...refs, bytes: new Uint8Array(refs.bytes).fill(0xff) } });
    expect(thrown(() => broken.find('aaaaaaaaaaaaaaaa')!.refs).data).toEqual({ shard: 'symbols/00aa' });
    const badKind = view({ ...stored, kinds: new Uint8Array([200, 0, 0]) });
    expect(thrown(() => badKind.find('aaaaaaaaaaaaaaaa')).message).toMatch(/symbols\/00aa has a malformed record/);
    const badContainer = view({ ...stored, containers: new Uint8Array([9, 0, 0]) });
    expect(thrown(() => badContainer.find('aaaaaaaaaaaaaaaa')).code).toBe('INDEX_CORRUPT');
  });
});

describe('file shards', () => {
  it('give back each file as written, decoding only the one asked for', () => {
    const data = files();
    const shard = openShard<FileShard>('files/0000', encodeFileShard(data));
    expect(shard.paths).toEqual(['src/a.ts', 'src/ünïcødé/😀.ts']);
    expect(plain(shard.file('src/ünïcødé/😀.ts'))).toEqual(plain(data.files[1]));
    expect([...shard.files()].map(plain)).toEqual(data.files.map(plain));
    expect(shard.file('src/missing.ts')).toBeUndefined();
  });

  it('are INDEX_CORRUPT when the records do not add up', () => {
    const stored = decodeShard<Record<string, unknown>>('raw', encodeFileShard(files())).value;
    expect(thrown(() => new FileShard('files/0003', { ...stored, paths: ['src/a.ts'] })).message).toMatch(/files\/0003 has columns/);
    expect(thrown(() => new FileShard('files/0003', { ...stored, records: new Uint8Array(3) })).code).toBe('INDEX_CORRUPT');
    expect(thrown(() => new FileShard('files/0003', { v: 1, files: [] })).code).toBe('INDEX_CORRUPT');
  });

  it('are laid out alike from records encoded one at a time, earlier (each a copy the next encoding leaves alone)', () => {
    const data = files();
    const encoded = data.files.map((f) => ({ path: f.path, record: encodeFileRecord(f) }));
    encodeFileRecord({ ...data.files[0]!, path: 'src/other.ts', outline: [] });
    expect(encodeFileShardOf(encoded)).toEqual(encodeFileShard(data));
    const changed = changes();
    const encodedChanges = changed.files.map((f) => ({ path: f.path, record: encodeChangeRecord(f) }));
    encodeChangeRecord({ ...changed.files[0]!, decls: [] });
    expect(encodeChangeShardOf(encodedChanges)).toEqual(encodeChangeShard(changed));
  });

  it('are smaller than the same records as plain MessagePack', () => {
    const many: FileShardData = { files: files().files.map((f) => ({ ...f, occ: Array.from({ length: 600 }, (_, i) => [1 + i, 3, 1 + i, 9, i % 7, i % 5]).flat() })) };
    expect(encodeFileShard(many).byteLength).toBeLessThan(encodeShard({ v: 1, ...many }).byteLength);
  });
});

describe('name shards', () => {
  const data = (): NameShardData => ({
    paths: ['', 'src/a.ts', 'src/b.ts'],
    entries: [
      { key: 'aaaaaaaaaaaaaaaa', name: 'save', qname: 'ImageCache.save', kind: 'method', lang: 'typescript', path: 1, line: 4, column: 3, endLine: 4, endColumn: 7, flags: 0, pkg: '' },
      { key: 'bbbbbbbbbbbbbbbb', name: 'save', qname: 'Repository.save', kind: 'method', lang: 'typescript', path: 2, line: 70000, column: 3, endLine: 70000, endColumn: 7, flags: 1, pkg: '' },
      { key: 'cccccccccccccccc', name: 'saveAll', qname: 'Repository.saveAll', kind: 'method', lang: 'java', path: 2, line: 9, column: 3, endLine: 9, endColumn: 10, flags: 0, pkg: '' },
      { key: 'dddddddddddddddd', name: 'useState', qname: 'useState', kind: 'function', lang: 'typescript', path: 0, line: 0, column: 0, endLine: 0, endColumn: 0, flags: 8, pkg: 'react' },
      { key: 'eeeeeeeeeeeeeeee', name: 'Ünïcødé', qname: 'Ünïcødé', kind: 'class', lang: 'kotlin', path: 1, line: 1, column: 1, endLine: 1, endColumn: 8, flags: 0, pkg: '' },
    ],
  });

  it('give back every entry as written', () => {
    const shard = openShard<NameShard>('names', encodeNameShard(data()));
    expect(shard.size).toBe(5);
    const back = Array.from({ length: shard.size }, (_, i) => {
      const { path, ...loc } = shard.loc(i);
      return { key: shard.key(i), name: shard.name(i), qname: shard.qname(i), kind: shard.kind(i), lang: shard.lang(i), path: shard.paths.indexOf(path), ...loc, flags: shard.flags(i), pkg: shard.pkg(i) };
    });
    expect(back).toEqual(data().entries);
    expect(shard.isExternal(3)).toBe(true);
  });

  it('find exact names and qualified names in place, never a prefix or suffix of one', () => {
    const shard = openShard<NameShard>('names', encodeNameShard(data()));
    expect(shard.exactly(shard.names, 'save')).toEqual([0, 1]);
    expect(shard.exactly(shard.names, 'sav')).toEqual([]);
    expect(shard.exactly(shard.names, 'aveAll')).toEqual([]);
    expect(shard.exactly(shard.qnames, 'Repository.save')).toEqual([1]);
    expect(shard.exactly(shard.names, 'Ünïcødé')).toEqual([4]);
    expect(shard.exactly(shard.names, 'save\0saveAll')).toEqual([]);
    expect(NameShard.empty().exactly(NameShard.empty().names, 'save')).toEqual([]);
  });

  it('are INDEX_CORRUPT when their columns disagree', () => {
    const stored = decodeShard<Record<string, unknown>>('raw', encodeNameShard(data())).value;
    expect(thrown(() => new NameShard('names', { ...stored, keys: 'x' })).message).toMatch(/names has columns of different lengths/);
    expect(thrown(() => new NameShard('names', { ...stored, names: 'save\0' })).code).toBe('INDEX_CORRUPT');
    expect(thrown(() => new NameShard('names', { v: 1, name: [] })).message).toMatch(/not a version 2 name shard/);
    expect(thrown(() => new NameShard('names', { ...stored, loc: new Uint8Array([1, 2]) })).code).toBe('INDEX_CORRUPT');
    const badPkg = new NameShard('names', { ...stored, pkg: new Uint8Array([1, 2]) });
    expect(thrown(() => badPkg.pkg(0)).code).toBe('INDEX_CORRUPT');
  });
});

describe('text shards', () => {
  it('give back each file\'s text, decoding only the one asked for', () => {
    const files = [{ path: 'src/a.ts', text: 'export const a = 1;\r\n' }, { path: 'src/ünïcødé/😀.ts', text: '// 日本 — 😀\n' }, { path: 'src/empty.ts', text: '' }];
    const shard = openShard<TextShard>('texts/0001', encodeTextShard({ files }));
    for (const f of files) expect(shard.text(f.path)).toBe(f.text);
    expect(shard.text('src/missing.ts')).toBeUndefined();
  });

  it('are INDEX_CORRUPT when stored in another shape or holding bytes that are not UTF-8', () => {
    expect(thrown(() => new TextShard('texts/0001', { v: 1, files: [] })).message).toMatch(/texts\/0001 is not a version 2 text shard/);
    const bad = new TextShard('texts/0001', { v: 2, paths: ['src/a.ts'], texts: [new Uint8Array([0xff, 0xfe])] });
    expect(thrown(() => bad.text('src/a.ts')).message).toMatch(/src\/a.ts that is not UTF-8/);
  });
});
