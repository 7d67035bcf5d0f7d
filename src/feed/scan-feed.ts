/**
 * One scan of one feed for one website: pages through the feed from the saved position and
 * hands every page to the sink together with the state that describes it. A page's
 * rows go to the sink in parts as its records are decoded (a part holds `PAGE_PART_TEXT` of
 * text at most), so a page of long records never sits in the heap whole; only its last part
 * carries the page's state, so the state still commits with or after every row it describes
 * (docs/spec-reading.md#page-bounds).
 */
import type { ApiClient, Page } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import { refusedPage } from '../client/scan-guard.ts';
import type { TableRows } from '../destination/destination.ts';
import type { Row } from '../destination/table-spec.ts';
import type { StreamState } from '../state/state-entry.ts';
import type { Logger } from '../log/logger.ts';
import { afterPage, BOUND_CLOCK_SKEW_MS, isEarlier, isFutureBound, restartScan } from '../state/stream-state.ts';
import { rejectedTable } from '../tables/index.ts';
import { completenessPart, completenessRow } from '../trust/completeness.ts';
import { PAGE_LIMIT, RecordRejection, type AnyFeedStream, type FeedScan, type RowContext } from '../streams/stream.ts';
import { type FeedSink, MAX_FLUSH_TEXT, rowText } from './durable-unit.ts';
import type { FeedObserver } from './feed-observer.ts';
import { rejectedRow } from './rejected-rows.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import type { StreamName } from '../streams/registry.ts';

/** Text (UTF-16 code units of row strings) one part of a page holds at most before it goes to the sink. */
const PAGE_PART_TEXT = MAX_FLUSH_TEXT / 8;

export interface ScanFeedInput {
  readonly client: ApiClient;
  /** Where each page goes with its state: the run's flush buffer, `aivis verify`'s comparison, a protocol writer. */
  readonly sink: FeedSink;
  readonly observer: Pick<FeedObserver, 'pageRead'>;
  readonly logger: Logger;
  readonly stream: AnyFeedStream;
  readonly scan: FeedScan;
  readonly scope: string;
  readonly context: RowContext;
  /** What the run's records are checked against (docs/served-contract.md#validation). */
  readonly validation: ContractValidation;
  readonly saved: StreamState;
  /** Backfill: read from this `updated_since` and save no state (the frontier never moves back). */
  readonly since?: string;
  readonly now: () => Date;
  /** Checked between pages: a stop never splits a page from its state. */
  readonly signal?: AbortSignal;
}

export async function scanFeed(input: ScanFeedInput): Promise<void> {
  const { saved, since } = input;
  const start = since === undefined ? saved : { frontier: since, cursor: null, pending_upper_bound: null };
  let end: StreamState;
  try {
    end = await readPages(input, start);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'invalid_cursor' && start.cursor !== null)) throw error;
    // The saved cursor expired or no longer matches: the frontier is still safe to resume from.
    input.logger.warn('saved cursor refused; restarting the scan from the saved frontier', {
      stream: input.stream.name,
      scope: input.scope,
      request_id: error.requestId,
    });
    await readPages(input, restartScan(start));
    return;
  }
  // A resumed scan ends at the bound it began under, maybe long ago: read on from the frontier
  // it reached, so a run that succeeds is complete through a bound read during the run. Only
  // when that frontier moved: a scan without `scan_upper_bound` (optional) leaves it where it
  // was, and a second scan would read the same window again.
  if (start.cursor !== null && end.cursor === null && end.frontier !== start.frontier) await readPages(input, end);
}

