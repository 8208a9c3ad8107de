// The gate every reader (the worker, the runner, the publisher) passes before trusting an index:
// a manifest is parsed, compared with the sha256 recorded by whatever points at it, checked field
// by field against manifestSchema, and checked for consistency (every shard its layout implies is
// listed and nothing else, counts agree with the entries). Each decoded shard is then checked
// against its entry and name (checkShardHolds), so an entry moved to another name is caught when
// the shard is used. Every inconsistency is INDEX_CORRUPT saying what is wrong. All of it is pure
// and linear in the manifest: no shard is read for it.
import { SextantError } from './errors.ts';
import { ChangeShard } from './change-shard.ts';
import { FileShard } from './file-shard.ts';
import { FileTable } from './file-table.ts';
import { GraphShard, graphStarts } from './graph-shard.ts';
import { GramShard } from './gram-shard.ts';
import { sha256Hex } from './hash.ts';
import {
  bucketOfShardName, changeShardName, fileShardName, FORMAT_VERSION, graphShardName, gramShardName, impliedShardCount, impliedShardNames, MANIFEST_FILE, NAMES_SHARD,
  FILE_TABLE_SHARD, symbolShardName, textShardName, unresolvedShardName, type Manifest, type ShardEntry,
} from './manifest.ts';
import { readManifestFields } from './manifest-fields.ts';
import { manifestSchema } from './manifest-schema.ts';
import { NameShard } from './name-shard.ts';
import { ShardLayout } from './shard-layout.ts';
import { SymbolShard } from './symbol-shard.ts';
import { TextShard } from './text-shard.ts';
import { UnresolvedShard } from './unresolved-shard.ts';

const REBUILD = 'Rebuild the index with `indexer build` (and publish it again with `indexer publish`); do not edit an index by hand.';

/** What a record pointing at a manifest (a ref record, repo.json, manifest.sha256) says its sha256 is. */
export interface RecordedDigest {
  /** The sha256 of the manifest's text as read (manifestSha256, or the platform's own digest). */
  actual: string;
  /** What the record holds; undefined when it holds none. */
  expected: string | undefined;
  /** The record, for messages: `r2://…/refs/main.json`, `/path/index/manifest.sha256`. */
  recordedIn: string;
}

/** sha256 of a manifest's text (its UTF-8 bytes), lowercase hex: what ref records and manifest.sha256 hold. */
export function manifestSha256(text: string): string {
  return sha256Hex(new TextEncoder().encode(text));
}

/** The line of manifest.sha256 for a manifest's text, in `sha256sum` format. */
export function manifestDigestLine(text: string): string {
  return `${manifestSha256(text)}  ${MANIFEST_FILE}\n`;
}

/** The digest a manifest.sha256 file holds, or undefined when its text is not one. */
export function parseManifestDigestLine(text: string): string | undefined {
  return /^([0-9a-f]{64})(?:\s|$)/.exec(text)?.[1];
}

/**
 * Parses and checks a manifest. The version comes first (another format may lack today's fields:
 * INDEX_VERSION_UNSUPPORTED), then the recorded digest when there is one, then every field, then
 * consistency. Anything else wrong is INDEX_CORRUPT naming `where` and what.
 */
export function parseManifest(text: string, where: string, recorded?: RecordedDigest): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(`The manifest at ${where} is not JSON: ${(error as Error).message}`);
  }
  const version = typeof value === 'object' && value !== null ? (value as { formatVersion?: unknown }).formatVersion : undefined;
  if (typeof version !== 'number') throw corrupt(`The manifest at ${where} has no formatVersion.`, { field: 'formatVersion' });
  if (version !== FORMAT_VERSION) {
    throw new SextantError('INDEX_VERSION_UNSUPPORTED',
      `The index at ${where} has format version ${version}; this reader understands version ${FORMAT_VERSION}.`,
      'Rebuild the index with the indexer that matches this server, or upgrade the server.');
  }
  if (recorded) checkDigest(where, recorded);
  // The parsed copy, not `value`: the schema strips nothing callers rely on, and unknown fields stay
  // out. Checked by hand (manifest-fields.ts); manifestSchema only words what is wrong.
  let manifest = readManifestFields(value);
  if (!manifest) {
    const parsed = manifestSchema().safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = fieldPath(issue.path);
      throw corrupt(`The manifest at ${where} is invalid: ${field ? `"${field}"` : 'the manifest'}: ${issueText(issue)}.`, { field });
    }
    manifest = parsed.data as Manifest;
  }
  checkConsistency(manifest, where);
  return manifest;
}

