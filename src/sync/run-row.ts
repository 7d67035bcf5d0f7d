/** The `_aivis_runs` row of a run: written when it starts, rewritten when it ends. */
import type { TableRows } from '../destination/destination.ts';
import { redact } from '../log/redact.ts';
import { runsTable } from '../tables/index.ts';
import type { RunCounters } from './run-counters.ts';

/** A workspace's run row: one per workspace run, each with its own id. */
export function startRunRow(input: {
  runId: string;
  lineageRunId: string;
  command: string;
  startedAt: string;
  workspace: string;
}): TableRows {
  return {
    table: runsTable,
    rows: [
      {
        id: input.runId,
        command: input.command,
        started_at: input.startedAt,
        finished_at: null,
        status: 'running',
        counts: '{}',
        error: null,
        lineage_run_id: input.lineageRunId,
        _workspace: input.workspace,
      },
    ],
  };
}

export function finishRunRow(input: {
  runId: string;
  lineageRunId: string;
  command: string;
  startedAt: string;
  finishedAt: string;
  status: string;
  counters: RunCounters;
  error: unknown;
  workspace: string;
}): TableRows {
  const { counters } = input;
  const counts = {
    streams: counters.streams,
    websites: {
      planned: counters.websitesPlanned,
      done: counters.websitesDone,
      failed: counters.failedWebsites,
      removed: counters.removedWebsites,
      ...(counters.revokedWebsites.length > 0 ? { revoked: counters.revokedWebsites } : {}),
    },
    websites_read: counters.websitesRead,
    websites_skipped_unchanged: counters.websitesSkippedUnchanged,
    flushes: counters.flushes,
    warehouse_jobs: counters.warehouseJobs,
    bytes_processed: counters.bytesProcessed,
    ...(counters.citationsPerAnalysis.websites > 0 ? { citations_per_analysis: counters.citationsPerAnalysis } : {}),
    ...(counters.metricVersionNotices.length > 0 ? { metric_versions: counters.metricVersionNotices } : {}),
    contract_changes: counters.contractChanges,
    ...(counters.echoedKeys > 0 ? { echoed_keys_redacted: counters.echoedKeys } : {}),
  };
  const error =
    input.error === undefined ? null : redact(input.error instanceof Error ? input.error.message : String(input.error));
  return {
    table: runsTable,
    rows: [
      {
        id: input.runId,
        command: input.command,
        started_at: input.startedAt,
        finished_at: input.finishedAt,
        status: input.status,
        counts: redact(JSON.stringify(counts)),
        error,
        lineage_run_id: input.lineageRunId,
        _workspace: input.workspace,
      },
    ],
  };
}
