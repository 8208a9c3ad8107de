// Two publishes racing on one ref, over wrangler's local R2: the ref (and repo.json, which copies
// the default ref) moves by compare-and-swap on the etag read when a publish started, so an older
// commit whose publish finishes last cannot take the ref from a newer one; --force can. The race
// is made deterministic by letting the second publish run whole while the first writes its
// manifest, that is after the first read the ref and before it writes it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestKey, parseRefRecord, parseRepoRecord, refKey, repoRecordKey } from '@sextant/format';
import type { ObjectStore } from '../../indexer/src/publish/object-store.ts';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { publishIndex, type PublishOptions, type PublishSummary } from '../../indexer/src/publish/publish-index.ts';
import { readIndexDirectory } from '../../indexer/src/publish/read-index.ts';
import { writeTinyIndex } from './support/tiny-index.ts';
import { withLocalStore } from './support/wrangler-dev.ts';

const BASE = '1'.repeat(40);
const OLDER = '2'.repeat(40);
const NEWER = '3'.repeat(40);
const DATES: Record<string, string> = {
  [BASE]: '2025-01-01T00:00:00Z', [OLDER]: '2025-01-02T00:00:00Z', [NEWER]: '2025-01-03T00:00:00Z',
};

describe('publishes racing on one ref', () => {
  let scratch: string;
  let persistDir: string;
  const dir = (commit: string) => join(scratch, commit);

  /** Publishes `first` to `ref`; while it writes its manifest, `second` is published to the same ref in full. */
  async function race(repo: string, first: string, second: string, options: Partial<PublishOptions> = {}) {
    return withLocalStore(persistDir, async (store) => {
      const lines: string[] = [];
      let raced = false;
      const racing: ObjectStore = {
        ...store,
        async put(key, body, putOptions) {
          const written = await store.put(key, body, putOptions);
          if (key === manifestKey(repo, first) && !raced) {
            raced = true;
            await publishIndex(store, await readIndexDirectory(dir(second)), { repo, ref: 'main' });
            // The second publish won: the ref is at its commit before the first writes.
            expect(parseRefRecord((await store.getText(refKey(repo, 'main')))!, 'ref').commit).toBe(second);
          }
          return written;
        },
      };
      const summary: PublishSummary = await publishIndex(racing, await readIndexDirectory(dir(first)), {
        repo, ref: 'main', log: (line) => lines.push(line), ...options,
      });
      expect(raced).toBe(true);
      const ref = parseRefRecord((await store.getText(refKey(repo, 'main')))!, 'ref');
      const repoRecord = parseRepoRecord((await store.getText(repoRecordKey(repo)))!, 'repo.json');
      return { summary, log: lines.join('\n'), ref: ref.commit, head: repoRecord.head?.commit };
    });
  }

  async function publishBase(repo: string) {
    const code = await publishCommand(['--out', dir(BASE), '--repo-name', repo, '--ref', 'main', '--local', '--persist-to', persistDir], { out: () => {}, err: () => {} });
    expect(code).toBe(0);
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-race-'));
    persistDir = join(scratch, 'state');
    for (const commit of [BASE, OLDER, NEWER]) await writeTinyIndex(dir(commit), { commit, commitDate: DATES[commit] });
  });

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('leaves the ref (and repo.json) at a newer commit another publish moved it to while an older one was publishing', async () => {
    await publishBase('acme/race-older');
    const result = await race('acme/race-older', OLDER, NEWER);
    expect(result.ref).toBe(NEWER);
    expect(result.head).toBe(NEWER);
    expect(result.summary.refCommit).toBe(NEWER);
    expect(result.log).toContain(`leaving ref main at ${NEWER}`);
  });

  it('moves the ref to the older commit anyway with force', async () => {
    await publishBase('acme/race-forced');
    const result = await race('acme/race-forced', OLDER, NEWER, { force: true });
    expect(result.ref).toBe(OLDER);
    expect(result.head).toBe(OLDER);
    expect(result.summary.refCommit).toBe(OLDER);
  });

  it('moves the ref to a newer commit over an older one another publish wrote meanwhile', async () => {
    await publishBase('acme/race-newer');
    const result = await race('acme/race-newer', NEWER, OLDER);
    expect(result.ref).toBe(NEWER);
    expect(result.head).toBe(NEWER);
    expect(result.log).toContain(`ref main was moved to ${OLDER} while this publish ran; this commit is newer, moving it`);
  });

  it('moves a ref to an older commit when no other publish moved it meanwhile (a branch reset), and --force needs --ref', async () => {
    const cli = (...argv: string[]) => publishCommand([...argv, '--repo-name', 'acme/reset', '--local', '--persist-to', persistDir], { out: () => {}, err: () => {} });
    expect(await cli('--out', dir(NEWER), '--ref', 'main')).toBe(0);
    expect(await cli('--out', dir(OLDER), '--ref', 'main')).toBe(0);
    await withLocalStore(persistDir, async (store) => {
      expect(parseRefRecord((await store.getText(refKey('acme/reset', 'main')))!, 'ref').commit).toBe(OLDER);
    });
    expect(await cli('--out', dir(OLDER), '--force')).toBe(2);
  });
});
