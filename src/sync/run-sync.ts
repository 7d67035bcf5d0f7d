/**
 * One run of `aivis sync` or `aivis backfill` (docs/architecture.md#data-flow), read top to
 * bottom: `runSync` takes the lock, ensures the tables and opens the run row; `syncAll` sets up
 * the flush buffer and the metric-version ledger; `syncWebsites` reads the listing
 * (`sync-listing.ts`) and reads each planned website's streams through the feed reader
 * (`src/feed/feed-reader.ts`) into the flush buffer, in a pool;
 * `runSync` then records how the run ended and releases the lock.
 *
 * Failures are contained where docs/architecture.md#state-rules wants them: a bad record goes
 * to `_aivis_rejected`; a website's stream whose requests fail (after the client's retries) or
 * whose server breaks the scan is recorded and everything else goes on; an unusable key, a
 * refused listing or a failed commit ends the run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import PQueue from 'p-queue';
import type { AivisConfig } from '../../schemas/config.ts';
import { readContractInForce } from '../contract/run-contract.ts';
import type { Destination } from '../destination/destination.ts';
import { flushParts } from '../destination/flush-parts.ts';
import { markAbandonedRuns } from '../destination/queries/abandoned-runs.ts';
import { markWebsitesRemoved } from '../destination/queries/active-websites.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import type { RunCommand, RunOutcome } from '../destination/engine-tables.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import { viewsOver } from '../destination/view-spec.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { ConfigError, ExitCode } from '../errors.ts';
import { declaredIn, tablesAsStored } from '../evolution/evolution-plan.ts';
import { evolveTables } from '../evolution/evolve-tables.ts';
import { stateKey } from '../state/state-store.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import { STREAM_NAMES, STREAM_TABLES, type StreamName } from '../streams/index.ts';
import { deleteKeptContracts } from '../destination/queries/retired-contracts.ts';
import { contractsTable, ENGINE_TABLES, metricVersionsTable, viewsFor, websitesTable } from '../tables/index.ts';
import { MetricVersionLedger } from '../trust/metric-versions.ts';
import { FeedReader } from '../feed/feed-reader.ts';
import { FlushBuffer } from './flush-buffer.ts';
import type { RunContext, RunSyncOptions } from './run-context.ts';
import { countingObserver, RunCounters } from './run-counters.ts';
import { SYNC_MODE } from './run-mode.ts';
import { finishRunRow, startRunRow } from './run-row.ts';
import { planCoverage } from './coverage-plan.ts';
import { readListing } from './sync-listing.ts';

/** Websites synced at once when the config does not say. */
const DEFAULT_CONCURRENCY = 4;

/** How a run ended: the `_aivis_runs.status` it leaves. */
export type RunStatus = RunOutcome;

export interface RunSummary {
  readonly runId: string;
  readonly workspace: string;
  readonly command: RunCommand;
  readonly status: RunStatus;
  readonly exitCode: ExitCode;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly counters: RunCounters;
}

export function newRunId(now: Date): string {
  return `run_${now.toISOString().replace(/[-:.]/g, '').slice(0, 15)}_${randomBytes(4).toString('hex')}`;
}

/** The configured streams, narrowed to `requested`; asking for one the config leaves out is a usage error. */
export function selectedStreams(config: AivisConfig, requested?: readonly StreamName[]): StreamName[] {
  const configured = config.streams
    ? STREAM_NAMES.filter((name) => config.streams?.[name] !== undefined)
    : [...STREAM_NAMES];
  for (const name of requested ?? []) {
    if (!configured.includes(name))
      throw new ConfigError(
        `stream "${name}" is not enabled in the config's streams (enabled: ${configured.join(', ')})`,
      );
  }
  return requested ? configured.filter((name) => requested.includes(name)) : configured;
}

/** The tables a run of these streams writes. The websites table always: every run checks a listing against it (mass removal). */
export function syncTables(config: AivisConfig, requested?: readonly StreamName[]): TableSpec[] {
  const streams = selectedStreams(config, requested);
  return [...new Set([...ENGINE_TABLES, websitesTable, ...streams.flatMap((s) => STREAM_TABLES[s])])];
}

