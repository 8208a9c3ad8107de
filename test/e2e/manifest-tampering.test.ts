// One contract for both readers of an index: a tampered manifest is INDEX_CORRUPT saying what is
// wrong, whether the runner reads it from an index directory (manifest.json beside manifest.sha256)
// or the worker from R2 (by the default ref's copy in repo.json, by a ref record, or by a full sha).
// The index is real (the `indexer` CLI on a 20-file repository: four file buckets), the R2 bucket is
// wrangler's local one, the records are what `publishIndex` writes. Every tampering is tried twice:
// with the recorded sha256 updated to match (so the schema and consistency checks must catch it), and
// left as written (so the sha256 comparison must).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_DIGEST_FILE, MANIFEST_FILE, SextantError } from '@sextant/format';
import { ShardCache, type IndexReader } from '@sextant/query';
import { bindingStore } from '../../indexer/src/publish/object-store.ts';
import { publishIndex } from '../../indexer/src/publish/publish-index.ts';
import { readIndexDirectory } from '../../indexer/src/publish/read-index.ts';
import { LocalIndexProvider } from '../../packages/runner/src/local-index-provider.ts';
import { RefCache } from '../../workers/mcp/src/isolate-caches.ts';
import { R2IndexProvider } from '../../workers/mcp/src/r2-index-provider.ts';
import { startLocalR2, type LocalR2 } from '../../workers/mcp/test/support/local-r2.ts';
import { buildIndexOf } from './support/servers.ts';
import { editManifestText, editPublishedManifest, type ManifestEdit as Edit, type RecordedDigest as Digest } from './support/tamper-manifest.ts';

interface Tampering {
  name: string;
  edit: Edit;
  /** The message when the recorded sha256 was updated to match: what the structural checks say. */
  says: RegExp;
  /** The edit leaves a well-formed manifest only its repo or commit tells apart from the real one. */
  identity?: boolean;
}

/** Entries of two file buckets that hold files, by name: swapped or recounted together with their text shards. */
function twoFileBuckets(manifest: any): [string, string] {
  const held = Object.keys(manifest.shards).filter((name) => name.startsWith('files/') && manifest.shards[name].records > 0);
  expect(held.length).toBeGreaterThanOrEqual(2);
  return [held[0]!, held[1]!];
}

function swap(manifest: any, a: string, b: string): void {
  [manifest.shards[a], manifest.shards[b]] = [manifest.shards[b], manifest.shards[a]];
}

