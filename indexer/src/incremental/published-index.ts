// A published index brought into a local directory, for a build from it (`indexer build --from-ref`,
// `--from-commit`): the commit's manifest (through a ref's record, which carries it, or its own key),
// checked, and every shard it lists, each checked against its size and sha256, laid out as `indexer
// build` writes an index directory. What a pull request's CI needs to build its head from the
// published base's index without building the base.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  MANIFEST_DIGEST_FILE, MANIFEST_FILE, manifestDigestLine, manifestKey, parseManifest, parseRefRecord, refKey, SextantError, shardKey, shortCommit,
} from '@sextant/format';
import type { ObjectStore } from '../publish/object-store.ts';
import { isEntryBytes } from '@sextant/query/node';

/** Shards fetched at once. */
const CONCURRENCY = 8;

/** Writes the index of `repo` at `from` (a ref, or a full commit sha) from `store` into the empty directory `dir`; its commit. */
export async function downloadIndex(store: ObjectStore, repo: string, from: { ref: string } | { commit: string }, dir: string): Promise<string> {
  let commit: string;
  if ('ref' in from) {
    const key = refKey(repo, from.ref);
    const record = await store.getText(key);
    if (record === null) {
      throw new SextantError('INDEX_NOT_FOUND', `${store.description} has no ref "${from.ref}" of ${repo}.`,
        'Publish the base with `indexer publish --ref <name>`, or build without --from-ref.', { key });
    }
    commit = parseRefRecord(record, key).commit;
  } else {
    commit = from.commit;
  }
  const key = manifestKey(repo, commit);
  const text = await store.getText(key);
  if (text === null) {
    throw new SextantError('INDEX_NOT_FOUND', `${store.description} has no index of ${repo} at ${shortCommit(commit)}.`,
      'Publish that commit\'s index with `indexer publish`, or build without --from-ref / --from-commit.', { key });
  }
  const manifest = parseManifest(text, `${store.description}: ${repo}`);
  const shards = Object.entries(manifest.shards);
  let next = 0;
  const fetchOne = async (): Promise<void> => {
    for (let i = next++; i < shards.length; i = next++) {
      const [name, entry] = shards[i]!;
      const object = await store.get(shardKey(entry.sha256));
      if (!object || !isEntryBytes(object.bytes, entry)) {
        throw new SextantError('INDEX_CORRUPT', `Shard ${name} of ${repo}@${shortCommit(manifest.commit)} is ${object ? 'not the bytes its manifest names' : 'missing'} in ${store.description}.`,
          'Publish that index again, or build without --from-ref / --from-commit.', { shard: name });
      }
      const file = join(dir, name);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, object.bytes);
    }
  };
  await mkdir(dir, { recursive: true });
  await Promise.all(Array.from({ length: CONCURRENCY }, fetchOne));
  await writeFile(join(dir, MANIFEST_FILE), text);
  await writeFile(join(dir, MANIFEST_DIGEST_FILE), manifestDigestLine(text));
  return manifest.commit;
}

/** Runs `use` on the published index brought into a temporary directory, which goes afterwards; the store is closed once it is read. */
export async function withPublishedIndex<T>(store: ObjectStore, repo: string, from: { ref: string } | { commit: string }, use: (dir: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(tmpdir(), 'sextant-from-'));
  try {
    const dir = join(scratch, 'index');
    try {
      await downloadIndex(store, repo, from, dir);
    } finally {
      await store.close();
    }
    return await use(dir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
