/**
 * One run of `aivis sync` or `aivis backfill` (docs/architecture.md#data-flow):
 * lock -> tables -> run row -> listing -> reconciliation -> per-website streams -> summary.
 *
 * Failures are contained where docs/architecture.md#state-rules wants them: a bad record goes
 * to `_aivis_rejected`; a website's stream whose requests fail (after the client's retries) is
 * recorded and everything else goes on; an unusable key, a refused listing or a failed commit
 * ends the run. Each website's streams are read as their registry entry's `kind` says
 * (`src/streams/registry.ts`), in registry order.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import type { ActiveWebsite, Destination } from '../destination/destination.ts';
import { viewsOver } from '../destination/view-spec.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { flushParts } from '../destination/flush-parts.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import type { StreamState } from '../state/state-entry.ts';
import { ConfigError, ExitCode } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import { stateKey, type StateStore } from '../state/state-store.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import {
  citationsStream,
  STREAM_NAMES,
  STREAM_TABLES,
  STREAMS,
  streamOptions,
  websitesStream,
  type StreamName,
} from '../streams/index.ts';
import type { AnyFeedStream, FeedScan } from '../streams/stream.ts';
import { ENGINE_TABLES, metricVersionsTable, rejectedTable, VIEWS, websitesTable } from '../tables/index.ts';
import { completenessPart, listingScope, readWholeRow } from '../trust/completeness.ts';
import { MetricVersionLedger } from '../trust/metric-versions.ts';
import { FlushBuffer } from './flush-buffer.ts';
import { listWebsites, type Listing } from './list-websites.ts';
import { needsAnalysisId, scansPerAnalysis } from './citation-scans.ts';
import { isRevoked } from './revoked-website.ts';
import { checkMassRemoval, websitesToRemove } from './reconcile-websites.ts';
import { rejectedRow } from './rejected-rows.ts';
import { RunCounters } from './run-counters.ts';
import { finishRunRow, startRunRow } from './run-row.ts';
import { scanFeed } from './scan-feed.ts';
import { syncSnapshot } from './sync-snapshot.ts';

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
  readonly command?: 'sync' | 'backfill';
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

export type RunStatus = 'succeeded' | 'partial' | 'failed' | 'stopped';

export interface RunSummary {
  readonly runId: string;
  readonly workspace: string;
  readonly command: 'sync' | 'backfill';
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
  await destination.ensureViews(viewsOver(VIEWS, tables));
}

export async function runSync(options: RunSyncOptions): Promise<RunSummary> {
  const now = options.now ?? (() => new Date());
  const command = options.command ?? 'sync';
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
    await destination.markAbandonedRuns(runId, workspace);
    logger.info('run started', { run_id: runId, workspace, command, streams, destination: destination.type });
    let error: unknown;
    try {
      await syncAll({
        ...options,
        workspace,
        command,
        runId,
        streams,
        counters,
        now,
        syncedAt: startedAt,
        citations: { perAnalysis: false },
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

interface RunContext extends RunSyncOptions {
  readonly workspace: string;
  readonly command: 'sync' | 'backfill';
  readonly runId: string;
  readonly streams: readonly StreamName[];
  readonly counters: RunCounters;
  readonly now: () => Date;
  readonly syncedAt: string;
  /** Set once the API refused a citations scan without `analysis_id`: later websites go straight to per-analysis scans. */
  readonly citations: { perAnalysis: boolean };
}

