/** `aivis verify`: proves after the fact that a closed window of a feed reached the destination whole (docs/architecture.md#verify). */
import { randomUUID } from 'node:crypto';
import { ConfigError, ExitCode } from '../../errors.ts';
import { streamDataset, tableDataset } from '../../lineage/dataset-names.ts';
import { startLineageRun, withLineage } from '../../lineage/lineage-run.ts';
import { lineageSettings } from '../../lineage/lineage-settings.ts';
import { tableFields } from '../../lineage/run-event.ts';
import { packageVersion } from '../package-version.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createLogger } from '../../log/logger.ts';
import { redact } from '../../log/redact.ts';
import { FEED_STREAMS, STREAM_NAMES } from '../../streams/registry.ts';
import { selectedStreams } from '../../sync/run-sync.ts';
import { verifyExitCode } from '../../verify/verify-comparison.ts';
import { describeEstimate } from '../../verify/verify-estimate.ts';
import { verifyStream } from '../../verify/verify-stream.ts';
import {
  parseSelection,
  parseSince,
  parseUntil,
  parseWebsites,
  STREAMS_FLAG,
  WEBSITES_FLAG,
} from '../cli-arguments.ts';
import { openCommandResources } from '../command-resources.ts';
import { listenForStop } from '../stop-signal.ts';
import { readContractInForce } from '../../contract/run-contract.ts';
import { declaredIn } from '../../evolution/evolution-plan.ts';
import { formatVerifyReport } from '../verify-report.ts';
import { parseWorkspaceFlags, selectOneWorkspace } from '../workspace-selection.ts';
import { defineCommand } from './cli-command.ts';

const FEED_NAMES: readonly string[] = FEED_STREAMS.map((s) => s.name);

/** Only a feed has a window to re-read; the listing and the snapshot hold the present only. */
function feedStream(name: string) {
  const stream = FEED_STREAMS.find((s) => s.name === name);
  if (stream) return stream;
  const names = `${FEED_NAMES.slice(0, -1).join(', ')} or ${FEED_NAMES.at(-1)}`;
  const why = (STREAM_NAMES as readonly string[]).includes(name)
    ? ` (${STREAM_NAMES.filter((n) => !FEED_NAMES.includes(n)).join(' and ')} hold the present only: the websites listing is read whole and reconciled by every sync, analytics is each website's latest snapshot, replaced as new ones arrive)`
    : '';
  throw new ConfigError(`verify compares a window of a feed: name ${names}, not "${name}"${why}`);
}

export const verifyCommand = defineCommand({
  command: 'verify',
  describe: 'Re-read a closed window of a feed and compare it with the destination, row id by row id',
  builder: (yargs) =>
    yargs
      .option('streams', {
        ...STREAMS_FLAG,
        demandOption: true,
        describe: `The feeds to verify (${FEED_NAMES.join(', ')}; comma-separated)`,
      })
      .option('since', { type: 'string', demandOption: true, describe: 'UTC timestamp, e.g. 2026-01-01T00:00:00Z' })
      .option('until', { type: 'string', describe: "UTC timestamp; default and upper limit: each website's frontier" })
      .option('repair', {
        type: 'boolean',
        default: false,
        describe: 'Upsert the missing rows (never deletes extra ones, never moves state)',
      })
      .option('websites', WEBSITES_FLAG)
      .option('workspace', { type: 'string', describe: 'Only these workspaces of the config (comma-separated)' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'Print the report as JSON: one object per stream, one a line',
      }),
  handler: async (argv) => {
    const streams = (parseSelection(argv.streams, '--streams', 'feed') ?? []).map(feedStream);
    const since = parseSince(argv.since, 'verify');
    const until = parseUntil(argv.until, since);
    const websites = parseWebsites(argv.websites, '--websites');
    const selection = parseWorkspaceFlags({ workspace: argv.workspace });
    const loaded = await loadConfig(argv.config, process.env, createLogger(), (names) => [
      selectOneWorkspace(
        names.map((name) => ({ name })),
        selection,
        'verify',
      ).name,
    ]);
    const workspace = selectOneWorkspace(loaded.workspaces, selection, 'verify');
    const stop = listenForStop(
      (signal) => `stopped by ${signal}: rows repaired so far are saved; nothing else changed`,
    );
    try {
      const resources = await openCommandResources(loaded.config, workspace, 'verify', { signal: stop.signal });
      try {
        selectedStreams(
          resources.config,
          streams.map((stream) => stream.name),
        );
        const { validation, document } = await readContractInForce({
          ...resources,
          now: new Date().toISOString(),
        });
        // One report per feed, in the order named; the exit code is the worst of them.
        let exitCode: ExitCode = ExitCode.Success;
        for (const stream of streams) {
          // Only a repair writes: it is a run with lineage (input the stream, output its table).
          const repaired = {
            dataset: tableDataset(loaded.config.destination, stream.table.name),
            fields: tableFields(stream.table),
          };
          const lineage = startLineageRun({
            settings: argv.repair ? lineageSettings(loaded) : undefined,
            logger: resources.logger,
            version: packageVersion(),
            runId: randomUUID(),
            jobName: `${workspace.name}.verify`,
            inputs: [streamDataset(workspace.source.base_url, stream.name)],
            outputs: [repaired],
          });
          const work = () =>
            verifyStream({
              ...resources,
              stream,
              validation,
              declared: declaredIn(document),
              mode: {
                kind: 'verify',
                since,
                ...(until === undefined ? {} : { until }),
                ...(websites === undefined ? {} : { websites }),
                repair: argv.repair,
              },
              now: () => new Date(),
              signal: stop.signal,
              onEstimate: (estimate) =>
                resources.logger.info(describeEstimate(stream.name, estimate, workspace.source.requests_per_minute), {
                  ...estimate,
                }),
            });
          const report = await withLineage(lineage, stop.signal, [repaired], work, (done) => ({
            eventType: 'COMPLETE',
            outputs: [{ ...repaired, rowCount: done.repaired }],
          }));
          const text = argv.json ? JSON.stringify(report) : formatVerifyReport(report, argv.repair);
          process.stdout.write(`${redact(text)}\n`);
          // 3 (differences, failures) wins over 4 (never synced), which wins over 0.
          const code = verifyExitCode(report);
          if (exitCode !== ExitCode.Partial && code !== ExitCode.Success) exitCode = code;
        }
        return exitCode;
      } finally {
        await resources.close();
      }
    } finally {
      stop.dispose();
    }
  },
});
