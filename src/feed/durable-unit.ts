/**
 * What the feed reader hands on: a durable unit (a page's rows plus the state that describes
 * them) and the sink that takes it. `sync` and `backfill` pass their flush buffer, `verify` its
 * comparison, a protocol mode its writer: the reader needs no destination.
 */
import type { TableRows } from '../destination/destination.ts';
import type { Row } from '../destination/table-spec.ts';
import type { StateEntry } from '../state/state-entry.ts';

export interface DurableUnit {
  readonly tables: readonly TableRows[];
  /**
   * The state to save once these rows are durable, if any. A sink that saves state saves it
   * only with or after every row of this unit and of the units before it (scan-feed.ts).
   */
  readonly state?: StateEntry;
}

/** Takes the reader's units in order; resolves when it can take the next one (backpressure). */
export interface FeedSink {
  add(unit: DurableUnit): Promise<void>;
}

/**
 * Text held by one flush at most (UTF-16 code units of the rows' strings): a destination
 * encodes a flush (CSV, NDJSON, Arrow) into one or two more copies while it commits, so this
 * bounds the heap a flush costs. 16 M keeps the largest page aivis accepts within the
 * container image's 256 MB heap (test/bench/largest-page.ts; docs/spec-reading.md#page-bounds).
 * The reader hands a page on in parts of an eighth of it.
 */
export const MAX_FLUSH_TEXT = 16 * 1024 * 1024;

/** The text a row holds (its string cells); numbers and booleans are noise next to `_raw`. */
export function rowText(row: Row): number {
  let length = 0;
  for (const key in row) {
    const value = row[key];
    if (typeof value === 'string') length += value.length;
  }
  return length;
}
