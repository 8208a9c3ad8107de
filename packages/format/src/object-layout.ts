// The object-store layout shared by the publisher (`indexer publish`) and the worker. One bucket
// holds many repositories and commits:
//
//   repos/<owner>/<repo>/repo.json                      { defaultRef, head: <that ref's record> }
//   repos/<owner>/<repo>/refs/<ref>.json                { commit, updatedAt, manifest, manifestSha256 }
//   repos/<owner>/<repo>/commits/<sha>/manifest.json    the commit's manifest
//   shards/<sha256>                                     shard bytes, content-addressed
//
// Shards are addressed by their sha256 (already in the manifest), so a shard that did not change
// between commits, or is equal across repositories, is stored and cached once. A ref record carries
// a copy of its commit's manifest, and repo.json a copy of the default ref's record, so that a
// reader resolves a ref and learns which shards to read in one request (then reads the shards, in
// parallel): two sequential rounds from a cold start. Pure functions only: no I/O, runtime-neutral.
import { FULL_SHA } from './commit.ts';
import { SextantError } from './errors.ts';
import { MANIFEST_FILE } from './manifest.ts';

const REPO_FILE = 'repo.json';

export interface RepoRecord {
  /** The ref answered when a call names no commit. */
  defaultRef: string;
  /**
   * A copy of the default ref's record as of its last publish, so that a call naming no commit is
   * one read before the shards. Absent in records written by older publishers, and when the
   * default ref was named before anything was published to it.
   */
  head?: RefRecord;
}

export interface RefRecord {
  /** Full lowercase sha of the commit the ref points at. */
  commit: string;
  /** When the ref was last published, ISO 8601. */
  updatedAt: string;
  /** The text of the commit's manifest.json, verbatim; absent in records written by older publishers. */
  manifest?: string;
  /**
   * sha256 of the commit's manifest text (manifestSha256), compared with the manifest a reader gets
   * by this record; absent only in records of older publishers, which readers refuse.
   */
  manifestSha256?: string;
}

/** What a key of the layout stands for; see objectOfKey. */
type LayoutObject =
  | { kind: 'repo'; repo: string }
  | { kind: 'ref'; repo: string; ref: string }
  | { kind: 'manifest'; repo: string; commit: string }
  | { kind: 'shard'; sha256: string };

export const REPOS_PREFIX = 'repos/';
export const SHARDS_PREFIX = 'shards/';

interface RepoName {
  owner: string;
  name: string;
}

const SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;
const SHA_PREFIX = /^[0-9a-f]{7,39}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Parses `owner/name`. Both parts become object-key segments, so anything that could escape the
 * repository's prefix (slashes, `..`, empty parts) is refused rather than normalized.
 */
export function parseRepoName(repo: string): RepoName {
  const parts = typeof repo === 'string' ? repo.split('/') : [];
  const valid = parts.length === 2 && parts.every((part) => SEGMENT.test(part) && part !== '.' && part !== '..');
  if (!valid) {
    throw new SextantError('INVALID_ARGUMENT',
      `"${String(repo)}" is not a repository name of the form owner/name.`,
      'Name the repository as owner/name (e.g. acme/widgets): two parts of letters, digits, "-", "_" or ".", no leading slash, no "..".',
      { repo });
  }
  return { owner: parts[0]!, name: parts[1]! };
}

export function isValidRepoName(repo: string): boolean {
  try {
    parseRepoName(repo);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a ref name against git's rules (git check-ref-format, one-level names allowed), minus what
 * would make it ambiguous here: a full sha is always read as a commit, never as a ref.
 * Returns the name without a leading `refs/heads/`, so `refs/heads/main` and `main` are one ref.
 */
export function normalizeRefName(ref: string): string {
  const name = typeof ref === 'string' ? ref.replace(/^refs\/heads\//, '') : '';
  const problem = refNameProblem(name);
  if (problem) {
    throw new SextantError('INVALID_ARGUMENT', `"${String(ref)}" is not a valid ref name: ${problem}.`,
      'Use a branch or tag name as git accepts it (e.g. main, release/1.2, v1.2.0); relative forms like main~1 or HEAD^ are not resolved here, pass the commit sha instead.',
      { ref });
  }
  return name;
}

function refNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > 255) return 'it is longer than 255 characters';
  if (FULL_SHA.test(name)) return 'a full commit sha cannot be a ref name';
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'it contains a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'it has an empty path component';
  if (name.includes('..')) return 'it contains ".."';
  if (name.includes('@{') || name === '@') return 'it contains "@{" or is "@"';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'a path component starts with "."';
    if (part.endsWith('.lock')) return 'a path component ends with ".lock"';
  }
  return undefined;
}

