/**
 * `aivis status`: is the warehouse fresh? Reads only the destination (no API call): the last
 * run, rejected records since the last success, and per configured stream the oldest
 * `complete_through` over the websites still listed. Exit 0 when fresh, 4 when a stream is
 * older than `--max-staleness` or the last run failed (for an Airflow task or a probe), 2 for
 * a bad flag. Without `--max-staleness` only a failed last run is stale.
 */
import { loadConfig } from '../../config/load-config.ts';
import { createLogger } from '../../log/logger.ts';
import { jsonLine, terminalLine } from '../../log/inert-text.ts';
import { selectedStreams } from '../../sync/run-sync.ts';
import { changeSettings } from '../../plan/change-settings.ts';
import { readStatus } from '../../trust/read-status.ts';
import { formatAge, type StatusVerdict } from '../../trust/staleness.ts';
import { withDestination } from '../with-destination.ts';
import { parseDuration } from '../duration.ts';
import { parseWorkspaceFlags, selectOneWorkspace } from '../workspace-selection.ts';
import { defineCommand } from './cli-command.ts';

/** The human summary: a verdict line, the last run, one line per stream, then why it is stale. */
function formatStatus(verdict: StatusVerdict): string {
  const { report } = verdict;
  const lines = [`aivis status: ${verdict.headline}`];
  const run = report.last_run;
  lines.push(
    run === null
      ? '  last run  none recorded'
      : `  last run  ${run.id} (${run.command}) ${run.status}, started ${run.started_at}${run.finished_at === null ? '' : `, finished ${run.finished_at}`}`,
  );
  lines.push(`  rejected  ${report.rejected_since_last_success} records since the last successful run`);
  lines.push(`  ${'stream'.padEnd(18)}${'complete through'.padEnd(30)}${'websites'.padEnd(12)}age`);
  for (const stream of report.streams) {
    const age = stream.age_seconds === null ? '-' : formatAge(stream.age_seconds);
    const websites = stream.websites === null ? '-' : `${stream.websites_complete}/${stream.websites}`;
    lines.push(
      `  ${stream.stream.padEnd(18)}${(stream.complete_through ?? 'never').padEnd(30)}${websites.padEnd(12)}${age}${stream.stale ? '  STALE' : ''}`,
    );
  }
  // A run's error may quote a server's text: one line each, whatever it holds.
  for (const reason of verdict.reasons) lines.push(`  STALE: ${terminalLine(reason)}`);
  return lines.join('\n');
}

export const statusCommand = defineCommand({
  command: 'status',
  describe: 'Say whether the warehouse is fresh: the last run and how far each stream is complete (exit 4 when stale)',
  builder: (yargs) =>
    yargs
      .option('max-staleness', {
        type: 'string',
        describe: 'A stream complete through an older time than this is stale (90m, 6h, 2d)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print one JSON object' })
      .option('workspace', {
        type: 'string',
        describe: 'Only these workspaces of the config (comma-separated)',
      }),
  handler: async (argv) => {
    const maxStalenessSeconds = parseDuration(argv['max-staleness'], '--max-staleness');
    const selection = parseWorkspaceFlags({ workspace: argv.workspace });
    // A monitoring probe reads the destination only: the API key is not needed, so not read.
    const loaded = await loadConfig(argv.config, process.env, createLogger(), 'none');
    const workspace = selectOneWorkspace(loaded.workspaces, selection, 'status');
    const { config } = loaded;
    const logger = createLogger({ level: 'warn' });
    return withDestination(config.destination, { logger }, async (destination) => {
      const verdict = await readStatus(destination, {
        workspace: workspace.name,
        streams: selectedStreams(config),
        now: new Date(),
        maxStalenessSeconds,
        include: config.websites?.include,
        change: changeSettings(workspace.source),
      });
      process.stdout.write(`${argv.json ? jsonLine(verdict.report) : formatStatus(verdict)}\n`);
      return verdict.exitCode;
    });
  },
});
