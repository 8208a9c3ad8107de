// index_status: what index answers, built when and by what, and whether it is the commit asked for.
import type { IndexReader } from './index-reader.ts';
import type { Answer } from './results.ts';
import type { Manifest } from '@sextant/format';

interface IndexStatus extends Answer {
  state: 'ready';
  commitDate: string;
  builtAt: string;
  indexer: Manifest['indexer'];
  parsers: Manifest['parsers'];
  /** Library API models resolution used (JDK, Kotlin stdlib); none when the index says nothing. */
  libraryModels: NonNullable<Manifest['libraryModels']>;
  formatVersion: number;
  languages: Manifest['languages'];
  counts: Manifest['counts'];
  shards: { count: number; bytes: number };
  skipped: Manifest['skipped'];
  warnings: string[];
  /** How it was built: in full (with why, when an incremental build was asked for), or incremental from which commit; `full` for indexes that do not say. */
  build: NonNullable<Manifest['build']>;
  /** When the caller named a commit or ref: what it was, and that it is this index's commit. */
  requested?: { commit: string; matches: boolean };
}

export function indexStatus(reader: IndexReader, requested?: string): IndexStatus {
  const m = reader.manifest;
  const shards = Object.values(m.shards);
  return {
    repo: m.repo,
    commit: m.commit,
    state: 'ready',
    commitDate: m.commitDate,
    builtAt: m.builtAt,
    indexer: m.indexer,
    parsers: m.parsers,
    libraryModels: m.libraryModels ?? [],
    formatVersion: m.formatVersion,
    languages: m.languages,
    counts: m.counts,
    shards: { count: shards.length, bytes: shards.reduce((sum, s) => sum + s.bytes, 0) },
    skipped: m.skipped,
    warnings: m.warnings,
    build: m.build ?? { mode: 'full' },
    ...(requested !== undefined ? { requested: { commit: requested, matches: true } } : {}),
  };
}
