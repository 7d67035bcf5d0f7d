/**
 * A record's identity for the scan guard's repeat check (scan-guard.ts): its `id` when it has
 * one, else the record as sent, digested to 22 characters so a page's identities cost a few KB
 * whatever its records hold. Computed while the page is first checked record by record, before
 * any record of it is kept.
 */
import { createHash } from 'node:crypto';
import { serializeJson } from '../json/serialize-json.ts';

export const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

export function recordIdentity(record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id;
  return digest(typeof id === 'string' ? `id:${id}` : serializeJson(record));
}
