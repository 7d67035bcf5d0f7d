/**
 * The primary key of a citation. The spec shows no citation fields (2.6), so the key depends
 * on none it does not have to:
 * - the record's `id`, as sent, when it is a non-empty string;
 * - otherwise `sha256:` + the hex SHA-256 of the UTF-8 bytes of a canonical JSON array (object
 *   keys sorted by UTF-16 code units, no whitespace, strings and numbers as JSON writes them,
 *   integers beyond 2^53 as the API sent them):
 *   - `[website_id, analysis_id, provider, observed_at, url]` when the record holds all four
 *     fields as strings: they say which answer cited which source, so a citation the server
 *     sends again with another title or `available_at` keeps its key;
 *   - else `[website_id, record]`, the whole record: such a server's updated citation becomes a
 *     new row (the old one stays) rather than two different citations sharing one key.
 * `website_id` is the request path's, so equal records of two websites never share a key.
 */
import { createHash } from 'node:crypto';
import { serializeJson } from '../json/serialize-json.ts';

/** The fields that identify a citation when the record has no `id`, in key order. */
export const CITATION_IDENTITY_FIELDS = ['analysis_id', 'provider', 'observed_at', 'url'] as const;

/**
 * @param record the citation as the API sent it (`_raw`)
 * @example citationKey({ id: 'cit_1' }, 'web_1') // 'cit_1'
 */
export function citationKey(record: Readonly<Record<string, unknown>>, websiteId: string): string {
  if (typeof record.id === 'string' && record.id !== '') return record.id;
  const fields = CITATION_IDENTITY_FIELDS.map((field) => record[field]);
  const identity = fields.every((value) => typeof value === 'string') ? [websiteId, ...fields] : [websiteId, record];
  return `sha256:${createHash('sha256')
    .update(serializeJson(identity, { sortKeys: true }), 'utf8')
    .digest('hex')}`;
}
