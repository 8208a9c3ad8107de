// One-line previews of definitions: stored in the symbol's record (so a cold call reads no text
// shard), or for locals read from their file's text shard. Reference lists stay preview-free so a
// page reads one shard.
import { previewOf, type SymbolRecord, type SymbolShard } from '@sextant/format';
import { fileLines } from './file-tools.ts';
import type { IndexReader } from './index-reader.ts';
import type { Location } from './results.ts';
import { defLocations } from './symbols.ts';

export interface PreviewedLocation extends Location {
  preview?: string;
}

export async function definitionsWithPreview(reader: IndexReader, record: SymbolRecord, shard: SymbolShard): Promise<PreviewedLocation[]> {
  const locations = defLocations(record, shard.paths);
  const stored = record.previews;
  if (stored?.length === locations.length) return locations.map((l, i) => ({ ...l, preview: stored[i]! }));
  const paths = [...new Set(locations.map((l) => l.path))];
  await reader.prefetch(paths.map((p) => reader.textShardNameOf(p)));
  const texts = new Map<string, string[]>();
  for (const path of paths) texts.set(path, await fileLines(reader, path));
  return locations.map((l) => {
    const line = texts.get(l.path)?.[l.line - 1];
    return line === undefined ? l : { ...l, preview: previewOf(line) };
  });
}