const TAMPERINGS: Tampering[] = [
  { name: 'a shard entry dropped', edit: (m) => { delete m.shards['files/0001']; }, says: /lacks shard files\/0001, which its layout/ },
  {
    name: 'two entries swapped (file shards and their text shards)',
    edit: (m) => {
      const [a, b] = twoFileBuckets(m);
      swap(m, a, b);
      swap(m, a.replace('files/', 'texts/'), b.replace('files/', 'texts/'));
    },
    // R2 reads shards by checksum, so the bytes are another bucket's; a directory by name, so they fail the checksum.
    // A file shard and its text shard are read together, so either may be the first found failing.
    says: /holds records of another bucket: the manifest lists another shard's bytes under its name|Shard (files|texts)\/000\d .*fails its checksum/,
  },
  { name: 'a file shard swapped with its text shard', edit: (m) => swap(m, 'files/0000', 'texts/0000'), says: /is not a (files|texts) shard|Shard (files|texts)\/0000 is not a version \d (file|text) shard|fails its checksum/ },
  { name: 'the name shard swapped with a symbol shard', edit: (m) => swap(m, 'names', 'symbols/0000'), says: /symbol shards hold|searchable names|is not a (names|symbols) shard/ },
  { name: 'file layout bits edited', edit: (m) => { m.layout.fileBucketBits += 1; }, says: /lacks shard files\/0004/ },
  { name: 'symbol layout bits edited', edit: (m) => { m.layout.symbolBucketBits += 1; }, says: /lacks shard symbols\/0001/ },
  { name: 'the repo edited', edit: (m) => { m.repo = 'evil/other'; }, says: /is for repository evil\/other, not acme\//, identity: true },
  { name: 'the commit edited', edit: (m) => { m.commit = 'f'.repeat(40); }, says: /is for commit f{40}, not [0-9a-f]{40}/, identity: true },
  { name: 'an entry nulled', edit: (m) => { m.shards.names = null; }, says: /"shards\[names\]": invalid input: expected object, received null/ },
  { name: 'a wrong size', edit: (m) => { m.shards['files/0000'].bytes += 1; }, says: /Shard files\/0000 .*fails its checksum/ },
  { name: 'a wrong checksum', edit: (m) => { m.shards['files/0000'].sha256 = '0'.repeat(64); }, says: /Shard files\/0000 .*(fails its checksum|is missing)/ },
  {
    name: 'record counts moved between entries',
    edit: (m) => {
      const [a, b] = twoFileBuckets(m);
      for (const [from, to] of [[a, b], [a.replace('files/', 'texts/'), b.replace('files/', 'texts/')]] as const) {
        m.shards[from].records -= 1;
        m.shards[to].records += 1;
      }
    },
    says: /Shard (files|texts)\/[0-9a-f]{4} of .* holds \d+ records, but the manifest says \d+/,
  },
  { name: 'a count edited', edit: (m) => { m.counts.symbols += 1; }, says: /counts \d+ symbols, but its symbol shards hold \d+/ },
];

const STALE = /The manifest at .* has sha256 [0-9a-f]{64}, but .* records [0-9a-f]{64}: it was changed after it was written/;

/** A way of reading an index, with what it has besides the manifest to compare it with. */
interface Path {
  name: string;
  /** A record of the manifest's sha256 lies on this path (manifest.sha256, a ref record, repo.json's head). */
  recordsDigest: boolean;
  /** The repo and commit asked for are known apart from the manifest (R2 keys and records; a runner only has the directory). */
  knowsIdentity: boolean;
  open(): Promise<IndexReader>;
}

/** One implementation of the index source: lays a tampered index out, and the paths it is read by. */
interface Source {
  name: string;
  install(edit: Edit, digest: Digest): Promise<Path[]>;
}

const scratch = mkdtempSync(join(tmpdir(), 'sextant-tamper-'));
let built: { index: string; commit: string };
let r2: LocalR2;

let installs = 0;

const runnerDirectory: Source = {
  name: "the runner's index directory",
  async install(edit, digest) {
    const dir = join(scratch, `runner-${++installs}`);
    cpSync(built.index, dir, { recursive: true });
    const { text, sha256 } = editManifestText(readFileSync(join(dir, MANIFEST_FILE), 'utf8'), edit, digest);
    writeFileSync(join(dir, MANIFEST_FILE), text);
    writeFileSync(join(dir, MANIFEST_DIGEST_FILE), `${sha256}  ${MANIFEST_FILE}\n`);
    return [{ name: 'the directory', recordsDigest: true, knowsIdentity: false, open: () => new LocalIndexProvider(dir).open() }];
  },
};

const workerR2: Source = {
  name: "the worker's R2 bucket",
  async install(edit, digest) {
    // A repository per install, published for real, then its manifest and the records' copies edited.
    const repo = `acme/tampered-${++installs}`;
    // The ObjectStore `indexer publish --local` uses, over the test's R2 binding (the same Miniflare bucket).
    const store = bindingStore(r2.bucket, 'local R2 (test)');
    await publishIndex(store, await readIndexDirectory(built.index), { repo, ref: 'main' });
    await editPublishedManifest(store, repo, built.commit, 'main', edit, digest);
    // Fresh caches for every open: a cold isolate.
    const provider = () => new R2IndexProvider(r2.bucket, { repo, cache: new ShardCache(1 << 26), refs: new RefCache() });
    return [
      { name: "repo.json's copy of the default ref", recordsDigest: true, knowsIdentity: true, open: () => provider().open() },
      { name: 'the ref record', recordsDigest: true, knowsIdentity: true, open: () => provider().open({ commit: 'main' }) },
      { name: 'the full sha (no record)', recordsDigest: false, knowsIdentity: true, open: () => provider().open({ commit: built.commit }) },
    ];
  },
};

/** Opens the index and reads every shard it lists: a call reaching each of them. */
async function readAll(path: Path): Promise<void> {
  const reader = await path.open();
  await reader.prefetch(Object.keys(reader.manifest.shards));
}

async function refusal(path: Path): Promise<SextantError> {
  try {
    await readAll(path);
  } catch (error) {
    expect(error).toBeInstanceOf(SextantError);
    return error as SextantError;
  }
  throw new Error(`a tampered index was read through ${path.name}`);
}

beforeAll(async () => {
  const source = join(scratch, 'source');
  mkdirSync(join(source, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++) {
    const name = `m${String(i).padStart(2, '0')}`;
    const previous = `m${String(i - 1).padStart(2, '0')}`;
    writeFileSync(join(source, 'src', `${name}.ts`), i === 0
      ? `export function f${name}(x: number): number {\n  return x;\n}\n`
      : `import { f${previous} } from './${previous}';\n\nexport function f${name}(x: number): number {\n  return f${previous}(x) + ${i};\n}\n`);
  }
  writeFileSync(join(source, 'tsconfig.json'), '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n');
  built = buildIndexOf(source, 'acme/tampered', scratch);
  r2 = await startLocalR2();
});

afterAll(async () => {
  await r2?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe.each([runnerDirectory, workerR2])('a tampered manifest through $name', (source) => {
  it('an untouched index is read whole by every path (the tamperings below are all that differs)', async () => {
    const manifest = JSON.parse(readFileSync(join(built.index, MANIFEST_FILE), 'utf8'));
    expect(manifest.layout.fileBucketBits).toBe(2);
    for (const path of await source.install(() => {}, 'updated')) await readAll(path);
  });

  describe.each(TAMPERINGS)('$name', (tampering) => {
    it('is INDEX_CORRUPT saying what is wrong, with the recorded sha256 updated to match', async () => {
      const paths = (await source.install(tampering.edit, 'updated')).filter((path) => !tampering.identity || path.knowsIdentity);
      for (const path of paths) {
        const error = await refusal(path);
        expect({ path: path.name, code: error.code }).toEqual({ path: path.name, code: 'INDEX_CORRUPT' });
        expect(error.message, path.name).toMatch(tampering.says);
      }
    });

    it('is INDEX_CORRUPT for a sha256 that does not match the record, where there is one', async () => {
      for (const path of await source.install(tampering.edit, 'stale')) {
        const error = await refusal(path);
        expect({ path: path.name, code: error.code }).toEqual({ path: path.name, code: 'INDEX_CORRUPT' });
        expect(error.message, path.name).toMatch(path.recordsDigest ? STALE : tampering.says);
      }
    });
  });
});
