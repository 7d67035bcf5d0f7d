/** Shared by `sync` and `backfill`: open, run with progress, summarise, close. */
import type { ExitCode } from '../errors.ts';
import { redact } from '../log/redact.ts';
import { RunCounters } from '../sync/run-counters.ts';
import { runSync, type RunSyncOptions } from '../sync/run-sync.ts';
import { startProgressDisplay } from './progress-display.ts';
import { openCommandResources } from './command-resources.ts';
import { formatRunSummary } from './run-summary.ts';
import { listenForStop } from './stop-signal.ts';

type SyncChoices = Omit<RunSyncOptions, 'config' | 'client' | 'destination' | 'stateStore' | 'logger' | 'counters'>;

export async function executeSync(argv: { config?: string }, choices: SyncChoices): Promise<ExitCode> {
  // A stop ends the request in flight and every wait at once; the pages already read are
  // committed with their state, the run row says `stopped`, the lock is released.
  const stop = listenForStop(
    (signal) => `stopped by ${signal}: every page read before it is saved, and the next run resumes from there`,
  );
  const resources = await openCommandResources(argv, { signal: stop.signal }).catch((error: unknown) => {
    stop.dispose();
    throw error;
  });
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
