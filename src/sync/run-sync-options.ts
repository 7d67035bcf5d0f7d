/** The options of a run of `aivis sync` or `aivis backfill` (`runSync`). */
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import type { Destination } from '../destination/destination.ts';
import type { Logger } from '../log/logger.ts';
import type { RunRowMode } from '../run/run-mode.ts';
import type { StateStore } from '../state/state-store.ts';
import type { StreamName } from '../streams/index.ts';
import type { RunCounters } from './run-counters.ts';

export interface RunSyncOptions {
  readonly config: AivisConfig;
  readonly client: ApiClient;
  readonly destination: Destination;
  readonly stateStore: StateStore;
  readonly logger: Logger;
  /**
   * The workspace this run reads (default `default`): its rows carry it in `_workspace`, and
   * its lock, state, reconciliation and run row are its own (docs/architecture.md#many-workspaces).
   */
  readonly workspace?: string;
  /** What the run is, with its inputs (default `SYNC_MODE`: a sync of every website from saved state). */
  readonly mode?: RunRowMode;
  /** Streams to run; default: the configured ones (all when the config names none). */
  readonly streams?: readonly StreamName[];
  /** Websites synced at once; the rate limiter bounds the request rate whatever this is. */
  readonly concurrency?: number;
  readonly runId?: string;
  /** The run's OpenLineage `runId` (a UUID), recorded in its `_aivis_runs` row; default a new one. */
  readonly lineageRunId?: string;
  readonly now?: () => Date;
  /** Live counters, for a progress display. */
  readonly counters?: RunCounters;
  /**
   * Stops the run (SIGTERM, SIGINT): scans stop at their next page, and a client built with
   * the same signal ends its request in flight and its waits at once. What was read is
   * committed, the run row says `stopped`, the lock is released, and the abort reason is thrown.
   */
  readonly signal?: AbortSignal;
}
