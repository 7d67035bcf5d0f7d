/** `aivis state show | reset`: read or clear saved positions, per stream and website. */
import type { CommandModule } from 'yargs';
import { loadConfig } from '../../config/load-config.ts';
import type { StateEntry } from '../../destination/destination.ts';
import { parseStreams, parseWebsites } from '../cli-arguments.ts';
import { createDestination } from '../destination-factory.ts';
import { createLogger } from '../../log/logger.ts';
import { createStateStore } from '../run-context.ts';

interface StateArgs {
  config?: string;
  action: 'show' | 'reset';
  stream?: string;
  website?: string;
}

/** A website's scopes are its id and its filtered scans (`web_1?provider=gemini`). */
function selects(entry: StateEntry, stream: string | undefined, website: string | undefined): boolean {
  if (stream !== undefined && entry.stream !== stream) return false;
  return website === undefined || entry.scope === website || entry.scope.startsWith(`${website}?`);
}

export const stateCommand: CommandModule<object, StateArgs> = {
  command: 'state <action>',
  describe: 'Show or reset saved sync state',
  builder: (yargs) =>
    yargs
      .positional('action', { choices: ['show', 'reset'] as const, demandOption: true })
      .option('stream', { type: 'string', describe: 'Only this stream' })
      .option('website', { type: 'string', describe: 'Only this website id' }) as never,
  handler: async (argv) => {
    const stream = parseStreams(argv.stream, '--stream')?.[0];
    const website = parseWebsites(argv.website)?.[0];
    const { config } = await loadConfig(argv.config);
    const logger = createLogger();
    const destination = await createDestination(config.destination, { logger });
    await destination.open();
    try {
      const store = createStateStore(config, destination);
      const entries = (await store.load()).filter((e) => selects(e, stream, website));
      entries.sort((a, b) => a.stream.localeCompare(b.stream) || a.scope.localeCompare(b.scope));
      if (argv.action === 'show') {
        for (const e of entries) process.stdout.write(JSON.stringify({ stream: e.stream, scope: e.scope, ...e.state, updated_at: e.updatedAt }) + '\n');
        if (entries.length === 0) process.stderr.write('no saved state matches\n');
        return;
      }
      let deleted = 0;
      for (const e of entries) deleted += await store.delete({ stream: e.stream, scope: e.scope });
      process.stdout.write(`deleted ${deleted} state entr${deleted === 1 ? 'y' : 'ies'}; the next sync reads ${deleted > 0 ? 'those feeds from the beginning' : 'as before'}\n`);
    } finally {
      await destination.close();
    }
  },
};
