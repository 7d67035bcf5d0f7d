/**
 * What every step of one run shares: the caller's options with their defaults applied, and
 * what the run learns as it goes. Built once by `runSync`.
 */
import type { ContractInForce } from '../contract/contract-in-force.ts';
import type { RunCommand } from '../destination/engine-tables.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { StreamName } from '../streams/index.ts';
import type { RunCounters } from './run-counters.ts';
import type { RunSyncOptions } from './run-sync.ts';

export interface RunContext extends RunSyncOptions {
  readonly workspace: string;
  readonly command: RunCommand;
  readonly runId: string;
  readonly streams: readonly StreamName[];
  readonly counters: RunCounters;
  readonly now: () => Date;
  /** The run's start: the listing's rows and its completeness. */
  readonly syncedAt: string;
  /** The columns schema evolution added this run (docs/served-contract.md#schema-evolution): what the loader writes. */
  readonly evolution: RunEvolution;
  /** Feeds the API refused in the way their `fallback` answers: later websites go straight to the fallback's scans. */
  readonly fallbacks: Set<string>;
  /** The document in force for this run and workspace (docs/served-contract.md). */
  readonly contract: ContractInForce;
}
