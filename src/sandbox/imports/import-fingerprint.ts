/**
 * The idempotency fingerprint (spec 4.7 rule 2): object-key order is irrelevant, array order
 * (items, tags) matters, and it is taken over the request after defaults and trimming, so
 * `{"b":1,"a":2}` and `{"a":2,"b":1}` are the same request while reordered items are not.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Fingerprint of one import: the website is part of it (same key, other website = 409). */
export function importFingerprint(websiteId: string, normalizedRequest: unknown): string {
  return createHash('sha256').update(websiteId).update('\0').update(canonicalJson(normalizedRequest)).digest('hex');
}
