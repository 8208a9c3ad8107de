// Text shards: the contents of the files of one path bucket at the commit, for read_file and
// previews. Stored as UTF-8 bytes per file, so a reader decodes only the file it was asked for
// (a preview of one line does not pay for the other files of the bucket). Kept in DEFLATE's stored
// blocks: a search reads texts by the megabyte, and inflating them cost more than searching them.
import { encodeShard } from './codec.ts';
import { corrupt } from './packed-records.ts';

/** What a writer builds: the bucket's files in path order. */
export interface TextShardData {
  files: { path: string; text: string }[];
}

interface StoredTextShard {
  v: 2;
  paths: string[];
  texts: Uint8Array[];
}

export function encodeTextShard(data: TextShardData): Uint8Array {
  const encoder = new TextEncoder();
  const stored: StoredTextShard = { v: 2, paths: data.files.map((f) => f.path), texts: data.files.map((f) => encoder.encode(f.text)) };
  // Stored, not compressed: see codec.ts.
  return encodeShard(stored, 'stored');
}

export class TextShard {
  readonly paths: string[];
  private readonly name: string;
  private readonly texts: Uint8Array[];
  private readonly decoded = new Map<string, string>();

  constructor(name: string, value: unknown) {
    const s = value as StoredTextShard;
    if (typeof s !== 'object' || s === null || s.v !== 2 || !Array.isArray(s.paths) || !Array.isArray(s.texts)
      || s.paths.length !== s.texts.length || !s.texts.every((t) => t instanceof Uint8Array)) {
      throw corrupt(name, 'is not a version 2 text shard');
    }
    this.name = name;
    this.paths = s.paths;
    this.texts = s.texts;
  }

  /** The file's text, decoded on first use; undefined when the shard does not hold the path. */
  text(path: string): string | undefined {
    let text = this.decoded.get(path);
    if (text === undefined) {
      const index = this.paths.indexOf(path);
      if (index < 0) return undefined;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(this.texts[index]);
      } catch {
        throw corrupt(this.name, `holds text of ${path} that is not UTF-8`);
      }
      this.decoded.set(path, text);
    }
    return text;
  }
}
