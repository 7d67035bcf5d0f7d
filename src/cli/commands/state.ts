/** `aivis state show | reset`: read or clear saved positions, per stream and website. */
import os from 'node:os';
import { loadConfig } from '../../config/load-config.ts';
import { ConfigError, ExitCode } from '../../errors.ts';
import { DEFAULT_WORKSPACE } from '../../destination/workspace.ts';
import type { StateEntry } from '../../state/state-entry.ts';
import { parseStreams, parseWebsites, STREAMS_FLAG, WEBSITES_FLAG } from '../cli-arguments.ts';
import { withDestination } from '../with-destination.ts';
import { jsonLine } from '../../log/inert-text.ts';
import { createLogger } from '../../log/logger.ts';
import { newRunId } from '../../sync/run-sync.ts';
import { createStateStore } from '../command-resources.ts';
import { parseWorkspaceFlags, selectWorkspaces } from '../workspace-selection.ts';
import { defineCommand } from './cli-command.ts';

/** A website's scopes are its id and its filtered scans (`web_1?provider=gemini`). */
function selects(
  entry: StateEntry,
  streams: readonly string[] | undefined,
  websites: readonly string[] | undefined,
): boolean {
  if (streams !== undefined && !streams.includes(entry.stream)) return false;
  return websites === undefined || websites.some((w) => entry.scope === w || entry.scope.startsWith(`${w}?`));
}

/** A website named for a reset with no saved state to reset is a typo (or the wrong --streams): exit 2, nothing deleted. */
function refuseStateless(
  websites: readonly string[] | undefined,
  streams: readonly string[] | undefined,
  entries: readonly StateEntry[],
): void {
  const stateless = (websites ?? []).filter((w) => !entries.some((e) => selects(e, undefined, [w])));
  if (stateless.length === 0) return;
  const of = streams === undefined ? '' : ` for ${streams.join(', ')}`;
  throw new ConfigError(
    `--websites names ${stateless.join(', ')} with no saved state${of}: nothing was reset; aivis state show lists what there is`,
  );
}

export const stateCommand = defineCommand({
  command: 'state <action>',
  describe: 'Show or reset saved sync state',
  builder: (yargs) =>
    yargs
      .positional('action', { choices: ['show', 'reset'] as const, demandOption: true })
      .option('workspace', { type: 'string', describe: 'Only these workspaces of the config (comma-separated)' })
      .option('streams', STREAMS_FLAG)
      .option('websites', WEBSITES_FLAG),
  handler: async (argv) => {
    const streams = parseStreams(argv.streams, '--streams');
    const websites = parseWebsites(argv.websites, '--websites');
    const selection = parseWorkspaceFlags({ workspace: argv.workspace });
    const logger = createLogger();
    // State lives in the destination (or a file): the API key is not needed, so not read.
    const loaded = await loadConfig(argv.config, process.env, logger, 'none');
    const selected = selectWorkspaces(loaded.workspaces, selection);
    const { config } = loaded;
    return withDestination(config.destination, { logger }, async (destination) => {
      let shown = 0;
      let deleted = 0;
      // Each workspace's state is its own (docs/architecture.md#many-workspaces): read it, and reset it under its lock.
      const chosen = [];
      for (const { name: workspace } of selected) {
        const store = createStateStore(config, destination, workspace);
        const entries = (await store.load()).filter((e) => selects(e, streams, websites));
        entries.sort((a, b) => a.stream.localeCompare(b.stream) || a.scope.localeCompare(b.scope));
        chosen.push({ workspace, store, entries });
      }
      if (argv.action === 'reset')
        refuseStateless(
          websites,
          streams,
          chosen.flatMap((c) => c.entries),
        );
      for (const { workspace, store, entries } of chosen) {
        if (argv.action === 'show') {
          // `default` prints as before workspaces; the others say whose entry it is.
          const of = workspace === DEFAULT_WORKSPACE ? {} : { workspace };
          for (const e of entries)
            process.stdout.write(
              `${jsonLine({ ...of, stream: e.stream, scope: e.scope, ...e.state, updated_at: e.updatedAt })}\n`,
            );
          shown += entries.length;
          continue;
        }
        // Under the workspace's run lock: a sync of it running meanwhile would write its state straight back.
        const lock = await destination.acquireLock({
          runId: newRunId(new Date()),
          host: os.hostname(),
          pid: process.pid,
          startedAt: new Date().toISOString(),
          workspace,
        });
        try {
          for (const e of entries) deleted += await store.delete({ stream: e.stream, scope: e.scope });
        } finally {
          await lock.release();
        }
      }
      if (argv.action === 'show') {
        if (shown === 0) logger.info('no saved state matches');
        return ExitCode.Success;
      }
      process.stdout.write(
        `deleted ${deleted} state entr${deleted === 1 ? 'y' : 'ies'}; the next sync reads ${deleted > 0 ? 'those feeds from the beginning' : 'as before'}\n`,
      );
      return ExitCode.Success;
    });
  },
});
