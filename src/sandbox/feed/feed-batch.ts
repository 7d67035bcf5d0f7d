/**
 * A feed (history, mentions, citations) is a sequence of write batches. Each batch is one
 * write: its rows share a publication stamp (when the write started) and become visible
 * together when it commits. Rows are produced on demand by index, never stored.
 */
import type { WebsiteRecord } from '../world/website-registry.ts';

/** One write of a feed. */
export interface FeedBatch {
  /** Publication stamp: the rows' `available_at`, taken when the write started. */
  readonly stampMs: number;
  /** When the write commits; before that its rows are invisible. */
  readonly commitMs: number;
  /**
   * Row ids of the batch are `prefix + index` with a fixed-width index, and every prefix of
   * a website has the same length, so ordering by (stamp, id) equals (stamp, prefix, index).
   */
  readonly prefix: string;
  readonly size: number;
  readonly analysisId: string;
  /** The provider every row of the batch carries (history points have none). */
  readonly provider: string | null;
  /** Renders row `index` (0-based) of the batch. */
  row(index: number): Record<string, unknown>;
}

/** Width of the row index inside an id (base 36). */
export const ROW_INDEX_WIDTH = 5;

export function rowId(batch: Pick<FeedBatch, 'prefix'>, index: number): string {
  return batch.prefix + index.toString(36).padStart(ROW_INDEX_WIDTH, '0');
}

/** A feed family: how its batches of one website are laid out. */
export interface FeedFamily {
  /** The route name, e.g. `mentions`; cursors are bound to it. */
  readonly name: string;
  /** Every batch whose write has started by `nowMs`, in any order. */
  batches(website: WebsiteRecord, nowMs: number): FeedBatch[];
}

/**
 * The committed publication frontier at `nowMs`: the earliest stamp of a write that has
 * started but not committed, or `nowMs` when none is in flight. Every row stamped before it
 * is visible; a row stamped at it or later may still appear, which `updated_since` being
 * inclusive covers.
 */
export function committedFrontier(batches: readonly FeedBatch[], nowMs: number): number {
  let frontier = nowMs;
  for (const batch of batches) {
    if (batch.stampMs <= nowMs && batch.commitMs > nowMs && batch.stampMs < frontier) frontier = batch.stampMs;
  }
  return frontier;
}

/** Orders batches (or a batch and a cursor position) by (stamp, prefix), the feed's stable order. */
export function compareBatches(
  a: Pick<FeedBatch, 'stampMs' | 'prefix'>,
  b: Pick<FeedBatch, 'stampMs' | 'prefix'>,
): number {
  return a.stampMs - b.stampMs || (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0);
}
