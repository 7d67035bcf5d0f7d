/**
 * What the observability ecosystem sees of one `sync` or `backfill` run of a workspace
 * (docs/architecture.md#lineage-and-metrics): its OpenLineage events (START now; COMPLETE,
 * FAIL or ABORT at the end, with the rows each table took) and, at the end, its Prometheus
 * gauges. Neither ever changes the run's outcome: each failure is a warning.
 */
import { randomUUID } from 'node:crypto';
import type { AivisConfig } from '../../schemas/config.ts';
import type { ClientStats } from '../client/client-stats.ts';
import type { Destination } from '../destination/destination.ts';
import { AivisError, ExitCode } from '../errors.ts';
import { streamDataset, tableDataset } from '../lineage/dataset-names.ts';
import { failedEnd, startLineageRun } from '../lineage/lineage-run.ts';
import type { LineageSettings } from '../lineage/lineage-settings.ts';
import { type OutputTable, tableFields } from '../lineage/run-event.ts';
import type { Logger } from '../log/logger.ts';
import { publishRunMetrics } from '../metrics/publish-metrics.ts';
import { runMetrics } from '../metrics/run-metrics.ts';
import { STREAM_TABLES, type StreamName } from '../streams/index.ts';
import type { RunCounters } from '../sync/run-counters.ts';
import { type RunSummary, selectedStreams, syncTables } from '../sync/run-sync.ts';
import { changeSettings } from '../plan/change-settings.ts';
import { readStatus } from '../trust/read-status.ts';
import { packageVersion } from './package-version.ts';

export interface ObservedRun {
  /** The run's OpenLineage runId, to record in its `_aivis_runs` row. */
  readonly lineageRunId: string;
  /** After the run: its last event and its metrics. `error` when it threw; a throw by `signal` (a stop) is an ABORT. */
  finish(outcome: { summary?: RunSummary; error?: unknown; signal: AbortSignal }): Promise<void>;
}

export interface ObserveRunInput {
  readonly config: AivisConfig;
  readonly lineage: LineageSettings | undefined;
  readonly workspace: string;
  readonly baseUrl: string;
  readonly command: 'sync' | 'backfill';
  readonly streams: readonly StreamName[] | undefined;
  /** Absent when it could not be opened: no `complete_through` is read then. */
  readonly destination?: Destination;
  readonly counters: RunCounters;
  readonly clientStats: ClientStats;
  readonly logger: Logger;
}

/**
 * Starts the observation. Whatever goes wrong in it, at the start or at the finish, is a
 * warning: it never replaces what the run returns or throws.
 */
export function observeRun(input: ObserveRunInput): ObservedRun {
  const lineageRunId = randomUUID();
  const unobserved = (error: unknown) =>
    input.logger.warn('lineage and metrics of the run not published; the run goes on without them', {
      workspace: input.workspace,
      error: error instanceof Error ? error.message : String(error),
    });
  let observed: ObservedRun;
  try {
    observed = startObservation(input, lineageRunId);
  } catch (error) {
    unobserved(error);
    return { lineageRunId, finish: async () => {} };
  }
  return {
    lineageRunId,
    finish: (outcome) => observed.finish(outcome).catch(unobserved),
  };
}

function startObservation(input: ObserveRunInput, lineageRunId: string): ObservedRun {
  const { config, counters } = input;
  const startedAt = Date.now();
  const streams = selectedStreams(config, input.streams);
  // Announced: the selected streams' tables. At the end: those, and any other table the run's
  // flushes put rows into (_aivis_rejected, _aivis_completeness, metric_versions, websites).
  const planned = streams.flatMap((stream) => STREAM_TABLES[stream]);
  const tables = syncTables(config, input.streams);
  // The columns schema evolution added show once the run has evolved the tables.
  const asWritten = (table: (typeof tables)[number]) =>
    counters.evolvedTables.find((evolved) => evolved.name === table.name) ?? table;
  const output = (table: (typeof tables)[number], rowCount?: number): OutputTable => ({
    dataset: tableDataset(config.destination, table.name),
    fields: tableFields(asWritten(table)),
    ...(rowCount === undefined ? {} : { rowCount }),
  });
  const lineage = startLineageRun({
    settings: input.lineage,
    logger: input.logger,
    version: packageVersion(),
    runId: lineageRunId,
    jobName: `${input.workspace}.${input.command}`,
    inputs: streams.map((stream) => streamDataset(input.baseUrl, stream)),
    outputs: planned.map((table) => output(table)),
  });
  return {
    lineageRunId,
    async finish({ summary, error, signal }) {
      const written = tables.filter((table) => planned.includes(table) || (counters.tables[table.name] ?? 0) > 0);
      const exitCode = summary?.exitCode ?? (error instanceof AivisError ? error.exitCode : ExitCode.Failure);
      const outputs = written.map((table) => output(table, counters.tables[table.name] ?? 0));
      await Promise.all([
        lineage.finish(summary ? { eventType: 'COMPLETE', outputs } : failedEnd(error, signal, outputs)),
        config.metrics &&
          publishRunMetrics(
            config.metrics,
            input.workspace,
            runMetrics({
              finishedAt: new Date(),
              durationSeconds: (Date.now() - startedAt) / 1000,
              exitCode,
              succeeded: summary?.status === 'succeeded',
              streams,
              streamCounts: counters.streams,
              apiRequests: input.clientStats.requests,
              rateLimitedResponses: input.clientStats.throttled,
              completeThrough: await completeThrough(input, streams),
              websitesRead: counters.websitesRead,
              websitesSkippedUnchanged: counters.websitesSkippedUnchanged,
            }),
            input.logger,
          ),
      ]);
    },
  };
}

/** Each stream's oldest committed `complete_through`, as `aivis status` reads it; undefined when the destination cannot say. */
async function completeThrough(input: ObserveRunInput, streams: readonly string[]) {
  if (!input.destination) return undefined;
  try {
    const verdict = await readStatus(input.destination, {
      workspace: input.workspace,
      streams,
      now: new Date(),
      maxStalenessSeconds: undefined,
      include: input.config.websites?.include,
      change: changeSettings(input.config.sources?.[input.workspace] ?? input.config.source),
    });
    return verdict.report.streams.map((s) => ({
      stream: s.stream,
      completeThrough: s.complete_through,
      checkedThrough: s.checked_through,
    }));
  } catch (error) {
    input.logger.warn('complete_through not read for the metrics; its gauge keeps its last value', {
      workspace: input.workspace,
      error: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}
