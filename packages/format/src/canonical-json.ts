// Canonical JSON: one text for equal values, whatever order their objects were built in. What the
// planHash of a plan is taken over, and what a query is fingerprinted by (cursors, cached answers).
import { SextantError } from './errors.ts';

/**
 * JSON with object keys sorted by UTF-16 code units and no whitespace (the JSON Canonicalization
 * Scheme, RFC 8785, for the values plans and queries hold: strings, integers, booleans, null, arrays,
 * objects). Undefined members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new SextantError('INVALID_ARGUMENT', `${value} has no JSON form.`, 'Canonical JSON holds finite numbers only.');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new SextantError('INVALID_ARGUMENT', `A ${typeof value} has no JSON form.`, 'Canonical JSON holds JSON values only.');
}
