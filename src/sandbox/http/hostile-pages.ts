/**
 * Faults of a server whose pages cost what a client may not expect (docs/spec-reading.md#page-bounds):
 * a page of more records than the `limit` asked for (a breach), records grown long (legal: the
 * spec sets no maximum on `sentence_text`), and the API key echoed in a record with JSON `\u`
 * escapes (docs/spec-reading.md#odd-values-in-records). Each takes the route's honest reply; error
 * replies and non-list bodies pass through unchanged.
 */
import { pageLimitSchema } from '../../../schemas/query.ts';
import type { FaultProfile } from './fault-injector.ts';
import { withMalformedRecord } from './malformed-record.ts';
import type { Reply } from './reply.ts';

type ListBody = { data: unknown[]; meta: Record<string, unknown> };

const listBody = (reply: Reply): ListBody | undefined => {
  const body = reply.body as Partial<ListBody>;
  return reply.status === 200 && Array.isArray(body.data) && body.data.length > 0 ? (body as ListBody) : undefined;
};

/** The page's records repeated (or cut) to `count`. */
const repeated = (data: readonly unknown[], count: number) =>
  Array.from({ length: count }, (_, i) => data[i % data.length]);

/** `oversized_page`: `records` records (default one more than `limit`), the page's own repeated. */
export function withOversizedPage(reply: Reply, fault: FaultProfile, limitParam: string | null): Reply {
  const body = listBody(reply);
  if (body === undefined) return reply;
  // The route answered 200, so `limit` is valid, or absent (the spec's default).
  const limit = pageLimitSchema.parse(limitParam ?? undefined);
  const data = repeated(body.data, fault.records ?? limit + 1);
  return { ...reply, body: { ...body, data } };
}

/** The text `huge_records` grows a field with: words, so it reads as a (very long) sentence. */
const FILLER = ' and the answer goes on';

/**
 * `huge_records`: `field` (default `sentence_text`) of every record grown to `recordChars`
 * characters (default 120,000); with `records`, the page's records repeated (or cut) to that many.
 */
export function withHugeRecords(reply: Reply, fault: FaultProfile): Reply {
  const body = listBody(reply);
  if (body === undefined) return reply;
  const field = fault.field ?? 'sentence_text';
  const chars = fault.recordChars ?? 120_000;
  const data = repeated(body.data, fault.records ?? body.data.length).map((record) => {
    const start = String((record as Record<string, unknown>)[field] ?? '');
    return {
      ...(record as object),
      [field]: start + FILLER.repeat(Math.ceil(chars / FILLER.length)).slice(start.length, chars),
    };
  });
  return { ...reply, body: { ...body, data } };
}

/** Stand-ins for the key in the reply, replaced by its escaped forms once the body is text. */
const ALL_ESCAPED = '@@aivis-key-all-escaped@@';
const ONE_ESCAPED = '@@aivis-key-one-escaped@@';

/** `escaped_key`: `field` (default `sentence_text`) of the first record quotes the key twice (see `escapeKeys`). */
export function withEscapedKey(reply: Reply, fault: FaultProfile): Reply {
  return withMalformedRecord(reply, {
    ...fault,
    field: fault.field ?? 'sentence_text',
    value: `the key is ${ALL_ESCAPED}, again: ${ONE_ESCAPED}`,
  });
}

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The body text with the key written in JSON escapes: every character of the first copy, the first character of the second. */
export function escapeKeys(text: string, apiKey: string): string {
  return text
    .replace(ALL_ESCAPED, [...apiKey].map(unicodeEscape).join(''))
    .replace(ONE_ESCAPED, unicodeEscape(apiKey[0]!) + apiKey.slice(1));
}