/** Creates or updates the tables a run of these streams writes, and the views over them. */
export async function ensureSyncTables(
  destination: Destination,
  config: AivisConfig,
  requested?: readonly StreamName[],
): Promise<void> {
  const tables = syncTables(config, requested);
  await destination.ensureTables(tables);
  await ensureSyncViews(destination, tables);
}

/** The views over `tables` as the destination holds them, columns schema evolution added included. */
async function ensureSyncViews(destination: Destination, tables: readonly TableSpec[]): Promise<void> {
  const stored = tablesAsStored(tables, await destination.columnTypes(tables));
  await destination.ensureViews(viewsOver(viewsFor(stored), stored));
}

export async function runSync(options: RunSyncOptions): Promise<RunSummary> {
  const now = options.now ?? (() => new Date());
  const mode = options.mode ?? SYNC_MODE;
  const { command } = mode;
  const startedAt = now().toISOString();
  const runId = options.runId ?? newRunId(now());
  const lineageRunId = options.lineageRunId ?? randomUUID();
  const counters = options.counters ?? new RunCounters();
  const { destination, logger } = options;
  const streams = selectedStreams(options.config, options.streams);
  const workspace = options.workspace ?? DEFAULT_WORKSPACE;
  const echoedKeysBefore = options.client.stats.echoedKeys;

  const lock = await destination.acquireLock({ runId, host: os.hostname(), pid: process.pid, startedAt, workspace });
  try {
    await ensureSyncTables(destination, options.config, streams);
    await destination.commit(flushParts([startRunRow({ runId, lineageRunId, command, startedAt, workspace })]));
    // We hold the workspace's lock: any other run of it still "running" was killed before it could say so.
    await markAbandonedRuns(destination, runId, workspace);
    logger.info('run started', { run_id: runId, workspace, command, streams, destination: destination.type });
    let error: unknown;
    try {
      const contract = await readContractInForce({ ...options, workspace, runId, now: startedAt });
      counters.contractChanges = contract.changes.length;
      await deleteKeptContracts(destination, workspace, contract.retired);
      // The document in force decides the columns before any row is read (docs/served-contract.md#schema-evolution).
      const evolution = await evolveTables({
        destination,
        tables: syncTables(options.config, streams),
        mode: options.config.schema_evolution,
        maxColumns: options.config.schema_evolution_max_columns,
        declared: declaredIn(contract.document),
        logger,
      });
      counters.evolvedTables = evolution.tables;
      if (Object.keys(evolution.added).length > 0)
        await ensureSyncViews(destination, syncTables(options.config, streams));
      await syncAll({
        ...options,
        contract,
        workspace,
        mode,
        runId,
        streams,
        counters,
        now,
        syncedAt: startedAt,
        evolution,
      });
    } catch (caught) {
      error = caught;
    }
    const status: RunStatus =
      error === undefined
        ? counters.failedWebsites.length > 0 || counters.rejected > 0
          ? 'partial'
          : 'succeeded'
        : options.signal?.aborted && error === options.signal.reason
          ? 'stopped'
          : 'failed';
    counters.echoedKeys = options.client.stats.echoedKeys - echoedKeysBefore;
    const finishedAt = now().toISOString();
    try {
      await destination.commit(
        flushParts([
          finishRunRow({ runId, lineageRunId, command, startedAt, finishedAt, status, counters, error, workspace }),
        ]),
      );
    } catch (rowError) {
      logger.warn('could not record the end of the run in _aivis_runs', { run_id: runId, error: String(rowError) });
    }
    if (error !== undefined) throw error;
    const exitCode = status === 'succeeded' ? ExitCode.Success : ExitCode.Partial;
    return { runId, workspace, command, status, exitCode, startedAt, finishedAt, counters };
  } finally {
    // A lock that cannot be released (its session already gone) must not hide the run's outcome.
    await lock
      .release()
      .catch((error: unknown) =>
        logger.warn('could not release the run lock; it ends with its session or lease', { error: String(error) }),
      );
  }
}

