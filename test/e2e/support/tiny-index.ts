// A tiny but valid Sextant index, made with the format package alone, for tests that need
// something to publish and serve before (or without) the real indexer: two files, two symbols
// (`greet` in src/greet.ts, called from src/main.ts), layout bits 0, so six shards:
// `names`, `filetable`, `symbols/0000`, `files/0000`, `texts/0000`, `changes/0000`. Shard bytes depend only on `variant`, never on the
// commit, so two commits of one variant share their shards (as unchanged code does).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  collectGrams, encodeGramShard, gramShardName, gramShardsOf,
  CONFIDENCES, encodeFileShard, encodeFileTable, encodeNameShard, encodeSymbolShard, encodeTextShard, FILE_TABLE_SHARD, FORMAT_VERSION, MANIFEST_DIGEST_FILE, MANIFEST_FILE, manifestDigestLine, MODIFIERS, NAMES_SHARD, REFERENCE_KINDS,
  base32, changeShardName, graphShardName, layoutGraph, encodeUnresolvedShard, unresolvedShardName, encodeChangeShard, fileShardName, sha256Bytes, sha256Hex, symbolKey, symbolShardName, textShardName,
  type ChangeShardData, type FileShardData, type Manifest, type NameShardData, type SymbolShardData,
} from '@sextant/format';

export interface TinyIndexOptions {
  repo?: string;
  commit?: string;
  /** Changes the shards' content (a symbol name suffix), so indexes of different variants share nothing. */
  variant?: string;
  /** The manifest's commitDate (default 2025-01-01T00:00:00Z): what a publish racing on a ref compares. */
  commitDate?: string;
}

export interface TinyIndex {
  manifest: Manifest;
  /** Shard name -> bytes, exactly as the manifest lists them. */
  shards: Map<string, Uint8Array>;
}

export const TINY_REPO = 'acme/tiny';
export const TINY_COMMIT = '1111111111111111111111111111111111111111';

