/** Shared by `sync` and `backfill`: choose the workspaces, open, run with progress, summarise, close. */
import { loadConfig } from '../config/load-config.ts';
import { ExitCode } from '../errors.ts';
import { createLogger } from '../log/logger.ts';
import { redact } from '../log/redact.ts';
import { RunCounters } from '../sync/run-counters.ts';
import { runSync, type RunSyncOptions } from '../sync/run-sync.ts';
import { startProgressDisplay } from './progress-display.ts';
import { openCommandResources } from './command-resources.ts';
import { formatRunSummary } from './run-summary.ts';
import { soleWorkspace } from './single-workspace.ts';
import { listenForStop } from './stop-signal.ts';
import { selectWorkspaces, type WorkspaceSelection } from './workspace-selection.ts';

type SyncChoices = Omit<RunSyncOptions, 'config' | 'client' | 'destination' | 'stateStore' | 'logger' | 'counters'>;

export async function executeSync(
  argv: { config?: string },
  selection: WorkspaceSelection,
  choices: SyncChoices,
): Promise<ExitCode> {
  const loaded = await loadConfig(argv.config);
  const selected = selectWorkspaces(loaded.workspaces, selection);
  const verb = choices.command ?? 'sync';
  const workspace = soleWorkspace(loaded, verb);
  if (!selected.includes(workspace)) {
    // Only a shard comes out empty (--workspace names at least one known workspace): a pod of
    // an Indexed Job with more shards than workspaces has nothing to do, and that is success.
    const shard = `${selection.shard?.index}/${selection.shard?.count}`;
    createLogger().info(
      `--shard ${shard} selects none of the config's workspaces (${workspace.name}): nothing to ${verb}`,
    );
    return ExitCode.Success;
  }
  // A stop ends the request in flight and every wait at once; the pages already read are
  // committed with their state, the run row says `stopped`, the lock is released.
  const stop = listenForStop(
    (signal) => `stopped by ${signal}: every page read before it is saved, and the next run resumes from there`,
  );
  const resources = await openCommandResources(loaded.config, workspace, { signal: stop.signal }).catch(
    (error: unknown) => {
      stop.dispose();
      throw error;
    },
  );
  const onStop = () =>
    resources.logger.warn('stop requested: committing the pages already read, then exiting', {
      reason: (stop.signal.reason as Error).message,
    });
  stop.signal.addEventListener('abort', onStop, { once: true });
  const counters = new RunCounters();
  const stopProgress = startProgressDisplay(counters, resources.client.stats);
  try {
    const summary = await runSync({ ...resources, ...choices, counters, signal: stop.signal });
    stopProgress();
    process.stdout.write(`${redact(formatRunSummary(summary, resources.client.stats, resources.destination.type))}\n`);
    resources.logger.info('run finished', {
      run_id: summary.runId,
      status: summary.status,
      rows: counters.rows,
      rejected: counters.rejected,
      failed_websites: counters.failedWebsites.length,
      requests: resources.client.stats.requests,
    });
    return summary.exitCode;
  } finally {
    stop.dispose();
    stopProgress();
    await resources.close();
  }
}
