// Hashes every reader and the indexer must compute identically: sha256Hex against the FIPS 180-2
// vectors, base32 against an independent bit-string implementation of lowercase Crockford base32,
// and leadingBits, which turns a key into a bucket.
import { describe, expect, it } from 'vitest';
import { base32, isBase32, leadingBits, sha256Bytes, sha256Hex } from '../src/index.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Reference: write the bits out as a string, zero-pad, cut into fives. Slow and obviously right. */
function referenceBase32(bytes: Uint8Array, chars: number): string {
  let bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
  bits = bits.padEnd(chars * 5, '0');
  let out = '';
  for (let i = 0; i < chars; i++) out += ALPHABET[parseInt(bits.slice(i * 5, i * 5 + 5), 2)];
  return out;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function seededBytes(seed: number, length: number): Uint8Array {
  let state = seed >>> 0;
  return Uint8Array.from({ length }, () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) >>> 24);
}

describe('sha256', () => {
  it('matches the standard test vectors', () => {
    const utf8 = (text: string) => new TextEncoder().encode(text);
    expect(sha256Hex(utf8(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(utf8('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256Bytes('abc')))
      .toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes text as UTF-8, without Unicode normalization', () => {
    expect(hex(sha256Bytes('\u00e9'))).toBe(sha256Hex(new Uint8Array([0xc3, 0xa9])));
    expect(sha256Bytes('é')).not.toEqual(sha256Bytes('e\u0301'));
  });
});

describe('base32', () => {
  it('uses lowercase Crockford digits: no i, l, o or u', () => {
    const seen = new Set(base32(seededBytes(1, 4096), Math.floor((4096 * 8) / 5)));
    expect([...seen].sort().join('')).toBe([...ALPHABET].sort().join(''));
    for (const excluded of 'ilouILOU') expect(seen.has(excluded)).toBe(false);
  });

  it('encodes known values', () => {
    expect(base32(new Uint8Array([0]), 1)).toBe('0');
    expect(base32(new Uint8Array([0xff]), 2)).toBe('zw'); // 11111 111(00)
    expect(base32(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff]), 8)).toBe('zzzzzzzz');
    expect(base32(new Uint8Array([0x08]), 2)).toBe('10'); // 00001 000(00)
  });

  it('agrees with the reference on random input, for every length up to and past the input', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const bytes = seededBytes(seed, 1 + (seed % 33));
      for (let chars = 0; chars <= Math.ceil((bytes.length * 8) / 5) + 3; chars++) {
        expect(base32(bytes, chars)).toBe(referenceBase32(bytes, chars));
      }
    }
  });

  it('isBase32 accepts exactly the alphabet', () => {
    expect(isBase32(ALPHABET)).toBe(true);
    expect(isBase32('')).toBe(true);
    for (const bad of ['i', 'l', 'o', 'u', 'A', 'Z', '-', '_', ' ', '@', 'é']) expect(isBase32(`ab${bad}`)).toBe(false);
  });
});

describe('leadingBits', () => {
  it('reads the top bits of the first four digits (20 bits)', () => {
    expect(leadingBits('0000', 20)).toBe(0);
    expect(leadingBits('zzzz', 20)).toBe(2 ** 20 - 1);
    expect(leadingBits('zzzz', 1)).toBe(1);
    expect(leadingBits('g000', 1)).toBe(1); // g = 16 = 10000
    expect(leadingBits('f000', 1)).toBe(0); // f = 15 = 01111
    expect(leadingBits('1000', 5)).toBe(1);
    expect(leadingBits('zzzzzzzz', 8)).toBe(255); // digits past the fourth never matter
  });

  it('is -1 for a key with a character outside the alphabet', () => {
    expect(leadingBits('0o00', 4)).toBe(-1);
  });
});
