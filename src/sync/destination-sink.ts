/**
 * Where a run of `sync` or `backfill` puts what it reads (the run frame's sink,
 * `src/run/run-sink.ts`): the destination, under its run lock. It ensures the tables and opens
 * the run row, keeps the served contract with the first flush, flushes pages with their state
 * through the state store, feeds the metric-version ledger, keeps the listing, marks revoked
 * websites removed and finishes the run row however the run ended.
 */
import { type CoveragePlan, planCoverage } from './coverage-plan.ts';
import { deleteKeptContracts } from '../destination/queries/retired-contracts.ts';
import type { ApiClient } from '../client/api-client.ts';
import { readContractInForce } from '../contract/run-contract.ts';
import type { Destination } from '../destination/destination.ts';
import type { RunOutcome } from '../destination/engine-tables.ts';
import { flushParts } from '../destination/flush-parts.ts';
import { markAbandonedRuns } from '../destination/queries/abandoned-runs.ts';
import { listActiveWebsites, markWebsitesRemoved } from '../destination/queries/active-websites.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import { declaredIn } from '../evolution/evolution-plan.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { FeedObserver } from '../feed/feed-observer.ts';
import type { WebsiteRead } from '../feed/feed-reader.ts';
import type { Listing, PlannedWebsite } from '../feed/list-websites.ts';
import type { Logger } from '../log/logger.ts';
import type { ListingReconciliation } from '../run/listing-reconciliation.ts';
import { keepsListing, namedWebsites, readSince, runCommand, type RunRowMode } from '../run/run-mode.ts';
import type { RunContract, RunDestination, RunSink } from '../run/run-sink.ts';
import type { WebsitePages } from '../run/website-pool.ts';
import { stateKey, type StateStore } from '../state/state-store.ts';
import type { StreamState } from '../state/state-entry.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import type { StreamName } from '../streams/index.ts';
import { contractsTable, metricVersionsTable } from '../tables/index.ts';
import { MetricVersionLedger } from '../trust/metric-versions.ts';
import type { AivisConfig } from '../../schemas/config.ts';
import type { FlushBuffer, FlushBufferOptions } from '../run/flush-buffer.ts';
import { countingObserver, type RunCounters } from './run-counters.ts';
import { finishRunRow, startRunRow } from './run-row.ts';
import { writeListing } from './sync-listing.ts';

export interface DestinationSinkOptions {
  readonly config: AivisConfig;
  readonly client: ApiClient;
  readonly destination: Destination;
  readonly stateStore: StateStore;
  readonly logger: Logger;
  readonly workspace: string;
  readonly mode: RunRowMode;
  readonly streams: readonly StreamName[];
  /** The tables the run writes: ensured, and evolved under the lock. */
  readonly tables: readonly TableSpec[];
  readonly runId: string;
  readonly lineageRunId: string;
  readonly counters: RunCounters;
  readonly now: () => Date;
  /** The run's stop signal: a run it ended is `stopped`, not `failed`. */
  readonly signal?: AbortSignal;
  /** Creates or updates the tables; the views over them come after evolution (`ensureViews`). */
  ensureTables(): Promise<void>;
  ensureViews(described: readonly TableSpec[]): Promise<void>;
}

export class DestinationSink implements RunSink {
  readonly destination: RunDestination;
  readonly observer: FeedObserver;
  readonly #options: DestinationSinkOptions;
  #startedAt = '';
  #evolution: RunEvolution | undefined;
  #coverage: CoveragePlan | undefined;
  #ledger: MetricVersionLedger | undefined;
  readonly #echoedKeysBefore: number;
  #ending: { readonly status: RunStatus; readonly finishedAt: string } | undefined;

  constructor(options: DestinationSinkOptions) {
    this.#options = options;
    this.destination = {
      destination: options.destination,
      tables: options.tables,
      schemaEvolution: options.config.schema_evolution,
      maxEvolvedColumns: options.config.schema_evolution_max_columns,
    };
    this.observer = countingObserver(options.counters);
    this.#echoedKeysBefore = options.client.stats.echoedKeys;
  }