/** Reads one scan from `start`; returns the state after its last page. */
async function readPages(input: ScanFeedInput, start: StreamState): Promise<StreamState> {
  const { client, stream, scan, context } = input;
  const query = { ...scan.query, limit: PAGE_LIMIT, updated_since: start.frontier ?? undefined };
  let state = start;
  const pages = client.paginate({
    path: stream.path(context.websiteId),
    query,
    cursor: start.cursor,
    recordSchema: input.validation.schema(stream.name as StreamName, 'record', stream.recordSchema),
  });
  // A stop or a fatal error elsewhere ends the scan before its next request; a page already
  // on its way when it came is whole and valid, and is kept with its state.
  input.signal?.throwIfAborted();
  for await (const page of pages) {
    checkBound(input, page, state);
    const before = state;
    state = afterPage(state, page);
    const entry =
      input.since === undefined
        ? { stream: stream.name, scope: input.scope, state, updatedAt: input.now().toISOString() }
        : undefined;
    // The page that completes a scan carries the frontier's completeness row: committed with it or not at all.
    const completeness = entry === undefined ? null : completenessRow(entry, before, context);
    const last = await addPageRows(input, page);
    await input.sink.add({ tables: [...last, ...completenessPart(completeness)], state: entry });
    if (page.hasMore) input.signal?.throwIfAborted();
  }
  return state;
}

/**
 * A bound in the future is refused with its page (saved, it would skip every row published
 * until then); one behind the saved frontier is reported, and `afterPage` keeps the frontier.
 */
function checkBound(input: ScanFeedInput, page: Page<unknown>, state: StreamState): void {
  const bound = page.scanUpperBound;
  if (bound === undefined) return;
  const now = input.now();
  if (isFutureBound(bound, now.getTime()))
    throw refusedPage(
      input.stream.path(input.context.websiteId),
      page.requestId,
      `sent meta.scan_upper_bound ${bound}, later than this machine's clock (${now.toISOString()}) by more than the ${BOUND_CLOCK_SKEW_MS / 60_000} minutes of clock skew aivis allows`,
    );
  if (!page.hasMore && isEarlier(bound, state.frontier))
    input.logger.warn(
      'the API sent a scan_upper_bound earlier than the saved frontier; the frontier stays where it was',
      {
        stream: input.stream.name,
        scope: input.scope,
        scan_upper_bound: bound,
        frontier: state.frontier,
        request_id: page.requestId,
      },
    );
}

/**
 * Turns the page's records into rows, handing each full part to the sink without state;
 * returns the last part, for the caller to add with the page's state.
 */
async function addPageRows(input: ScanFeedInput, page: Page<unknown>): Promise<TableRows[]> {
  const { stream } = input;
  // `_synced_at` is when this page was read: within one flush of its load, however long the run.
  const context = { ...input.context, syncedAt: input.now().toISOString() };
  let rows: Row[] = [];
  let rejected: Row[] = [];
  let partText = 0;
  let rowCount = 0;
  let rejectedCount = 0;
  const part = (): TableRows[] => [
    { table: stream.table, rows },
    { table: rejectedTable, rows: rejected },
  ];
  const keep = (into: Row[], row: Row) => {
    into.push(row);
    partText += rowText(row);
  };
  const reject = (raw: unknown, error: string) => {
    rejectedCount++;
    keep(
      rejected,
      rejectedRow({
        stream: stream.name,
        scope: input.scope,
        error,
        raw,
        runId: context.runId,
        syncedAt: context.syncedAt,
        workspace: context.workspace,
      }),
    );
  };
  for (const record of page.records) {
    if (!record.ok) reject(record.raw, record.error);
    else {
      try {
        keep(rows, stream.toRow(record.value, record.raw, context));
        rowCount++;
      } catch (error) {
        if (!(error instanceof RecordRejection)) throw error;
        reject(record.raw, error.message);
      }
    }
    if (partText >= PAGE_PART_TEXT) {
      await input.sink.add({ tables: part() });
      rows = [];
      rejected = [];
      partText = 0;
    }
  }
  input.observer.pageRead(stream.name, { rows: rowCount, rejected: rejectedCount });
  if (rejectedCount > 0)
    input.logger.warn('records rejected', {
      stream: stream.name,
      scope: input.scope,
      count: rejectedCount,
      request_id: page.requestId,
    });
  return part();
}