async function syncAll(run: RunContext): Promise<void> {
  const { destination, counters } = run;
  // Read under the workspace's run lock: no other run widens its rows meanwhile (other
  // workspaces' runs write rows of their own).
  const ledger = MetricVersionLedger.load(await destination.readRows(metricVersionsTable), run.workspace);
  const buffer = new FlushBuffer({
    destination,
    stateStore: run.stateStore,
    now: () => run.now().getTime(),
    onFlush: (result) => {
      counters.flushes++;
      counters.warehouseJobs += result.jobs ?? 0;
      counters.bytesProcessed += result.bytesProcessed ?? 0;
      for (const [table, rows] of Object.entries(result.rowsWritten))
        counters.tables[table] = (counters.tables[table] ?? 0) + rows;
    },
    derivedRows: (tables) => ledger.observeFlush(tables),
  });
  try {
    await syncWebsites(run, buffer);
  } finally {
    // A run that fails later still says which new combinations its flushes carried.
    counters.metricVersionNotices.push(...ledger.notices().map((notice) => notice.text));
  }
}

async function syncWebsites(run: RunContext, buffer: FlushBuffer): Promise<void> {
  const { client, counters } = run;

  const listing = await listWebsites(client);
  const taken = await reconcile(run, listing, buffer);

  const saved = new Map((await run.stateStore.load()).map((e) => [stateKey(e.stream, e.scope), e.state]));
  const planned = planWebsites(run, listing, taken);
  counters.websitesPlanned = planned.length;

  const abort = new AbortController();
  let fatal: unknown;
  // A fatal error elsewhere, or SIGTERM, stops every scan at its next page.
  const signal = run.signal ? AbortSignal.any([abort.signal, run.signal]) : abort.signal;
  await forEachConcurrent(planned, run.concurrency ?? 4, async (website) => {
    if (signal.aborted) return;
    try {
      if ((await syncWebsite(run, buffer, saved, website.id, website.measured, signal)) === 'done')
        counters.websitesDone++;
    } catch (error) {
      fatal ??= error;
      abort.abort();
    }
  });
  // Pages read before a fatal error or a stop are whole and valid: keep them.
  await buffer.flush();
  if (fatal !== undefined) throw fatal;
  run.signal?.throwIfAborted();
  await markRevoked(run);
}

/** Websites revoked during the run get `_removed_at` once their committed rows are durable; the rows stay. */
async function markRevoked(run: RunContext): Promise<void> {
  const revoked = run.counters.revokedWebsites;
  if (revoked.length === 0 || run.command !== 'sync') return;
  await run.destination.markWebsitesRemoved(revoked, run.syncedAt);
  run.counters.removedWebsites += revoked.length;
  run.logger.info('websites revoked during the run were marked removed', {
    count: revoked.length,
    website_ids: revoked,
  });
}

/**
 * Only a website's own API failures (after the client's retries) are contained to it, and
 * to the one stream that failed; a key the API refuses, a destination failure or a bug ends
 * the run.
 */
function isWebsiteLocal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status !== 401 && error.status !== 403;
}

/**
 * Every run checks the listing against the websites the destination knows of this workspace (a
 * key moved to another workspace must neither wipe nor fill the warehouse, whatever streams
 * run); only a `sync` of the websites stream writes the listing and marks removals. Returns the
 * listed ids another workspace already holds: they are rejected, and their streams skipped.
 */
async function reconcile(run: RunContext, listing: Listing, buffer: FlushBuffer): Promise<ReadonlySet<string>> {
  const { destination, counters, logger } = run;
  const { own, elsewhere } = splitByWorkspace(await destination.listActiveWebsites(), run.workspace);
  const removed = websitesToRemove(own, listing.seenIds);
  checkMassRemoval(removed.length, own.length, run.allowMassRemoval ?? false);
  await recordListingRejections(run, listing, buffer);
  const taken = await rejectTakenWebsites(run, listing, elsewhere, buffer);
  if (!(run.streams.includes(websitesStream.name) && run.command === 'sync')) return taken;
  const context = { runId: run.runId, syncedAt: run.syncedAt, workspace: run.workspace };
  const websites = listing.websites.filter(({ website }) => !taken.has(website.id));
  await buffer.add({
    tables: [
      {
        table: websitesTable,
        rows: websites.map(({ website, raw }) => websitesStream.toRow(website, raw, context)),
      },
      // The listing was read whole after the run started: complete through the run's start.
      ...completenessPart(readWholeRow(websitesStream.name, listingScope(run.workspace), run.syncedAt, run)),
    ],
  });
  counters.stream(websitesStream.name).rows += websites.length;
  // Removal marks only after the listing's rows are durable: a returning website is cleared first.
  await buffer.flush();
  if (removed.length > 0) {
    await destination.markWebsitesRemoved(removed, run.syncedAt);
    counters.removedWebsites = removed.length;
    logger.info('websites no longer listed were marked removed', { count: removed.length });
  }
  return taken;
}

