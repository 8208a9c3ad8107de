// The real worker (wrangler dev, workerd) refuses a tampered manifest in its local R2: indexes
// published with `indexer publish --local`, then their manifest and the records' copies of it edited
// in place. A repo or commit edited with the records' sha256 updated to match is caught by what the
// worker asked for; any edit the records' sha256 does not match is caught by that. An untouched
// repository beside them keeps answering.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishCommand } from '../../indexer/src/publish/publish-command.ts';
import { callTool, connectMcpClient, type ConnectedClient, type ToolResult } from './support/mcp-client.ts';
import { editPublishedManifest, type ManifestEdit, type RecordedDigest } from './support/tamper-manifest.ts';
import { TINY_COMMIT, writeTinyIndex } from './support/tiny-index.ts';
import { startWorker, withLocalStore, type RunningWorker } from './support/wrangler-dev.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-tampered-'));
const persistDir = join(scratch, 'r2');
const quiet = { out: () => {}, err: (line: string) => console.error(line) };

const TAMPERED: { repo: string; edit: ManifestEdit; digest: RecordedDigest }[] = [
  { repo: 'acme/renamed', edit: (m) => { m.repo = 'evil/other'; }, digest: 'updated' },
  { repo: 'acme/recommitted', edit: (m) => { m.commit = 'f'.repeat(40); }, digest: 'updated' },
  { repo: 'acme/stale', edit: (m) => { m.builtAt = '2030-01-01T00:00:00Z'; }, digest: 'stale' },
];

async function toolError(client: ConnectedClient['client'], name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
  return result.structuredContent!.error;
}

describe('the worker in workerd refuses a tampered manifest', () => {
  let worker: RunningWorker;
  let mcp: ConnectedClient;

  beforeAll(async () => {
    for (const repo of ['acme/intact', ...TAMPERED.map((t) => t.repo)]) {
      const dir = join(scratch, repo.replace('/', '--'));
      await writeTinyIndex(dir, { repo });
      expect(await publishCommand(['--out', dir, '--ref', 'main', '--default', '--local', '--persist-to', persistDir], quiet)).toBe(0);
    }
    await withLocalStore(persistDir, async (store) => {
      for (const { repo, edit, digest } of TAMPERED) await editPublishedManifest(store, repo, TINY_COMMIT, 'main', edit, digest);
    });
    worker = await startWorker({ persistDir });
    mcp = await connectMcpClient(`${worker.url}/mcp`);
  });

  afterAll(async () => {
    await mcp?.close();
    await worker?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('answers from the untouched repository', async () => {
    expect(await callTool(mcp.client, 'search_symbols', { repo: 'acme/intact', query: 'greet' }))
      .toMatchObject({ repo: 'acme/intact', results: [expect.objectContaining({ name: 'greet' })] });
  });

  it('refuses a manifest whose repo was edited, by its default ref and by its sha', async () => {
    for (const commit of [undefined, TINY_COMMIT]) {
      const error = await toolError(mcp.client, 'search_symbols', { repo: 'acme/renamed', query: 'greet', ...(commit ? { commit } : {}) });
      expect(error).toMatchObject({ code: 'INDEX_CORRUPT', data: { shard: 'manifest.json', field: 'repo' } });
      expect(error.message).toContain('is for repository evil/other, not acme/renamed');
      expect(error.hint).toContain('indexer publish');
    }
  });

  it('refuses a manifest whose commit was edited', async () => {
    const error = await toolError(mcp.client, 'index_status', { repo: 'acme/recommitted' });
    expect(error).toMatchObject({ code: 'INDEX_CORRUPT', data: { field: 'commit' } });
    expect(error.message).toContain(`is for commit ${'f'.repeat(40)}, not ${TINY_COMMIT}`);
  });

  it('refuses a manifest whose sha256 does not match its ref record, by the ref and by repo.json', async () => {
    const byRef = await toolError(mcp.client, 'index_status', { repo: 'acme/stale', commit: 'main' });
    expect(byRef).toMatchObject({ code: 'INDEX_CORRUPT', data: { field: 'manifestSha256' } });
    expect(byRef.message).toMatch(/has sha256 [0-9a-f]{64}, but r2:\/\/sextant-index\/repos\/acme\/stale\/refs\/main\.json records [0-9a-f]{64}/);
    const byDefault = await toolError(mcp.client, 'search_symbols', { repo: 'acme/stale', query: 'greet' });
    expect(byDefault.message).toContain('r2://sextant-index/repos/acme/stale/repo.json (head) records');
    expect((await fetch(`${worker.url}/health`)).status).toBe(200);
  });
});