async function syncAll(run: RunContext): Promise<void> {
  const { destination, counters } = run;
  // Read under the workspace's run lock: no other run widens its rows meanwhile (other
  // workspaces' runs write rows of their own).
  const ledger = MetricVersionLedger.load(await readRows(destination, metricVersionsTable), run.workspace);
  const buffer = new FlushBuffer({
    bounds: destination.capabilities,
    commit: (flush) => run.stateStore.commit(destination, flush),
    now: () => run.now().getTime(),
    onFlush: (result) => {
      counters.flushes++;
      counters.warehouseJobs += result.jobs ?? 0;
      counters.bytesProcessed += result.bytesProcessed ?? 0;
      for (const [table, rows] of Object.entries(result.rowsWritten))
        counters.tables[table] = (counters.tables[table] ?? 0) + rows;
    },
    derivedRows: (tables) => ledger.observeFlush(tables),
    tableOf: (table) => run.evolution.table(table),
  });
  try {
    // The served contract is kept with the run's first flush (docs/served-contract.md).
    const { row } = run.contract;
    if (row !== undefined) await buffer.add({ tables: [{ table: contractsTable, rows: [row] }] });
    await syncWebsites(run, buffer);
  } finally {
    // A run that fails later still says which new combinations its flushes carried.
    counters.metricVersionNotices.push(...ledger.notices().map((notice) => notice.text));
  }
}

/**
 * Every planned website, `concurrency` at a time (a p-queue; the rate limiter bounds the
 * request rate whatever the concurrency). A fatal error or a stop ends every scan at its next
 * page; the pages read until then are whole and valid, and are flushed.
 */
async function syncWebsites(run: RunContext, buffer: FlushBuffer): Promise<void> {
  const { counters } = run;
  const listed = await readListing(run, buffer);
  const entries = await run.stateStore.load();
  const saved = new Map(entries.map((e) => [stateKey(e.stream, e.scope), e.state]));
  const coverage = await planCoverage({
    destination: run.destination,
    workspace: run.workspace,
    source: run.config.sources?.[run.workspace] ?? run.config.source,
    streams: run.streams,
    websites: listed,
    saved: run.fullRefresh ? [] : entries,
    run: { workspace: run.workspace, runId: run.runId, startedAt: run.syncedAt },
    readsWhatItNames: run.fullRefresh === true || run.websites !== undefined,
    recordsCoverage: run.since === undefined,
  });
  await coverage.checked(buffer);
  const planned = listed.filter((website) => coverage.streamsOf(website.id) !== undefined);
  counters.websitesPlanned = planned.length;
  counters.websitesRead = coverage.plan.websitesRead;
  counters.websitesSkippedUnchanged = coverage.plan.websitesSkipped;
  const reader = new FeedReader({
    client: run.client,
    logger: run.logger,
    config: run.config,
    streams: run.streams,
    observer: countingObserver(counters),
    validation: run.contract.validation,
    runId: run.runId,
    workspace: run.workspace,
    evolution: run.evolution,
    now: run.now,
    position: (stream, scope) =>
      run.fullRefresh ? INITIAL_STATE : (saved.get(stateKey(stream, scope)) ?? INITIAL_STATE),
    since: run.since,
  });

  const abort = new AbortController();
  const signal = run.signal ? AbortSignal.any([abort.signal, run.signal]) : abort.signal;
  const pool = new PQueue({ concurrency: Math.max(1, run.concurrency ?? DEFAULT_CONCURRENCY) });
  let fatal: unknown;
  await pool.addAll(
    planned.map((website) => async () => {
      if (signal.aborted) return;
      try {
        if ((await reader.readWebsite(website, buffer, signal, coverage.streamsOf(website.id))) !== 'done') return;
        counters.websitesDone++;
        const failed = (stream: string) =>
          counters.failedWebsites.some((f) => f.websiteId === website.id && f.stream === stream);
        await coverage.read(website, (stream) => !failed(stream), buffer);
      } catch (error) {
        fatal ??= error;
        // The websites still queued return at once on the aborted signal.
        abort.abort();
      }
    }),
  );
  await buffer.flush();
  if (fatal !== undefined) throw fatal;
  run.signal?.throwIfAborted();
  await markRevoked(run);
}

/** Websites revoked during the run get `_removed_at` once their committed rows are durable; the rows stay. */
async function markRevoked(run: RunContext): Promise<void> {
  const revoked = run.counters.revokedWebsites;
  if (revoked.length === 0 || !run.mode.marksRemovals) return;
  await markWebsitesRemoved(run.destination, revoked, run.syncedAt);
  run.counters.removedWebsites += revoked.length;
  run.logger.info('websites revoked during the run were marked removed', {
    count: revoked.length,
    website_ids: revoked,
  });
}
