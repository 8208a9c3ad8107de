// Which view reads a decoded shard: symbol and file shards are read through views that decode one
// record at a time, the name shard through one that reads its joined columns in place, text shards
// through one that decodes one file's text when asked, change shards one file's change record,
// unresolved shards the sites of one name, graph shards one node's edges, the file table through one
// over its columns.
import { ChangeShard } from './change-shard.ts';
import { FileShard } from './file-shard.ts';
import { FileTable } from './file-table.ts';
import { GraphShard } from './graph-shard.ts';
import { GramShard } from './gram-shard.ts';
import { FILE_TABLE_SHARD, NAMES_SHARD } from './manifest.ts';
import { NameShard } from './name-shard.ts';
import { TextShard } from './text-shard.ts';
import { UnresolvedShard } from './unresolved-shard.ts';
import { SymbolShard } from './symbol-shard.ts';

export function shardView<T>(name: string, value: unknown): T {
  if (name.startsWith('symbols/')) return new SymbolShard(name, value) as T;
  if (name.startsWith('files/')) return new FileShard(name, value) as T;
  if (name.startsWith('texts/')) return new TextShard(name, value) as T;
  if (name.startsWith('changes/')) return new ChangeShard(name, value) as T;
  if (name.startsWith('unresolved/')) return new UnresolvedShard(name, value) as T;
  if (name.startsWith('graph/')) return new GraphShard(name, value) as T;
  if (name.startsWith('grams/')) return new GramShard(name, value) as T;
  if (name === NAMES_SHARD) return new NameShard(name, value) as T;
  if (name === FILE_TABLE_SHARD) return new FileTable(name, value) as T;
  return value as T;
}
