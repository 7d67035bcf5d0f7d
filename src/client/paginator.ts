/**
 * Pages through a V2 list endpoint (spec 4.10): the filters are copied once and sent unchanged
 * with every cursor of the scan; empty pages are walked through. A scan ends when either
 * signal says so: `has_more: false` (whatever `next_cursor` holds) or `next_cursor: null`.
 * `has_more: true` without a cursor is a broken scan: its page is handed on, then the scan
 * fails, so the caller keeps the rows but not a frontier for them. One page is held at a time,
 * as bytes, and its records are decoded one at a time as the caller walks them, so memory stays
 * flat however long the scan and however large its records (docs/spec-reading.md#page-bounds).
 */
import type { z } from 'zod';
import type { ListMeta } from '../../schemas/index.ts';
import { ApiError } from './api-error.ts';
import type { ListRecords } from './http-exchange.ts';
import { validateRecord, type RecordResult } from './record-result.ts';
import { ScanGuard } from './scan-guard.ts';

/**
 * One scan of a list endpoint.
 * @example { path: `/public/v2/websites/${id}/mentions`, query: { limit: '500', updated_since: frontier }, cursor: saved, recordSchema: mentionSchema }
 */
export interface PaginateOptions<T> {
  /** e.g. `/public/v2/websites/web_1/mentions` */
  path: string;
  /** Filters and `limit`; frozen for the life of the scan (copied when `paginate` is called). */
  query?: Record<string, string | undefined>;
  /** Resume an unfinished scan at this cursor; null or absent starts at the first page. */
  cursor?: string | null;
  /** Each record is checked on its own; a bad one is reported in its page, not thrown. */
  recordSchema: z.ZodType<T>;
}

/** One page of a scan, as the engine checkpoints it. */
export interface Page<T> {
  /** The cursor that fetched this page (null for the first page). */
  cursor: string | null;
  /**
   * In the order the API sent them, each decoded and checked when reached: walk them once (a
   * second walk decodes them again), and keep what you need of each, not the records.
   */
  records: Iterable<RecordResult<T>>;
  recordCount: number;
  hasMore: boolean;
  nextCursor: string | null;
  /** `meta.scan_upper_bound` exactly as the API sent it (the frontier is stored verbatim). */
  scanUpperBound: string | undefined;
  requestId: string;
}

/** One validated list envelope, as the client fetched it. */
export interface ListPage {
  /** `data`, still bytes: each record decoded with plain JS numbers (validated) and exact big integers (stored as `_raw`). */
  records: ListRecords;
  /** The `limit` the request asked for. */
  limit: number;
  meta: ListMeta;
  requestId: string;
}

export type FetchListPage = (path: string, query: Record<string, string | undefined>) => Promise<ListPage>;

export function paginate<T>(fetchPage: FetchListPage, options: PaginateOptions<T>): AsyncIterable<Page<T>> {
  const frozen = { ...options.query };
  return scan(fetchPage, options.path, frozen, options.cursor ?? null, options.recordSchema);
}

async function* scan<T>(
  fetchPage: FetchListPage,
  path: string,
  query: Readonly<Record<string, string | undefined>>,
  firstCursor: string | null,
  schema: z.ZodType<T>,
): AsyncGenerator<Page<T>> {
  let cursor = firstCursor;
  const guard = new ScanGuard();
  for (;;) {
    guard.sending(cursor);
    const { records, limit, meta, requestId } = await fetchPage(path, cursor === null ? query : { ...query, cursor });
    // A page that breaks the scan is refused whole, before any of it (or its cursor) is kept.
    guard.check({
      path,
      requestId,
      limit,
      recordCount: records.count,
      identities: records.identities,
      ...(records.oversized ? { oversized: records.oversized } : {}),
      hasMore: meta.has_more,
      nextCursor: meta.next_cursor,
    });
    yield {
      cursor,
      records: validated(records, schema),
      recordCount: records.count,
      hasMore: meta.has_more,
      nextCursor: meta.next_cursor,
      scanUpperBound: meta.scan_upper_bound,
      requestId,
    };
    if (!meta.has_more) return;
    if (meta.next_cursor === null) {
      throw new ApiError(
        `broken scan (200, request_id ${requestId}): GET ${path}: the API said has_more: true but sent no next_cursor, so the rest of the scan cannot be read; ` +
          'the rows read so far are kept, the saved frontier stays where it was, and the next run reads this scan again',
        { status: 200, code: 'invalid_response', requestId },
      );
    }
    cursor = meta.next_cursor;
  }
}

/** The page's records, each decoded and validated as the walk reaches it. */
function validated<T>(records: ListRecords, schema: z.ZodType<T>): Iterable<RecordResult<T>> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < records.count; i++) {
        const { value, raw } = records.read(i);
        yield validateRecord(schema, value, raw);
      }
    },
  };
}
