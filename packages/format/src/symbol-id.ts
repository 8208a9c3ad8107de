// symbolIds: `<key>@<commit>`. The key is a hash of the symbol's identity (language, module path,
// qualified name, kind, disambiguator), so it survives commits that leave that identity alone; the
// commit part pins the answer to one index; the key's leading bits name the shard that holds it.
import { shortCommit } from './commit.ts';
import { SextantError } from './errors.ts';
import { base32, base32Codes, isBase32, leadingBits, sha256Bytes } from './hash.ts';

export const KEY_LENGTH = 16; // 80 bits

interface ParsedSymbolId {
  key: string;
  commit: string;
}

export function symbolKey(identity: string): string {
  return base32(sha256Bytes(identity), KEY_LENGTH);
}

/** Characters of a local's key taken from its file's path hash. */
const LOCAL_PATH_PREFIX = 8; // 40 bits; the identity keeps the other 40

let lastLocalPath: string | undefined;
let lastLocalPrefix: number[] = [];

/**
 * Key of a local (a parameter, a local variable or type, a member of a type literal): its file's path
 * hash leads, so the locals of one file share a shard, with the enclosing symbols their references
 * name stored once, instead of scattering over every shard. Most symbols are locals; this roughly
 * halves the symbol shards of a large TypeScript repository.
 */
export function localSymbolKey(path: string, identity: string): string {
  // Indexers key a file's locals one after another: its path is hashed once for all of them.
  if (path !== lastLocalPath) {
    lastLocalPath = path;
    lastLocalPrefix = base32Codes(pathHash(path), LOCAL_PATH_PREFIX);
  }
  // Joined as character codes: a string concatenated from two halves would be a cons string.
  const codes = base32Codes(sha256Bytes(identity), KEY_LENGTH);
  codes.splice(0, LOCAL_PATH_PREFIX, ...lastLocalPrefix);
  return String.fromCharCode(...codes);
}

/** Bucket of a key or path hash among 2^bits buckets. */
export function bucketOf(key: string, bits: number): number {
  return bits === 0 ? 0 : leadingBits(key, bits);
}

export function pathKey(path: string): string {
  return base32(pathHash(path), KEY_LENGTH);
}

function pathHash(path: string): Uint8Array {
  return sha256Bytes(`path\0${path}`);
}

export function formatSymbolId(key: string, commit: string): string {
  return `${key}@${shortCommit(commit)}`;
}

export function parseSymbolId(symbolId: string): ParsedSymbolId {
  const at = symbolId.indexOf('@');
  const key = symbolId.slice(0, at);
  const commit = symbolId.slice(at + 1);
  if (at < 0 || key.length !== KEY_LENGTH || !isBase32(key) || !/^[0-9a-f]{12}$/.test(commit)) {
    throw new SextantError(
      'INVALID_SYMBOL_ID',
      `"${symbolId}" is not a Sextant symbolId (expected <16 base32 chars>@<12 hex chars of a commit>).`,
      'Pass a symbolId exactly as a previous tool result gave it, or target the symbol by name, qualifiedName or path + line + column.',
    );
  }
  return { key, commit };
}
