// Who may read what. Bearer tokens are configured in the secret SEXTANT_TOKENS as JSON,
//   [{ "name": "review-bot", "sha256": "<hex sha256 of the token>", "repos": ["acme/widgets", "acme/*"] }]
// so the worker never holds a token, only its hash; a presented token is hashed and compared with
// every entry in constant time. A token reads exactly the repositories its patterns match, and is
// refused (403) for any other before anything is read, so the answer is the same whether that
// repository exists or not. Authentication is off only when SEXTANT_AUTH is "off" and the request
// came to a loopback address (wrangler dev on 127.0.0.1, as `npm start` runs it).
import { HttpError } from './http.ts';

export interface AuthEnv {
  SEXTANT_TOKENS?: string;
  SEXTANT_AUTH?: string;
}

/** Who is calling: a named token with its scope, or nobody on a loopback server with auth off. */
export interface Access {
  /** For logs: the token's name, or "auth-off"; never the token. */
  principal: string;
  canRead(repo: string): boolean;
}

interface TokenEntry {
  name: string;
  hash: Uint8Array;
  patterns: string[];
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** `owner/name` or `owner/*`, the characters repository names allow. */
const PATTERN = /^[A-Za-z0-9_.-]{1,100}\/([A-Za-z0-9_.-]{1,100}|\*)$/;
const REALM = 'Bearer realm="sextant"';
const TOKENS_HELP = 'Set the secret SEXTANT_TOKENS to a JSON list of { "name", "sha256", "repos" } (README: Authentication).';

function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

export function authMode(env: AuthEnv, url: URL): 'off' | 'bearer' {
  return env.SEXTANT_AUTH === 'off' && isLoopback(url) ? 'off' : 'bearer';
}

/** The caller's access, or an HttpError (401, or 500 when the tokens are misconfigured). */
export async function authenticate(request: Request, env: AuthEnv, url: URL): Promise<Access> {
  if (authMode(env, url) === 'off') return { principal: 'auth-off', canRead: () => true };
  const tokens = tokenTable(env.SEXTANT_TOKENS);
  const header = request.headers.get('authorization');
  const presented = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  if (presented === undefined) {
    throw new HttpError(401, 'UNAUTHORIZED', header === null ? 'This server needs a bearer token.' : 'The Authorization header is not a bearer token.',
      'Send `Authorization: Bearer <token>` with a token your Sextant operator issued.', { 'www-authenticate': REALM });
  }
  // The platform's SHA-256: the portable one costs milliseconds the first time an isolate runs it.
  const entry = findToken(tokens, new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(presented))));
  if (!entry) {
    throw new HttpError(401, 'UNAUTHORIZED', 'The bearer token is not valid here.',
      'Check the token; ask your Sextant operator for one if it was revoked.', { 'www-authenticate': `${REALM}, error="invalid_token"` });
  }
  return { principal: entry.name, canRead: (repo) => entry.patterns.some((pattern) => covers(pattern, repo)) };
}

/** The 403 for a repository outside the token's scope; the same words whether it exists or not. */
export function forbidden(repo: string): HttpError {
  return new HttpError(403, 'FORBIDDEN', `This token may not read ${repo}.`,
    'Use a token whose repos include this repository (owner/name or owner/*).', { 'www-authenticate': `${REALM}, error="insufficient_scope"` });
}

function covers(pattern: string, repo: string): boolean {
  const [owner, name] = pattern.split('/') as [string, string];
  const [repoOwner, repoName] = repo.toLowerCase().split('/') as [string, string];
  return owner === repoOwner && (name === '*' || name === repoName);
}

/** Every entry is compared, whichever matches, so the time taken does not say which did. */
function findToken(tokens: TokenEntry[], hash: Uint8Array): TokenEntry | undefined {
  let found: TokenEntry | undefined;
  for (const entry of tokens) {
    let difference = 0;
    for (let i = 0; i < hash.length; i++) difference |= hash[i]! ^ entry.hash[i]!;
    if (difference === 0) found = entry;
  }
  return found;
}

let parsedText: string | undefined;
let parsed: TokenEntry[] = [];

/** The token list, parsed once per isolate (secrets do not change under a running isolate). */
function tokenTable(text: string | undefined): TokenEntry[] {
  if (text === undefined || text.trim() === '') {
    throw new HttpError(503, 'AUTH_NOT_CONFIGURED', 'No tokens are configured on this server.', TOKENS_HELP);
  }
  if (text !== parsedText) {
    parsed = parseTokens(text);
    parsedText = text;
  }
  return parsed;
}

/** Exported for tests; the errors never quote the secret's content. */
export function parseTokens(text: string): TokenEntry[] {
  const misconfigured = (why: string) => new HttpError(500, 'AUTH_MISCONFIGURED', `SEXTANT_TOKENS is not valid: ${why}.`, TOKENS_HELP);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw misconfigured('it is not JSON');
  }
  if (!Array.isArray(value)) throw misconfigured('it is not a JSON list');
  return value.map((item: unknown, index) => {
    const entry = item as { name?: unknown; sha256?: unknown; repos?: unknown };
    if (typeof entry !== 'object' || entry === null) throw misconfigured(`entry ${index} is not an object`);
    if (typeof entry.sha256 !== 'string' || !SHA256_HEX.test(entry.sha256)) throw misconfigured(`entry ${index} has no "sha256" of 64 lowercase hex digits`);
    if (!Array.isArray(entry.repos) || entry.repos.length === 0 || !entry.repos.every((r) => typeof r === 'string' && PATTERN.test(r))) {
      throw misconfigured(`entry ${index} has no "repos" list of owner/name or owner/* patterns`);
    }
    const hash = new Uint8Array(32);
    for (let i = 0; i < 32; i++) hash[i] = parseInt(entry.sha256.slice(i * 2, i * 2 + 2), 16);
    return {
      name: typeof entry.name === 'string' && entry.name !== '' ? entry.name : `token ${index}`,
      hash,
      patterns: (entry.repos as string[]).map((r) => r.toLowerCase()),
    };
  });
}
