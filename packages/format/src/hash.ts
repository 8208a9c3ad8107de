// Hashes shared by the indexer and every reader. Synchronous and pure JS so that the worker, the
// runner and the indexer compute the same values with no platform crypto; digestSha256Hex is the
// platform's, for bulk bytes on paths that may await.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/**
 * The same digest with the platform's crypto.subtle (workerd, Node): for hashing whole shards and
 * manifests, where it costs a fraction of the portable code's CPU.
 */
export async function digestSha256Hex(bytes: Uint8Array): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

export function sha256Bytes(text: string): Uint8Array {
  return sha256(utf8ToBytes(text));
}

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford: no i, l, o, u.
const BASE32_CODES = Array.from(BASE32, (ch) => ch.charCodeAt(0));

/** Lowercase Crockford base32 of the first `chars * 5` bits of `bytes`. */
export function base32(bytes: Uint8Array, chars: number): string {
  // One string made at the end: appending character by character leaves V8 a chain of cons
  // strings past 13 characters, kept for as long as the key (an index holds millions of keys).
  return String.fromCharCode(...base32Codes(bytes, chars));
}

/** The character codes of base32(bytes, chars). */
export function base32Codes(bytes: Uint8Array, chars: number): number[] {
  const codes = new Array<number>(chars);
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (let i = 0; i < chars; i++) {
    if (bits < 5) {
      buffer = (buffer << 8) | (bytes[index++] ?? 0);
      bits += 8;
    }
    codes[i] = BASE32_CODES[(buffer >> (bits - 5)) & 31]!;
    bits -= 5;
  }
  return codes;
}

/** The top `bits` bits (0..20) of a base32 string, as an integer. */
export function leadingBits(key: string, bits: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const digit = BASE32.indexOf(key[i] ?? '0');
    if (digit < 0) return -1;
    value = value * 32 + digit;
  }
  return value >>> (20 - bits);
}

export function isBase32(text: string): boolean {
  for (const ch of text) if (!BASE32.includes(ch)) return false;
  return true;
}
