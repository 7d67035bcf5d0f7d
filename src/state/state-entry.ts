/** Saved sync state as the engine handles it: a position per stream and scope, and a flush carrying it. */
import type { TableRows } from '../destination/destination.ts';

/** Saved position of one stream in one scope (docs/architecture.md#state-rules). Stored and sent back verbatim. */
export interface StreamState {
  /** `scan_upper_bound` of the last completed scan: the next scan's `updated_since`. */
  readonly frontier: string | null;
  /** Cursor of the next page of an unfinished scan; null between scans. */
  readonly cursor: string | null;
  /** `scan_upper_bound` of the unfinished scan; becomes the frontier when the scan completes. */
  readonly pending_upper_bound: string | null;
}

export interface StateEntry {
  readonly stream: string;
  /** Website id, or `*` for workspace-wide streams. */
  readonly scope: string;
  readonly state: StreamState;
  /** ISO-8601 UTC. */
  readonly updatedAt: string;
}

/** One unit of durability: rows of any number of tables plus the state describing them. */
export interface Flush {
  /** Rows may repeat a primary key: the last one wins. */
  readonly tables: readonly TableRows[];
  readonly state: readonly StateEntry[];
}
