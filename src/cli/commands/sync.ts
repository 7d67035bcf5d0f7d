import { parseStreams, parseWebsites, STREAMS_FLAG, WEBSITES_FLAG } from '../cli-arguments.ts';
import { executeSync } from '../execute-sync.ts';
import { parseWorkspaceFlags } from '../workspace-selection.ts';
import { defineCommand } from './cli-command.ts';

export const syncCommand = defineCommand({
  command: 'sync',
  describe: 'Sync the configured streams incrementally into the destination',
  builder: (yargs) =>
    yargs
      .option('workspace', { type: 'string', describe: 'Only these workspaces of the config (comma-separated)' })
      .option('shard', {
        type: 'string',
        describe: 'Only shard I of N of the workspaces, I from 0 (e.g. $JOB_COMPLETION_INDEX/4)',
      })
      .option('streams', STREAMS_FLAG)
      .option('websites', WEBSITES_FLAG)
      .option('full-refresh', {
        type: 'boolean',
        default: false,
        describe: 'Ignore saved state and re-read every feed (rows are upserted: no duplicates)',
      })
      .option('allow-mass-removal', {
        type: 'boolean',
        default: false,
        describe: 'Accept a listing that removes more than half of the known websites',
      }),
  handler: async (argv) => {
    return executeSync(argv, parseWorkspaceFlags(argv), {
      mode: {
        kind: 'sync',
        websites: parseWebsites(argv.websites, '--websites'),
        fullRefresh: argv['full-refresh'],
        allowMassRemoval: argv['allow-mass-removal'],
      },
      streams: parseStreams(argv.streams, '--streams'),
    });
  },
});
