/**
 * One run of `aivis sync` or `aivis backfill` (docs/architecture.md#data-flow): the run frame
 * (`src/run/run-frame.ts`) into the destination (`destination-sink.ts`). The frame takes the
 * lock, reads the contract and evolves the tables, reads and reconciles the listing, reads each
 * planned website's streams through the feed reader in a pool into the flush buffer, and
 * releases the lock; the sink ensures the tables, keeps the run row and the listing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AivisConfig } from '../../schemas/config.ts';
import type { Destination } from '../destination/destination.ts';
import type { RunCommand } from '../destination/engine-tables.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import { viewsOver } from '../destination/view-spec.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { ConfigError, ExitCode } from '../errors.ts';
import { tablesAsStored } from '../evolution/evolution-plan.ts';
import { runFrame } from '../run/run-frame.ts';
import { runCommand, SYNC_MODE } from '../run/run-mode.ts';
import { STREAM_NAMES, STREAM_TABLES, type StreamName } from '../streams/index.ts';
import { ENGINE_TABLES, viewsFor, websitesTable } from '../tables/index.ts';
import { DestinationSink, type RunStatus } from './destination-sink.ts';
import { RunCounters } from './run-counters.ts';
import type { RunSyncOptions } from './run-sync-options.ts';

/** Websites synced at once when the config does not say. */
const DEFAULT_CONCURRENCY = 4;

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

/**
 * The views over `tables` as the destination holds them, columns schema evolution added
 * included, described as the run's evolved tables (`described`) describe their columns.
 */
async function ensureSyncViews(
  destination: Destination,
  tables: readonly TableSpec[],
  described: readonly TableSpec[] = [],
): Promise<void> {
  const stored = tablesAsStored(tables, await destination.columnTypes(tables), described);
  await destination.ensureViews(viewsOver(viewsFor(stored), stored));
}

export async function runSync(options: RunSyncOptions): Promise<RunSummary> {
  const now = options.now ?? (() => new Date());
  const mode = options.mode ?? SYNC_MODE;
  const runId = options.runId ?? newRunId(now());
  const counters = options.counters ?? new RunCounters();
  const streams = selectedStreams(options.config, options.streams);
  const workspace = options.workspace ?? DEFAULT_WORKSPACE;
  const tables = syncTables(options.config, streams);
  const sink = new DestinationSink({
    ...options,
    workspace,
    mode,
    streams,
    tables,
    runId,
    lineageRunId: options.lineageRunId ?? randomUUID(),
    counters,
    now,
    // The views come once evolution is known (`evolved`), not here as well.
    ensureTables: () => options.destination.ensureTables(tables),
    ensureViews: (described) => ensureSyncViews(options.destination, tables, described),
  });
  await runFrame(
    {
      ...options,
      workspace,
      mode,
      streams,
      runId,
      now,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    },
    sink,
  );
  const { status, finishedAt } = sink.ending!;
  const exitCode = status === 'succeeded' ? ExitCode.Success : ExitCode.Partial;
  return {
    runId,
    workspace,
    command: runCommand(mode),
    status,
    exitCode,
    startedAt: sink.startedAt,
    finishedAt,
    counters,
  };
}
