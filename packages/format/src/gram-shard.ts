// Gram shards: the trigram index of every searchable text file at the commit (search_text), as code
// search engines have kept one since Google Code Search and Zoekt, so that a query reads the posting
// lists of a few grams instead of every text. A gram is three consecutive bytes of a file's UTF-8
// text with ASCII letters folded to lower case, as a 24-bit number; three bytes with an ASCII
// capital are also kept as they are (EXACT_GRAM set above those bits), so a case-sensitive query
// for `ACTION` is not left with every file that says `action` (format 15). A gram's posting list
// names, in ascending order, the files that hold it, by their ordinal in the file table, each with
// a follow mask: a bit (followBit) for every byte that comes after the gram somewhere in the file
// (format 19). A literal's gram is then looked up with the byte that follows it in the literal, which
// a file must have after it somewhere: much of what a four-byte gram would rule out, for a byte a
// posting (a cold search for `Responds` in effect read 65 shards to check the candidates of its six
// grams alone, 19 with the bytes that follow them). Gram shards are bucketed by a hash of the gram, so a
// query reads at most one shard per gram it plans on. The index only rules files out: every
// candidate is checked against its stored text.
import { encodeShard } from './codec.ts';
import { corrupt } from './packed-records.ts';

/** The bytes of a gram: three. */
export const GRAM_BYTES = 3;

