import { IndexReader, ShardCache, diffSymbols, changeImpact } from '@sextant/query';
import { DirShardSource } from '@sextant/query/node';
const dir = process.argv[2]!;
const tool = process.argv[3] ?? 'diff';
const run = (b: IndexReader, h: IndexReader) => (tool === 'diff' ? diffSymbols(b, h, {}) : changeImpact(b, h, {}));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const open = async (cache: ShardCache) => [await IndexReader.open(new DirShardSource(`${dir}/base`), cache), await IndexReader.open(new DirShardSource(`${dir}/head`), cache)] as const;
// warm up the code (JIT) on one cache, then cold calls each on a new cache
{ const c = new ShardCache(1e9); const [b, h] = await open(c); await run(b, h); }
const cold: number[] = []; let fetched = 0; let bytes = 0;
for (let i = 0; i < 3; i++) {
  const cache = new ShardCache(1e9);
  const [b, h] = await open(cache);
  const c0 = cpu();
  const r: any = await run(b, h);
  cold.push(cpu() - c0);
  fetched = b.shardsFetched.length + h.shardsFetched.length;
  bytes = [...b.shardsFetched.map((n) => b.manifest.shards[n]!.bytes), ...h.shardsFetched.map((n) => h.manifest.shards[n]!.bytes)].reduce((x, y) => x + y, 0);
  if (i === 0) console.log(tool, 'total', r.total, 'sites', r.impacts?.reduce((n: number, x: any) => n + x.sitesTotal, 0));
}
const cache = new ShardCache(1e9); const [b, h] = await open(cache); await run(b, h);
const warm: number[] = [];
for (let i = 0; i < 20; i++) { const c0 = cpu(); await run(b, h); warm.push(cpu() - c0); }
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
console.log(tool, `cold CPU ms p50 ${med(cold).toFixed(0)} (shards fetched ${fetched}, ${(bytes / 1024).toFixed(0)} KiB); warm CPU ms p50 ${med(warm).toFixed(1)}`);
