// The ObjectStore contract that publishing relies on, run against every implementation: R2 through
// a binding (here wrangler's local R2 behind the bridge `indexer publish --local` writes through;
// the remote binding is the same ObjectStore over the real bucket). Checksums verified on upload and reported by
// HEAD are what lets a publish skip a shard; etag conditions are how refs move by compare-and-swap.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWranglerStore, type ObjectStore } from '../src/publish/object-store.ts';
import { defaultConfigPath } from '../src/publish/store-options.ts';

const IMPLEMENTATIONS: { name: string; open: (scratch: string) => Promise<ObjectStore> }[] = [
  { name: 'wrangler local R2', open: (scratch) => openWranglerStore({ configPath: defaultConfigPath()!, local: true, persistTo: join(scratch, 'state') }) },
];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(IMPLEMENTATIONS)('ObjectStore contract: $name', ({ open }) => {
  let scratch: string;
  let store: ObjectStore;
  const body = new TextEncoder().encode('shard bytes');

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sextant-store-'));
    store = await open(scratch);
  }, 60_000); // starting workerd on a busy 2-core machine

  afterAll(async () => {
    await store?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('reports the sha256 an upload carried, and none for an upload without one', async () => {
    const written = await store.put('with', body, { sha256: sha256(body) });
    expect(written).toMatchObject({ size: body.byteLength, sha256: sha256(body) });
    expect(await store.head('with')).toEqual(written);
    await store.put('without', body);
    const bare = await store.head('without');
    expect(bare).toMatchObject({ size: body.byteLength });
    expect(bare!.sha256).toBeUndefined();
    expect(await store.head('nothing')).toBeNull();
  });

  it('refuses an upload whose bytes do not hash to the sha256 it carries, and keeps the object as it was', async () => {
    const before = await store.head('with');
    const damaged = new TextEncoder().encode('shard bytez');
    await expect(store.put('with', damaged, { sha256: sha256(body) })).rejects.toThrow(/SHA-256/i);
    expect(await store.head('with')).toEqual(before);
  });

  it('reads bytes with the etag of the same read', async () => {
    const read = await store.get('with');
    expect(new TextDecoder().decode(read!.bytes)).toBe('shard bytes');
    expect(read!.info).toEqual(await store.head('with'));
    expect(await store.getText('with')).toBe('shard bytes');
    expect(await store.get('nothing')).toBeNull();
  });

  it('writes with onlyIf only while the etag still matches, or the object is still absent', async () => {
    const first = await store.put('ref', 'one');
    const second = await store.put('ref', 'two', { onlyIf: { etag: first!.etag } });
    expect(second).not.toBeNull();
    expect(second!.etag).not.toBe(first!.etag);
    // A writer that read 'one' lost: nothing is written, and it learns so from null.
    expect(await store.put('ref', 'three', { onlyIf: { etag: first!.etag } })).toBeNull();
    expect(await store.getText('ref')).toBe('two');
    expect(await store.put('ref', 'four', { onlyIf: { absent: true } })).toBeNull();
    expect(await store.put('new-ref', 'one', { onlyIf: { absent: true } })).not.toBeNull();
    expect(await store.getText('new-ref')).toBe('one');
  });

  it('lists by prefix and deletes', async () => {
    const keys: string[] = [];
    for await (const object of store.list('')) keys.push(object.key);
    expect(keys.sort()).toEqual(['new-ref', 'ref', 'with', 'without']);
    await store.delete(['ref', 'new-ref', 'gone']);
    const left: string[] = [];
    for await (const object of store.list('w')) left.push(object.key);
    expect(left.sort()).toEqual(['with', 'without']);
  });
});
