import { IndexReader, ShardCache, diffSymbols, changeImpact } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
const dir = '/work/wt/bench/indexer/.bench/review-cost/effect-small';
const tool = process.argv[2] ?? 'diff';
const n = Number(process.argv[3] ?? 10);
for (let i = 0; i < n; i++) {
  const cache = new ShardCache(1e9);
  const base = await IndexReader.open(new DirShardSource(`${dir}/base`), cache);
  const head = await IndexReader.open(new DirShardSource(`${dir}/head`), cache);
  const t = performance.now();
  const r: any = tool === 'diff' ? await diffSymbols(base, head, {}) : await changeImpact(base, head, {});
  console.log(tool, 'cold', i, (performance.now() - t).toFixed(1), 'ms', 'fetched', head.shardsFetched.length + base.shardsFetched.length, 'total', r.total);
}
