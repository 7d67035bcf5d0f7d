import { ConfigError } from '../../errors.ts';
import { BACKFILL_STREAM_NAMES } from '../../streams/registry.ts';
import { parseSince, parseStreams, parseWebsites, STREAMS_FLAG, WEBSITES_FLAG } from '../cli-arguments.ts';
import { executeSync } from '../execute-sync.ts';
import { parseWorkspaceFlags } from '../workspace-selection.ts';
import { defineCommand } from './cli-command.ts';

export const backfillCommand = defineCommand({
  command: 'backfill',
  describe: 'Re-read a stream from a point in time and upsert it, leaving the saved frontier where it is',
  builder: (yargs) =>
    yargs
      .option('streams', { ...STREAMS_FLAG, demandOption: true, describe: 'The feeds to re-read (comma-separated)' })
      .option('workspace', { type: 'string', describe: 'Only these workspaces of the config (comma-separated)' })
      .option('since', { type: 'string', demandOption: true, describe: 'UTC timestamp, e.g. 2026-01-01T00:00:00Z' })
      .option('websites', WEBSITES_FLAG),
  handler: async (argv) => {
    const streams = parseStreams(argv.streams, '--streams');
    const listing = streams?.find((name) => !BACKFILL_STREAM_NAMES.includes(name));
    if (listing !== undefined) {
      const names = `${BACKFILL_STREAM_NAMES.slice(0, -1).join(', ')} or ${BACKFILL_STREAM_NAMES.at(-1)}`;
      throw new ConfigError(`backfill re-reads feeds: name ${names} (every sync reads the ${listing} listing whole)`);
    }
    return executeSync(argv, parseWorkspaceFlags({ workspace: argv.workspace }), {
      mode: {
        kind: 'backfill',
        since: parseSince(argv.since, 'backfill'),
        websites: parseWebsites(argv.websites, '--websites'),
      },
      streams,
    });
  },
});