  /** The run's start, once the frame has opened the sink. */
  get startedAt(): string {
    return this.#startedAt;
  }

  async open(startedAt: string): Promise<void> {
    const { destination, runId, lineageRunId, workspace, mode, streams, logger } = this.#options;
    this.#startedAt = startedAt;
    const command = runCommand(mode);
    await this.#options.ensureTables();
    await destination.commit(flushParts([startRunRow({ runId, lineageRunId, command, startedAt, workspace })]));
    // We hold the workspace's lock: any other run of it still "running" was killed before it could say so.
    await markAbandonedRuns(destination, runId, workspace);
    logger.info('run started', { run_id: runId, workspace, command, streams, destination: destination.type });
  }

  async readContract(startedAt: string): Promise<RunContract> {
    const { counters } = this.#options;
    const contract = await readContractInForce({ ...this.#options, now: startedAt });
    counters.contractChanges = contract.changes.length;
    await deleteKeptContracts(this.#options.destination, this.#options.workspace, contract.retired);
    const { row } = contract;
    return {
      validation: contract.validation,
      declared: declaredIn(contract.document),
      // The served contract is kept with the run's first flush (docs/served-contract.md).
      ...(row === undefined ? {} : { firstRows: { tables: [{ table: contractsTable, rows: [row] }] } }),
    };
  }

  async evolved(evolution: RunEvolution): Promise<void> {
    this.#evolution = evolution;
    this.#options.counters.evolvedTables = evolution.tables;
    // The views' columns say what the evolved tables' columns say (their descriptions come from
    // the document in force), so they are ensured once it is known, added columns or not.
    await this.#options.ensureViews(this.#options.tables.map((table) => evolution.table(table)));
  }

  async flushing(evolution: RunEvolution): Promise<FlushBufferOptions> {
    const { destination, stateStore, counters, workspace, now } = this.#options;
    // Read under the workspace's run lock: no other run widens its rows meanwhile (other
    // workspaces' runs write rows of their own).
    const ledger = MetricVersionLedger.load(await readRows(destination, metricVersionsTable), workspace);
    this.#ledger = ledger;
    return {
      bounds: destination.capabilities,
      commit: (flush) => stateStore.commit(destination, flush),
      now: () => now().getTime(),
      onFlush: (result) => {
        counters.flushes++;
        counters.warehouseJobs += result.jobs ?? 0;
        counters.bytesProcessed += result.bytesProcessed ?? 0;
        for (const [table, rows] of Object.entries(result.rowsWritten))
          counters.tables[table] = (counters.tables[table] ?? 0) + rows;
      },
      derivedRows: (tables) => ledger.observeFlush(tables),
      tableOf: (table) => evolution.table(table),
    };
  }

  knownWebsites() {
    return listActiveWebsites(this.#options.destination);
  }

  listed(listing: Listing, reconciled: ListingReconciliation, buffer: FlushBuffer): Promise<void> {
    const { mode } = this.#options;
    return writeListing(
      {
        ...this.#options,
        syncedAt: this.#startedAt,
        evolution: this.#evolution!,
        // Whatever streams are selected: the listing is the spine status counts coverage over
        // (docs/operations.md#coverage), so a sync without `websites` still keeps it.
        keepsListing: keepsListing(mode),
      },
      listing,
      reconciled,
      buffer,
    );
  }

  async savedPositions(): Promise<(stream: string, scope: string) => StreamState> {
    const saved = new Map((await this.#options.stateStore.load()).map((e) => [stateKey(e.stream, e.scope), e.state]));
    return (stream, scope) => saved.get(stateKey(stream, scope)) ?? INITIAL_STATE;
  }

  /** Change-driven reads: the planner's decision over `_aivis_coverage` and the saved state, and the skipped streams' checks. */
  async decideReads(planned: readonly PlannedWebsite[], buffer: FlushBuffer) {
    const { destination, workspace, config, streams, stateStore, runId, mode, counters } = this.#options;
    const fullRefresh = mode.kind === 'sync' && mode.fullRefresh;
    const coverage = await planCoverage({
      destination,
      workspace,
      source: config.sources?.[workspace] ?? config.source,
      streams,
      websites: planned,
      saved: fullRefresh ? [] : await stateStore.load(),
      run: { workspace, runId, startedAt: this.#startedAt },
      // `--full-refresh`, `--websites` and a backfill read what they name (docs/configuration.md#change-driven-reads).
      readsWhatItNames: fullRefresh || namedWebsites(mode) !== undefined || mode.kind === 'backfill',
      recordsCoverage: readSince(mode) === undefined,
    });
    this.#coverage = coverage;
    await coverage.checked(buffer);
    counters.websitesRead = coverage.plan.websitesRead;
    counters.websitesSkippedUnchanged = coverage.plan.websitesSkipped;
    return (websiteId: string) => coverage.streamsOf(websiteId) as readonly StreamName[] | undefined;
  }

  planned(reads: readonly WebsiteRead[]): void {
    this.#options.counters.websitesPlanned = reads.length;
  }

  async pagesOf(website: PlannedWebsite, buffer: FlushBuffer): Promise<WebsitePages> {
    const { counters } = this.#options;
    return {
      add: (unit) => buffer.add(unit),
      done: async (outcome) => {
        if (outcome !== 'done') return;
        counters.websitesDone++;
        // Coverage rides behind the website's rows: committed with its stream's last flush or after it.
        const failed = (stream: string) =>
          counters.failedWebsites.some((f) => f.websiteId === website.id && f.stream === stream);
        await this.#coverage?.read(website, (stream) => !failed(stream), buffer);
      },
    };
  }

  /** Websites revoked during the run get `_removed_at` once their committed rows are durable; the rows stay. */
  async revoked(websiteIds: readonly string[]): Promise<void> {
    const { destination, counters, logger, mode } = this.#options;
    if (websiteIds.length === 0 || !keepsListing(mode)) return;
    await markWebsitesRemoved(destination, websiteIds, this.#startedAt);
    counters.removedWebsites += websiteIds.length;
    logger.info('websites revoked during the run were marked removed', {
      count: websiteIds.length,
      website_ids: websiteIds,
    });
  }

  /** The run row finished (with the metric version notices) however the run ended; how it ended is `ending`. */
  async close(error: unknown): Promise<void> {
    const { destination, counters, runId, lineageRunId, workspace, mode, logger, signal, client } = this.#options;
    // A run that fails later still says which new combinations its flushes carried.
    counters.metricVersionNotices.push(...(this.#ledger?.notices() ?? []).map((notice) => notice.text));
    const status: RunStatus =
      error === undefined
        ? counters.failedWebsites.length > 0 || counters.rejected > 0
          ? 'partial'
          : 'succeeded'
        : signal?.aborted && error === signal.reason
          ? 'stopped'
          : 'failed';
    counters.echoedKeys = client.stats.echoedKeys - this.#echoedKeysBefore;
    const finishedAt = this.#options.now().toISOString();
    this.#ending = { status, finishedAt };
    const command = runCommand(mode);
    const startedAt = this.#startedAt;
    try {
      await destination.commit(
        flushParts([
          finishRunRow({ runId, lineageRunId, command, startedAt, finishedAt, status, counters, error, workspace }),
        ]),
      );
    } catch (rowError) {
      logger.warn('could not record the end of the run in _aivis_runs', { run_id: runId, error: String(rowError) });
    }
  }

  /** How the run ended, once the sink is closed. */
  get ending(): { readonly status: RunStatus; readonly finishedAt: string } | undefined {
    return this.#ending;
  }
}

/** How a run ended: the `_aivis_runs.status` it leaves. */
export type RunStatus = RunOutcome;