function checkDigest(where: string, { actual, expected, recordedIn }: RecordedDigest): void {
  if (expected === undefined) {
    throw corrupt(`${recordedIn} records no sha256 of the manifest at ${where}.`, { field: 'manifestSha256' });
  }
  if (expected !== actual) {
    throw corrupt(`The manifest at ${where} has sha256 ${actual}, but ${recordedIn} records ${expected}: it was changed after it was written.`,
      { field: 'manifestSha256', expected, actual });
  }
}

/**
 * Relations between fields that the schema cannot state. Linear in the number of shards, and cheap
 * per shard (a fresh worker isolate runs this on its first call, before JIT): the names the layout
 * implies are built by kind and looked up, no listed name is parsed unless one is unexpected.
 */
function checkConsistency(manifest: Manifest, where: string): void {
  const { layout, shards, counts } = manifest;
  const layoutText = () => `symbolBucketBits ${layout.symbolBucketBits}, fileBucketBits ${layout.fileBucketBits}, changeBucketBits ${layout.changeBucketBits}, unresolvedBucketBits ${layout.unresolvedBucketBits}, graphBucketBits ${layout.graphBucketBits}, gramBucketBits ${layout.gramBucketBits}`;
  // Only on the way to an error: a listed name the layout does not imply says more than the implied one it displaced.
  const stray = () => {
    const implied = new Set(impliedShardNames(layout));
    const name = Object.keys(shards).find((listed) => !implied.has(listed));
    return name && corrupt(`The manifest at ${where} lists shard ${name}, which its layout (${layoutText()}) does not imply.`, { shard: name });
  };
  const lacks = (name: string) => stray() || corrupt(`The manifest at ${where} lacks shard ${name}, which its layout (${layoutText()}) implies.`, { shard: name });
  /** Records of the shards of one kind, every implied bucket present. */
  const recordsOfKind = (bits: number, nameOf: (bucket: number) => string): number => {
    let records = 0;
    for (let bucket = 0; bucket < 2 ** bits; bucket++) {
      const name = nameOf(bucket);
      const entry = shards[name];
      if (!entry) throw lacks(name);
      records += entry.records;
    }
    return records;
  };
  const symbolRecords = recordsOfKind(layout.symbolBucketBits, symbolShardName);
  const changeRecords = recordsOfKind(layout.changeBucketBits, changeShardName);
  recordsOfKind(layout.unresolvedBucketBits, unresolvedShardName);
  recordsOfKind(layout.graphBucketBits, graphShardName);
  let fileRecords = 0;
  let textRecords = 0;
  recordsOfKind(layout.gramBucketBits, gramShardName);
  for (let bucket = 0; bucket < 2 ** layout.fileBucketBits; bucket++) {
    const name = fileShardName(bucket);
    const file = shards[name];
    const text = shards[textShardName(bucket)];
    if (!file) throw lacks(name);
    if (!text) throw lacks(textShardName(bucket));
    // A text shard holds the texts of the bucket's indexed files and of its other text files.
    if (text.records < file.records) {
      throw corrupt(`The manifest at ${where} says ${name} holds ${file.records} files but ${textShardName(bucket)} the texts of only ${text.records}.`, { shard: name });
    }
    fileRecords += file.records;
    textRecords += text.records;
  }
  for (const name of [NAMES_SHARD, FILE_TABLE_SHARD]) if (!shards[name]) throw lacks(name);
  // Every implied shard is listed; more listed names means one the layout does not imply.
  let listed = 0;
  for (const name in shards) if (Object.hasOwn(shards, name)) listed++;
  if (listed !== impliedShardCount(layout)) throw stray()!;
  if (symbolRecords !== counts.symbols) {
    throw corrupt(`The manifest at ${where} counts ${counts.symbols} symbols, but its symbol shards hold ${symbolRecords}.`, { field: 'counts.symbols' });
  }
  if (fileRecords !== counts.files) {
    throw corrupt(`The manifest at ${where} counts ${counts.files} files, but its file shards hold ${fileRecords}.`, { field: 'counts.files' });
  }
  if (textRecords !== counts.texts) {
    throw corrupt(`The manifest at ${where} counts ${counts.texts} text files, but its text shards hold ${textRecords}.`, { field: 'counts.texts' });
  }
  if (changeRecords !== counts.files) {
    throw corrupt(`The manifest at ${where} counts ${counts.files} files, but its change shards hold ${changeRecords}.`, { field: 'counts.files' });
  }
  const names = shards[NAMES_SHARD]!.records;
  if (names > counts.symbols) {
    throw corrupt(`The manifest at ${where} lists ${names} searchable names but counts only ${counts.symbols} symbols.`, { shard: NAMES_SHARD });
  }
  const tracked = shards[FILE_TABLE_SHARD]!.records;
  if (tracked < counts.files + manifest.skipped.length) {
    throw corrupt(`The manifest at ${where} lists ${tracked} tracked files in its file table but counts ${counts.files} files and ${manifest.skipped.length} skipped.`, { shard: FILE_TABLE_SHARD });
  }
  const byLanguage = Object.values(manifest.languages).reduce((sum, language) => sum + (language?.files ?? 0), 0);
  if (byLanguage !== counts.files) {
    throw corrupt(`The manifest at ${where} counts ${counts.files} files, but ${byLanguage} by language.`, { field: 'languages' });
  }
}