/**
 * A listed website another workspace already holds (active there) is not overwritten: ids are
 * one space across workspaces, so the same id from two keys is a conflict for a person to
 * settle. It is rejected to `_aivis_rejected`, once per workspace and website, and its streams
 * are skipped; a website removed in its old workspace may move.
 */
async function rejectTakenWebsites(
  run: RunContext,
  listing: Listing,
  elsewhere: ReadonlyMap<string, string>,
  buffer: FlushBuffer,
): Promise<ReadonlySet<string>> {
  const taken = listing.websites.filter(({ website }) => elsewhere.has(website.id));
  if (taken.length === 0) return new Set();
  const rows = taken.map(({ website, raw }) =>
    rejectedRow({
      stream: websitesStream.name,
      scope: website.id,
      error: `website ${website.id} is already synced from workspace "${elsewhere.get(website.id)}"; an id seen from two workspaces is not overwritten`,
      raw,
      // The same conflict on every run is one rejection, whatever the website's fields say now.
      identity: { website_id: website.id },
      runId: run.runId,
      syncedAt: run.syncedAt,
      workspace: run.workspace,
    }),
  );
  await buffer.add({ tables: [{ table: rejectedTable, rows }] });
  run.counters.stream(websitesStream.name).rejected += rows.length;
  run.logger.error('websites already synced from another workspace were rejected; their streams are skipped', {
    workspace: run.workspace,
    website_ids: taken.map(({ website }) => website.id),
  });
  return new Set(taken.map(({ website }) => website.id));
}

/** The workspace's own active website ids, and the others' by id with their workspace. */
function splitByWorkspace(active: readonly ActiveWebsite[], workspace: string) {
  const own: string[] = [];
  const elsewhere = new Map<string, string>();
  for (const website of active) {
    if (website.workspace === workspace) own.push(website.id);
    else elsewhere.set(website.id, website.workspace);
  }
  return { own, elsewhere };
}

/** Listing records that break the schema are kept in `_aivis_rejected` whatever streams run. */
async function recordListingRejections(run: RunContext, listing: Listing, buffer: FlushBuffer): Promise<void> {
  if (listing.rejected.length === 0) return;
  const context = { runId: run.runId, syncedAt: run.syncedAt, workspace: run.workspace };
  const rows = listing.rejected.map((r) =>
    rejectedRow({ stream: websitesStream.name, scope: '*', error: r.error, raw: r.raw, ...context }),
  );
  await buffer.add({ tables: [{ table: rejectedTable, rows }] });
  run.counters.stream(websitesStream.name).rejected += rows.length;
  run.logger.warn('website records rejected', { count: rows.length });
}

function planWebsites(run: RunContext, listing: Listing, taken: ReadonlySet<string>) {
  const include = run.config.websites?.include;
  const only = run.websites;
  for (const id of only ?? []) {
    if (listing.seenIds.has(id)) continue;
    // Asked for by name and not there: a failure the exit code shows, not a silent skip.
    const error = 'not in the listing (removed, or not in this workspace)';
    run.counters.failedWebsites.push({ websiteId: id, stream: 'websites', error });
    run.logger.error(`website ${error}; skipped`, { website_id: id });
  }
  return listing.plan.filter(
    (w) =>
      !taken.has(w.id) &&
      (include === undefined || include.includes(w.id)) &&
      (only === undefined || only.includes(w.id)),
  );
}

