/**
 * Walks a feed in its stable order (publication stamp, then id) inside one scan's window,
 * producing rows lazily so a million-row feed never sits in memory.
 */
import { type FeedBatch, compareBatches } from './feed-batch.ts';

/** The last row a page returned; the next page starts after it. */
export interface FeedPosition {
  /** stamp */
  s: number;
  /** batch prefix */
  p: string;
  /** row index in the batch */
  i: number;
}

/** What one scan sees. */
export interface FeedWindow {
  /** Data time of this request: only writes committed by then are visible. */
  nowMs: number;
  /** `updated_since`, inclusive; null = from the beginning. */
  sinceMs: number | null;
  /** The scan's fixed boundary (data time of its first page), inclusive: later writes belong to the next scan. */
  ceilingMs: number;
  /** Filters of the scan (provider, analysis). */
  match(batch: FeedBatch): boolean;
  /** Resume after this row; null = first page. */
  after: FeedPosition | null;
}

/** Visible rows of the window in feed order, each with its position. */
export function* feedRows(
  batches: readonly FeedBatch[],
  window: FeedWindow,
): Generator<{ row: Record<string, unknown>; position: FeedPosition }> {
  const visible = batches
    .filter(
      (b) =>
        b.commitMs <= window.nowMs &&
        b.stampMs <= window.ceilingMs &&
        (window.sinceMs === null || b.stampMs >= window.sinceMs) &&
        window.match(b),
    )
    .sort(compareBatches);
  const after = window.after;
  for (const batch of visible) {
    let first = 0;
    if (after) {
      const order = compareBatches(batch, { stampMs: after.s, prefix: after.p });
      if (order < 0) continue;
      if (order === 0) first = after.i + 1;
    }
    for (let index = first; index < batch.size; index++) {
      yield { row: batch.row(index), position: { s: batch.stampMs, p: batch.prefix, i: index } };
    }
  }
}

/** One page: up to `limit` rows, whether more follow, and where the page ended. */
export function feedPage(batches: readonly FeedBatch[], window: FeedWindow, limit: number) {
  const rows: Record<string, unknown>[] = [];
  let last: FeedPosition | null = null;
  let hasMore = false;
  for (const item of feedRows(batches, window)) {
    if (rows.length === limit) {
      hasMore = true;
      break;
    }
    rows.push(item.row);
    last = item.position;
  }
  return { rows, last, hasMore };
}