/** How many records a decoded shard (a view from shardView) holds, as its manifest entry counts them. */
export function recordsOf(view: unknown): number {
  if (view instanceof SymbolShard || view instanceof NameShard || view instanceof FileTable || view instanceof UnresolvedShard || view instanceof GraphShard
    || view instanceof GramShard) return view.size;
  if (view instanceof FileShard || view instanceof TextShard || view instanceof ChangeShard) return view.paths.length;
  throw new SextantError('INTERNAL', 'recordsOf was given something that is not a shard view.', 'This is a bug in Sextant; report it.');
}

/**
 * Checks a decoded shard (a view from shardView) against the manifest entry it was read under:
 * the kind its name says, the record count of the entry, and records of the entry's own bucket
 * (its first and last, which bound a sorted shard; for a graph shard, its range of ordinals). Run
 * on every use, cached or not: the same bytes listed under another name are another shard's.
 * Constant time, but for a graph shard linear in the number of graph shards (at most 16); a view
 * that passed a check is not checked again under the same name, count and layout.
 */
export function checkShardHolds(name: string, view: unknown, entry: ShardEntry, manifest: Pick<Manifest, 'layout' | 'shards'>, where: string): void {
  const { layout } = manifest;
  // What the outcome depends on besides the view (a graph shard's place also on the other graph
  // shards' counts, so its cheap check is not remembered): a view that passed under it passes again.
  const held = typeof view === 'object' && view !== null && !name.startsWith('graph/')
    ? `${name}\0${entry.records}\0${layout.symbolBucketBits},${layout.fileBucketBits},${layout.changeBucketBits},${layout.unresolvedBucketBits},${layout.gramBucketBits}` : undefined;
  if (held !== undefined && HELD.get(view as object)?.has(held)) return;
  const expected = name === NAMES_SHARD ? { kind: 'names' as const, bucket: 0 }
    : name === FILE_TABLE_SHARD ? { kind: 'filetable' as const, bucket: 0 } : bucketOfShardName(name, layout);
  const shards = new ShardLayout(layout);
  let size: number;
  /** The buckets of the shard's first and last record. */
  let bucketsHeld: (() => number[]) | undefined;
  if (expected?.kind === 'symbols' && view instanceof SymbolShard) {
    size = view.size;
    bucketsHeld = () => [view.key(0), view.key(view.size - 1)].map((key) => shards.symbolBucketOf(key));
  } else if ((expected?.kind === 'files' && view instanceof FileShard) || (expected?.kind === 'texts' && view instanceof TextShard)
    || (expected?.kind === 'changes' && view instanceof ChangeShard)) {
    const paths = view.paths;
    size = paths.length;
    const bucketOfPath = expected.kind === 'changes' ? (path: string) => shards.changeBucketOf(path) : (path: string) => shards.fileBucketOf(path);
    bucketsHeld = () => [paths[0]!, paths[paths.length - 1]!].map(bucketOfPath);
  } else if (expected?.kind === 'unresolved' && view instanceof UnresolvedShard) {
    size = view.size;
    const names = view.names;
    bucketsHeld = () => [names[0]!, names[names.length - 1]!].map((name) => shards.unresolvedBucketOf(name));
  } else if (expected?.kind === 'graph' && view instanceof GraphShard) {
    size = view.size;
    const start = graphStarts(graphRecords(manifest))[expected.bucket];
    if (view.start !== start) {
      throw corrupt(`Shard ${name} of ${where} (${entry.sha256}) holds graph nodes from ${view.start}, but the manifest's graph shards place ${start} first: the manifest lists another shard's bytes under its name.`, { shard: name });
    }
  } else if (expected?.kind === 'grams' && view instanceof GramShard) {
    size = view.size;
    bucketsHeld = () => [view.gramAt(0), view.gramAt(view.size - 1)].map((gram) => shards.gramBucketOf(gram));
  } else if (expected?.kind === 'names' && view instanceof NameShard) {
    size = view.size;
  } else if (expected?.kind === 'filetable' && view instanceof FileTable) {
    size = view.size;
  } else {
    throw corrupt(`Shard ${name} of ${where} (${entry.sha256}) is not a ${expected?.kind ?? 'known'} shard: the manifest lists another shard's bytes under its name.`, { shard: name });
  }
  if (size !== entry.records) {
    throw corrupt(`Shard ${name} of ${where} holds ${size} records, but the manifest says ${entry.records}.`, { shard: name });
  }
  if (bucketsHeld && size > 0 && bucketsHeld().some((bucket) => bucket !== expected.bucket)) {
    throw corrupt(`Shard ${name} of ${where} (${entry.sha256}) holds records of another bucket: the manifest lists another shard's bytes under its name.`, { shard: name });
  }
  if (held === undefined) return;
  let names = HELD.get(view as object);
  if (!names) HELD.set(view as object, (names = new Set()));
  names.add(held);
}

