/**
 * What a scan remembers to notice a server that breaks spec 4.10 (docs/architecture.md#state-rules,
 * "Broken scans"): a cursor must lead forward, so a page of records that hands back a cursor
 * already sent in this scan (the same one, or an earlier one: a loop) is refused; a page whose
 * records are exactly those of an earlier page of the scan (fresh cursors, same ids) is refused;
 * a `next_cursor` outside the spec's 1 to 22,000 characters (`cursorSchema`) is refused before it
 * is saved or sent. A page of more records than the `limit` asked for, or with a record larger
 * than aivis holds of one (`MAX_RECORD_BYTES`), is refused before any record of it is decoded
 * (docs/spec-reading.md#page-bounds).
 *
 * Memory is bounded whatever the scan's length: a 16-byte digest per cursor sent and per page
 * of records, the last `REMEMBERED_PAGES` of each (about 2 MB at most; a million-row scan of
 * 500-row pages keeps 2,000 of each, about 0.4 MB). Empty pages may hand back their cursor (the
 * spec lets a scan pass them); `MAX_EMPTY_PAGES_IN_A_ROW` bounds those.
 */
import { cursorSchema, MAX_CURSOR_LENGTH } from '../../schemas/query.ts';
import { ApiError } from './api-error.ts';
import { MAX_RECORD_BYTES, MAX_RECORD_CONTAINERS } from './capped-body.ts';
import { digest } from './record-identity.ts';

/** Digests kept of cursors sent and of pages read, per scan: loops and repeats shorter than this are seen. */
const REMEMBERED_PAGES = 10_000;
/** Empty pages in a row that end a scan as broken (the spec lets a scan pass a few, not forever). */
const MAX_EMPTY_PAGES_IN_A_ROW = 100;

/** One page as the guard judges it: its records' count and identities, and the envelope's continuation. */
export interface GuardedPage {
  readonly path: string;
  readonly requestId: string;
  /** The `limit` the request asked for. */
  readonly limit: number;
  /** Records the page holds, all of them. */
  readonly recordCount: number;
  /** `recordIdentity` of each record, when the page holds no more than `limit`. */
  readonly identities: readonly string[];
  /** The first record larger than aivis holds of one record (`MAX_RECORD_BYTES`, `MAX_RECORD_CONTAINERS`). */
  readonly oversized?: { readonly index: number; readonly bytes: number; readonly containers: number };
  readonly hasMore: boolean;
  readonly nextCursor: string | null;
}

class BoundedSet {
  readonly #items = new Set<string>();
  has(item: string): boolean {
    return this.#items.has(item);
  }
  add(item: string): void {
    this.#items.add(item);
    if (this.#items.size > REMEMBERED_PAGES) this.#items.delete(this.#items.values().next().value!);
  }
}

export class ScanGuard {
  readonly #cursorsSent = new BoundedSet();
  readonly #pagesRead = new BoundedSet();
  #emptyInARow = 0;

  /** Called with each cursor before it is sent. */
  sending(cursor: string | null): void {
    if (cursor !== null) this.#cursorsSent.add(digest(cursor));
  }

  /** @throws ApiError (status 200, `invalid_response`) when the page breaks the scan; nothing of it may be kept. */
  check(page: GuardedPage): void {
    const { nextCursor, identities, recordCount } = page;
    if (recordCount > page.limit)
      throw broken(
        page,
        `sent ${recordCount} records in one page, more than the limit of ${page.limit} aivis asked for`,
      );
    const { oversized } = page;
    if (oversized)
      throw broken(
        page,
        oversized.bytes > MAX_RECORD_BYTES
          ? `sent ${oversized.bytes} bytes in one record (data[${oversized.index}]), more than the ${MAX_RECORD_BYTES / 1024 / 1024} MiB aivis holds of one record`
          : `sent ${oversized.containers} objects and arrays in one record (data[${oversized.index}]), more than the ${MAX_RECORD_CONTAINERS} aivis holds in one record`,
      );
    if (nextCursor !== null && !cursorSchema.safeParse(nextCursor).success)
      throw broken(
        page,
        nextCursor.length === 0
          ? `sent an empty next_cursor (the spec's cursors have 1 to ${MAX_CURSOR_LENGTH} characters)`
          : `sent a next_cursor of ${nextCursor.length} characters, more than the spec's ${MAX_CURSOR_LENGTH}`,
      );
    const continues = page.hasMore && nextCursor !== null;
    if (recordCount === 0) {
      // A server stuck on empty pages would burn the workspace's whole budget: stop, keeping the position.
      this.#emptyInARow = continues ? this.#emptyInARow + 1 : 0;
      if (this.#emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW)
        throw broken(page, `sent ${this.#emptyInARow} empty pages in a row without ending the scan`);
      return;
    }
    this.#emptyInARow = 0;
    const pageDigest = digest(identities.join('\n'));
    if (this.#pagesRead.has(pageDigest))
      throw broken(page, `sent again the ${recordCount} records of an earlier page of this scan, under a new cursor`);
    this.#pagesRead.add(pageDigest);
    if (continues && this.#cursorsSent.has(digest(nextCursor)))
      throw broken(
        page,
        'sent a page of records whose next_cursor was already sent in this scan (a cursor that does not advance, or loops back)',
      );
  }
}

const broken = (page: GuardedPage, what: string) => refusedPage(page.path, page.requestId, what);

/** The error of a page refused for breaking its scan: website-local, so the run goes on and exits 3. */
export function refusedPage(path: string, requestId: string, what: string): ApiError {
  return new ApiError(
    `broken scan (200, request_id ${requestId}): GET ${path}: the API ${what}; ` +
      'the page is refused, the saved frontier and position stay where they were, and the next run reads on from there',
    { status: 200, code: 'invalid_response', requestId },
  );
}
