// The gram shards of an incremental build as a job for another thread: they depend on nothing but
// the commit's texts, which files are skipped and the previous index's postings, all known before the
// walk, so the thread that walks lays them out once its walk is done (ts/off-thread-walk.ts) while
// the build lays out the rest. What it gives is layoutGrams's answer on the build's own thread.
import { decodeShard, gramShardName, GramShard, type FileTableEntry } from '@sextant/format';
import type { PreviousIndex } from '../incremental/previous-index.ts';
import { layoutGrams, type GramLayout } from './shard-writer.ts';

export interface GramJob {
  /** The commit's file table as the build knows it before the walk (which files are skipped is what counts). */
  fileTable: FileTableEntry[];
  /** The texts of the files whose postings are collected again, by path. */
  texts: Map<string, string>;
  /** Those files: changed, added or removed, or walked again. */
  dirtyPaths: string[];
  /** The previous index's gram shards as stored, in bucket order, and its file table's paths by ordinal. */
  previousShards: Uint8Array[];
  previousPaths: string[];
}

/** The job of laying out the gram shards of `fileTable` from `previous`, with the postings of `dirtyPaths` collected again. */
export function gramJobOf(previous: PreviousIndex, fileTable: FileTableEntry[], texts: ReadonlyMap<string, string>, dirtyPaths: ReadonlySet<string>): GramJob {
  return {
    fileTable,
    texts: new Map([...dirtyPaths].flatMap((path) => { const text = texts.get(path); return text === undefined ? [] : [[path, text] as const]; })),
    dirtyPaths: [...dirtyPaths],
    previousShards: previous.gramShards,
    previousPaths: previous.entries.map((entry) => entry.path),
  };
}

/** Lays the job's gram shards out (on any thread). */
export function runGramJob(job: GramJob): GramLayout {
  return layoutGrams(job.fileTable, job.texts, { earlier: () => gramsOfShards(job.previousShards), paths: job.previousPaths, dirtyPaths: new Set(job.dirtyPaths) });
}

/** Every gram of gram shards as stored (in bucket order) with its postings, each shard decoded when reached. */
export function* gramsOfShards(shards: readonly Uint8Array[]): Generator<[number, Float64Array]> {
  for (const [bucket, bytes] of shards.entries()) yield* new GramShard(gramShardName(bucket), decodeShard(gramShardName(bucket), bytes).value).entries();
}