/** A full commit sha (40 hex digits), lowercased; anything else is INVALID_ARGUMENT. */
export function normalizeCommit(commit: string): string {
  const lower = typeof commit === 'string' ? commit.toLowerCase() : '';
  if (!FULL_SHA.test(lower)) {
    throw new SextantError('INVALID_ARGUMENT', `"${String(commit)}" is not a full commit sha (40 hex digits).`,
      'Pass the full sha, as `git rev-parse HEAD` prints it.', { commit });
  }
  return lower;
}

export function isFullCommit(text: string): boolean {
  return FULL_SHA.test(text.toLowerCase());
}

/** 7 to 39 hex digits: an abbreviated sha, resolved by listing the repository's commits. */
export function isCommitPrefix(text: string): boolean {
  return SHA_PREFIX.test(text.toLowerCase());
}

/**
 * `repos/<owner>/<repo>/`. Lowercased because the hosts these names come from (GitHub, GitLab)
 * treat them case-insensitively, and `/mcp/Acme/Widgets` must find what `acme/widgets` published.
 */
function repoPrefix(repo: string): string {
  const { owner, name } = parseRepoName(repo);
  return `repos/${owner.toLowerCase()}/${name.toLowerCase()}/`;
}

export function repoRecordKey(repo: string): string {
  return `${repoPrefix(repo)}${REPO_FILE}`;
}

export function refsPrefix(repo: string): string {
  return `${repoPrefix(repo)}refs/`;
}

export function refKey(repo: string, ref: string): string {
  return `${refsPrefix(repo)}${normalizeRefName(ref)}.json`;
}

/** The ref name a key under refsPrefix(repo) stands for, or undefined for other keys. */
export function refNameFromKey(repo: string, key: string): string | undefined {
  const prefix = refsPrefix(repo);
  return key.startsWith(prefix) && key.endsWith('.json') ? key.slice(prefix.length, -'.json'.length) : undefined;
}

export function commitsPrefix(repo: string): string {
  return `${repoPrefix(repo)}commits/`;
}

/** `repos/<owner>/<repo>/commits/<sha>/`: everything of one commit lives below it. */
function commitPrefix(repo: string, commit: string): string {
  return `${commitsPrefix(repo)}${normalizeCommit(commit)}/`;
}

export function manifestKey(repo: string, commit: string): string {
  return `${commitPrefix(repo, commit)}${MANIFEST_FILE}`;
}

/** The full sha of a key or delimited prefix under commitsPrefix(repo), or undefined. */
export function commitFromKey(repo: string, key: string): string | undefined {
  const prefix = commitsPrefix(repo);
  if (!key.startsWith(prefix)) return undefined;
  const sha = key.slice(prefix.length).split('/')[0] ?? '';
  return FULL_SHA.test(sha) ? sha : undefined;
}

export function shardKey(sha256: string): string {
  if (typeof sha256 !== 'string' || !SHA256.test(sha256)) {
    throw new SextantError('INDEX_CORRUPT', `"${String(sha256)}" is not a shard checksum (64 lowercase hex digits).`,
      'Rebuild the index with `indexer build`.');
  }
  return `shards/${sha256}`;
}

/**
 * What `key` stands for in the layout, or undefined for a key the layout does not define (the
 * retention command leaves such keys alone).
 */