/**
 * The checks each decoded view has passed, so that a cached shard used a thousand times in a call
 * (the text shard of each file a search reads) hashes its first and last paths once, not each time.
 */
const HELD = new WeakMap<object, Set<string>>();

/** The record counts of the manifest's graph shards, in bucket order (graphStarts). */
export function graphRecords(manifest: Pick<Manifest, 'layout' | 'shards'>): number[] {
  return Array.from({ length: 2 ** manifest.layout.graphBucketBits }, (_, g) => manifest.shards[graphShardName(g)]?.records ?? 0);
}

function corrupt(message: string, data: Record<string, unknown> = {}): SextantError {
  return new SextantError('INDEX_CORRUPT', message, REBUILD, { shard: MANIFEST_FILE, ...data });
}

/** `shards[files/0001].bytes`, `skipped[3].reason`: the field as a reader of the JSON finds it. */
function fieldPath(path: readonly PropertyKey[]): string {
  const keyed = (i: number) => i > 0 && ['shards', 'parsers', 'languages'].includes(String(path[i - 1])) && i === 1;
  return path.map((part, i) => typeof part === 'number' || keyed(i) || !/^[A-Za-z_]\w*$/.test(String(part)) ? `[${String(part)}]`
    : `${i === 0 ? '' : '.'}${String(part)}`).join('');
}

function issueText(issue: { message: string }): string {
  if (/received undefined$/.test(issue.message)) return 'it is missing';
  // zod says "Invalid input: expected object, received null"; lowercase reads as part of the sentence.
  return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
}