export function buildTinyIndex(options: TinyIndexOptions = {}): TinyIndex {
  const repo = options.repo ?? TINY_REPO;
  const commit = options.commit ?? TINY_COMMIT;
  const fn = `greet${options.variant ?? ''}`;
  const paths = ['src/greet.ts', 'src/main.ts'];
  const greetKey = symbolKey(`typescript\0src/greet.ts\0${fn}\0function\0`);
  const mainKey = symbolKey('typescript\0src/main.ts\0main\0function\0');
  const greetLine = `export function ${fn}(name: string): string { return 'hello ' + name; }`;
  const mainLine = `function main() { ${fn}('world'); }`;
  const call = REFERENCE_KINDS.indexOf('call');
  const definition = REFERENCE_KINDS.indexOf('definition');
  const exported = MODIFIERS.exported;
  const exact = CONFIDENCES.indexOf('exact');
  // Git blob ids stand in as hashes of the texts: another variant, other blobs.
  const blobOf = (line: string) => sha256Hex(new TextEncoder().encode(`${line}\n`)).slice(0, 40);

  const symbols: SymbolShardData = {
    paths,
    pathFlags: [0, 0],
    peers: [],
    symbols: [
      {
        key: greetKey, name: fn, kind: 'function', qname: fn, lang: 'typescript', path: paths[0], mods: exported,
        signature: `function ${fn}(name: string): string`,
        defs: [0, 1, 17, 1, 17 + fn.length],
        refs: [1, 1, 19, 1, 19 + fn.length, call, -1, exact],
        graph: -1,
      },
      {
        key: mainKey, name: 'main', kind: 'function', qname: 'main', lang: 'typescript', path: paths[1], mods: 0,
        signature: 'function main(): void',
        defs: [1, 1, 10, 1, 14],
        refs: [],
        graph: -1,
      },
    ].sort((a, b) => (a.key < b.key ? -1 : 1)) as SymbolShardData['symbols'],
  };
  const files: FileShardData = {
    files: [
      {
        path: paths[0]!, lang: 'typescript', blob: blobOf(greetLine), bytes: greetLine.length + 1, lineLengths: [greetLine.length],
        flags: 0, syms: [greetKey], occ: [1, 17, 1, 17 + fn.length, 0, definition],
        outline: [{ name: fn, kind: 'function', sym: 0, range: [1, 1, 1, greetLine.length + 1], at: [1, 17], children: [] }],
        problems: [],
        problemsOmitted: 0,
      },
      {
        path: paths[1]!, lang: 'typescript', blob: blobOf(mainLine), bytes: mainLine.length + 1, lineLengths: [mainLine.length],
        flags: 0, syms: [mainKey, greetKey],
        occ: [1, 10, 1, 14, 0, definition, 1, 19, 1, 19 + fn.length, 1, call],
        outline: [{ name: 'main', kind: 'function', sym: 0, range: [1, 1, 1, mainLine.length + 1], at: [1, 10], children: [] }],
        problems: [],
        problemsOmitted: 0,
      },
    ],
  };
  const changes: ChangeShardData = {
    files: [
      {
        path: paths[0]!,
        decls: [{
          key: greetKey, name: fn, kind: 'function', qname: fn, mods: exported, signature: `function ${fn}(name: string): string`, container: -1,
          at: [1, 17, 1, 17 + fn.length], range: [1, 1, 1, greetLine.length + 1], body: base32(sha256Bytes(`{ return 'hello ' + name; }`), 13), doc: '',
        }],
        unresolved: [],
        reexports: [],
      },
      {
        path: paths[1]!,
        decls: [{
          key: mainKey, name: 'main', kind: 'function', qname: 'main', mods: 0, signature: 'function main(): void', container: -1,
          at: [1, 10, 1, 14], range: [1, 1, 1, mainLine.length + 1], body: base32(sha256Bytes(`{ ${fn}('world'); }`), 13), doc: '',
        }],
        unresolved: [],
        reexports: [],
      },
    ],
  };
  const names: NameShardData = {
    paths,
    entries: [
      { key: greetKey, name: fn, qname: fn, kind: 'function', lang: 'typescript', path: 0, line: 1, column: 17, endLine: 1, endColumn: 17 + fn.length, flags: 0, pkg: '' },
      { key: mainKey, name: 'main', qname: 'main', kind: 'function', lang: 'typescript', path: 1, line: 1, column: 10, endLine: 1, endColumn: 14, flags: 0, pkg: '' },
    ],
  };


  const shards = new Map<string, Uint8Array>([
    [NAMES_SHARD, encodeNameShard(names)],
    [FILE_TABLE_SHARD, encodeFileTable(files.files.map((f) => ({ path: f.path, blob: f.blob, status: 'indexed', lang: f.lang, flags: f.flags })))],
    [symbolShardName(0), encodeSymbolShard(symbols)],
    [fileShardName(0), encodeFileShard(files)],
    [changeShardName(0), encodeChangeShard(changes)],
    [unresolvedShardName(0), encodeUnresolvedShard({ paths: [], peers: [], names: [] })],
    // No edges: the graph's one shard is empty.
    [graphShardName(0), layoutGraph([]).shards[0]!],
    [textShardName(0), encodeTextShard({ files: [{ path: paths[0]!, text: `${greetLine}\n` }, { path: paths[1]!, text: `${mainLine}\n` }] })],
  ]);
  // The text index of the two files, in one gram shard.
  const grams = collectGrams(paths.map((path, ordinal) => ({ ordinal, text: `${ordinal === 0 ? greetLine : mainLine}\n` })));
  const gramData = gramShardsOf(grams, 0)[0]!;
  shards.set(gramShardName(0), encodeGramShard(gramData));
  const manifest: Manifest = {
    formatVersion: FORMAT_VERSION,
    repo,
    commit,
    commitDate: options.commitDate ?? '2025-01-01T00:00:00Z',
    builtAt: '2025-01-01T00:00:01Z',
    indexer: { name: 'tiny-index', version: '0.0.0' },
    parsers: {},
    layout: { symbolBucketBits: 0, fileBucketBits: 0, changeBucketBits: 0, unresolvedBucketBits: 0, graphBucketBits: 0, gramBucketBits: 0 },
    counts: { files: 2, texts: 2, symbols: 2, references: 1, edges: 0, unresolved: 0 },
    languages: { typescript: { files: 2, precision: 'syntactic' } },
    skipped: [],
    warnings: [],
    shards: Object.fromEntries([...shards].map(([name, bytes]) => [name, { sha256: sha256Hex(bytes), bytes: bytes.byteLength, records: name.startsWith('unresolved/') || name.startsWith('graph/') ? 0 : name.startsWith('grams/') ? gramData.grams.length : 2 }])),
  };
  return { manifest, shards };
}

/** Writes the index the way `indexer build` lays it out: manifest.json, manifest.sha256 and `<dir>/<shard name>`. */
export async function writeTinyIndex(dir: string, options: TinyIndexOptions = {}): Promise<Manifest> {
  const { manifest, shards } = buildTinyIndex(options);
  for (const [name, bytes] of shards) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), bytes);
  }
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFile(join(dir, MANIFEST_FILE), text);
  await writeFile(join(dir, MANIFEST_DIGEST_FILE), manifestDigestLine(text));
  return manifest;
}