/** `revoked`: the website disappeared during the run (see revoked-website.ts); its remaining streams were skipped. */
async function syncWebsite(
  run: RunContext,
  buffer: FlushBuffer,
  saved: Map<string, StreamState>,
  websiteId: string,
  measured: boolean,
  signal: AbortSignal,
): Promise<'done' | 'revoked'> {
  const context = { websiteId, runId: run.runId, syncedAt: run.now().toISOString(), workspace: run.workspace };
  let revoked = false;
  /** Runs one stream; a website-local failure is recorded (its state stays at its last committed page) and the next stream goes on. */
  const guard = async (stream: string, task: () => Promise<void>): Promise<void> => {
    if (revoked) return;
    try {
      await task();
    } catch (error) {
      if (!isWebsiteLocal(error)) throw error;
      if (await isRevoked(run.client, websiteId, error)) {
        revoked = true;
        run.counters.revokedWebsites.push(websiteId);
        run.logger.warn(
          'website revoked during the run (its feed and the website itself answer 404); its rows so far are kept and it is marked removed',
          { website_id: websiteId, stream },
        );
        return;
      }
      run.counters.failedWebsites.push({ websiteId, stream, error: error.message });
      run.logger.error('stream failed for this website; its state stays at its last committed page, the rest go on', {
        website_id: websiteId,
        stream,
        error: error.message,
      });
    }
  };
  const scanOf = (stream: AnyFeedStream, scan: FeedScan) => {
    const scope = websiteId + scan.scopeSuffix;
    const state = run.fullRefresh ? INITIAL_STATE : (saved.get(stateKey(stream.name, scope)) ?? INITIAL_STATE);
    return scanFeed({
      client: run.client,
      buffer,
      counters: run.counters,
      logger: run.logger,
      stream,
      scan,
      scope,
      context,
      saved: state,
      since: run.since,
      now: run.now,
      signal,
    });
  };
  /** Citations one scan per analysis, each failure recorded on its own (see citation-scans.ts). */
  const citationsPerAnalysis = async () => {
    let scans: FeedScan[] = [];
    await guard(citationsStream.name, async () => {
      scans = await scansPerAnalysis(run.client, websiteId);
    });
    run.counters.citationsPerAnalysis.websites++;
    run.counters.citationsPerAnalysis.scans += scans.length;
    for (const scan of scans) await guard(citationsStream.name, () => scanOf(citationsStream, scan));
  };
  const syncFeed = async (stream: AnyFeedStream) => {
    if (stream === citationsStream && run.citations.perAnalysis) return citationsPerAnalysis();
    for (const scan of stream.scans(streamOptions(stream, run.config))) {
      let refused = false;
      await guard(stream.name, async () => {
        try {
          await scanOf(stream, scan);
        } catch (error) {
          if (!(stream === citationsStream && needsAnalysisId(error))) throw error;
          refused = true;
          if (!run.citations.perAnalysis)
            run.logger.info('the API requires analysis_id for citations; reading them one scan per analysis', {
              website_id: websiteId,
            });
          run.citations.perAnalysis = true;
        }
      });
      if (refused) await citationsPerAnalysis();
    }
  };
  for (const stream of STREAMS) {
    if (!run.streams.includes(stream.name)) continue;
    switch (stream.kind) {
      case 'listing':
        // Read once, before any website (see `reconcile`).
        break;
      case 'snapshot':
        // A website never analysed has no snapshot yet: asking would be a certain 404.
        if (!measured) break;
        await guard(stream.name, async () => {
          const options = streamOptions(stream, run.config);
          const tables = await syncSnapshot({ client: run.client, counters: run.counters, stream, options, context });
          await buffer.add({ tables });
        });
        break;
      case 'feed':
        await syncFeed(stream);
        break;
    }
  }
  return revoked ? 'revoked' : 'done';
}

async function forEachConcurrent<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
