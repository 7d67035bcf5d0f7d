/** The one-screen summary printed at the end of a sync or backfill, TTY or not. */
import type { ClientStats } from '../client/api-client.ts';
import { terminalLine } from '../log/inert-text.ts';
import type { RunSummary } from '../sync/run-sync.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';

/** `destination` names it as the summary's last line shows it: its type, and where when it has a path (`duckdb file /data/aivis_data.duckdb`). */
export function formatRunSummary(summary: RunSummary, stats: ClientStats, destination: string): string {
  const { counters } = summary;
  const seconds = (Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000;
  const workspace = summary.workspace === DEFAULT_WORKSPACE ? '' : ` workspace ${summary.workspace}`;
  const lines = [`aivis ${summary.command}${workspace} ${summary.runId}: ${summary.status} in ${seconds.toFixed(1)}s`];
  const failed = new Set(counters.failedWebsites.map((f) => f.websiteId)).size;
  const revoked =
    counters.revokedWebsites.length > 0
      ? ` (${counters.revokedWebsites.length} revoked during the run: ${counters.revokedWebsites.slice(0, 5).join(', ')}${counters.revokedWebsites.length > 5 ? ', ...' : ''})`
      : '';
  lines.push(
    `  websites  ${counters.websitesDone}/${counters.websitesPlanned} synced, ${failed} failed, ${counters.removedWebsites} marked removed${revoked}`,
  );
  // Change-driven reads (docs/configuration.md#change-driven-reads): what the run planner left out.
  lines.push(`  read ${counters.websitesRead} websites, skipped ${counters.websitesSkippedUnchanged} unchanged`);
  lines.push(`  ${'stream'.padEnd(18)}${'rows'.padStart(10)}${'rejected'.padStart(10)}`);
  for (const [name, c] of Object.entries(counters.streams)) {
    lines.push(`  ${name.padEnd(18)}${String(c.rows).padStart(10)}${String(c.rejected).padStart(10)}`);
  }
  const { websites, scans } = counters.citationsPerAnalysis;
  if (websites > 0)
    lines.push(
      `  citations read one scan per analysis for ${websites} websites (${scans} scans): the API requires analysis_id`,
    );
  for (const notice of counters.metricVersionNotices) lines.push(`  metric versions: ${notice}`);
  if (counters.contractChanges > 0)
    lines.push(
      `  contract: ${counters.contractChanges} change${counters.contractChanges === 1 ? '' : 's'} from the bundled contract (aivis check lists them)`,
    );
  if (counters.echoedKeys > 0)
    lines.push(
      `  the API sent the API key back ${counters.echoedKeys} time${counters.echoedKeys === 1 ? '' : 's'} inside its responses; stored as [REDACTED]`,
    );
  lines.push(
    `  requests  ${stats.requests} (retries ${stats.retries}, rate limited ${stats.throttled}, waited ${(stats.rateLimitWaitMs / 1000).toFixed(1)}s for the rate budget)`,
  );
  const jobs =
    counters.warehouseJobs > 0
      ? `, ${counters.warehouseJobs} warehouse jobs, ${counters.bytesProcessed} bytes processed`
      : '';
  lines.push(`  ${destination}  ${counters.flushes} flushes${jobs}`);
  for (const failure of counters.failedWebsites.slice(0, 10)) {
    // The error may quote a server's text: one line each, whatever it holds.
    lines.push(`  FAILED ${failure.websiteId} ${failure.stream}: ${terminalLine(failure.error)}`);
  }
  if (counters.failedWebsites.length > 10)
    lines.push(`  ... and ${counters.failedWebsites.length - 10} more failed streams`);
  if (counters.rejected > 0) {
    lines.push(`  ${counters.rejected} records rejected: see _aivis_rejected where _run_id = '${summary.runId}'`);
  }
  return lines.join('\n');
}
