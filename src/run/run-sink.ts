/**
 * What differs between the front ends of the one run frame (`run-frame.ts`): where the run's
 * rows go and what it keeps. `sync` and `backfill` write to the destination
 * (`src/sync/destination-sink.ts`), the protocol modes write messages
 * (`src/protocols/protocol-read.ts`), `verify` compares (`src/verify/verify-sink.ts`).
 */
import type { SchemaEvolutionMode } from '../../schemas/config.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import type { Destination } from '../destination/destination.ts';
import type { ActiveWebsite } from '../destination/queries/active-websites.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import type { DeclaredRecords } from '../evolution/evolution-plan.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { DurableUnit } from '../feed/durable-unit.ts';
import type { FeedObserver } from '../feed/feed-observer.ts';
import type { WebsiteRead } from '../feed/feed-reader.ts';
import type { Listing, PlannedWebsite } from '../feed/list-websites.ts';
import type { StreamState } from '../state/state-entry.ts';
import type { StreamName } from '../streams/index.ts';
import type { FlushBuffer, FlushBufferOptions } from './flush-buffer.ts';
import type { ListingReconciliation } from './listing-reconciliation.ts';
import type { WebsitePages } from './website-pool.ts';

/** What the contract step found: what records are checked against, and what the columns follow. */
export interface RunContract {
  readonly validation: ContractValidation;
  /** The fields the document in force declares: a sink with a destination evolves its tables by them. */
  readonly declared?: DeclaredRecords;
  /** The columns rows carry when no destination's tables are evolved (the protocol outputs plan them from the document alone). */
  readonly evolution?: RunEvolution;
  /** Rows the run's first flush carries (sync: the served contract, kept in `_aivis_contracts`). */
  readonly firstRows?: DurableUnit;
}

/** A destination the run writes: its run lock is held for the whole run, and its tables are evolved under it. */
export interface RunDestination {
  readonly destination: Destination;
  /** The tables schema evolution runs over (docs/served-contract.md#schema-evolution). */
  readonly tables: readonly TableSpec[];
  readonly schemaEvolution: SchemaEvolutionMode;
  /** `schema_evolution_max_columns`: the most evolved columns one table may gain. */
  readonly maxEvolvedColumns: number;
}

export interface RunSink {
  /** None for a front end without a destination (protocol outputs): no lock is taken, no table evolved. */
  readonly destination?: RunDestination;
  /** Under the lock, before anything is read (sync: tables ensured, run row started); `startedAt` is the run's start. */
  open?(startedAt: string): Promise<void>;
  readContract(startedAt: string): Promise<RunContract>;
  /** Told the evolution the run writes under, before any row is read. */
  evolved?(evolution: RunEvolution): Promise<void>;
  /** How the run's flush buffer bounds and commits its flushes. */
  flushing(evolution: RunEvolution): Promise<FlushBufferOptions>;
  /** Every website the sink knows as active, with its workspace: what the listing is reconciled with. */
  knownWebsites(): Promise<readonly ActiveWebsite[]>;
  /** The reconciled listing: write its rows, rejections and removals as the sink keeps them. */
  listed(listing: Listing, reconciled: ListingReconciliation, buffer: FlushBuffer): Promise<void>;
  /** The saved position of a scope (stream, scope as in `stateKey`); the mode decides whether scans start there. */
  savedPositions(): Promise<(stream: string, scope: string) => StreamState>;
  /** Told the run's read plan before the pool starts (sync: the websites planned, for progress and the run row). */
  planned?(reads: readonly WebsiteRead[]): void;
  /**
   * The run's read decision per website and stream (change-driven reads, docs/configuration.md#change-driven-reads):
   * the streams each planned website reads, none when every one is skipped. Default: every selected stream.
   */
  decideReads?(
    planned: readonly PlannedWebsite[],
    buffer: FlushBuffer,
  ): Promise<(websiteId: string) => readonly StreamName[] | undefined>;
  /** Whether a planned website is read at all (verify: only those with a closed window). Default: every one. */
  reads?(websiteId: string): boolean;
  readonly observer: FeedObserver;
  /** Where one website's pages go. */
  pagesOf(website: PlannedWebsite, buffer: FlushBuffer): Promise<WebsitePages>;
  /** After the last flush of a read that ended well: the websites revoked during it. */
  revoked(websiteIds: readonly string[]): Promise<void>;
  /** Under the lock, however the run ended (`error` when it failed): the sink records it (sync: the run row). */
  close?(error: unknown): Promise<void>;
}
