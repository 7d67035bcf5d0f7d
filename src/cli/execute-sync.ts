/** Shared by `sync` and `backfill`: open, run with progress, summarise, close. */
import { redact } from '../log/redact.ts';
import { RunCounters } from '../sync/run-counters.ts';
import { runSync, type RunSyncOptions } from '../sync/run-sync.ts';
import { startProgressDisplay } from './progress-display.ts';
import { openRunContext } from './run-context.ts';
import { formatRunSummary } from './run-summary.ts';
import { listenForStop } from './stop-signal.ts';

type SyncChoices = Omit<RunSyncOptions, 'config' | 'client' | 'destination' | 'stateStore' | 'logger' | 'counters'>;

export async function executeSync(argv: { config?: string }, choices: SyncChoices): Promise<number> {
  // A stop ends the request in flight and every wait at once; the pages already read are
  // committed with their state, the run row says `stopped`, the lock is released.
  const stop = listenForStop(
    (signal) => `stopped by ${signal}: every page read before it is saved, and the next run resumes from there`,
  );
  const context = await openRunContext(argv, { signal: stop.signal }).catch((error: unknown) => {
    stop.dispose();
    throw error;
  });
  const onStop = () =>
    context.logger.warn('stop requested: committing the pages already read, then exiting', {
      reason: (stop.signal.reason as Error).message,
    });
  stop.signal.addEventListener('abort', onStop, { once: true });
  const counters = new RunCounters();
  const stopProgress = startProgressDisplay(counters, context.client.stats);
  try {
    const summary = await runSync({ ...context, ...choices, counters, signal: stop.signal });
    stopProgress();
    process.stdout.write(`${redact(formatRunSummary(summary, context.client.stats, context.destination.type))}\n`);
    context.logger.info('run finished', {
      run_id: summary.runId,
      status: summary.status,
      rows: counters.rows,
      rejected: counters.rejected,
      failed_websites: counters.failedWebsites.length,
      requests: context.client.stats.requests,
    });
    return summary.exitCode;
  } finally {
    stop.dispose();
    stopProgress();
    await context.close();
  }
}
