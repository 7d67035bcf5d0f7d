/** Shared by `sync` and `backfill`: open, run with progress, summarise, close. */
import { AivisError } from '../errors.ts';
import { redact } from '../log/redact.ts';
import { RunCounters } from '../sync/run-counters.ts';
import { runSync, type RunSyncOptions } from '../sync/run-sync.ts';
import { startProgressDisplay } from './progress-display.ts';
import { openRunContext } from './run-context.ts';
import { formatRunSummary } from './run-summary.ts';

type SyncChoices = Omit<RunSyncOptions, 'config' | 'client' | 'destination' | 'stateStore' | 'logger' | 'counters'>;

export async function executeSync(argv: { config?: string }, choices: SyncChoices): Promise<number> {
  const context = await openRunContext(argv);
  const counters = new RunCounters();
  const stopProgress = startProgressDisplay(counters, context.client.stats);
  // SIGTERM (Kubernetes, Airflow) and Ctrl-C stop the run between pages instead of mid-write.
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    context.logger.warn(`${signal} received: stopping after the current page; what was read is saved`);
    stop.abort(new AivisError(`stopped by ${signal}: every page read before it is saved, and the next run resumes from there`));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    const summary = await runSync({ ...context, ...choices, counters, signal: stop.signal });
    stopProgress();
    process.stdout.write(redact(formatRunSummary(summary, context.client.stats, context.destination.type)) + '\n');
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
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    stopProgress();
    await context.close();
  }
}
