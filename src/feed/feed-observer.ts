/**
 * What the feed reader reports as it reads, for its caller to count or show: `sync` and
 * `backfill` keep run counters (src/sync/run-counters.ts), `verify` keeps its failures and
 * revocations for its report. The reader itself logs what a user should see either way.
 */

/** One website's stream that failed (after the client's retries); the reader went on. */
export interface StreamFailure {
  readonly websiteId: string;
  readonly stream: string;
  readonly error: string;
}

export interface FeedObserver {
  /** A page of a feed, or a snapshot, was read: the rows it built and the records rejected. */
  pageRead(stream: string, counts: { readonly rows: number; readonly rejected: number }): void;
  /** A website's feed is read through its stream's fallback (citations per analysis), in `scans` scans. */
  fellBack(stream: string, websiteId: string, scans: number): void;
  /** A stream failed for one website; its other streams and the other websites go on. */
  streamFailed(failure: StreamFailure): void;
  /** A website disappeared during the read (its feed and itself answer 404); its remaining streams were skipped. */
  websiteRevoked(websiteId: string): void;
}