export function objectOfKey(key: string): LayoutObject | undefined {
  if (key.startsWith(SHARDS_PREFIX)) {
    const sha256 = key.slice(SHARDS_PREFIX.length);
    return SHA256.test(sha256) ? { kind: 'shard', sha256 } : undefined;
  }
  const parts = key.split('/');
  if (parts[0] !== 'repos' || parts.length < 4) return undefined;
  const repo = `${parts[1]}/${parts[2]}`;
  if (!isValidRepoName(repo) || repoPrefix(repo) !== `repos/${parts[1]}/${parts[2]}/`) return undefined;
  const rest = parts.slice(3);
  if (rest.length === 1 && rest[0] === REPO_FILE) return { kind: 'repo', repo };
  if (rest[0] === 'refs') {
    const ref = refNameFromKey(repo, key);
    return ref !== undefined && refNameProblem(ref) === undefined ? { kind: 'ref', repo, ref } : undefined;
  }
  if (rest.length === 3 && rest[0] === 'commits' && FULL_SHA.test(rest[1]!) && rest[2] === MANIFEST_FILE) {
    return { kind: 'manifest', repo, commit: rest[1]! };
  }
  return undefined;
}

export function parseRepoRecord(text: string, where: string): RepoRecord {
  const value = parseJsonObject(text, where);
  if (typeof value.defaultRef !== 'string' || value.defaultRef.length === 0) {
    throw new SextantError('INDEX_CORRUPT', `${where} has no "defaultRef".`,
      'Publish the repository again with `indexer publish --ref <branch> --default`.');
  }
  if (value.head === undefined) return { defaultRef: value.defaultRef };
  if (typeof value.head !== 'object' || value.head === null || Array.isArray(value.head)) {
    throw new SextantError('INDEX_CORRUPT', `${where} has a "head" that is not a ref record.`,
      'Publish the default ref again with `indexer publish --ref <branch> --default`.');
  }
  return { defaultRef: value.defaultRef, head: refRecordOf(value.head as Record<string, unknown>, `${where} (head)`) };
}

export function parseRefRecord(text: string, where: string): RefRecord {
  return refRecordOf(parseJsonObject(text, where), where);
}

/** The JSON a record is stored as; one line, so that `wrangler r2 object get` shows it readably. */
export function serializeRecord(record: RepoRecord | RefRecord): string {
  return `${JSON.stringify(record)}\n`;
}

function refRecordOf(value: Record<string, unknown>, where: string): RefRecord {
  if (typeof value.commit !== 'string' || !FULL_SHA.test(value.commit)) {
    throw new SextantError('INDEX_CORRUPT', `${where} does not name a full commit sha.`,
      'Publish the ref again with `indexer publish --ref <name>`.');
  }
  if (value.manifest !== undefined && typeof value.manifest !== 'string') {
    throw new SextantError('INDEX_CORRUPT', `${where} has a "manifest" that is not the manifest's text.`,
      'Publish the ref again with `indexer publish --ref <name>`.');
  }
  if (value.manifestSha256 !== undefined && (typeof value.manifestSha256 !== 'string' || !SHA256.test(value.manifestSha256))) {
    throw new SextantError('INDEX_CORRUPT', `${where} has a "manifestSha256" that is not a sha256 (64 lowercase hex digits).`,
      'Publish the ref again with `indexer publish --ref <name>`.');
  }
  return {
    commit: value.commit,
    updatedAt: typeof value.updatedAt === 'string' ? value.updatedAt : '',
    ...(value.manifest !== undefined ? { manifest: value.manifest } : {}),
    ...(value.manifestSha256 !== undefined ? { manifestSha256: value.manifestSha256 } : {}),
  };
}

function parseJsonObject(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SextantError('INDEX_CORRUPT', `${where} is not JSON: ${(error as Error).message}`,
      'Publish the index again with `indexer publish`.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SextantError('INDEX_CORRUPT', `${where} is not a JSON object.`, 'Publish the index again with `indexer publish`.');
  }
  return value as Record<string, unknown>;
}
