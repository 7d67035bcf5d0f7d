/**
 * How much one flush holds, per destination, side by side: the destination's call, bounded
 * in rows so memory stays flat and in seconds so a kill loses little work
 * (docs/architecture.md#state-rules). Each connector spreads its entry into its
 * `capabilities`; the engine reads them from there.
 */
import type { DestinationConfig } from '../../schemas/config.ts';
import type { DestinationCapabilities } from './destination.ts';

export type FlushSizing = Pick<DestinationCapabilities, 'maxRowsPerFlush' | 'maxSecondsPerFlush'>;

export const FLUSH_SIZING = {
  // A commit is cheap: flush every page or few, so a kill loses seconds of work.
  postgres: { maxRowsPerFlush: 5_000, maxSecondsPerFlush: 5 },
  duckdb: { maxRowsPerFlush: 5_000, maxSecondsPerFlush: 5 },
  // The warehouse bills while it runs: each flush resumes it for a billed minute and keeps it up
  // for AUTO_SUSPEND after, so a sync bound by the API flushes by rows and text, and by time only
  // every 15 minutes (`destination.flush_interval_seconds`): warehouse time follows the rows,
  // and a kill loses at most that long of reading. 15 is the shortest round interval for which
  // a run just longer than one interval (start, one timed flush, end: three resumes of about
  // 70 s) keeps the warehouse running under a quarter of the run (docs/destinations/snowflake.md#cost).
  snowflake: { maxRowsPerFlush: 20_000, maxSecondsPerFlush: 900 },
  // BigQuery bills and rate-limits per job (1,500 table operations per table per day), and each
  // flush costs one load job and one MERGE per table, plus two for state: few, large flushes.
  bigquery: { maxRowsPerFlush: 50_000, maxSecondsPerFlush: 60 },
} as const satisfies Record<DestinationConfig['type'], FlushSizing>;
