// Declaration fingerprints (FileRecord.decls) on real builds of two commits: a body hash survives a
// rename, a signature change, a doc change and reformatting, and changes with the code; a container's
// body leaves out its members; a declaration without code has none. TypeScript and Java alike.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unresolvedCount, type ChangeRecord, type ChangeShard, type DeclRecord, type Manifest } from '@sextant/format';
import { openShard } from '../../packages/format/test/support/open-shard.ts';
import { buildIndex } from '../src/build-command.ts';
import { Progress } from '../src/progress.ts';
import { commitAll, fixtureRepo } from './support/fixture-repo.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sextant-decls-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BASE = {
  'src/shop.ts': `/** Sums prices. */
export function total(prices: number[]): number {
  return prices.reduce((sum, p) => sum + p, 0);
}

export abstract class Cart {
  abstract owner(): string;
  items: number[] = [];
  add(price: number): void {
    this.items.push(price);
  }
}

export interface Line { sku: string; qty: number }
`,
  'src/Shop.java': `package shop;

public class Shop {
    public int count(int[] xs) {
        return xs.length;
    }
}
`,
};

const HEAD = {
  // total renamed to addUp, its parameter's type changed, its doc reworded, its body re-indented
  // over two lines; Cart.add's body changed, Cart's members documented; Line gains a member.
  'src/shop.ts': `/** Adds prices up. */
export function addUp(prices: readonly number[]): number {
    return prices.reduce((sum, p) =>
      sum + p, 0);
}

export abstract class Cart {
  abstract owner(): string;
  // What is in the cart.
  items: number[] = [];
  /** Adds one item, twice. */
  add(price: number): void {
    this.items.push(price * 2);
  }
}

export interface Line { sku: string; qty: number; note?: string }
`,
  'src/Shop.java': `package shop;

public class Shop {
    public int size(int[] xs) {
        return xs.length;
    }
}
`,
};

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

let builds = 0;
async function declsAt(repo: string, commit: string): Promise<Map<string, { file: ChangeRecord; decls: Map<string, DeclRecord> }>> {
  const out = join(scratch, `index-${builds++}`);
  const manifest: Manifest = await buildIndex({ repo, commit, out, maxFileBytes: 1 << 20, progress: new Progress(process.stderr, true) });
  const files = new Map<string, { file: ChangeRecord; decls: Map<string, DeclRecord> }>();
  for (const name of Object.keys(manifest.shards).filter((n) => n.startsWith('changes/'))) {
    for (const file of openShard<ChangeShard>(name, new Uint8Array(readFileSync(join(out, name)))).files()) {
      files.set(file.path, { file, decls: new Map(file.decls.map((d) => [d.qname, d])) });
    }
  }
  return files;
}

describe('declaration fingerprints', () => {
  it('tell a rename, a signature or doc change and reformatting from a change of the code', async () => {
    const repo = fixtureRepo();
    try {
      write(repo.dir, BASE);
      const base = commitAll(repo.dir, 'base');
      write(repo.dir, HEAD);
      const head = commitAll(repo.dir, 'head');
      const before = await declsAt(repo.dir, base);
      const after = await declsAt(repo.dir, head);
      const ts = (files: typeof before, qname: string) => files.get('src/shop.ts')!.decls.get(qname)!;

      const total = ts(before, 'total');
      const sum = ts(after, 'addUp');
      expect(total.body).toMatch(/^[0-9a-z]{13}$/);
      expect(sum.body).toBe(total.body);
      expect(sum.signature).not.toBe(total.signature);
      expect(total.doc).toMatch(/^[0-9a-z]{13}$/);
      expect(sum.doc).not.toBe(total.doc);

      expect(ts(after, 'Cart.add').body).not.toBe(ts(before, 'Cart.add').body);
      expect(ts(after, 'Cart.items').body).toBe(ts(before, 'Cart.items').body);
      expect(ts(after, 'Cart').body).toBe(ts(before, 'Cart').body);
      expect(ts(before, 'Cart.owner').body).toBe('');
      expect(ts(before, 'Line.sku').body).toBe('');
      expect(ts(before, 'Line').body).toBe('');
      expect(ts(after, 'Line').body).toBe('');

      const java = (files: typeof before, qname: string) => files.get('src/Shop.java')!.decls.get(qname)!;
      expect(java(after, 'shop.Shop#size(int[])').body).toBe(java(before, 'shop.Shop#count(int[])').body);
      expect(java(before, 'shop.Shop#count(int[])').body).not.toBe('');
    } finally {
      repo.cleanup();
    }
  });

  it('lists the declarations in order, each pointing at its symbol and its container', async () => {
    const repo = fixtureRepo();
    try {
      write(repo.dir, BASE);
      const files = await declsAt(repo.dir, commitAll(repo.dir, 'base'));
      const { file } = files.get('src/shop.ts')!;
      expect(file.decls.map((d) => `${d.kind} ${d.qname}`)).toEqual([
        'function total', 'class Cart', 'method Cart.owner', 'property Cart.items', 'method Cart.add',
        'interface Line', 'property Line.sku', 'property Line.qty',
      ]);
      const cart = file.decls.findIndex((d) => d.qname === 'Cart');
      for (const d of file.decls) {
        expect(d.key).toMatch(/^[0-9a-z]{16}$/);
        expect(d.container).toBe(d.qname.startsWith('Cart.') ? cart : d.qname.startsWith('Line.') ? file.decls.findIndex((x) => x.qname === 'Line') : -1);
      }
      const add = file.decls.find((d) => d.qname === 'Cart.add')!;
      expect(add.at).toEqual([9, 3, 9, 6]);
      expect(add.range).toEqual([9, 3, 11, 4]);
      expect(unresolvedCount(file)).toBe(0);
      expect(unresolvedCount(files.get('src/Shop.java')!.file)).toBe(0); // Java records them too (none here)
    } finally {
      repo.cleanup();
    }
  });
});
