/**
 * The options of a run (`runSync`), and what every step of one run shares: the caller's options with their defaults applied, and
 * what the run learns as it goes. Built once by `runSync`.
 */
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import type { ContractInForce } from '../contract/contract-in-force.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { Destination } from '../destination/destination.ts';
import type { Logger } from '../log/logger.ts';
import type { StateStore } from '../state/state-store.ts';
import type { StreamName } from '../streams/index.ts';
import type { RunCounters } from './run-counters.ts';
import type { RunMode } from './run-mode.ts';

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
  /** What the run does besides reading (default `SYNC_MODE`). */
  readonly mode?: RunMode;
  /** Streams to run; default: the configured ones (all when the config names none). */
  readonly streams?: readonly StreamName[];
  /** Only these websites (intersected with the config's `websites.include`). */
  readonly websites?: readonly string[];
  /** Ignore saved state: read every feed from the beginning (rows are upserted, so no duplicates). */
  readonly fullRefresh?: boolean;
  readonly allowMassRemoval?: boolean;
  /** Backfill: re-read feeds from this `updated_since`, saving no state. */
  readonly since?: string;
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

export interface RunContext extends RunSyncOptions {
  readonly workspace: string;
  readonly mode: RunMode;
  readonly runId: string;
  readonly streams: readonly StreamName[];
  readonly counters: RunCounters;
  readonly now: () => Date;
  /** The run's start: the listing's rows and its completeness. */
  readonly syncedAt: string;
  /** The columns schema evolution added this run (docs/served-contract.md#schema-evolution): what the loader writes. */
  readonly evolution: RunEvolution;
  /** The document in force for this run and workspace (docs/served-contract.md). */
  readonly contract: ContractInForce;
}
