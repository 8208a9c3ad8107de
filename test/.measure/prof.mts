import { IndexReader, ShardCache, diffSymbols, changeImpact } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
const dir = '/work/wt/bench/indexer/.bench/review-cost/effect-small';
const cache = new ShardCache(1e9);
const base = await IndexReader.open(new DirShardSource(`${dir}/base`), cache);
const head = await IndexReader.open(new DirShardSource(`${dir}/head`), cache);
const tool = process.argv[2] ?? 'diff';
const n = Number(process.argv[3] ?? 10);
for (let i = 0; i < n + 2; i++) {
  const t = performance.now();
  const before = head.shardsRead.length + base.shardsRead.length; const fb = head.shardsFetched.length + base.shardsFetched.length;
  const r: any = tool === 'diff' ? await diffSymbols(base, head, {}) : await changeImpact(base, head, {});
  if (i >= 2 || i === 0) console.log(tool, i, (performance.now() - t).toFixed(1), 'ms', 'reads', head.shardsRead.length + base.shardsRead.length - before, 'total', r.total, 'fetched', head.shardsFetched.length + base.shardsFetched.length - fb);
}
