/**
 * The one run every front end runs (docs/architecture.md#data-flow): `sync`, `backfill`,
 * `verify`, `aivis airbyte read` and `tap-aivis` differ only in their sink (`run-sink.ts`) and
 * their mode (`run-mode.ts`). Read top to bottom:
 *
 * lock -> open -> contract -> evolution -> flush buffer -> listing read and reconciled ->
 * read plan -> website pool -> last flush -> revoked websites -> close -> release
 *
 * A sink without a destination (the protocol outputs) leaves out the lock and the evolution of
 * tables. Failures are contained where docs/architecture.md#state-rules wants them: a website's
 * stream that fails is the observer's to record and the run goes on; an unusable key, a refused
 * listing, a failed commit or a stop ends the run, after the pages read so far are flushed.
 */
import os from 'node:os';
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import type { DestinationLock } from '../destination/destination.ts';
import { evolveTables, RunEvolution } from '../evolution/evolve-tables.ts';
import { FeedReader } from '../feed/feed-reader.ts';
import { listWebsites, NOT_LISTED } from '../feed/list-websites.ts';
import type { Logger } from '../log/logger.ts';
import type { StreamState } from '../state/state-entry.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import type { StreamName } from '../streams/index.ts';
import { FlushBuffer } from './flush-buffer.ts';
import { reconcileListing } from './listing-reconciliation.ts';
import { planReads } from './read-plan.ts';
import { allowsMassRemoval, namedWebsites, readSince, refusesUnlisted, type RunMode } from './run-mode.ts';
import type { RunSink } from './run-sink.ts';
import { readInPool } from './website-pool.ts';

export interface RunFrame {
  readonly client: ApiClient;
  readonly config: AivisConfig;
  readonly logger: Logger;
  readonly workspace: string;
  readonly mode: RunMode;
  /** The streams selected for the run, in registry order. */
  readonly streams: readonly StreamName[];
  readonly runId: string;
  /** The run's clock: its start, the rows' `_synced_at`, the flush buffer's seconds. */
  readonly now: () => Date;
  /** Websites read at once. */
  readonly concurrency: number;
  /** Stops the run: scans stop at their next page, what was read is flushed, the abort reason is thrown. */
  readonly signal?: AbortSignal;
}

/** Runs the frame into `sink`. Throws what ended the run, after the sink closed and before the lock is released. */
export async function runFrame(frame: RunFrame, sink: RunSink): Promise<void> {
  const startedAt = frame.now().toISOString();
  const lock = await acquireLock(frame, sink, startedAt);
  try {
    await sink.open?.(startedAt);
    let error: unknown;
    try {
      await readRun(frame, sink, startedAt);
    } catch (caught) {
      error = caught;
    }
    await sink.close?.(error);
    if (error !== undefined) throw error;
  } finally {
    // A lock that cannot be released (its session already gone) must not hide the run's outcome.
    await lock?.release().catch((error: unknown) =>
      frame.logger.warn('could not release the run lock; it ends with its session or lease', {
        error: String(error),
      }),
    );
  }
}

function acquireLock(frame: RunFrame, sink: RunSink, startedAt: string): Promise<DestinationLock> | undefined {
  const { runId, workspace } = frame;
  return sink.destination?.destination.acquireLock({
    runId,
    host: os.hostname(),
    pid: process.pid,
    startedAt,
    workspace,
  });
}

async function readRun(frame: RunFrame, sink: RunSink, startedAt: string): Promise<void> {
  const { client, logger, mode } = frame;
  const contract = await sink.readContract(startedAt);
  // The document in force decides the columns before any row is read (docs/served-contract.md#schema-evolution).
  const evolution =
    sink.destination && contract.declared
      ? await evolveTables({
          destination: sink.destination.destination,
          tables: sink.destination.tables,
          mode: sink.destination.schemaEvolution,
          declared: contract.declared,
          maxColumns: sink.destination.maxEvolvedColumns,
          logger,
        })
      : (contract.evolution ?? new RunEvolution());
  await sink.evolved?.(evolution);
  const buffer = new FlushBuffer(await sink.flushing(evolution));
  if (contract.firstRows) await buffer.add(contract.firstRows);

  const listing = await listWebsites(client, contract.validation);
  const reconciled = reconcileListing({
    listing,
    known: await sink.knownWebsites(),
    workspace: frame.workspace,
    config: frame.config,
    named: namedWebsites(mode),
    allowMassRemoval: allowsMassRemoval(mode),
    refusesUnlisted: refusesUnlisted(mode),
  });
  await sink.listed(listing, reconciled, buffer);
  for (const id of reconciled.unlisted) {
    // Asked for by name and not there: a failure the exit code shows, not a silent skip.
    sink.observer.streamFailed({ websiteId: id, stream: 'websites', error: NOT_LISTED });
    logger.error(`website ${NOT_LISTED}; skipped`, { website_id: id });
  }
  const saved = await sink.savedPositions();
  const streamsOf = await sink.decideReads?.(reconciled.planned, buffer);
  const reads = planReads(reconciled.planned, frame.streams, sink.reads?.bind(sink), streamsOf);
  sink.planned?.(reads);

  const revoked: string[] = [];
  const observer = sink.observer;
  const reader = new FeedReader({
    client,
    logger,
    config: frame.config,
    observer: {
      pageRead: (stream, counts) => observer.pageRead(stream, counts),
      fellBack: (stream, websiteId, scans) => observer.fellBack(stream, websiteId, scans),
      streamFailed: (failure) => observer.streamFailed(failure),
      websiteRevoked: (websiteId) => {
        revoked.push(websiteId);
        observer.websiteRevoked(websiteId);
      },
    },
    validation: contract.validation,
    evolution,
    runId: frame.runId,
    workspace: frame.workspace,
    now: frame.now,
    position: startingPosition(mode, saved),
    since: readSince(mode),
  });
  try {
    await readInPool({
      reads,
      reader,
      pagesOf: (website) => sink.pagesOf(website, buffer),
      concurrency: frame.concurrency,
      signal: frame.signal,
    });
  } finally {
    // The pages read before a failure or a stop are whole and valid: they are committed.
    await buffer.flush();
  }
  frame.signal?.throwIfAborted();
  await sink.revoked(revoked);
}

/** Where each scan starts, as the mode says: the saved position, or the start of the feed. */
function startingPosition(
  mode: RunMode,
  saved: (stream: string, scope: string) => StreamState,
): (stream: string, scope: string) => StreamState {
  switch (mode.kind) {
    case 'sync':
      return mode.fullRefresh ? () => INITIAL_STATE : saved;
    case 'protocol':
      return (stream, scope) => (mode.resumed.has(stream as StreamName) ? saved(stream, scope) : INITIAL_STATE);
    case 'backfill':
    case 'verify':
      // Every scan starts at the mode's `since`, and no state is handed on.
      return () => INITIAL_STATE;
  }
}
