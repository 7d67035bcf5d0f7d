/**
 * What a run of the engine does besides reading the websites' streams, as a value instead of
 * tests of the command's name: `sync` keeps the websites table in step with the listing,
 * `backfill` re-reads what it is told and leaves the listing and the saved positions alone
 * (it reads from `--since` and saves no state).
 */
import type { RunCommand } from '../destination/engine-tables.ts';

export interface RunMode {
  /** The run's name in `_aivis_runs.command`, the logs and the metrics. */
  readonly command: RunCommand;
  /** Writes the listing to the websites table (when the run reads the websites stream). */
  readonly writesListing: boolean;
  /** Marks websites no longer listed, or revoked during the run, removed. */
  readonly marksRemovals: boolean;
  /** A `--websites` id the listing does not hold is a usage error (exit 2), not a failed website (exit 3). */
  readonly refusesUnlisted: boolean;
}

export const SYNC_MODE: RunMode = { command: 'sync', writesListing: true, marksRemovals: true, refusesUnlisted: false };

export const BACKFILL_MODE: RunMode = {
  command: 'backfill',
  writesListing: false,
  marksRemovals: false,
  refusesUnlisted: true,
};