/** A byte with ASCII letters folded to lower case: grams are case-folded, so one index serves -i and -s. */
export function foldByte(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

/** The gram of three (folded) bytes. */
export function gramOf(a: number, b: number, c: number): number {
  return (foldByte(a) << 16) | (foldByte(b) << 8) | foldByte(c);
}

/** The bit that marks a gram of three bytes as they are, one of them an ASCII capital. */
export const EXACT_GRAM = 1 << 24;

const isCapital = (byte: number) => byte >= 0x41 && byte <= 0x5a;
const exactGramOf = (a: number, b: number, c: number) => EXACT_GRAM | (a << 16) | (b << 8) | c;

/**
 * The gram a case-sensitive search looks three bytes up by: as they are when one is an ASCII
 * capital (the files holding exactly them), else the folded gram (the same bytes, no letter to fold
 * but lower-case ones: its files hold them or their capitalised forms, a superset).
 */
export function caseGramOf(a: number, b: number, c: number): number {
  return isCapital(a) || isCapital(b) || isCapital(c) ? exactGramOf(a, b, c) : gramOf(a, b, c);
}

/** The bucket of a gram under `bits` bucket bits (a multiplicative hash, so neighbouring grams spread). */
export function gramBucketOf(gram: number, bits: number): number {
  return bits === 0 ? 0 : Math.imul(gram, 0x9e3779b1) >>> (32 - bits);
}

/**
 * The bit of a follow mask a byte sets (ASCII letters folded, as in grams): one of eight, by a
 * multiplicative hash so that letters, digits and punctuation spread over them.
 */
export function followBit(byte: number): number {
  return 1 << (Math.imul(foldByte(byte), 0x9e3779b1) >>> 29);
}

/**
 * Every distinct gram of a text's UTF-8 bytes, folded and (with a capital) exact, with its follow
 * mask in the text (the bits of the bytes that come after it; none after the text's last gram).
 */
export function gramsOfBytes(bytes: Uint8Array): Map<number, number> {
  const follows = new Map<number, number>();
  for (let i = 0; i + GRAM_BYTES <= bytes.length; i++) {
    const a = bytes[i]!;
    const b = bytes[i + 1]!;
    const c = bytes[i + 2]!;
    const bit = i + GRAM_BYTES < bytes.length ? followBit(bytes[i + GRAM_BYTES]!) : 0;
    const gram = gramOf(a, b, c);
    follows.set(gram, (follows.get(gram) ?? 0) | bit);
    if (isCapital(a) || isCapital(b) || isCapital(c)) {
      const exact = exactGramOf(a, b, c);
      follows.set(exact, (follows.get(exact) ?? 0) | bit);
    }
  }
  return follows;
}

/**
 * A posting as a number: the file's ordinal times 256 plus its follow mask, so that a gram's list is
 * one array of small integers, as it was before masks (two arrays a gram cost java.base's build
 * 380 MB more at its peak). Ascending postings are ascending ordinals.
 */
export function postingOf(ordinal: number, follow: number): number {
  return ordinal * 256 + follow;
}

export function postingOrdinal(posting: number): number {
  return Math.floor(posting / 256);
}

export function postingFollow(posting: number): number {
  return posting % 256;
}

/** The postings of a commit's text files: for each gram, its postings (postingOf), ascending. */
export interface GramPostings {
  byGram: Map<number, number[]>;
  /** Postings (a gram in a file) in all: what sizes the gram buckets. */
  postings: number;
}

/** The postings of text files given in ascending ordinal order. */
export function collectGrams(files: Iterable<{ ordinal: number; text: string }>): GramPostings {
  const byGram = new Map<number, number[]>();
  const encoder = new TextEncoder();
  let postings = 0;
  for (const { ordinal, text } of files) {
    // forEach, not for-of: no entry array for each of the millions of postings a large commit has.
    gramsOfBytes(encoder.encode(text)).forEach((follow, gram) => {
      const list = byGram.get(gram);
      if (list) list.push(postingOf(ordinal, follow));
      else byGram.set(gram, [postingOf(ordinal, follow)]);
      postings++;
    });
  }
  return { byGram, postings };
}

/**
 * The postings of a commit's text files from those of an earlier commit (an incremental build):
 * each earlier posting moved to its file's ordinal now (`ordinalNow`, -1 for a file gone or read
 * again; it must keep the order of the files it keeps, as path order does), and the grams of the
 * files read again or new (`files`, ascending ordinals) merged in. Equal to collectGrams over every
 * text file now when the kept files' texts are unchanged, without reading their texts.
 */
export function regrammed(earlier: Iterable<readonly [number, ArrayLike<number>]>, ordinalNow: (earlier: number) => number, files: Iterable<{ ordinal: number; text: string }>): GramPostings {
  const byGram = new Map<number, number[]>();
  let postings = 0;
  for (const [gram, list] of earlier) {
    const kept: number[] = [];
    for (let i = 0; i < list.length; i++) {
      const now = ordinalNow(postingOrdinal(list[i]!));
      if (now >= 0) kept.push(postingOf(now, postingFollow(list[i]!)));
    }
    if (kept.length === 0) continue;
    byGram.set(gram, kept);
    postings += kept.length;
  }
  const added = collectGrams(files);
  for (const [gram, list] of added.byGram) {
    const known = byGram.get(gram);
    byGram.set(gram, known ? mergeAscending(known, list) : list);
  }
  return { byGram, postings: postings + added.postings };
}

/** Two ascending lists of postings with no file in common, as one. */
function mergeAscending(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! < b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** The data of every gram shard under `bits` bucket bits, in bucket order (empty buckets too). */
export function gramShardsOf({ byGram }: GramPostings, bits: number): GramShardData[] {
  const buckets = Array.from({ length: 2 ** bits }, (): number[] => []);
  for (const gram of byGram.keys()) buckets[gramBucketOf(gram, bits)]!.push(gram);
  return buckets.map((grams) => ({ grams: grams.sort((a, b) => a - b).map((gram) => ({ gram, postings: byGram.get(gram)! })) }));
}

/** What a writer builds: each gram of the bucket with its postings (postingOf), ascending, grams ascending. */
export interface GramShardData {
  grams: { gram: number; postings: number[] }[];
}

interface StoredGramShard {
  v: 4;
  /**
   * The grams, ascending, four bytes each (little-endian): a lookup binary-searches them where they
   * lie, so opening a shard decodes nothing (format 18; delta varints cost a cold call milliseconds
   * per shard to decode, in the interpreter, before its first lookup).
   */
  grams: Uint8Array;
  /** Where each gram's posting list ends in `postings`, four bytes each (little-endian). */
  ends: Uint8Array;
  /**
   * The posting lists back to back, each posting the file's ordinal as the difference to the one
   * before it in its list (a varint) and then its follow mask (a byte): a reader decodes the one list
   * it looks up, not the shard's every posting.
   */
  postings: Uint8Array;
}

export function encodeGramShard(data: GramShardData): Uint8Array {
  const lists = data.grams.map(({ postings }) => {
    // Each posting: the ordinal's difference to the one before (an unsigned varint of at most five
    // bytes: they ascend), then its mask.
    const out = new Uint8Array(6 * postings.length);
    let at = 0;
    let previous = 0;
    postings.forEach((posting, i) => {
      const ordinal = postingOrdinal(posting);
      let delta = ordinal - previous;
      if (!(delta >= 0 && delta <= 0x7fffffff && delta % 1 === 0) || (i > 0 && delta === 0)) throw new Error(`encodeGramShard: ordinals must ascend, got ${ordinal} after ${previous}`);
      previous = ordinal;
      while (delta > 0x7f) {
        out[at++] = (delta & 0x7f) | 0x80;
        delta >>>= 7;
      }
      out[at++] = delta;
      out[at++] = postingFollow(posting);
    });
    return out.slice(0, at);
  });
  const postings = new Uint8Array(lists.reduce((n, list) => n + list.length, 0));
  const grams = new DataView(new ArrayBuffer(4 * lists.length));
  const ends = new DataView(new ArrayBuffer(4 * lists.length));
  let at = 0;
  lists.forEach((list, i) => {
    postings.set(list, at);
    at += list.length;
    grams.setUint32(4 * i, data.grams[i]!.gram, true);
    ends.setUint32(4 * i, at, true);
  });
  const stored: StoredGramShard = { v: 4, grams: new Uint8Array(grams.buffer), ends: new Uint8Array(ends.buffer), postings };
  return encodeShard(stored);
}

export class GramShard {
  /** Grams the shard holds. */
  readonly size: number;
  private readonly name: string;
  private readonly grams: DataView;
  private readonly ends: DataView;
  private readonly postings: Uint8Array;

  constructor(name: string, value: unknown) {
    const s = value as StoredGramShard;
    if (typeof s !== 'object' || s === null || s.v !== 4 || !(s.grams instanceof Uint8Array) || !(s.ends instanceof Uint8Array) || !(s.postings instanceof Uint8Array)) {
      throw corrupt(name, 'is not a version 4 gram shard');
    }
    if (s.grams.length % 4 !== 0 || s.ends.length !== s.grams.length) throw corrupt(name, 'has grams and posting ends of different lengths');
    this.name = name;
    this.size = s.grams.length / 4;
    this.grams = new DataView(s.grams.buffer, s.grams.byteOffset, s.grams.byteLength);
    this.ends = new DataView(s.ends.buffer, s.ends.byteOffset, s.ends.byteLength);
    this.postings = s.postings;
    if (this.size > 0 && this.ends.getUint32(s.ends.length - 4, true) !== s.postings.length) throw corrupt(name, 'has posting lists that do not add up to its postings');
  }

  /** The gram at a position, in ascending order. */
  gramAt(index: number): number {
    return this.grams.getUint32(4 * index, true);
  }

  /** Every gram of the shard with its postings (postingOf), in gram order (each list decoded as it is reached). */
  *entries(): Generator<[number, Float64Array]> {
    for (let index = 0; index < this.size; index++) {
      const postings: number[] = [];
      this.visit(index, (ordinal, follow) => postings.push(postingOf(ordinal, follow)));
      yield [this.gramAt(index), Float64Array.from(postings)];
    }
  }

  /**
   * The ordinals of the files holding the gram, ascending, of those whose follow mask has every bit
   * of `follow` (the bytes that must come after the gram somewhere in the file; 0: any file holding
   * it); empty when none does.
   */
  files(gram: number, follow = 0): Int32Array {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.gramAt(mid);
      if (at === gram) {
        const files: number[] = [];
        this.visit(mid, (ordinal, mask) => {
          if ((mask & follow) === follow) files.push(ordinal);
        });
        return Int32Array.from(files);
      }
      if (at < gram) lo = mid + 1;
      else hi = mid - 1;
    }
    return new Int32Array(0);
  }

  /** Each posting of the list at a position, in order, checked where read since nothing is decoded when the shard is opened. */
  private visit(index: number, posting: (ordinal: number, follow: number) => void): void {
    const start = index === 0 ? 0 : this.ends.getUint32(4 * (index - 1), true);
    const end = this.ends.getUint32(4 * index, true);
    if (!(start < end && end <= this.postings.length)) throw corrupt(this.name, `has an empty or misplaced posting list for gram ${this.gramAt(index)}`);
    const { postings } = this;
    let ordinal = 0;
    let at = start;
    while (at < end) {
      let delta = 0;
      let shift = 0;
      let byte: number;
      do {
        if (at >= end || shift > 28) throw corrupt(this.name, `has a malformed posting list for gram ${this.gramAt(index)}`);
        byte = postings[at++]!;
        delta |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      if (at >= end) throw corrupt(this.name, `has a posting without its follow mask for gram ${this.gramAt(index)}`);
      ordinal += delta;
      posting(ordinal, postings[at++]!);
    }
  }
}
