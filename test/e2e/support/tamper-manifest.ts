// Edits a published or built manifest the way a tamperer (or a broken tool) would, for the tests
// that check every reader refuses it: the manifest's text, and the sha256 the records pointing at it
// hold, either updated to match the edit or left as written.
import { manifestKey, manifestSha256, parseRefRecord, parseRepoRecord, refKey, repoRecordKey, serializeRecord } from '@sextant/format';
import type { ObjectStore } from '../../../indexer/src/publish/object-store.ts';

export type ManifestEdit = (manifest: any) => void;
/** updated: the records' sha256 is the edited text's (only the manifest's own checks can catch it); stale: left as written. */
export type RecordedDigest = 'updated' | 'stale';

/** The edited text, and the sha256 a record should then hold. */
export function editManifestText(text: string, edit: ManifestEdit, digest: RecordedDigest): { text: string; sha256: string } {
  const manifest = JSON.parse(text);
  edit(manifest);
  const edited = `${JSON.stringify(manifest, null, 2)}\n`;
  return { text: edited, sha256: manifestSha256(digest === 'updated' ? edited : text) };
}

/**
 * Edits what `indexer publish --ref <ref> --default` wrote for repo@commit: commits/<sha>/manifest.json,
 * the ref record's copy and repo.json's copy of that record, each with the sha256 `digest` says.
 */
export async function editPublishedManifest(
  store: ObjectStore, repo: string, commit: string, ref: string, edit: ManifestEdit, digest: RecordedDigest,
): Promise<void> {
  const { text, sha256 } = editManifestText((await store.getText(manifestKey(repo, commit)))!, edit, digest);
  await store.put(manifestKey(repo, commit), text);
  const record = { ...parseRefRecord((await store.getText(refKey(repo, ref)))!, refKey(repo, ref)), manifest: text, manifestSha256: sha256 };
  await store.put(refKey(repo, ref), serializeRecord(record));
  const repoRecord = parseRepoRecord((await store.getText(repoRecordKey(repo)))!, repoRecordKey(repo));
  await store.put(repoRecordKey(repo), serializeRecord({ ...repoRecord, head: record }));
}
